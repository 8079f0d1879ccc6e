/** `tsx mock/faults/cli.ts --fault <name> [mock flags]`: the mock CLI with faults, as the matrix and the load tests start it. */
import { spawn } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { ROOT, tsNodeArgs } from '../../../common/root.ts';

// Each test starts a CLI process: one at a time keeps the machine free for the other workers.
test.describe.configure({ mode: 'serial' });

/** Runs the CLI to its exit. */
function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, tsNodeArgs('mock/faults/cli.ts', args), { cwd: ROOT, env: { ...process.env, NODE_OPTIONS: '' } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

test('--fault switches a fault on; the line names the profile', async () => {
  let statuses: number[];
  let profile: string;
  const child = spawn(process.execPath, tsNodeArgs('mock/faults/cli.ts', ['--fault', 'bearer-not-checked', '--profile', 'platform']), {
    cwd: ROOT,
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
  const line = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk;
      if (out.includes('\n')) resolve(out.slice(0, out.indexOf('\n')));
    });
    child.on('exit', (code) => reject(new Error(`exited with ${code}`)));
  });
  try {
    const urls = JSON.parse(line);
    profile = urls.profile;
    statuses = [(await fetch(`${urls.baseUrl}/api/v2/content?limit=1`)).status];
  } finally {
    child.kill('SIGTERM');
  }
  expect(await closed).toBe(0);
  expect(profile).toBe('platform');
  expect(statuses).toEqual([200]);
});

test('an unknown fault: exit 2 with one sentence', async () => {
  const result = await run(['--fault', 'nope']);
  expect(result.code).toBe(2);
  expect(result.stdout).toBe('');
  expect(result.stderr.trimEnd()).toBe('--fault "nope" is not a known fault (the names are in mock/faults/catalogue.ts).');
});
