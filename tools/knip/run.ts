/**
 * `npm run knip` (part of `npm run lint`): the unused-code checker, configured by knip.json. It has an install of its own (tools/knip/package.json and its
 * lock), made here on first use and whenever the lock changes, so that the project's install carries only what its commands need and CI still checks every run
 * for unused files, exports, types and dependencies.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../../common/root.ts';

const HERE = path.join(ROOT, 'tools', 'knip');
const KNIP = path.join(HERE, 'node_modules', 'knip', 'bin', 'knip.js');

/** The knip version the lock names, and the one installed. */
const json = (file: string) =>
  (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {}) as { version?: string; packages?: Record<string, { version?: string }> };
const wanted = json(path.join(HERE, 'package-lock.json')).packages?.['node_modules/knip']?.version;
const installed = json(path.join(HERE, 'node_modules', 'knip', 'package.json')).version;

if (installed !== wanted) {
  console.log(`knip: installing knip ${wanted} into tools/knip/node_modules (npm ci, once)`);
  execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--silent'], { cwd: HERE, stdio: 'inherit' });
}
// knip prints what it finds; its exit code is the verdict.
process.exit(spawnSync(process.execPath, [KNIP, '--no-progress'], { cwd: ROOT, stdio: 'inherit' }).status ?? 1);
