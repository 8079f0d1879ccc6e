/**
 * One runner for every test of the project: the mock's, the schemas', the load libraries' unit tests
 * (project `unit`) and the contract suite (projects `contract*`, composed in specs/fixtures/).
 *
 * Paths of reports and results are resolved against the working directory, as
 * harness/report/summary-reporter.ts does: npm scripts run from the repository root, and the suite's own
 * child runs (specs/self/safety.spec.ts, specs/self/self-check.spec.ts) run in a temporary directory so that
 * nothing of theirs lands in this run's reports.
 */
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import dotenv from 'dotenv';
import type { SummaryReporterOptions } from './harness/report/summary-reporter.ts';
import { describeTarget } from './harness/report/target-description.ts';
import { readConfig } from './harness/target/config.ts';
import { preflightLines } from './harness/preflight/index.ts';
import { selectsContract } from './harness/preflight/global-setup.ts';

// Once, here; no override: the real environment wins over .env. Workers inherit the result.
dotenv.config({ quiet: true });
// Throws a ConfigError (one sentence naming the variable) before any test starts.
const suite = readConfig();
/**
 * What this run is pointed at, named in every report (no secret in it) by the summary reporter. Not
 * in config `metadata`: the HTML report shows custom metadata only behind a URL flag
 * (`show-metadata-other`), and an empty "Metadata" toggle otherwise; its title names the target.
 */
const target = describeTarget(suite);
const HTML_DIR = path.resolve('reports', 'html');
const JUNIT_FILE = path.resolve('reports', 'junit.xml');
const summaryOptions: SummaryReporterOptions = { target, htmlDir: HTML_DIR, junitFile: JUNIT_FILE };
// The JUnit file names the target in its testsuites element (Playwright's junit reporter reads this), and on each
// testcase as the `lp.target` property (an annotation of specs/fixtures). A child run does not inherit it
// (harness/self-check/child-run.ts clears PLAYWRIGHT_*).
process.env.PLAYWRIGHT_JUNIT_SUITE_NAME ??= `Learning Platform API contract suite against ${target}`;
// The preflight's first lines, once, in the runner: the target the run tests, and unknown LP_* names.
if (selectsContract(process.argv)) for (const line of preflightLines(suite, process.env)) console.log(line);

const SERIAL = /@quota|@serial/;
/**
 * The contract projects run the specs of the API (specs/*.spec.ts) and nothing else. Tests a target
 * cannot serve (a need unmet, LP_FULL unset) are not left out here but skipped by their fixture with a
 * sentence, so the run's report can say which rules it did not check, and why. The suite's tests of
 * itself (specs/self/) are the `self` project's: they start embedded mocks of their own whatever the
 * target, so `npm test` runs them and `npm run contract` does not.
 */
const SPEC_FILES = /specs[\\/][^\\/]+\.spec\.ts$/;
const SELF_FILES = /specs[\\/]self[\\/][^\\/]+\.spec\.ts$/;

/**
 * Traces are off for the contract projects, on purpose: a trace of an APIRequestContext records every
 * request header, Authorization: Bearer included, and Playwright offers no way to redact it. The
 * failure messages (requests named, bodies redacted) and the HTML report carry what a trace would
 * show; specs/self/safety.spec.ts checks that no report, result file or log of a run holds a secret.
 */
const contractUse = { trace: 'off' } as const;

export default defineConfig({
  // The preflight (global-setup.ts): a remote target's URLs and key proved before any worker starts.
  globalSetup: path.join(__dirname, 'harness', 'preflight', 'global-setup.ts'),
  forbidOnly: !!process.env.CI,
  outputDir: path.resolve('test-results'),
  // The summary reporter comes before html: it gives the html report its title (the verdict) in its
  // onEnd, and prints its summary, the run's last lines, once every reporter has ended.
  reporter: [
    ['list'],
    [path.join(__dirname, 'harness', 'preflight', 'bound-reporter.ts')],
    [path.join(__dirname, 'harness', 'report', 'summary-reporter.ts'), summaryOptions],
    ['html', { outputFolder: HTML_DIR, open: 'never' }],
    ['junit', { outputFile: JUNIT_FILE }],
  ],
  projects: [
    {
      name: 'unit',
      testDir: '.',
      testMatch: ['contracts/**/*.test.ts', 'schemas/**/*.test.ts', 'mock/**/*.test.ts', 'harness/**/*.test.ts', 'load/**/*.test.ts', 'tools/**/*.test.ts'],
    },
    // The suite's tests of itself (child runs, the production guard, the secret-leak gate, the reports),
    // against embedded mocks of their own: a remote run would only repeat them.
    ...(suite.target.kind === 'remote' ? [] : [{ name: 'self', testDir: path.join(__dirname, 'specs', 'self'), testMatch: SELF_FILES, use: contractUse }]),
    {
      // Everything that may share the key's budget with other workers.
      name: 'contract',
      testDir: path.join(__dirname, 'specs'),
      testMatch: SPEC_FILES,
      grepInvert: SERIAL,
      fullyParallel: true,
      // The serial tests run after these, in a phase of their own, whether these passed or not: a
      // teardown project is not skipped when the project it tears down fails, as a dependency would be.
      teardown: 'contract-serial',
      use: contractUse,
    },
    {
      // Tests that count requests, move the target's clock or end a token others may share: alone, after the others.
      name: 'contract-serial',
      testDir: path.join(__dirname, 'specs'),
      testMatch: SPEC_FILES,
      grep: SERIAL,
      workers: 1,
      // As the teardown of `contract` it runs whole, whatever file or --grep filters say: add --no-deps
      // (with --project=contract or --project=contract-serial) to run only the tests of one file.
      use: contractUse,
    },
  ],
});
