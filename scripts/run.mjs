#!/usr/bin/env node
// Runs a TypeScript entry file: `node scripts/run.mjs mock/cli.ts --flags`.
// Node 20 cannot strip types, and a loader package would be one more dependency: esbuild (already here
// for the k6 bundles) bundles the entry with our own modules inlined and packages left external, into
// node_modules/.cache, in ~50 ms. CommonJS output, because several packages (ajv) are CommonJS with
// deep imports that Node's ESM resolver refuses without extensions.
import { renameSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const [entry, ...args] = process.argv.slice(2);
if (!entry) {
  console.error('usage: node scripts/run.mjs <entry.ts> [args...]');
  process.exit(2);
}
const entryPath = path.resolve(entry);
const outfile = path.join(root, 'node_modules', '.cache', 'lp-run', `${path.relative(root, entryPath).replace(/[\\/]/g, '__')}.cjs`);
// Each run builds into a file of its own and renames it into place: two processes starting the same
// entry at once (parallel test workers) must not read each other's half-written output.
const tmpfile = `${outfile}.${process.pid}.${Date.now()}.tmp.cjs`;
await build({
  entryPoints: [entryPath],
  outfile: tmpfile,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  packages: 'external', // resolved from node_modules at run time, as usual
  sourcemap: 'inline', // stack traces point at the .ts lines
  logLevel: 'error',
});
renameSync(tmpfile, outfile);
process.setSourceMapsEnabled(true);
process.argv = [process.argv[0] ?? 'node', entryPath, ...args];
createRequire(import.meta.url)(outfile);
