/**
 * `npm test`: every test of the project against the embedded mock, then the contract suite once more against the mock started from its CLI as a remote target
 * (the way CI meets a real service), which must then hold no valid token: the run logged out every token it was issued. Last, one line adding up both runs.
 * Each phase's Playwright run has its own folder under reports/ (its html reporter empties it first), and reports/index.html links them.
 */
import { availableParallelism } from 'node:os';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { escapeHtml, htmlPage } from '../common/report.ts';
import { SCOPES } from '../contracts/scopes.ts';
import { DEFAULT_CLIENTS } from '../mock/clients.ts';
import { BUILT_IN_PROFILES } from '../mock/profile.ts';
import { refuseArguments, runMain, usage } from '../common/flags.ts';
import { type Counts, formatCounts } from '../harness/report/summary-reporter.ts';
import { type MockProcess, startMockProcess } from '../mock/test/mock-process.ts';
import { ROOT } from '../common/root.ts';
import { runPlaywright } from './run-playwright.ts';

const SUMMARY_DIR = path.join(ROOT, 'reports', 'summary');
/** A phase that takes longer is stopped (something hangs); phase 1 takes about 2 minutes on 2 idle cores. */
const PHASE_LIMIT_MS = 30 * 60_000;

/** The phases, each with its own report folder under reports/. */
const PHASES = {
  embedded: 'Phase 1: every project against the embedded mock',
  'cli-remote': 'Phase 2: the contract suite against the mock CLI as a remote target',
} as const;
type Phase = keyof typeof PHASES;

/** A phase's Playwright run, its reports in its own folder; resolves with why it failed, or undefined. */
async function run(phase: Phase, args: readonly string[], env: Readonly<Record<string, string>>): Promise<string | undefined> {
  const n = Object.keys(PHASES).indexOf(phase) + 1;
  const dir = path.join(ROOT, 'reports', phase);
  const reports = { LP_SUMMARY_NAME: phase, PLAYWRIGHT_HTML_OUTPUT_DIR: path.join(dir, 'html'), PLAYWRIGHT_JUNIT_OUTPUT_FILE: path.join(dir, 'junit.xml') };
  const code = await runPlaywright(`npm test: phase ${n}`, args, { ...process.env, ...env, ...reports }, PHASE_LIMIT_MS);
  // A phase stopped at the limit is not a failure of the target.
  if (code === null) return `phase ${n} was stopped at the limit of ${PHASE_LIMIT_MS / 60_000} minutes (something hangs)`;
  return code === 0 ? undefined : `phase ${n} exited with ${code}`;
}

/** Adds up the phases' summaries (none: the phase did not run) and `failures` of the driver's own, and writes reports/index.html linking the phases. */
function summarize(failures: number): Counts {
  const total: Counts = { passed: 0, failed: 0, skipped: 0, flaky: 0, deviations: 0 };
  const rows = (Object.keys(PHASES) as Phase[]).map((phase) => {
    const file = path.join(SUMMARY_DIR, `${phase}.json`);
    const summary = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Counts & { target?: string }) : undefined;
    for (const key of ['passed', 'failed', 'skipped', 'flaky', 'deviations'] as const) total[key] = (total[key] ?? 0) + (summary?.[key] ?? 0);
    // The target as the phase's own run described it (harness/report/target-description.ts): no secret in it.
    const target = summary?.target ? `<br>target: ${escapeHtml(summary.target)}` : '';
    const links = `<a href="${phase}/html/rules.html">rules checked</a>, <a href="${phase}/junit.xml">JUnit</a>`;
    return `<li><a href="${phase}/html/index.html">${PHASES[phase]}</a> (${links}): ${summary ? formatCounts(summary) : 'did not run'}${target}</li>`;
  });
  // A phase that failed without a summary (or with a summary that says all passed) still fails the run.
  if (failures > 0 && total.failed === 0) total.failed = failures;
  const title = `npm test: ${formatCounts(total)}`;
  writeFileSync(path.join(ROOT, 'reports', 'index.html'), htmlPage(title, `<h1>${escapeHtml(title)}</h1><ul>${rows.join('')}</ul>`));
  return total;
}

const USAGE = `Usage: npm test

  (no argument)  every project against the embedded mock, then the contract suite against the mock
                 started from its CLI as a remote target; reports under reports/ (reports/index.html)
  --help, -h     this text

To run a part: npm run contract (the contract suite), npx playwright test --project=unit (the unit tests).`;

async function main(args: readonly string[]): Promise<number> {
  // An argument would be ignored and the whole run would start.
  const refused = refuseArguments('test', 'npm test', args, USAGE);
  if (refused) usage(refused);
  // Reports of an earlier run (a phase's, or `npm run contract`'s) would be added up and linked as this run's; reports/load and CI's logs stay.
  for (const name of ['index.html', 'html', 'junit.xml', 'summary', ...Object.keys(PHASES)])
    rmSync(path.join(ROOT, 'reports', name), { recursive: true, force: true });
  const failures: string[] = [];
  console.log('\n▶ 1/2 every project (unit, self and contract) against the embedded mock');
  // LP_TARGET=mock even when .env points the suite at a real service: `npm test` never spends its budget. A worker per core at least (Playwright's default is
  // half of them): many tests mostly wait for a child process.
  const workers = `--workers=${Math.max(2, availableParallelism())}`;
  const embedded = await run('embedded', [workers], { LP_TARGET: 'mock' });
  if (embedded) failures.push(embedded);
  console.log('\n▶ 2/2 the contract suite against the mock started from its CLI, as a remote target');
  let mock: MockProcess | undefined;
  // The mock is killed by mock/test/mock-process.ts's own exit handler.
  const stopOnSignal = () => process.exit(130);
  for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, stopOnSignal);
  try {
    mock = await startMockProcess([]);
    process.stdout.write(`  mock CLI at ${mock.authUrl} (auth) and ${mock.baseUrl} (api)\n`);
    const org = DEFAULT_CLIENTS.find((c) => c.provider === undefined);
    const provider = DEFAULT_CLIENTS.find((c) => c.provider !== undefined);
    if (!org || !provider?.provider) throw new Error('mock/clients.ts DEFAULT_CLIENTS lost its organization or provider key.');
    const remote = await run('cli-remote', ['--project=contract', '--project=contract-serial'], {
      LP_TARGET: 'remote',
      LP_AUTH_URL: mock.authUrl,
      LP_BASE_URL: mock.baseUrl,
      LP_CONTROL_URL: mock.controlUrl ?? '',
      LP_CLIENT_ID: org.id,
      LP_CLIENT_SECRET: org.secret,
      LP_SCOPES: org.scopes.join(','),
      // The mock's key config says what the key does not hold: declared, as a real key's must be.
      LP_UNHELD_SCOPES: SCOPES.filter((scope) => !org.scopes.includes(scope)).join(','),
      LP_PROVIDER_CLIENT_ID: provider.id,
      LP_PROVIDER_CLIENT_SECRET: provider.secret,
      LP_PROVIDER_NAME: provider.provider,
      LP_REFRESH_GRANT: '1',
      // The mock CLI's default lifetime; stated, so that a lifetime in .env (for betatest) does not apply here.
      LP_TOKEN_LIFETIME: '60d',
      // The rate the mock CLI gives the key (its own, else the default profile's): known, as LP_RATE tells it of a real key.
      LP_RATE: org.rate ?? BUILT_IN_PROFILES.strict.rateLimit.rate,
    });
    if (remote) failures.push(remote);
    const ended = mock.ended();
    if (ended !== undefined) failures.push(`the mock CLI stopped during phase 2 (${ended}); its stderr ended with: ${mock.stderrTail().trim() || '(nothing)'}`);
    else if (mock.controlUrl) {
      // A run must leave no valid token: it logs out every token it was issued.
      const stats = (await (await fetch(`${mock.controlUrl}/stats`)).json()) as Record<string, unknown>;
      const { validAccessTokens: access, validRefreshTokens: refresh } = stats;
      if (typeof access !== 'number' || typeof refresh !== 'number')
        throw new Error(`GET /_mock/stats answered without counts of valid tokens: ${JSON.stringify(stats).slice(0, 200)}`);
      process.stdout.write(`  tokens still valid on the mock after the run: ${access} access, ${refresh} refresh (GET /_mock/stats)\n`);
      if (access + refresh !== 0) failures.push(`phase 2 left tokens valid on the target: the run must log out every token it issued`);
    }
  } catch (error) {
    failures.push((error as Error).message);
  } finally {
    if (mock) await mock.stop();
    for (const signal of ['SIGINT', 'SIGTERM']) process.off(signal, stopOnSignal);
  }
  for (const failure of failures) process.stdout.write(`  ${failure}\n`);
  const total = summarize(failures.length);
  console.log(`\n  reports: reports/index.html (each phase's html/ and junit.xml: reports/embedded/, reports/cli-remote/)`);
  console.log(`\n${formatCounts(total)}`);
  return failures.length > 0 || total.failed > 0 ? 1 : 0;
}

runMain(() => main(process.argv.slice(2)), 'npm test stopped: ');
