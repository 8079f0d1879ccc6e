/**
 * `npm run build:load`: bundles each k6 entry load/<name>.ts into dist/load/<name>.js for k6 v0.47+ (docs/load.md, "The k6 runtime"), with ajv standalone
 * validators generated from schemas/ (k6 compiles no schema), then proves the bundles fit that runtime: esbuild's metafile shows k6 imports only and no
 * ajv-formats (checkMetafile), and each bundle is scanned for what k6 v0.47 lacks or cannot load (scanBundle).
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type BuildOptions, build, type Metafile, type Plugin } from 'esbuild';
import ts from 'typescript';
import { standaloneValidatorsSource } from '../../schemas/index.ts';
import { refuseArguments, runMain, usage } from '../../common/flags.ts';
import { ROOT } from '../../common/root.ts';

/** Identifiers a bundle must not use: not defined in k6 v0.47 (docs/load.md, "The k6 runtime"), or Node-only. */
export const FORBIDDEN_GLOBALS = [
  ...['URL', 'URLSearchParams', 'setTimeout', 'setInterval', 'setImmediate', 'queueMicrotask', 'TextEncoder', 'TextDecoder', 'structuredClone', 'crypto'],
  ...['Buffer', 'process', 'fetch', 'require', 'global'],
];

export type LoadBuild = Awaited<ReturnType<typeof buildLoad>>;

/** The error of bundles that do not fit k6 v0.47, listing every problem. */
const unfit = (problems: readonly string[]): Error => new Error(`the k6 bundles are not fit for k6 v0.47:\n${problems.map((p) => `  - ${p}`).join('\n')}`);

/** The entry scripts: load/<name>.ts, one dot only: neither tests (`x.test.ts`) nor declarations (`x.d.ts`). */
export function loadEntries(root: string): string[] {
  return readdirSync(path.join(root, 'load'))
    .flatMap((file) => /^([a-z0-9][a-z0-9-]*)\.ts$/.exec(file)?.[1] ?? [])
    .sort();
}

/** Serves the generated validators as `generated:validators` (declared in load/types/validators.d.ts), resolving its ajv runtime imports from the project. */
function validatorsPlugin(source: string, root: string): Plugin {
  return {
    name: 'lp-generated-validators',
    setup(b) {
      b.onResolve({ filter: /^generated:validators$/ }, () => ({ path: 'validators.js', namespace: 'lp-generated' }));
      b.onLoad({ filter: /.*/, namespace: 'lp-generated' }, () => ({ contents: source, loader: 'js', resolveDir: root }));
    },
  };
}

export function esbuildOptions(root: string, entries: readonly string[], outdir: string, validators: string): BuildOptions & { metafile: true } {
  return {
    entryPoints: entries.map((name) => ({ in: path.join(root, 'load', `${name}.ts`), out: name })),
    outdir,
    // k6 resolves no packages: load/lib, contracts/ and the validators with their ajv runtime are inlined.
    bundle: true,
    // k6 v0.47 hands ES modules to Babel, 4-5 s of CPU per VU at start; CommonJS it runs as it is.
    format: 'cjs',
    // Neither Node built-ins nor browser globals; the ajv runtime's fast-deep-equal and fast-uri are found by `main`.
    platform: 'neutral',
    mainFields: ['module', 'main'],
    // What goja handles; esbuild lowers anything newer (object spread, class fields, `?.`).
    target: 'es2017',
    external: ['k6', 'k6/*', 'https://jslib.k6.io/*'],
    // k6 reports errors by bundle line: readable bundles, with source maps back to the .ts files.
    sourcemap: true,
    metafile: true,
    // Non-ASCII characters in strings become \uXXXX escapes (never \u{...}).
    charset: 'ascii',
    tsconfig: path.join(root, 'load', 'tsconfig.json'),
    plugins: [validatorsPlugin(validators, root)],
    // Errors are thrown by buildLoad, not printed twice.
    logLevel: 'silent',
  };
}

/** Problems of a metafile: a bundle importing anything but `k6` modules, or pulling ajv-formats in. */
export function checkMetafile(metafile: Metafile): string[] {
  const problems: string[] = [];
  for (const [output, info] of Object.entries(metafile.outputs)) {
    if (output.endsWith('.map')) continue;
    for (const imported of info.imports.filter((i) => !i.external || !(i.path === 'k6' || i.path.startsWith('k6/'))))
      problems.push(`${output} imports ${imported.path}${imported.external ? '' : ' (not bundled)'}: only k6 modules may stay imports`);
    for (const input of Object.keys(info.inputs).filter((file) => /(^|\/)node_modules\/ajv-formats\//.test(file)))
      problems.push(`${output} bundles ${input}: ajv-formats holds a \\u{...} regex that stops k6 v0.47 from loading the script`);
  }
  return problems;
}

/** Where a bundle uses FORBIDDEN_GLOBALS, `u`/`v` regex flags, `\u{...}` escapes or named groups; parsed, so comments, strings and `x.URL` never match. */
export function scanBundle(code: string, file = 'bundle.js') {
  const source = ts.createSourceFile(file, code, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const lines = code.split('\n');
  const forbidden = new Set<string>(FORBIDDEN_GLOBALS);
  const findings: { file: string; line: number; column: number; what: string; snippet: string }[] = [];
  const report = (node: ts.Node, what: string) => {
    const { line, character } = source.getLineAndCharacterOfPosition(node.getStart(source));
    const text = (lines[line] ?? '').trim();
    findings.push({ file, line: line + 1, column: character + 1, what, snippet: text.length > 120 ? `${text.slice(0, 117)}...` : text });
  };
  const checkPattern = (node: ts.Node, body: string, flags: string) => {
    if (/[uv]/.test(flags)) report(node, `regex flag ${flags.replace(/[^uv]/g, '')}`);
    if (body.includes('\\u{')) report(node, 'regex \\u{...} escape');
    // `(?<name>` is a named group; `(?<=` and `(?<!` are lookbehinds, which k6 handles. An escaped `\(` is no group.
    if (/(^|[^\\])\(\?<[^=!]/.test(body)) report(node, 'named capture group');
  };
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) && forbidden.has(node.text) && !isPropertyName(node) && !isK6Require(node)) report(node, node.text);
    if (ts.isPropertyAccessExpression(node) && forbidden.has(node.name.text) && ts.isIdentifier(node.expression)) {
      // globalThis.URL and friends reach the same missing global.
      if (['globalThis', 'self', 'window'].includes(node.expression.text)) report(node, `${node.expression.text}.${node.name.text}`);
    }
    if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
      const text = node.getText(source);
      const slash = text.lastIndexOf('/');
      checkPattern(node, text.slice(1, slash), text.slice(slash + 1));
    }
    if ((ts.isNewExpression(node) || ts.isCallExpression(node)) && ts.isIdentifier(node.expression) && node.expression.text === 'RegExp') {
      const [pattern, flags] = node.arguments ?? [];
      checkPattern(node, pattern && ts.isStringLiteralLike(pattern) ? pattern.text : '', flags && ts.isStringLiteralLike(flags) ? flags.text : '');
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return findings;
}

/** Whether an identifier is the `require` of `require("k6…")`, which k6 provides; any other `require` would look for a file. */
function isK6Require(node: ts.Identifier): boolean {
  const call = node.parent;
  if (node.text !== 'require' || !call || !ts.isCallExpression(call) || call.expression !== node || call.arguments.length !== 1) return false;
  const [name] = call.arguments;
  return name !== undefined && ts.isStringLiteral(name) && (name.text === 'k6' || name.text.startsWith('k6/'));
}

/** Whether an identifier is a property name (`a.URL`, `{ URL: 1 }`, `class { URL() {} }`), not a reference. */
function isPropertyName(node: ts.Identifier): boolean {
  const parent = node.parent as ts.Node | undefined;
  const named = parent && (ts.isPropertyAccessExpression(parent) || ts.isPropertyAssignment(parent) || ts.isClassElement(parent) || ts.isAccessor(parent));
  return named === true && (parent as { name?: ts.Node }).name === node;
}

/** Builds `entries` (default all) into `outdir` (default `<root>/dist/load`, emptied first) with meta.json and the validators; throws listing every problem. */
export async function buildLoad(options: { root?: string; outdir?: string; entries?: readonly string[] } = {}) {
  const root = options.root ?? ROOT;
  const outdir = options.outdir ?? path.join(root, 'dist', 'load');
  const entries = options.entries ?? loadEntries(root);
  if (entries.length === 0) throw unfit([`no entry scripts in ${path.join(root, 'load')}`]);
  // Stale bundles of renamed entries would otherwise linger next to the new ones.
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(path.join(outdir, 'generated'), { recursive: true });
  const validators = standaloneValidatorsSource();
  // Written for inspection.
  const validatorsFile = path.join(outdir, 'generated', 'validators.js');
  writeFileSync(validatorsFile, `// Generated by load/cli/build.ts from schemas/: do not edit.\n${validators}\n`);
  let metafile: Metafile;
  try {
    metafile = (await build(esbuildOptions(root, entries, outdir, validators))).metafile;
  } catch (error) {
    const errors = (error as { errors?: Array<{ text: string; location?: { file: string; line: number } | null }> }).errors;
    if (!errors) throw error;
    throw unfit(errors.map((e) => (e.location ? `${e.location.file}:${e.location.line}: ${e.text}` : e.text)));
  }
  writeFileSync(path.join(outdir, 'meta.json'), `${JSON.stringify(metafile, null, 2)}\n`);
  const problems = checkMetafile(metafile);
  const bundles = entries.map((name) => {
    const file = path.join(outdir, `${name}.js`);
    const code = readFileSync(file, 'utf8');
    problems.push(...scanBundle(code, path.relative(root, file)).map((f) => `${f.file}:${f.line}:${f.column} uses ${f.what}: ${f.snippet}`));
    return { name, file, bytes: Buffer.byteLength(code) };
  });
  if (problems.length > 0) throw unfit(problems);
  return { outdir, bundles, metafile, validatorsFile };
}

const USAGE = `Usage: npm run build:load

  (no argument)  bundles each k6 script load/<name>.ts into dist/load/<name>.js and checks that the
                 bundles fit k6 v0.47 (k6 imports only, no missing globals, no regexes it cannot load)
  --help, -h     this text

npm run load builds the bundles itself before each run.`;

async function main(args: readonly string[]): Promise<number> {
  const refused = refuseArguments('build:load', 'build:load', args, USAGE);
  if (refused) usage(refused);
  const built = await buildLoad({ root: ROOT });
  for (const bundle of built.bundles) console.log(`${path.relative(ROOT, bundle.file)}  ${(bundle.bytes / 1024).toFixed(1)} KiB`);
  const meta = path.relative(ROOT, path.join(built.outdir, 'meta.json'));
  console.log(`${meta}: imports checked (k6 modules only); bundles scanned for k6 v0.47 globals and regexes`);
  return 0;
}

// Imported (tests, load/cli/run.ts), this file only exports.
if (require.main === module) runMain(() => main(process.argv.slice(2)), 'build:load: ');
