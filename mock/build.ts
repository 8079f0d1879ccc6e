/**
 * `npm run build:mock`: the mock as an installable package in dist/mock/ (docs/sdk.md) for SDK developers who are not Node developers: package.json (bin
 * lp-mock, no dependencies), bin/lp-mock.js (mock/cli.ts bundled by esbuild into one CommonJS file, JSON inlined, the schema validators as ajv standalone code
 * made here: compiling them was half the start time), mock/package/README.md, and a LICENSE with each bundled package's notice. `npm pack` of it installs
 * offline; mock/Dockerfile copies it into a Node image. Deterministic: no dates, no absolute paths, the same bytes for the same sources.
 */
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { build, type Metafile, type Plugin } from 'esbuild';
import { mockValidatorsSource } from '../schemas/standalone.ts';
import { refuseArguments, runMain, usage } from '../common/flags.ts';
import { ROOT } from '../common/root.ts';
import { startPackage, writePackageFiles } from '../common/package-files.ts';

export const PACKAGE_NAME = 'lp-mock';
export const BIN_NAME = 'lp-mock';
/** Where the bundle goes inside the package (package.json `bin`). */
export const BIN_FILE = 'bin/lp-mock.js';

export type MockBuild = Awaited<ReturnType<typeof buildMock>>;

/** The package's manifest: nothing at run time but Node itself. */
function packageManifest(version: string, license: string): Record<string, unknown> {
  return {
    name: PACKAGE_NAME,
    version,
    description:
      'Reference mock of the Learning Platform API for SDK developers: both origins, OAuth2 tokens, snapshot pagination, rate limits, a control plane.',
    license,
    bin: { [BIN_NAME]: BIN_FILE },
    files: ['bin/', 'README.md', 'LICENSE'],
    engines: { node: '>=20' },
    keywords: ['mock', 'learning-platform', 'openapi', 'sdk-testing'],
  };
}

/** Imports of the bundle Node does not provide: the package declares no dependencies, so a bare import would fail on the user's machine, not here. */
function checkMockMetafile(metafile: Metafile): string[] {
  const problems: string[] = [];
  for (const [output, info] of Object.entries(metafile.outputs)) {
    for (const imported of info.imports)
      if (imported.external && !imported.path.startsWith('node:')) problems.push(`${output} imports ${imported.path}: the package has no dependencies`);
    for (const input of Object.keys(info.inputs)) {
      // The mock never runs TypeScript at run time: a loader in the bundle means an import went wrong.
      if (/(^|\/)node_modules\/(tsx|typescript|esbuild)\//.test(input)) problems.push(`${output} bundles ${input}: a build tool got into the run time`);
    }
  }
  return problems;
}

/** The packages of node_modules whose code is in the bundle (`ajv`, `@scope/name`), sorted. */
function bundledPackages(metafile: Metafile): string[] {
  const names = Object.keys(metafile.inputs).map((input) => /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input)?.[1]);
  return [...new Set(names.filter((name) => name !== undefined))].sort();
}

/** The package's LICENSE: the project's licence and the notice of each bundled package (their licences ask for it to travel with the code). */
function licenseText(root: string, license: string, packages: readonly string[]): string {
  const parts = [`lp-mock is released under the ${license} licence (the Learning Platform API contract suite).`, '', 'It bundles the following packages:'];
  for (const name of packages) {
    const dir = path.join(root, 'node_modules', name);
    const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string; license?: string };
    const file = readdirSync(dir).find((f) => /^licen[cs]e(\.|$)/i.test(f));
    parts.push('', `--- ${name}@${manifest.version} (${manifest.license ?? 'see its licence'}) ---`);
    if (file !== undefined) parts.push(readFileSync(path.join(dir, file), 'utf8').trim());
  }
  return `${parts.join('\n')}\n`;
}

/** The file whose place the generated validators take: the only module of the bundle that compiles schemas. */
const COMPILED_VALIDATORS = path.join('schemas', 'validators.ts');

/** schemas/validators.ts as ajv standalone code of the same schemas and exports: the package starts without compiling a schema, judging as the compiled do. */
function standaloneValidatorsPlugin(root: string): Plugin {
  const schemasDir = path.join(root, 'schemas');
  return {
    name: 'lp-mock-standalone-validators',
    setup(b) {
      b.onResolve({ filter: /(^|\/)validators\.ts$/ }, (args) => {
        // A relative path: esbuild names the module by it in the bundle, which carries no path of the build machine.
        const resolved = path.relative(root, path.resolve(args.resolveDir, args.path));
        return resolved === COMPILED_VALIDATORS ? { path: resolved, namespace: 'lp-standalone' } : undefined;
      });
      b.onLoad({ filter: /.*/, namespace: 'lp-standalone' }, () => ({ contents: mockValidatorsSource(), loader: 'js', resolveDir: schemasDir }));
    },
  };
}

/** Builds the package into `outdir` (default dist/mock, emptied first) from the project at `root`; `bin` is the bundle's absolute path. */
export async function buildMock({ root = ROOT, outdir = path.join(root, 'dist', 'mock') }: { root?: string; outdir?: string } = {}) {
  const rootPackage = startPackage(root, outdir);
  mkdirSync(path.join(outdir, 'bin'), { recursive: true });
  const bin = path.join(outdir, BIN_FILE);
  // esbuild's own error names each problem's file and line.
  const { metafile } = await build({
    entryPoints: [path.join(root, 'mock', 'cli.ts')],
    outfile: bin,
    bundle: true,
    platform: 'node',
    target: 'node20',
    // CommonJS: mock/cli.ts starts itself when `require.main === module`, which holds for the bundle run as a program.
    format: 'cjs',
    banner: { js: '#!/usr/bin/env node' },
    // The usage text names the command the package installs (mock/cli.ts).
    define: { 'process.env.LP_MOCK_COMMAND': JSON.stringify(BIN_NAME) },
    // Readable: an SDK developer who hits a stack trace can read where; the bundle stays near a megabyte, two thirds of it the certificate library of --tls,
    // which mock/cli.ts loads only then (esbuild keeps a module imported with import() unevaluated until that import runs).
    minify: false,
    // No absolute paths in the output: the comments that name each source file are relative to the root.
    absWorkingDir: root,
    legalComments: 'inline',
    metafile: true,
    tsconfig: path.join(root, 'tsconfig.json'),
    plugins: [standaloneValidatorsPlugin(root)],
    logLevel: 'silent',
  });
  const problems = checkMockMetafile(metafile);
  if (problems.length > 0) throw new Error(`the mock package is not fit to ship:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  chmodSync(bin, 0o755);
  writePackageFiles(
    outdir,
    packageManifest(rootPackage.version, rootPackage.license),
    path.join(root, 'mock', 'package', 'README.md'),
    licenseText(root, rootPackage.license, bundledPackages(metafile)),
  );
  return { outdir, bin, bytes: statSync(bin).size, version: rootPackage.version };
}

const USAGE = `Usage: npm run build:mock

  (no argument)  bundles the mock into an installable package in dist/mock/ (npm pack it, or build
                 mock/Dockerfile with dist/mock as the context)
  --help, -h     this text`;

async function main(args: readonly string[]): Promise<number> {
  const refused = refuseArguments('build:mock', 'build:mock', args, USAGE);
  if (refused) usage(refused);
  // What it throws is printed after `build:mock: ` by runMain, exit code 1.
  const built = await buildMock();
  console.log(`${path.relative(ROOT, built.bin)}  ${(built.bytes / 1024).toFixed(1)} KiB  (${PACKAGE_NAME}@${built.version})`);
  console.log(`pack it: cd ${path.relative(ROOT, built.outdir)} && npm pack   |   container: docker build -f mock/Dockerfile -t lp-mock dist/mock`);
  return 0;
}

// Imported (tests), this file only exports.
if (require.main === module) runMain(() => main(process.argv.slice(2)), 'build:mock: ');
