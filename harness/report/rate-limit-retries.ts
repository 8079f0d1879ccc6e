/**
 * Counts what the rate limit cost the run, from the annotations the fixtures add (specs/fixtures/index.ts):
 * 429s met and retried outside @quota tests, and waits the suite made to stay under the limit. Prints
 * one line when there was any, before the summary line. Neither is a failure, but a run that needs
 * many is spending more than its share of the key's budget, and whoever reads the log should know.
 */
import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';

/** RETRY_ANNOTATION and THROTTLE_ANNOTATION of specs/fixtures/index.ts (not imported: a reporter loads without the fixtures). */
const RETRY = 'rate-limit-retry';
const THROTTLE = 'rate-limit-wait';

export default class RateLimitRetriesReporter implements Reporter {
  #retries = 0;
  #waits = 0;
  #waitedMs = 0;
  readonly #tests = new Set<string>();

  onTestEnd(test: TestCase, result: TestResult): void {
    for (const annotation of result.annotations) {
      if (annotation.type === RETRY) this.#retries++;
      else if (annotation.type === THROTTLE) {
        this.#waits++;
        this.#waitedMs += Number(/(\d+) ms/.exec(annotation.description ?? '')?.[1] ?? 0);
      } else continue;
      this.#tests.add(test.id);
    }
  }

  onEnd(_result: FullResult): void {
    if (this.#retries === 0 && this.#waits === 0) return;
    console.log(
      `rate limit: ${this.#retries} request(s) retried after 429 (Retry-After honoured), ${this.#waits} wait(s) for a window to reset` +
        ` (${(this.#waitedMs / 1000).toFixed(1)} s), in ${this.#tests.size} test(s); see the "${RETRY}" and "${THROTTLE}" annotations`,
    );
  }

  printsToStdio(): boolean {
    return true;
  }
}
