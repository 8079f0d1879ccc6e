/**
 * `npm run <script> -- --help` as a user meets it (`tsx <entry> --help`, from the repository root):
 * the usage on stdout and exit 0, before the script does anything, so even the long ones (test:faults,
 * bench, load, clients) run here only that far; and a refused flag's sentence that points at --help.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { ROOT } from '../common/root.ts';
import { pooled } from '../mock/test/mock-process.ts';

const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx');
/**
 * Each child's limit, only against a hang: a TypeScript start is a second or two of CPU, and the children run a few at
 * a time (as many as cores), so that on a machine busy with other runs none waits behind all the others.
 */
const TIMEOUT_MS = 120_000;
const AT_ONCE = Math.max(2, availableParallelism());
const PACKAGE_SCRIPTS = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;

/**
 * Every npm script that runs a file of this project, with the short flags it answers: the mock refuses
 * `-h` (it could be `--host`). Every script reads both through one function (answerHelp), so `-h` is
 * asked of one script only: each child costs a second of a TypeScript start.
 */
const SCRIPTS: ReadonlyArray<{ script: string; entry: string; flags: readonly string[] }> = [
  { script: 'test', entry: 'tools/test-all.ts', flags: ['--help', '-h'] },
  { script: 'test:faults', entry: 'tools/fault-matrix/cli.ts', flags: ['--help'] },
  { script: 'load', entry: 'load/cli/run.ts', flags: ['--help'] },
  { script: 'fuzz', entry: 'tools/fuzz.ts', flags: ['--help'] },
  { script: 'soak', entry: 'tools/soak.ts', flags: ['--help'] },
  { script: 'rules', entry: 'harness/report/rules-cli.ts', flags: ['--help'] },
  { script: 'openapi', entry: 'mock/openapi-cli.ts', flags: ['--help'] },
  { script: 'clients', entry: 'tools/clients/run.ts', flags: ['--help'] },
  { script: 'docs', entry: 'tools/docs/cli.ts', flags: ['--help'] },
  { script: 'build:load', entry: 'load/cli/build.ts', flags: ['--help'] },
  { script: 'build:mock', entry: 'mock/build.ts', flags: ['--help'] },
  { script: 'build:suite', entry: 'harness/package/build.ts', flags: ['--help'] },
  { script: 'mock', entry: 'mock/cli.ts', flags: ['--help'] },
  { script: 'bench', entry: 'tools/bench/bench.ts', flags: ['--help'] },
  { script: 'profile', entry: 'harness/profile/cli.ts', flags: ['--help'] },
];

interface Run {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `tsx <entry> <flag>` as npm would; the children run side by side. */
function run(entry: string, flag: string): Promise<Run> {
  return new Promise((resolve) => {
    execFile(TSX, [entry, flag], { cwd: ROOT, encoding: 'utf8', timeout: TIMEOUT_MS }, (error, stdout, stderr) =>
      resolve({ status: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr }),
    );
  });
}

const REFUSED = [
  ['fuzz', 'tools/fuzz.ts'],
  ['docs', 'tools/docs/cli.ts'],
  ['build:load', 'load/cli/build.ts'],
  ['test', 'tools/test-all.ts'],
] as const;
const runs = new Map<string, Run>();

test.beforeAll(async () => {
  test.setTimeout(TIMEOUT_MS * 3);
  const asked = [
    ...SCRIPTS.flatMap(({ entry, flags }) => flags.map((flag) => [entry, flag] as const)),
    ...REFUSED.map(([, entry]) => [entry, '--bogus'] as const),
  ];
  const tasks = asked.map(([entry, flag]) => run.bind(undefined, entry, flag));
  const done = await pooled(tasks, AT_ONCE);
  asked.forEach(([entry, flag], i) => runs.set(`${entry} ${flag}`, done[i] as Run));
});

for (const { script, entry, flags } of SCRIPTS) {
  test(`npm run ${script} -- ${flags.join(' | ')}: the usage on stdout, exit 0`, () => {
    // The table runs what npm runs.
    expect(PACKAGE_SCRIPTS[script]).toBe(`tsx ${entry}`);
    for (const flag of flags) {
      const { status, stdout, stderr } = runs.get(`${entry} ${flag}`) as Run;
      expect(status, `${flag}: ${stderr}`).toBe(0);
      expect(stdout.startsWith(script === 'test' ? 'Usage: npm test' : `Usage: npm run ${script}`), `${flag}:\n${stdout}`).toBe(true);
    }
  });
}

test('an unknown flag: a sentence on stderr pointing at --help, exit 2', () => {
  for (const [script, entry] of REFUSED) {
    const { status, stderr } = runs.get(`${entry} --bogus`) as Run;
    expect(status, stderr).toBe(2);
    expect(stderr).toContain(`(npm run ${script} -- --help)`);
  }
});
