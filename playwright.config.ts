/**
 * One runner for all tests: unit tests (`unit`), the suite's tests of itself (`self`), the contract suite (`contract*`). Report paths resolve against the
 * working directory, so child runs (in a temporary one) write none here. The lp-contract package ships it compiled, with the specs and harness.
 */
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import dotenv from 'dotenv';
import type { SummaryReporterOptions } from './harness/report/summary-reporter.ts';
import { describeTarget } from './harness/report/target-description.ts';
import { readConfig } from './harness/run/config.ts';
import { readDefaulted, readSetting } from './common/settings.ts';
import { onlyGrep } from './harness/verdict/declare.ts';
import { preflightLines } from './harness/preflight/index.ts';
import { selectsContract } from './harness/preflight/global-setup.ts';

// Once, here; no override: the real environment wins over .env. Workers inherit the result.
dotenv.config({ quiet: true });
// Throws a ConfigError (one sentence naming the variable) before any test starts.
const suite = readConfig();
// What this run is pointed at (no secret in it), named in every report by the summary reporter; not in `metadata`: the HTML report hides that behind a flag.
const target = describeTarget(suite);
// Everything a run writes, test-results included, is under LP_OUT_DIR: runs at once with one each leave each other alone (Playwright empties its output folder
// as a run starts, and the breaker keeps its shared files there).
const OUT_DIR = path.resolve(readDefaulted(process.env, 'LP_OUT_DIR'));
const HTML_DIR = path.join(OUT_DIR, 'html');
const JUNIT_FILE = path.join(OUT_DIR, 'junit.xml');
const only = readSetting(process.env, 'LP_ONLY');
const ONLY = only === undefined ? undefined : onlyGrep(only);
// `.ts` here, `.js` in the package, which carries this file and the harness compiled.
const EXT = path.extname(__filename);
// The JUnit testsuites element names the target (the junit reporter reads this); child runs do not inherit it (child-run.ts clears PLAYWRIGHT_*).
process.env.PLAYWRIGHT_JUNIT_SUITE_NAME ??= `Learning Platform API contract suite against ${target}`;
// The preflight's first lines, once, in the runner: the target the run tests, and unknown LP_* names.
if (selectsContract(process.argv)) for (const line of preflightLines(suite, process.env)) console.log(line);

const SERIAL = /@quota|@serial/;
const SLOW = /@slow/;
// The real-time waits (@slow) run beside the serial tests, their few requests with the provider key, which the serial tests' spends leave alone; without a
// second key they would meet the refusals of the one key's spends, so they follow them.
const slowBeside = !(suite.target.kind === 'remote' && suite.target.provider === undefined);
// Tests a target cannot serve are not left out here but skipped by their fixture with a sentence, so the report says which rules it did not check, and why.
const SPEC_FILES = /specs[\\/][^\\/]+\.spec\.[jt]s$/;
const SELF_FILES = /specs[\\/]self[\\/][^\\/]+\.spec\.ts$/;

// Traces off: the suite's requests are not Playwright's, so a trace would record none of them, only cost time.
const contractUse = { trace: 'off' } as const;
/** The tests of a phase after the parallel one; with LP_ONLY, those of them it names (both patterns must match). */
const phase = (tests: RegExp) => (ONLY ? new RegExp(`^(?=.*(?:${tests.source}))(?=.*(?:${ONLY.source}))`) : tests);
const contract = { testDir: path.join(__dirname, 'specs'), testMatch: SPEC_FILES, use: contractUse };

export default defineConfig({
  // Three at least: the serial tests and two real-time waits side by side. Playwright's default is half the cores.
  workers: Math.max(3, Math.ceil(availableParallelism() / 2)),
  // The preflight (global-setup.ts): a remote target's URLs and key proved before any worker starts.
  globalSetup: path.join(__dirname, 'harness', 'preflight', `global-setup${EXT}`),
  forbidOnly: !!process.env.CI,
  outputDir: path.join(OUT_DIR, 'test-results'),
  // The summary reporter comes before html: its onEnd titles the html report (the verdict), and it prints the run's last lines once every reporter ended.
  reporter: [
    ['list'],
    [
      path.join(__dirname, 'harness', 'report', `summary-reporter${EXT}`),
      { target, htmlDir: HTML_DIR, junitFile: JUNIT_FILE, summaryDir: path.join(OUT_DIR, 'summary') } satisfies SummaryReporterOptions,
    ],
    ['html', { outputFolder: HTML_DIR, open: 'never' }],
    ['junit', { outputFile: JUNIT_FILE }],
  ],
  projects: [
    {
      name: 'unit',
      testDir: '.',
      testMatch: ['contracts/**/*.test.ts', 'schemas/**/*.test.ts', 'mock/**/*.test.ts', 'harness/**/*.test.ts', 'load/**/*.test.ts', 'tools/**/*.test.ts'],
    },
    // The suite's tests of itself (child runs, production guard, secret-leak gate, reports), on embedded mocks of their own: a remote run would repeat them.
    ...(suite.target.kind === 'remote' ? [] : [{ name: 'self', testDir: path.join(__dirname, 'specs', 'self'), testMatch: SELF_FILES, use: contractUse }]),
    {
      // Everything that may share the key's budget with other workers.
      name: 'contract',
      ...contract,
      ...(ONLY ? { grep: ONLY } : {}),
      grepInvert: [SERIAL, SLOW],
      fullyParallel: true,
      // The serial tests run after these, in a phase of their own, however these fared: a teardown project is not skipped when the project it tears down fails,
      // as a dependent would be. The two empty projects give one teardown each, so that the serial and the real-time tests follow these, side by side.
      dependencies: slowBeside ? ['contract-serial-start', 'contract-slow-start'] : ['contract-serial-start'],
    },
    { name: 'contract-serial-start', testMatch: [], teardown: 'contract-serial' },
    ...(slowBeside ? [{ name: 'contract-slow-start', testMatch: [], teardown: 'contract-slow' }] : []),
    // Tests that count requests, move the target's clock or end a token others may share: alone, after the others. As a teardown it runs whole, whatever file
    // or --grep filters say: add --no-deps (with --project=contract or --project=contract-serial) to run only the tests of one file.
    { name: 'contract-serial', ...contract, grep: phase(SERIAL), workers: 1, ...(slowBeside ? {} : { teardown: 'contract-slow' }) },
    // Tests that wait in real time (LP_FULL=1), each in a worker of its own.
    { name: 'contract-slow', ...contract, grep: phase(SLOW), grepInvert: SERIAL, fullyParallel: true },
  ],
});
