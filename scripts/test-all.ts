/**
 * `npm test`: every test of the project, then the contract suite once more against the mock started
 * from its CLI as a remote target (the way CI meets a real service), then one last line adding up
 * both runs: `N passed, N failed[, N skipped][, N platform deviations]`. Exits non-zero when any run failed.
 *
 *   1. `playwright test` (all projects) against the embedded mock
 *      → reports/html/, reports/junit.xml, reports/summary/embedded.json
 *   2. `tsx mock/cli.ts --auth-port 0 --api-port 0`, its JSON line read, then the contract projects
 *      with LP_TARGET=remote and the mock's default keys
 *      → reports/cli-remote/html/, reports/cli-remote/junit.xml, reports/summary/cli-remote.json
 *      (tests tagged @self check the suite itself, not the target: they ran in phase 1, and
 *      playwright.config.ts leaves them out for a remote target). Then the mock's count of valid access
 *      tokens (`GET /_mock/stats`) must be 0: the run logged out every token it was issued.
 * Each phase has its own, clearly named report; reports/index.html links them.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { DEFAULT_CLIENTS } from '../mock/clients.ts';
import { type Counts, formatCounts } from './summary-reporter.ts';
import { ROOT, tsNodeArgs } from './root.ts';

const SUMMARY_DIR = path.join(ROOT, 'reports', 'summary');
const PLAYWRIGHT = path.join(ROOT, 'node_modules', '@playwright', 'test', 'cli.js');
/** A phase that takes longer than this is stopped: something hangs. */
const PHASE_LIMIT_MS = 10 * 60_000;
/** The mock prints its JSON line within milliseconds; this is for a slow, busy machine. */
const MOCK_START_LIMIT_MS = 30_000;

interface MockLine {
  authUrl: string;
  baseUrl: string;
  controlUrl: string | null;
}

function progress(line: string): void {
  process.stdout.write(`\n▶ ${line}\n`);
}

/** Runs a command with the terminal as its output; resolves with its exit code (null: stopped at the limit). */
function run(args: readonly string[], env: Readonly<Record<string, string>>): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: 'inherit' });
    const timer = setTimeout(() => child.kill('SIGTERM'), PHASE_LIMIT_MS);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

/** Starts the mock CLI on free ports and reads the one JSON line it prints once listening. */
function startMockCli(): Promise<{ child: ChildProcess; line: MockLine }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, tsNodeArgs('mock/cli.ts', ['--auth-port', '0', '--api-port', '0']), {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const fail = (reason: string) => {
      clearTimeout(timer);
      child.kill('SIGTERM');
      reject(new Error(reason));
    };
    const timer = setTimeout(() => fail(`The mock CLI printed no JSON line within ${MOCK_START_LIMIT_MS / 1000} s.`), MOCK_START_LIMIT_MS);
    child.on('error', (error) => fail(`The mock CLI did not start: ${error.message}`));
    child.on('exit', (code) => fail(`The mock CLI exited with code ${code} before printing its JSON line.`));
    createInterface({ input: child.stdout as NonNullable<typeof child.stdout> }).once('line', (text) => {
      clearTimeout(timer);
      child.removeAllListeners('exit');
      try {
        const line = JSON.parse(text) as MockLine;
        if (typeof line.authUrl !== 'string' || typeof line.baseUrl !== 'string') throw new Error('authUrl or baseUrl missing');
        resolve({ child, line });
      } catch (error) {
        fail(`The mock CLI printed "${text.slice(0, 200)}", not its JSON line (${(error as Error).message}).`);
      }
    });
  });
}

/** Stops the mock (SIGTERM; SIGKILL if it has not gone after five seconds). */
function stopMock(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** The phases' reports, for reports/index.html. */
const PHASE_REPORTS = [
  { name: 'embedded', title: 'Phase 1: every project against the embedded mock', html: 'html/index.html', junit: 'junit.xml' },
  {
    name: 'cli-remote',
    title: 'Phase 2: the contract suite against the mock CLI as a remote target',
    html: 'cli-remote/html/index.html',
    junit: 'cli-remote/junit.xml',
  },
] as const;

/**
 * Valid access tokens the mock holds after the run: `validAccessTokens` where the mock counts them
 * apart from expired ones, else `accessTokens` (which may still hold expired, unswept ones).
 */
async function tokensLeft(controlUrl: string): Promise<{ count: number; field: string }> {
  const response = await fetch(`${controlUrl}/stats`);
  const stats = (await response.json()) as Record<string, unknown>;
  const field = typeof stats.validAccessTokens === 'number' ? 'validAccessTokens' : 'accessTokens';
  const count = stats[field];
  if (typeof count !== 'number') throw new Error(`GET ${controlUrl}/stats answered without a count of access tokens: ${JSON.stringify(stats).slice(0, 200)}`);
  return { count, field };
}

function writeIndex(total: Counts): void {
  const rows = PHASE_REPORTS.map((p) => {
    let line = 'did not run';
    try {
      line = formatCounts(JSON.parse(readFileSync(path.join(SUMMARY_DIR, `${p.name}.json`), 'utf8')) as Counts);
    } catch {
      // No summary: the phase died before its reporter wrote one.
    }
    return `<li><a href="${p.html}">${p.title}</a> (<a href="${p.junit}">JUnit</a>): ${line}</li>`;
  });
  const html = `<!doctype html><html><head><meta charset="utf-8"><title>npm test</title></head><body><h1>npm test: ${formatCounts(total)}</h1><ul>${rows.join('')}</ul></body></html>\n`;
  writeFileSync(path.join(ROOT, 'reports', 'index.html'), html);
}

function addUpSummaries(): Counts {
  const total: Counts = { passed: 0, failed: 0, skipped: 0, flaky: 0, deviations: 0 };
  let names: string[] = [];
  try {
    names = readdirSync(SUMMARY_DIR).filter((name) => name.endsWith('.json'));
  } catch {
    // No summary at all: a run died before its reporter wrote one. Counted below.
  }
  for (const name of names) {
    const counts = JSON.parse(readFileSync(path.join(SUMMARY_DIR, name), 'utf8')) as Partial<Counts>;
    for (const key of ['passed', 'failed', 'skipped', 'flaky', 'deviations'] as const) total[key] = (total[key] ?? 0) + (counts[key] ?? 0);
  }
  return total;
}

async function main(): Promise<number> {
  // Only this run's summaries are added up at the end.
  rmSync(SUMMARY_DIR, { recursive: true, force: true });
  mkdirSync(SUMMARY_DIR, { recursive: true });
  const failures: string[] = [];

  progress('1/2 every project (unit and contract) against the embedded mock');
  // LP_TARGET=mock even when .env points the suite at a real service: `npm test` never spends its budget.
  const embedded = await run([PLAYWRIGHT, 'test'], { LP_TARGET: 'mock', LP_SUMMARY_NAME: 'embedded' });
  if (embedded !== 0) failures.push(`phase 1 exited with ${embedded}`);

  progress('2/2 the contract suite against the mock started from its CLI, as a remote target');
  let mock: Awaited<ReturnType<typeof startMockCli>> | undefined;
  const stopOnSignal = () => {
    if (mock) mock.child.kill('SIGTERM');
    process.exit(130);
  };
  process.once('SIGINT', stopOnSignal);
  process.once('SIGTERM', stopOnSignal);
  try {
    mock = await startMockCli();
    process.stdout.write(`  mock CLI at ${mock.line.authUrl} (auth) and ${mock.line.baseUrl} (api)\n`);
    const org = DEFAULT_CLIENTS.find((c) => c.provider === undefined);
    const provider = DEFAULT_CLIENTS.find((c) => c.provider !== undefined);
    if (!org || !provider?.provider) throw new Error('mock/clients.ts DEFAULT_CLIENTS lost its organization or provider key.');
    const remote = await run([PLAYWRIGHT, 'test', '--project=contract', '--project=contract-serial'], {
      LP_TARGET: 'remote',
      LP_AUTH_URL: mock.line.authUrl,
      LP_BASE_URL: mock.line.baseUrl,
      LP_CONTROL_URL: mock.line.controlUrl ?? '',
      LP_CLIENT_ID: org.id,
      LP_CLIENT_SECRET: org.secret,
      LP_SCOPES: org.scopes.join(','),
      LP_PROVIDER_CLIENT_ID: provider.id,
      LP_PROVIDER_CLIENT_SECRET: provider.secret,
      LP_PROVIDER_NAME: provider.provider,
      LP_REFRESH_GRANT: '1',
      // The mock CLI's default lifetime; stated, so that a lifetime in .env (for betatest) does not apply here.
      LP_TOKEN_LIFETIME: '60d',
      LP_SUMMARY_NAME: 'cli-remote',
      PLAYWRIGHT_HTML_OUTPUT_DIR: path.join(ROOT, 'reports', 'cli-remote', 'html'),
      PLAYWRIGHT_JUNIT_OUTPUT_FILE: path.join(ROOT, 'reports', 'cli-remote', 'junit.xml'),
    });
    if (remote !== 0) failures.push(`phase 2 exited with ${remote}`);
    if (mock.line.controlUrl) {
      const left = await tokensLeft(mock.line.controlUrl);
      process.stdout.write(`  tokens still valid on the mock after the run: ${left.count} (${left.field} of GET /_mock/stats)\n`);
      if (left.count !== 0)
        failures.push(`phase 2 left ${left.count} access token(s) valid on the target (${left.field}): the run must log out every token it issued`);
    }
  } catch (error) {
    failures.push((error as Error).message);
  } finally {
    if (mock) await stopMock(mock.child);
    process.off('SIGINT', stopOnSignal);
    process.off('SIGTERM', stopOnSignal);
  }

  const total = addUpSummaries();
  // A phase that failed without a summary (or with a summary that says all passed) still fails the run.
  if (failures.length > 0 && total.failed === 0) total.failed = failures.length;
  for (const failure of failures) process.stdout.write(`  ${failure}\n`);
  writeIndex(total);
  process.stdout.write(
    `\n  reports: reports/index.html (phase 1: reports/html, reports/junit.xml; phase 2: reports/cli-remote/html, reports/cli-remote/junit.xml)\n`,
  );
  process.stdout.write(`\n${formatCounts(total)}\n`);
  return failures.length > 0 || total.failed > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`npm test stopped: ${(error as Error).message}\n`);
    process.exit(1);
  },
);
