/**
 * `npm run load -- <script>` as a user meets it, spawned with an environment of its own: no k6 on
 * PATH, LP_* set by the test (set to "" where a developer's .env must not leak in: dotenv never
 * overrides a variable that exists).
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { findK6, K6_INSTALL_URL } from './k6.ts';
import { ROOT, tsNodeArgs } from '../../common/root.ts';

const root = ROOT;
const nodeDir = path.dirname(process.execPath);
const SECRET = 'runner-test-secret';

const BASE_ENV: Record<string, string> = {
  PATH: nodeDir,
  HOME: process.env.HOME ?? tmpdir(),
  K6_BIN: '',
  LP_AUTH_URL: 'http://127.0.0.1:9',
  LP_BASE_URL: 'http://127.0.0.1:9',
  LP_ENVIRONMENT: '',
  LP_DATA_CENTER: '',
  LP_ORG_HOST: '',
  LP_CLIENT_ID: 'runner-test-client',
  LP_CLIENT_SECRET: SECRET,
  LP_ALLOW_PRODUCTION: '',
  LP_RATE: '',
};

function runLoad(args: string[], env: Record<string, string> = {}): { status: number | null; stderr: string; stdout: string } {
  const result = spawnSync(process.execPath, tsNodeArgs('load/cli/run.ts', args), {
    cwd: root,
    env: { ...BASE_ENV, ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: result.status, stderr: result.stderr, stdout: result.stdout };
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(() => {
  // The tests rely on k6 being absent from the node binary's directory, the only PATH they give.
  test.skip(existsSync(path.join(nodeDir, 'k6')), `k6 sits next to node in ${nodeDir}: the runner tests need a PATH without it`);
});

test('an unknown script: one sentence listing the scripts, exit 2', () => {
  const result = runLoad(['soak']);
  expect(result.status).toBe(2);
  expect(result.stderr.trim()).toBe(
    'load: "soak" is not a load script; the scripts are pagination, rate-limit, smoke, token-lifecycle (npm run load -- <script> [k6 args]). (npm run load -- --help)',
  );
  expect(runLoad([]).stderr).toMatch(/^load: No script was named; the scripts are pagination, rate-limit, smoke, token-lifecycle/);
});

test('a production target is refused unless LP_ALLOW_PRODUCTION=1', () => {
  const result = runLoad(['smoke'], { LP_AUTH_URL: 'https://degreed.com', LP_BASE_URL: 'https://api.degreed.com' });
  expect(result.status).toBe(1);
  expect(result.stderr.trim()).toBe(
    "load: The target https://api.degreed.com is production: every run spends the key's rate budget, which real integrations share there, so it is refused unless LP_ALLOW_PRODUCTION=1.",
  );
  expect(result.stderr).not.toContain(SECRET);
});

test('a missing variable is named', () => {
  const result = runLoad(['smoke'], { LP_CLIENT_ID: '' });
  expect(result.status).toBe(1);
  expect(result.stderr.trim()).toBe('load: LP_CLIENT_ID is not set: the client id of the API key.');
});

test('without k6 it says so, how to install it, and exits 1 (the bundles are built anyway)', () => {
  const result = runLoad(['smoke']);
  expect(result.status).toBe(1);
  expect(result.stderr).toContain('k6 is not on PATH and K6_BIN is not set');
  expect(result.stderr).toContain(K6_INSTALL_URL);
  expect(result.stderr).not.toContain(SECRET);
  expect(existsSync(path.join(root, 'dist', 'load', 'smoke.js'))).toBe(true);
});

test('k6 from K6_BIN runs the bundle with the environment (not -e flags) and its exit code is passed on', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'lp-fake-k6-'));
  try {
    const record = path.join(dir, 'record.txt');
    const fake = path.join(dir, 'k6');
    writeFileSync(fake, `#!/bin/sh\nprintf '%s\\n' "$@" > "${record}"\nprintf 'client=%s\\n' "$LP_CLIENT_ID" >> "${record}"\nexit 3\n`);
    chmodSync(fake, 0o755);
    const result = runLoad(['rate-limit', '--quiet'], { K6_BIN: fake, LP_RATE: '20/10s' });
    expect(result.status).toBe(3);
    const recorded = readFileSync(record, 'utf8').trim().split('\n');
    expect(recorded).toEqual(['run', '--include-system-env-vars', '--quiet', path.join('dist', 'load', 'rate-limit.js'), 'client=runner-test-client']);
    expect(recorded.join('\n')).not.toContain(SECRET);
    expect(existsSync(path.join(root, 'reports', 'load'))).toBe(true);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('findK6: K6_BIN must be an executable file; PATH is searched in order', () => {
  expect(findK6({ K6_BIN: '/nonexistent/k6' })).toEqual({ ok: false, error: 'K6_BIN is set to /nonexistent/k6, which is not an executable file' });
  expect(findK6({ PATH: nodeDir })).toEqual({ ok: false, error: 'k6 is not on PATH and K6_BIN is not set' });
});
