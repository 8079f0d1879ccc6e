/**
 * The preflight as a QA engineer meets it: the mock started by its real CLI, the real command
 * (`playwright test --project=contract`, what `npm run contract` runs) in a working directory of its
 * own (no .env there, no report of this run overwritten), and what reached the mock counted from its
 * request log, the tokens left valid from its stats. Each wrong setting must end the run in seconds,
 * non-zero, with one sentence naming the setting, at most 3 requests and no token left valid.
 */
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { type AddressInfo, createServer as createTcpServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { runPlaywright } from '../self-check/child-run.ts';
import { type MockProcess, startMockProcess } from '../../mock/test/mock-process.ts';

/** Each row must end within this (measured at 4 to 6 s on a busy two-core machine). */
const ROW_LIMIT_MS = 15_000;

let mock: MockProcess;
let closedPort: number;

test.beforeAll(async () => {
  mock = await startMockProcess(['--log']);
  // A port nothing listens on: bound, then released (port 1 would be refused by fetch itself).
  const probe = createTcpServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  closedPort = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
});

test.afterAll(async () => {
  await mock.stop();
});

/** Requests of the API document the mock answered (its control plane, used by this test, left out). */
function targetRequests(): number {
  return mock.requestLog().filter((line) => !line.includes(' /_mock')).length;
}

async function validTokens(): Promise<number> {
  const stats = (await (await fetch(`${mock.controlUrl}/stats`)).json()) as { validAccessTokens: number; validRefreshTokens: number };
  return stats.validAccessTokens + stats.validRefreshTokens;
}

function remote(env: Record<string, string> = {}): Record<string, string> {
  return {
    LP_TARGET: 'remote',
    LP_AUTH_URL: mock.authUrl,
    LP_BASE_URL: mock.baseUrl,
    LP_CLIENT_ID: 'mock-org-client',
    LP_CLIENT_SECRET: 'mock-org-secret',
    ...env,
  };
}

/** The contract run of one quick test (it never starts when the preflight fails). */
async function contractRun(env: Record<string, string>, grep = 'a missing grant_type', extra: readonly string[] = []) {
  const before = targetRequests();
  const started = Date.now();
  const run = await runPlaywright({
    config: 'playwright.config.ts',
    cwd: mkdtempSync(path.join(tmpdir(), 'lp-preflight-')),
    env,
    args: ['--project=contract', '--no-deps', 'specs/token.spec.ts', '--grep', grep, ...extra],
    timeoutMs: 60_000,
  });
  return { ...run, ms: Date.now() - started, requests: targetRequests() - before, valid: await validTokens() };
}

const ROWS: { name: string; env: () => Record<string, string>; setting: RegExp; maxRequests: number }[] = [
  {
    name: 'remote settings without LP_TARGET',
    env: () => {
      const { LP_TARGET: _target, ...rest } = remote();
      return rest;
    },
    setting: /LP_TARGET is not set but .* set LP_TARGET=remote to test it, or LP_TARGET=mock/,
    maxRequests: 0,
  },
  {
    name: 'a wrong client secret',
    env: () => remote({ LP_CLIENT_SECRET: 'not-the-secret' }),
    setting: /LP_CLIENT_ID or LP_CLIENT_SECRET: .*refused the key/,
    maxRequests: 2,
  },
  {
    name: 'an unknown client',
    env: () => remote({ LP_CLIENT_ID: 'no-such-client' }),
    setting: /LP_CLIENT_ID or LP_CLIENT_SECRET: .*no-such-client/,
    maxRequests: 2,
  },
  {
    name: 'an unreachable auth URL',
    env: () => remote({ LP_AUTH_URL: `http://127.0.0.1:${closedPort}` }),
    setting: /LP_AUTH_URL: .* did not answer/,
    maxRequests: 1,
  },
  {
    name: 'an unreachable base URL',
    env: () => remote({ LP_BASE_URL: `http://127.0.0.1:${closedPort}` }),
    setting: /LP_BASE_URL: .* did not answer .*no token was requested/,
    maxRequests: 0,
  },
  {
    name: 'a base URL with /api/v2 appended',
    env: () => remote({ LP_BASE_URL: `${mock.baseUrl}/api/v2` }),
    setting: /LP_BASE_URL ends with \/api\/v2, .*answered 404.*; set it to http:\/\/127\.0\.0\.1:\d+\./,
    maxRequests: 1,
  },
  {
    name: 'a scope the key does not hold in LP_SCOPES',
    env: () => remote({ LP_SCOPES: 'groups:read' }),
    setting: /LP_SCOPES: the token endpoint refused the scopes groups:read/,
    maxRequests: 2,
  },
];

test.describe('a wrong setting ends the run in seconds with one sentence naming it', () => {
  for (const row of ROWS) {
    test(row.name, async () => {
      const run = await contractRun(row.env());
      expect(run.code, run.log).not.toBe(0);
      expect(run.log).toMatch(row.setting);
      expect(run.log, 'the test never started').not.toMatch(/Running \d+ test/);
      expect(run.log, 'no stack under the sentence').not.toMatch(/^\s+at /m);
      expect(run.log).not.toContain('mock-org-secret');
      expect(run.requests, 'requests the target got').toBeLessThanOrEqual(row.maxRequests);
      expect(run.valid, 'tokens left valid on the target').toBe(0);
      expect(run.ms).toBeLessThan(ROW_LIMIT_MS);
    });
  }

  test('a production host without LP_ALLOW_PRODUCTION=1 is refused before anything is sent anywhere', async () => {
    // Every connection the run would open through a proxy lands here: none may.
    let connections = 0;
    const proxy: Server = createServer((_request, response) => response.end());
    proxy.on('connection', () => connections++);
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    try {
      const run = await contractRun({
        LP_TARGET: 'remote',
        LP_ENVIRONMENT: 'production',
        LP_DATA_CENTER: 'eu',
        LP_CLIENT_ID: 'prod-client',
        LP_CLIENT_SECRET: 'prod-secret-value',
        HTTPS_PROXY: proxyUrl,
        HTTP_PROXY: proxyUrl,
      });
      expect(run.code, run.log).not.toBe(0);
      expect(run.log).toMatch(/The target https:\/\/api\.eu\.degreed\.com is production: .*refused unless LP_ALLOW_PRODUCTION=1\./);
      expect(run.log).not.toMatch(/^target: /m);
      expect(run.requests).toBe(0);
      expect(connections, 'connections through the proxy').toBe(0);
      expect(run.ms).toBeLessThan(ROW_LIMIT_MS);
    } finally {
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    }
  });
});

test('a misspelt LP_ name gets a warning naming the closest setting, and the run goes on', async () => {
  // --list: the warning is printed as the config loads, and the run goes on to list its test.
  const run = await contractRun({ LP_QOUTA: '1' }, 'a missing grant_type', ['--list']);
  expect(run.code, run.log).toBe(0);
  expect(run.log.split('\n')[0]).toMatch(/^target: embedded mock \(profile strict, /);
  expect(run.log).toContain('warning: LP_QOUTA is not a setting of this suite; did you mean LP_QUOTA?');
  expect(run.log).toMatch(/Total: 1 test in 1 file/);
  expect(run.ms).toBeLessThan(ROW_LIMIT_MS);
});

// These two run one test after the preflight: a worker and its fixtures start, so they take longer (not a preflight row).
test('a key holding more scopes than LP_SCOPES lists gives no contract failure: the held-scope check needs LP_UNHELD_SCOPES', async () => {
  // The mock's key holds content:write and users:write too; LP_SCOPES lists only the read scopes.
  const run = await contractRun(remote({ LP_SCOPES: 'content:read,users:read' }), 'a scope the key does not hold');
  expect(run.code, run.log).toBe(0);
  expect(run.log).toMatch(/^target: remote /);
  expect(run.log).toMatch(/0 failed, 1 skipped/);
  expect(run.log).not.toMatch(/token\.held-scopes \[contract\] broken/);
  expect(run.valid).toBe(0);
});

test('with LP_UNHELD_SCOPES the held-scope check runs against the remote target', async () => {
  const run = await contractRun(remote({ LP_SCOPES: 'content:read,users:read', LP_UNHELD_SCOPES: 'groups:read' }), 'a scope the key does not hold');
  expect(run.code, run.log).toBe(0);
  expect(run.log).toMatch(/1 passed, 0 failed/);
  expect(run.valid).toBe(0);
});
