/**
 * One runner for every test of the project: the mock's, the schemas', the load libraries' unit tests
 * (project `unit`) and the contract suite (projects `contract*`, composed in specs/fixtures/).
 *
 * Paths of reports and results are resolved against the working directory, as
 * scripts/summary-reporter.ts does: npm scripts run from the repository root, and the suite's own
 * child runs (specs/safety.spec.ts, specs/self-check.spec.ts) run in a temporary directory so that
 * nothing of theirs lands in this run's reports.
 */
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import dotenv from 'dotenv';
import { readConfig } from './specs/fixtures/config.ts';

// Once, here; no override: the real environment wins over .env. Workers inherit the result.
dotenv.config({ quiet: true });
// Throws a ConfigError (one sentence naming the variable) before any test starts.
const suite = readConfig();

const SERIAL = /@quota|@serial/;
const SLOW = /@slow/;
/**
 * @self tests check the suite with embedded mocks of their own, whatever the target: against a remote
 * target they would only repeat the embedded run. Left out here rather than by `--grep-invert`,
 * which Playwright does not apply to `contract` when it runs as the dependency of `contract-serial`.
 */
const SELF = /@self/;
const LEFT_OUT = [...(suite.full ? [] : [SLOW]), ...(suite.target.kind === 'remote' ? [SELF] : [])];
const SPEC_FILES = /specs[\\/][^\\/]+\.spec\.ts$/;

/**
 * Traces are off for the contract projects, on purpose: a trace of an APIRequestContext records every
 * request header, Authorization: Bearer included, and Playwright offers no way to redact it. The
 * failure messages (requests named, bodies redacted) and the HTML report carry what a trace would
 * show; specs/safety.spec.ts checks that no report, result file or log of a run holds a secret.
 */
const contractUse = { trace: 'off' } as const;

export default defineConfig({
  forbidOnly: !!process.env.CI,
  outputDir: path.resolve('test-results'),
  reporter: [
    ['list'],
    ['html', { outputFolder: path.resolve('reports', 'html'), open: 'never' }],
    ['junit', { outputFile: path.resolve('reports', 'junit.xml') }],
    [path.join(__dirname, 'specs', 'reporters', 'rate-limit-retries.ts')],
    [path.join(__dirname, 'scripts', 'summary-reporter.ts')],
  ],
  projects: [
    {
      name: 'unit',
      testDir: '.',
      testMatch: ['contracts/**/*.test.ts', 'schemas/**/*.test.ts', 'mock/**/*.test.ts', 'load/**/*.test.ts', 'scripts/**/*.test.ts'],
    },
    {
      // Everything that may share the key's budget with other workers.
      name: 'contract',
      testDir: path.join(__dirname, 'specs'),
      testMatch: SPEC_FILES,
      grepInvert: [SERIAL, ...LEFT_OUT],
      fullyParallel: true,
      use: contractUse,
    },
    {
      // Tests that count requests or move the target's clock: alone, after the others.
      name: 'contract-serial',
      testDir: path.join(__dirname, 'specs'),
      testMatch: SPEC_FILES,
      grep: SERIAL,
      ...(LEFT_OUT.length > 0 ? { grepInvert: LEFT_OUT } : {}),
      workers: 1,
      // Playwright runs a dependency whole, ignoring file and --grep filters: add --no-deps to run
      // the serial tests of one file alone.
      dependencies: ['contract'],
      use: contractUse,
    },
  ],
});
