/**
 * What the child run of `npm run test:faults` hands to its runner: every test of every project with
 * its outcome. Written by reporter.ts as JSON, read by tools/fault-matrix/cli.ts. Plain data, so the
 * matrix (matrix.ts) is built and tested without running Playwright.
 */

/** What the test did: `failed` is failed or timed out, whether expected (a fault project's brokenRule) or not. */
export type TestStatus = 'passed' | 'failed' | 'skipped' | 'notRun';

export interface TestOutcome {
  /** The spec file, relative to specs/. */
  readonly file: string;
  /** Describe blocks and title, joined by ` › ` (tags included, as Playwright keeps them). */
  readonly title: string;
  readonly status: TestStatus;
  /** The first error, redacted, without colours, cut short; empty unless failed. */
  readonly message: string;
  /** Rules of contracts/rules/ the test declares it checks (its `rule` annotations). */
  readonly rules: readonly string[];
  /** Rules of its platform deviations (the `platform-deviation` annotations the verdict added). */
  readonly deviations: readonly string[];
  /** Each error of its run, soft failures included, whatever its status: where Playwright located it and its message (failure-form.ts reads them). */
  readonly failures: readonly FailureSite[];
}

/** One error of a test, as the report shows it. */
export interface FailureSite {
  /** The file Playwright located it in, relative to specs/ (`content.spec.ts`, `../harness/…`), or empty when it has no location. */
  readonly file: string;
  readonly line: number;
  /** Its message, redacted, without colours, cut short. */
  readonly message: string;
}

export interface ProjectOutcome {
  readonly project: string;
  readonly tests: readonly TestOutcome[];
}

export interface RunOutcome {
  /** Playwright's status of the whole run: `failed` is expected (faults make tests fail). */
  readonly status: 'passed' | 'failed' | 'timedout' | 'interrupted';
  readonly projects: readonly ProjectOutcome[];
  /** Errors outside any test (a config that did not load, a worker that crashed), redacted. */
  readonly errors: readonly string[];
}

/** `file › describe › title`, how the matrix names a test. */
export function testName(t: Pick<TestOutcome, 'file' | 'title'>): string {
  return `${t.file} › ${t.title}`;
}
