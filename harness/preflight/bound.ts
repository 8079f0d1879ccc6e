/**
 * The longest a contract run can take, said before it starts (by the summary reporter): a simple bound from what waits in real time. The tests themselves are a
 * few minutes even on a busy machine; what can make a run long is stated by the settings that allow it: @quota tests spending a real key's budget (LP_QUOTA=1
 * without a control plane: up to two rate windows each, a sliding window being waited out once), @slow tests (LP_FULL=1: a snapshot lifetime each), and the
 * workers' logout of their tokens (one window at most).
 */
import { DEFAULT_RATE, SNAPSHOT_TTL_SECONDS } from '../../contracts/limits.ts';
import type { SuiteConfig } from '../run/config.ts';

/** Everything but the waits: measured at 1 to 2 minutes for the whole suite on a busy two-core machine, doubled and rounded up. */
const TESTS_SECONDS = 5 * 60;
/** Per waiting test, over its waits: its own requests and a slow answer. */
const SLACK_SECONDS = 30;
const CLEANUP_CAP_SECONDS = 90;

/** `longest: about N min (…)`: the bound and what it is made of, for `counts` tests tagged @quota and @slow. */
export function boundLine(config: SuiteConfig, counts: { quota: number; slow: number }): string {
  const t = config.target;
  const control = t.kind === 'mock' ? !t.blind : t.controlUrl !== undefined;
  const period = ((t.kind === 'remote' ? t.rate : undefined) ?? DEFAULT_RATE).periodSeconds;
  const parts = [`${TESTS_SECONDS / 60} min for the tests`];
  let seconds = TESTS_SECONDS;
  if (!control && config.quota && counts.quota > 0) {
    seconds += counts.quota * (2 * period + SLACK_SECONDS);
    parts.push(`${counts.quota} @quota tests × (2 windows of ${period} s + ${SLACK_SECONDS} s) with LP_QUOTA=1`);
  }
  if (config.full && counts.slow > 0) {
    seconds += counts.slow * (SNAPSHOT_TTL_SECONDS + SLACK_SECONDS);
    parts.push(`${counts.slow} @slow tests × (${SNAPSHOT_TTL_SECONDS} s + ${SLACK_SECONDS} s) with LP_FULL=1`);
  }
  const cleanup = Math.min(period + 10, CLEANUP_CAP_SECONDS);
  if (t.kind === 'remote') {
    seconds += cleanup;
    parts.push(`${cleanup} s for the logout of the tokens`);
  }
  return `longest: about ${Math.ceil(seconds / 60)} min (${parts.join(', ')})`;
}
