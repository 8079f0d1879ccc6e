/**
 * The k6 bundles run by a real k6 (K6_BIN, else PATH; skipped with a sentence without one) against
 * the mock started from its CLI with short rate windows: every bundle passes against the strict mock;
 * the rate-limit probe passes against every rate-related legal choice (profiles and profile files)
 * and fails, naming the broken rule in the console and the JUnit report, against each rate-limit
 * fault; a content-only key never reaches /api/v2/users; a wrong client secret stops smoke with a sentence
 * naming the setting, and its reports call no rule ok; every bundle passes against the mock over HTTPS
 * on one port with host names, k6 trusting its CA by SSL_CERT_FILE and resolving the names by a
 * config file's `hosts` (docs/load.md).
 *
 * Why one file of this length: the runs share one build, one pool of k6 processes and the mocks
 * they run against; the table below is read as a whole. Runs go four at a time (2 cores: k6 and
 * the mocks mostly wait on rate windows), each against keys or mocks of its own, so that no two
 * share a budget.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import type { ClientConfig } from '../mock/clients.ts';
import { type FaultName, FAULTS } from '../mock/faults/catalogue.ts';
import { validateProfile } from '../schemas/index.ts';
import { buildLoad } from './cli/build.ts';
import { findK6 } from './cli/k6.ts';
import { clientsFile, type MockProcess, type MockProcessOptions, pooled, startMockProcess } from '../mock/test/mock-process.ts';

const k6 = findK6(process.env);
const SECRET = 'k6-run-secret';
const ALL_SCOPES = ['content:read', 'content:write', 'users:read', 'users:write'];
/** k6 runs at once. */
const POOL = 4;
/** The longest one run may take before it is stopped (a probe of one short window takes a few seconds). */
const RUN_TIMEOUT_MS = 90_000;

interface MockSpec {
  readonly args: readonly string[];
  readonly entry?: MockProcessOptions['entry'];
  readonly clients?: readonly ClientConfig[];
}

interface Run {
  readonly title: string;
  readonly script: 'smoke' | 'pagination' | 'token-lifecycle' | 'rate-limit';
  /** A key of the `mocks` table. */
  readonly mock: string;
  readonly client: string;
  readonly env: Readonly<Record<string, string>>;
  /** Arguments of `k6 run` before the bundle. */
  readonly k6Args?: readonly string[];
  /** 0: every threshold held; 99: a threshold failed; 108: setup stopped the run. */
  readonly exitCode: 0 | 99 | 108;
  /** A sentence the console must hold. */
  readonly says?: string;
  /** The rule (contracts/rules/ id) whose failure the console and the JUnit report must name. */
  readonly failsRule?: string;
  /** The key is refused: every rule and threshold of the reports is "not checked", none ok. */
  readonly keyRefused?: boolean;
}

interface Outcome {
  readonly code: number | null;
  readonly output: string;
  readonly junit: string;
  readonly html: string;
  readonly summary: { ok: boolean; lines: Array<{ kind: string; name: string; state: string; detail: string }> } | undefined;
}

const key = (id: string, scopes = ALL_SCOPES, rate?: string): ClientConfig => ({ id, secret: SECRET, scopes, ...(rate ? { rate } : {}) });
const profileFile = (name: string, rateLimit: Record<string, unknown>, extendsName = 'strict') => ({ extends: extendsName, name, rateLimit });

/**
 * Profile files with each rate-related legal choice the document leaves open, one at a time (each
 * checked against schemas/profile.schema.json before use).
 */
const PROFILE_FILES = {
  'Retry-After as an HTTP-date': profileFile('http-date', { retryAfter: 'http-date' }),
  'X-Rate-Limit-Reset with 7 digits': profileFile('reset-7', { resetFractionDigits: 7 }),
  'a clock-aligned window': profileFile('clock-aligned', { window: 'clock-aligned' }),
  'a sliding window': profileFile('sliding', { window: 'sliding' }),
  'requests during a block extending it': profileFile('extends-block', { retryDuringBlock: 'extends-block' }),
  'token requests counted': profileFile('tokens-counted', { countsTokenRequests: true }),
} as const;

const PROBE_RATE = '10/5s';
/** The negative cases spend the smallest budget that still shows each fault. */
const FAULT_RATE = '3/3s';
const NEGATIVE: readonly FaultName[] = ['rate-no-429', 'retry-after-missing', 'retry-after-short', 'rate-remaining-constant'];

function tableOfMocks(profileDir: string): Record<string, MockSpec> {
  const mocks: Record<string, MockSpec> = {
    strict: {
      args: ['--rate', '20/10s', '--items', '250'],
      clients: [
        key('smoke'),
        key('smoke-wrong'),
        key('walk'),
        key('life'),
        key('life-half'),
        key('probe'),
        key('probe-half'),
        key('custom', ALL_SCOPES, '8/4s'),
      ],
    },
    'content-only': {
      args: ['--rate', '20/10s', '--items', '100', '--log'],
      clients: ['c-smoke', 'c-walk', 'c-life'].map((id) => key(id, ['content:read'])),
    },
    https: {
      args: ['--tls', '--host-name', 'mock.test', '--rate', '20/10s', '--items', '250'],
      clients: [key('tls-smoke'), key('tls-walk'), key('tls-life'), key('tls-probe')],
    },
    platform: { args: ['--profile', 'platform', '--rate', PROBE_RATE], clients: [key('probe')] },
    lenient: { args: ['--profile', 'lenient', '--rate', PROBE_RATE], clients: [key('probe')] },
  };
  for (const [title, profile] of Object.entries(PROFILE_FILES)) {
    const file = path.join(profileDir, `${profile.name}.json`);
    writeFileSync(file, JSON.stringify(profile));
    mocks[title] = { args: ['--profile', file, '--rate', PROBE_RATE], clients: [key('probe')] };
  }
  for (const fault of NEGATIVE) mocks[fault] = { args: ['--fault', fault, '--rate', FAULT_RATE], entry: 'faults', clients: [key('probe')] };
  return mocks;
}

const PROBE = { LP_PROBE_WINDOWS: '1' };
const RUNS: readonly Run[] = [
  { title: 'smoke, strict mock', script: 'smoke', mock: 'strict', client: 'smoke', env: { LP_RATE: '20/10s', LP_ITERATIONS: '1' }, exitCode: 0 },
  {
    title: 'smoke, a wrong client secret: stopped with a sentence naming the setting, no rule called ok',
    script: 'smoke',
    mock: 'strict',
    client: 'smoke-wrong',
    env: { LP_RATE: '20/10s', LP_ITERATIONS: '1', LP_CLIENT_SECRET: 'not-the-k6-run-secret' },
    exitCode: 108,
    says: 'the key did not work: POST ',
    keyRefused: true,
  },
  {
    title: 'pagination, strict mock, every walk whole, no 429',
    script: 'pagination',
    mock: 'strict',
    client: 'walk',
    env: { LP_RATE: '20/10s', LP_VUS: '2', LP_DURATION: '5s', LP_EXPECTED_ITEMS: '250' },
    exitCode: 0,
  },
  {
    title: 'token-lifecycle, strict mock',
    script: 'token-lifecycle',
    mock: 'strict',
    client: 'life',
    env: { LP_RATE: '20/10s', LP_VUS: '2', LP_DURATION: '5s' },
    exitCode: 0,
  },
  { title: 'rate-limit probe, strict mock', script: 'rate-limit', mock: 'strict', client: 'probe', env: { ...PROBE, LP_RATE: '20/10s' }, exitCode: 0 },
  {
    title: 'rate-limit probe, a custom rate of the key',
    script: 'rate-limit',
    mock: 'strict',
    client: 'custom',
    env: { ...PROBE, LP_RATE: '8/4s' },
    exitCode: 0,
  },
  ...['platform', 'lenient', ...Object.keys(PROFILE_FILES)].map((mock): Run => ({
    title: `rate-limit probe, ${mock}`,
    script: 'rate-limit',
    mock,
    client: 'probe',
    env: { ...PROBE, LP_RATE: PROBE_RATE },
    exitCode: 0,
  })),
  {
    title: 'token-lifecycle, one instance of two (execution segment 0:1/2) paces half the budget',
    script: 'token-lifecycle',
    mock: 'strict',
    client: 'life-half',
    k6Args: ['--execution-segment', '0:1/2', '--execution-segment-sequence', '0,1/2,1'],
    env: { LP_RATE: '20/10s', LP_VUS: '2', LP_DURATION: '5s' },
    exitCode: 0,
  },
  {
    title: 'rate-limit probe, one instance of two, is refused',
    script: 'rate-limit',
    mock: 'strict',
    client: 'probe-half',
    k6Args: ['--execution-segment', '1/2:1', '--execution-segment-sequence', '0,1/2,1'],
    env: { ...PROBE, LP_RATE: '20/10s' },
    exitCode: 108,
    says: 'the rate-limit probe runs on one instance only (this one runs execution segment 1/2:1)',
  },
  ...(['smoke', 'pagination', 'token-lifecycle'] as const).map((script): Run => ({
    title: `${script}, a content-only key`,
    script,
    mock: 'content-only',
    client: `c-${script === 'token-lifecycle' ? 'life' : script === 'pagination' ? 'walk' : 'smoke'}`,
    env: { LP_RATE: '20/10s', LP_SCOPES: 'content:read', LP_ITERATIONS: '1', LP_VUS: '1', LP_DURATION: '3s', LP_EXPECTED_ITEMS: '100' },
    exitCode: 0,
  })),
  ...(
    [
      ['smoke', 'tls-smoke', { LP_ITERATIONS: '1' }],
      ['pagination', 'tls-walk', { LP_VUS: '2', LP_DURATION: '5s', LP_EXPECTED_ITEMS: '250' }],
      ['token-lifecycle', 'tls-life', { LP_VUS: '2', LP_DURATION: '5s' }],
      ['rate-limit', 'tls-probe', PROBE],
    ] as const
  ).map(([script, client, env]): Run => ({
    title: `${script}, over HTTPS with host names`,
    script,
    mock: 'https',
    client,
    env: { LP_RATE: '20/10s', ...env },
    exitCode: 0,
  })),
  ...NEGATIVE.map((fault): Run => ({
    title: `rate-limit probe fails on fault ${fault}`,
    script: 'rate-limit',
    mock: fault,
    client: 'probe',
    env: { ...PROBE, LP_RATE: FAULT_RATE },
    exitCode: 99,
    failsRule: FAULTS[fault].rule,
  })),
];

/**
 * The longest the pooled runs may take: every round of the pool at its run limit, plus the build and
 * the mocks' start. Each run is bounded by RUN_TIMEOUT_MS, so this only stops a hang of our own; a
 * fixed guess below it failed on a loaded machine (2.3 minutes measured with the cores busy).
 */
const ALL_RUNS_MS = Math.ceil(RUNS.length / POOL) * RUN_TIMEOUT_MS + 120_000;

const children = new Set<ChildProcess>();

/** One `k6 run` of a bundle in its own directory; the environment holds nothing but what the run needs. */
function runK6(bundle: string, args: readonly string[], dir: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn((k6 as { value: string }).value, ['run', '--quiet', '--no-color', '--no-usage-report', ...args, bundle], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', HOME: dir, ...env },
    });
    children.add(child);
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), RUN_TIMEOUT_MS);
    child.on('close', (code) => {
      clearTimeout(timer);
      children.delete(child);
      resolve({ code, output });
    });
  });
}

function readIf(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

test.describe('the k6 bundles on a real k6', () => {
  test.skip(!k6.ok, `No real k6 to run the bundles with (${k6.ok ? '' : k6.error}): set K6_BIN to a k6 v0.47.0 or newer.`);
  // The runs are made once, pooled, in beforeAll; each test reads its outcome.
  test.describe.configure({ timeout: ALL_RUNS_MS });

  let work: string;
  let outcomes: Map<string, Outcome>;
  let logs: Map<string, readonly string[]>;

  test.beforeAll(async () => {
    test.setTimeout(ALL_RUNS_MS);
    work = mkdtempSync(path.join(tmpdir(), 'lp-k6-runs-'));
    const profileDir = path.join(work, 'profiles');
    mkdirSync(profileDir);
    const built = await buildLoad({ outdir: path.join(work, 'dist') });
    const bundles = new Map(built.bundles.map((b) => [b.name, b.file]));
    const specs = tableOfMocks(profileDir);
    const mocks = new Map<string, MockProcess>();
    try {
      await Promise.all(
        Object.entries(specs).map(async ([name, spec]) => {
          const args = [...spec.args, ...(spec.clients ? ['--clients', clientsFile(spec.clients)] : [])];
          mocks.set(name, await startMockProcess(args, { entry: spec.entry ?? 'mock' }));
        }),
      );
      const results = await pooled(
        RUNS.map((run, index) => async (): Promise<Outcome> => {
          const mock = mocks.get(run.mock) as MockProcess;
          const dir = path.join(work, `run-${index}`);
          const reports = path.join(dir, 'reports');
          mkdirSync(reports, { recursive: true });
          // A mock over HTTPS: k6 (Go) trusts the CA named by SSL_CERT_FILE; its names lead to the mock by the config's `hosts`.
          const tls: Record<string, string> = mock.caFile ? { SSL_CERT_FILE: mock.caFile } : {};
          const config: string[] = [];
          if (mock.address !== undefined) {
            const names = [mock.authUrl, mock.baseUrl].map((url) => new URL(url).hostname);
            const host = mock.address.slice(0, mock.address.lastIndexOf(':'));
            writeFileSync(path.join(dir, 'hosts.json'), JSON.stringify({ hosts: Object.fromEntries(names.map((name) => [name, host])) }));
            config.push('--config', path.join(dir, 'hosts.json'));
          }
          const { code, output } = await runK6(bundles.get(run.script) as string, [...config, ...(run.k6Args ?? [])], dir, {
            LP_AUTH_URL: mock.authUrl,
            LP_BASE_URL: mock.baseUrl,
            LP_CLIENT_ID: run.client,
            LP_CLIENT_SECRET: SECRET,
            LP_REPORT_DIR: reports,
            ...tls,
            ...run.env,
          });
          const summaryText = readIf(path.join(reports, `${run.script}.summary.json`));
          return {
            code,
            output,
            junit: readIf(path.join(reports, `${run.script}.junit.xml`)),
            html: readIf(path.join(reports, `${run.script}.summary.html`)),
            summary: summaryText ? JSON.parse(summaryText) : undefined,
          };
        }),
        POOL,
      );
      outcomes = new Map(RUNS.map((run, i) => [run.title, results[i] as Outcome]));
      logs = new Map([...mocks].map(([name, mock]) => [name, mock.requestLog()]));
    } finally {
      await Promise.all([...mocks.values()].map((mock) => mock.stop()));
    }
  });

  test.afterAll(() => {
    for (const child of children) child.kill('SIGKILL');
    if (work) rmSync(work, { recursive: true, force: true });
  });

  test('the profile files are legal profiles (schemas/profile.schema.json)', () => {
    for (const profile of Object.values(PROFILE_FILES)) expect(validateProfile(profile), JSON.stringify(validateProfile.errors)).toBe(true);
  });

  for (const run of RUNS) {
    test(run.title, () => {
      const outcome = outcomes.get(run.title) as Outcome;
      const tail = outcome.output.slice(-3000);
      expect(outcome.code, `k6 exit code; its output ended:\n${tail}`).toBe(run.exitCode);
      if (run.says !== undefined) expect(outcome.output).toContain(run.says);
      expect(outcome.output).not.toContain(SECRET);
      if (run.keyRefused) {
        const secret = run.env.LP_CLIENT_SECRET ?? SECRET;
        for (const text of [outcome.output, outcome.junit, outcome.html]) expect(text).not.toContain(secret);
        // One sentence of k6's abort names the settings; the console summary fails the run, names them too, and calls nothing ok.
        expect(outcome.output).toMatch(/test aborted: smoke: the key did not work: POST \S+ answered 40\d; check LP_CLIENT_ID and LP_CLIENT_SECRET/);
        expect(outcome.output).toMatch(/^load\/smoke: FAILED in [\d.]+ s: the key did not work: .*LP_CLIENT_SECRET/m);
        expect(outcome.output, tail).not.toMatch(/^ {2}ok /m);
        expect(outcome.summary?.ok).toBe(false);
        const rules = outcome.summary?.lines.filter((l) => l.kind === 'rules') ?? [];
        expect(rules.length).toBeGreaterThan(0);
        for (const rule of rules) expect(rule, rule.name).toMatchObject({ state: 'not checked', detail: expect.stringContaining('LP_CLIENT_SECRET') });
        expect(outcome.summary?.lines.filter((l) => l.kind === 'thresholds' && l.state === 'ok')).toEqual([]);
        // JUnit: the run's own failure, every rule a skip with its reason, no passing testcase.
        expect(outcome.junit).toContain('<testcase classname="load.smoke.run" name="the run exercised the service" time="0"><failure ');
        expect(outcome.junit).toMatch(
          /<testcase classname="load\.smoke\.rules" name="token\.issued: [^"]*" time="0"><skipped message="not checked: the key did not work/,
        );
        expect(outcome.junit).not.toMatch(/time="0"><\/testcase>/);
        expect(outcome.html).not.toContain('<td class="ok">');
        return;
      }
      // setup stopped the run: handleSummary still writes its reports, with the thresholds unjudged.
      if (run.exitCode === 108) return;
      expect(outcome.summary, `no ${run.script}.summary.json; k6 output ended:\n${tail}`).toBeDefined();
      expect(outcome.summary?.ok).toBe(run.exitCode === 0);
      expect(outcome.junit).toContain(`<testsuite name="load.${run.script}"`);
      expect(outcome.output).not.toContain(SECRET);
      if (run.exitCode === 0) {
        expect(outcome.junit, tail).not.toContain('<failure');
        if (run.script !== 'rate-limit') expect(outcome.summary?.lines.find((l) => l.name.startsWith('lp_rate_limited'))?.state).toMatch(/^(ok|not checked)$/);
      }
      if (run.failsRule !== undefined) {
        // The console names the rule with its reason; the JUnit report fails the test case named by it.
        expect(outcome.output).toMatch(new RegExp(`rate-limit probe, ${run.failsRule.replace('.', '\\.')} \\((contract|platform)\\): `));
        expect(outcome.junit).toMatch(
          new RegExp(`<testcase classname="load\\.rate-limit\\.rules" name="${run.failsRule.replace('.', '\\.')}: [^"]*"[^>]*><failure `),
        );
      }
    });
  }

  test('a content-only key: no request reached /api/v2/users, and each script said what it left out', () => {
    const log = logs.get('content-only') ?? [];
    expect(log.some((line) => line.startsWith('api GET /api/v2/content'))).toBe(true);
    expect(log.filter((line) => line.includes('/api/v2/users'))).toEqual([]);
    for (const script of ['smoke', 'pagination']) {
      expect(outcomes.get(`${script}, a content-only key`)?.output).toContain(
        `${script}: LP_SCOPES content:read holds neither users:read nor users:write, so GET /api/v2/users is left out.`,
      );
    }
  });
});
