/**
 * `npm run knip` (part of `npm run lint`): the unused-code checker, configured by knip.json. It has an
 * install of its own (tools/knip/package.json and its lock), made here on first use and whenever the
 * lock changes, so that the project's install carries only what its commands need and CI still checks
 * every run for unused files, exports, types and dependencies.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../../harness/root.ts';

const HERE = path.join(ROOT, 'tools', 'knip');
const KNIP = path.join(HERE, 'node_modules', 'knip', 'bin', 'knip.js');

const wanted = (JSON.parse(readFileSync(path.join(HERE, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version?: string }> }).packages[
  'node_modules/knip'
]?.version;
const installedFile = path.join(HERE, 'node_modules', 'knip', 'package.json');
const installed = existsSync(installedFile) ? (JSON.parse(readFileSync(installedFile, 'utf8')) as { version: string }).version : undefined;

if (installed !== wanted) {
  console.log(`knip: installing knip ${wanted} into tools/knip/node_modules (npm ci, once)`);
  execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--silent'], { cwd: HERE, stdio: 'inherit' });
}
try {
  execFileSync(process.execPath, [KNIP, '--no-progress'], { cwd: ROOT, stdio: 'inherit' });
} catch {
  // knip printed what it found; its exit code is the verdict.
  process.exit(1);
}
