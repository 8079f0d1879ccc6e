/**
 * `npm run build:suite`: the contract suite as an installable package in dist/suite/, `lp-contract` (harness/package/README.md). Playwright compiles no
 * TypeScript under node_modules, so the package carries the suite compiled to JavaScript file by file, in the tree's own layout: the config, every spec of
 * specs/ as the tree has it at build time and every module they reach (found by esbuild, not listed here), the rules and profile commands and
 * harness/package/cli.ts, the `lp-contract` command. The k6 bundles ship built in k6/. Its dependencies are the packages that code imports, at the project's
 * ranges: no development tool.
 */
import { chmodSync, copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build, type Plugin } from 'esbuild';
import { buildLoad } from '../../load/cli/build.ts';
import { refuseArguments, runMain, usage } from '../../common/flags.ts';
import { ROOT } from '../../common/root.ts';
import { startPackage, writePackageFiles } from '../../common/package-files.ts';

const PACKAGE_NAME = 'lp-contract';
/** The command's module, the package's bin. */
const BIN_FILE = 'harness/package/cli.js';
/** Never a dependency of the package: what only develops the project. */
const DEVELOPMENT_TOOLS = /^(typescript|eslint|prettier|tsx|knip|esbuild|@types\/.*|typescript-eslint|@eslint\/.*)$/;

/** The modules the package runs: loaded by path (the config's globalSetup and reporter) or run as commands. */
function entryFiles(root: string): string[] {
  const specs = readdirSync(path.join(root, 'specs')).filter((file) => file.endsWith('.spec.ts'));
  return [
    'playwright.config.ts',
    'harness/preflight/global-setup.ts',
    'harness/report/summary-reporter.ts',
    'harness/report/rules-cli.ts',
    'harness/profile/cli.ts',
    'harness/package/cli.ts',
    ...specs.map((file) => `specs/${file}`),
  ];
}

/** Every import left as it is, a relative one renamed `.ts` → `.js`: each module is compiled alone, beside the others. */
const eachFileAlone: Plugin = {
  name: 'lp-contract-each-file-alone',
  setup(b) {
    b.onResolve({ filter: /.*/ }, (args) => {
      if (args.kind === 'entry-point') return undefined;
      return { path: args.path.startsWith('.') ? args.path.replace(/\.ts$/, '.js') : args.path, external: true };
    });
  },
};

/** The package's name for an import (`ajv/dist/2020` → `ajv`, `@playwright/test/reporter` → `@playwright/test`). */
function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
}

/** Builds the package into `outdir` (default dist/suite, emptied first) from the project at `root`. */
export async function buildSuite({ root = ROOT, outdir = path.join(root, 'dist', 'suite') } = {}) {
  const rootPackage = startPackage(root, outdir);
  // The module graph: every file the entries reach, and the packages they import.
  const { metafile } = await build({
    entryPoints: entryFiles(root),
    absWorkingDir: root,
    bundle: true,
    write: false,
    outdir,
    platform: 'node',
    packages: 'external',
    metafile: true,
    logLevel: 'silent',
  });
  const sources = Object.keys(metafile.inputs).sort();
  const packages = new Set<string>();
  for (const input of Object.values(metafile.inputs))
    for (const imported of input.imports) if (imported.external && !imported.path.startsWith('node:')) packages.add(packageOf(imported.path));
  const dependencies: Record<string, string> = {};
  const problems: string[] = [];
  for (const name of [...packages].sort()) {
    const range = rootPackage.devDependencies[name];
    if (range === undefined) problems.push(`${name} is imported but is not a dependency of the project`);
    else if (DEVELOPMENT_TOOLS.test(name)) problems.push(`${name} is imported by the suite's run time: a development tool would ship`);
    else dependencies[name] = range;
  }
  if (problems.length > 0) throw new Error(`the suite package is not fit to ship:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  await build({
    entryPoints: sources.filter((file) => file.endsWith('.ts')),
    absWorkingDir: root,
    outbase: root,
    outdir,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    // The usage texts and refusals name the installed command (common/flags.ts commandName).
    define: { 'process.env.LP_SUITE_COMMAND': JSON.stringify(PACKAGE_NAME) },
    tsconfig: path.join(root, 'tsconfig.json'),
    plugins: [eachFileAlone],
    logLevel: 'silent',
  });
  for (const file of sources.filter((f) => !f.endsWith('.ts'))) {
    mkdirSync(path.dirname(path.join(outdir, file)), { recursive: true });
    copyFileSync(path.join(root, file), path.join(outdir, file));
  }
  const bin = path.join(outdir, BIN_FILE);
  writeFileSync(bin, `#!/usr/bin/env node\n${readFileSync(bin, 'utf8')}`);
  chmodSync(bin, 0o755);
  // The k6 scripts, bundled and checked for k6 v0.47 as npm run load builds them; the metafile and the validators' copy kept for inspection stay out.
  const k6 = await buildLoad({ root, outdir: path.join(outdir, 'k6') });
  rmSync(path.join(k6.outdir, 'meta.json'));
  rmSync(path.join(k6.outdir, 'generated'), { recursive: true });
  const manifest = {
    name: PACKAGE_NAME,
    version: rootPackage.version,
    description: 'Contract suite of the Learning Platform API: its rules checked against a service or a mock, JUnit and HTML reports, k6 load scripts.',
    license: rootPackage.license,
    bin: { [PACKAGE_NAME]: BIN_FILE },
    engines: { node: '>=20' },
    dependencies,
    keywords: ['contract-testing', 'api-testing', 'playwright', 'k6', 'learning-platform'],
  };
  const licence = `lp-contract is released under the ${rootPackage.license} licence.\n`;
  writePackageFiles(outdir, manifest, path.join(root, 'harness', 'package', 'README.md'), licence);
  return { outdir, files: sources.length, dependencies, bytes: folderBytes(outdir), version: rootPackage.version };
}

function folderBytes(dir: string): number {
  const stats = readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((file) => statSync(path.join(dir, file)));
  return stats.reduce((sum, stat) => sum + (stat.isFile() ? stat.size : 0), 0);
}

const USAGE = `Usage: npm run build:suite

  (no argument)  the contract suite as an installable package in dist/suite/ (npm pack it, or build
                 harness/package/Dockerfile with dist/suite as the context)
  --help, -h     this text`;

async function main(args: readonly string[]): Promise<number> {
  const refused = refuseArguments('build:suite', 'build:suite', args, USAGE);
  if (refused) usage(refused);
  const built = await buildSuite();
  console.log(
    `${path.relative(ROOT, built.outdir)}: ${built.files} files, ${(built.bytes / 1024).toFixed(0)} KiB (${PACKAGE_NAME}@${built.version}; depends on ${Object.keys(built.dependencies).join(', ')})`,
  );
  console.log(
    `pack it: cd ${path.relative(ROOT, built.outdir)} && npm pack   |   container: docker build -f harness/package/Dockerfile -t lp-contract dist/suite`,
  );
  return 0;
}

if (require.main === module) runMain(() => main(process.argv.slice(2)), 'build:suite: ');
