/**
 * `npm run <script> -- --help` as a user meets it (`tsx <entry> --help`, from the repository root):
 * the usage on stdout and exit 0, before the script does anything, so even the long ones (test:faults,
 * bench, load, clients) run here only that far; and a refused flag's sentence that points at --help.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { ROOT } from './root.ts';

const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx');
const TIMEOUT_MS = 30_000;
const PACKAGE_SCRIPTS = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;

/**
 * Every npm script that runs a file of this project, with the short flags it answers: the mock refuses
 * `-h` (it could be `--host`).
 */
const SCRIPTS: ReadonlyArray<{ script: string; entry: string; flags: readonly string[] }> = [
  { script: 'test', entry: 'scripts/test-all.ts', flags: ['--help', '-h'] },
  { script: 'test:faults', entry: 'scripts/test-faults.ts', flags: ['--help', '-h'] },
  { script: 'load', entry: 'scripts/load.ts', flags: ['--help', '-h'] },
  { script: 'fuzz', entry: 'scripts/fuzz.ts', flags: ['--help', '-h'] },
  { script: 'soak', entry: 'scripts/soak.ts', flags: ['--help', '-h'] },
  { script: 'rules', entry: 'scripts/rules.ts', flags: ['--help', '-h'] },
  { script: 'openapi', entry: 'scripts/openapi.ts', flags: ['--help', '-h'] },
  { script: 'clients', entry: 'scripts/clients/run.ts', flags: ['--help', '-h'] },
  { script: 'docs', entry: 'scripts/docs.ts', flags: ['--help', '-h'] },
  { script: 'build:load', entry: 'scripts/build-load.ts', flags: ['--help', '-h'] },
  { script: 'build:mock', entry: 'scripts/build-mock.ts', flags: ['--help', '-h'] },
  { script: 'mock', entry: 'mock/cli.ts', flags: ['--help'] },
  { script: 'bench', entry: 'tools/bench/bench.ts', flags: ['--help', '-h'] },
  { script: 'profile', entry: 'scripts/profile.ts', flags: ['--help', '-h'] },
];

for (const { script, entry, flags } of SCRIPTS) {
  test(`npm run ${script} -- ${flags.join(' | ')}: the usage on stdout, exit 0`, () => {
    // The table runs what npm runs.
    expect(PACKAGE_SCRIPTS[script]).toBe(`tsx ${entry}`);
    for (const flag of flags) {
      // execFileSync throws on a non-zero exit, with the child's stderr in its message.
      const stdout = execFileSync(TSX, [entry, flag], { cwd: ROOT, encoding: 'utf8', timeout: TIMEOUT_MS });
      expect(stdout.startsWith(script === 'test' ? 'Usage: npm test' : `Usage: npm run ${script}`), `${flag}:\n${stdout}`).toBe(true);
    }
  });
}

test('an unknown flag: a sentence on stderr pointing at --help, exit 2', () => {
  for (const [script, entry] of [
    ['fuzz', 'scripts/fuzz.ts'],
    ['docs', 'scripts/docs.ts'],
    ['build:load', 'scripts/build-load.ts'],
    ['test', 'scripts/test-all.ts'],
  ] as const) {
    const run = spawnSync(TSX, [entry, '--bogus'], { cwd: ROOT, encoding: 'utf8', timeout: TIMEOUT_MS });
    expect(run.status, run.stderr).toBe(2);
    expect(run.stderr).toContain(`(npm run ${script} -- --help)`);
  }
});
