/** The rate-limit probe's plan (load/rate-limit.ts): one VU running load/lib/probe.ts's course for LP_PROBE_WINDOWS windows, bounded in time and requests. */
import type { PerVUIterationsScenario } from 'k6/options';
import { rateRuleIds, SPEND_PAST_BUDGET } from '../../../contracts/rules/rate-limit.ts';
import { readDefaulted, settingText } from '../../../common/settings.ts';
import { EnvError, type EnvRecord, readRate } from '../env.ts';
import { METRICS } from '../metrics.ts';
import { COMMON_THRESHOLDS, ruleThresholds, seconds, type Thresholds, TREND_STATS } from './common.ts';

/** Buckets of the probe's plot: at most this many, each a whole number of seconds. */
const PLOT_MAX_BUCKETS = 60;

/** Milliseconds per bucket of the Remaining / 429 plot, and buckets. */
export function plotPlan(durationSeconds: number) {
  const bucketSeconds = Math.max(1, Math.ceil(durationSeconds / PLOT_MAX_BUCKETS));
  return { bucketMs: bucketSeconds * 1000, buckets: Math.ceil(durationSeconds / bucketSeconds) + 1 };
}

/** A bucket's tag value: zero-padded so that tags sort in time order. */
const bucketTag = (index: number) => String(index).padStart(2, '0');

/** The bucket of a moment `elapsedMs` after the scenario started, clamped to the plan. */
export function bucketOf(plan: ReturnType<typeof plotPlan>, elapsedMs: number): string {
  return bucketTag(Math.min(plan.buckets - 1, Math.max(0, Math.floor(elapsedMs / plan.bucketMs))));
}

/** Seconds a request may take when the probe bounds its time: a slow real target, not the mock. */
const PROBE_REQUEST_SECONDS = 0.25;

/** LP_RATE (default 200/1m, then a platform check), LP_PROBE_WINDOWS (default 2). */
export function probePlan(env: EnvRecord) {
  const rate = readRate(env);
  if (rate === null) throw new EnvError("LP_RATE is 0 (no limit), but the rate-limit probe needs the target's rate: set LP_RATE to it, e.g. 20/10s.");
  const explicit = settingText(env, 'LP_RATE') !== undefined;
  const windows = readDefaulted(env, 'LP_PROBE_WINDOWS');
  const perWindowRequests = 2 * rate.requests + SPEND_PAST_BUDGET + 3;
  // The longest the probe may take: a period to start fresh, then per window its spending, a period of Retry-After and one of rest.
  const perWindowSeconds = 2 * rate.periodSeconds + 3 + perWindowRequests * PROBE_REQUEST_SECONDS;
  // One window more than asked: a window whose boundary fell while it was spent measures nothing and is tried again.
  const durationSeconds = Math.ceil(rate.periodSeconds + 2 + (windows + 1) * perWindowSeconds);
  // maxRequests bounds the probe's loop.
  return { expected: { rate, explicit }, windows, durationSeconds, maxRequests: (windows + 1) * perWindowRequests + 4, plot: plotPlan(durationSeconds) };
}

export function probeOptions(plan: ReturnType<typeof probePlan>, strict: boolean) {
  const thresholds: Thresholds = {
    ...COMMON_THRESHOLDS,
    ...ruleThresholds(METRICS.rateFindings, rateRuleIds(), strict),
    // The probe proves nothing unless it went past the budget, measured it, and saw a retry served.
    [METRICS.rateLimited]: ['count>0'],
    [METRICS.retryHonoured]: ['count>0'],
    [METRICS.windowsMeasured]: ['count>0'],
  };
  for (let i = 0; i < plan.plot.buckets; i++) {
    // Always true: they exist so that handleSummary receives the per-bucket aggregates for the plot.
    thresholds[`${METRICS.plotRemaining}{bucket:${bucketTag(i)}}`] = ['min>=0'];
    thresholds[`${METRICS.plotRefused}{bucket:${bucketTag(i)}}`] = ['count>=0'];
  }
  // One VU, one iteration that runs the whole course (load/lib/probe.ts): its requests go one after the other, in the target's order of counting.
  const maxDuration = seconds(plan.durationSeconds + 10);
  const probe: PerVUIterationsScenario = { executor: 'per-vu-iterations', vus: 1, iterations: 1, maxDuration, gracefulStop: '5s' };
  // setup() waits out a window spent by an earlier run (Retry-After, at most a period).
  return { scenarios: { probe }, thresholds, setupTimeout: seconds(plan.expected.rate.periodSeconds + 60), summaryTrendStats: TREND_STATS };
}
