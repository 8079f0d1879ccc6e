/**
 * Each script's k6 options (scenario and thresholds), computed in the init context from LP_* only.
 *
 * Why the rate comes from LP_RATE and not from the target: k6 fixes the scenarios before `setup()`
 * runs, and the init context may not make requests that count. So the plan is computed from LP_RATE
 * (default contracts DEFAULT_RATE, 200/1m) and `setup()` compares it with the target's headers
 * (compareRate): a different period stops the run with a sentence, a different budget is reported.
 *
 * Plain objects shaped like k6's Options (no import from k6, so Node tests can read them); the entry
 * files type them as `Options`.
 */
import { formatPeriod, parsePeriod, type Rate } from '../../contracts/duration.ts';
import { PAGE_LIMIT, SNAPSHOT_TTL_SECONDS } from '../../contracts/limits.ts';
import type { RateLimitHeaders } from '../../contracts/rate-limit.ts';
import { type ExpectedRate, RATE_RULES, SPEND_PAST_BUDGET } from '../../contracts/rate-limit-rules.ts';
import { type RuleId, ruleLevel } from '../../contracts/rules.ts';
import { EnvError, type EnvRecord, envInt, envNumber, envString, readRate } from './env.ts';
import { WALK_RULES, type WalkRule } from './walk.ts';

/** Custom metric names: created by the entry files, thresholded here, read back by load/lib/summary.ts. */
export const METRICS = {
  /** Counter, tag `rule` (an id of contracts/rules.ts): a rate-limit rule broken. */
  rateFindings: 'lp_rate_findings',
  /** Counter: 429s received. The probe needs some (it adds 0 per 2xx so the metric always has samples); the paced scripts none. */
  rateLimited: 'lp_rate_limited',
  /** Counter: requests sent once Retry-After had passed that were served (0 added per response). */
  retryHonoured: 'lp_retry_honoured',
  /** Trend: requests served before the first 429, in windows seen from their first request. */
  budgetMeasured: 'lp_budget_measured',
  /** Counter: windows measured from their first request to their first 429. */
  windowsMeasured: 'lp_windows_measured',
  /** Trend (time): from a window's first response to its first 429. */
  timeToFirst429: 'lp_time_to_first_429',
  /** Trend: seconds between the instant Retry-After names and X-Rate-Limit-Reset. */
  retryAfterApart: 'lp_retry_after_apart_seconds',
  /** Trend, tag `bucket`: X-Rate-Limit-Remaining over time, for the plot. */
  plotRemaining: 'lp_plot_remaining',
  /** Counter, tag `bucket`: 429s over time, for the plot. */
  plotRefused: 'lp_plot_429',
  /** Counter, tag `rule`: a traversal invariant broken. */
  walkViolations: 'lp_walk_violations',
  /** Counter: walks that reached their final page. */
  walksCompleted: 'lp_walks_completed',
  /** Trend: pages per completed walk. */
  walkPages: 'lp_walk_pages',
  /** Counter, tag `rule`: a token lifecycle rule broken. */
  lifecycleViolations: 'lp_lifecycle_violations',
  /** Counter: issue → use → log out → refused cycles that completed. */
  lifecyclesCompleted: 'lp_lifecycles_completed',
  /** Counter, tag `rule`: a smoke check of an endpoint failed. */
  smokeViolations: 'lp_smoke_violations',
} as const;

/** The token lifecycle's rules (document, States and transitions; Authentication 9). */
export const LIFECYCLE_RULES = {
  'token-issued': 'a token request with valid credentials gets an access token',
  'token-works': 'a fresh token lists content',
  'logout-accepted': 'logout with the bearer token succeeds',
  'logged-out-refused': 'a logged-out token no longer authenticates (401, or 403 where the document is open)',
} as const;
export type LifecycleRule = keyof typeof LIFECYCLE_RULES;

/** What smoke.ts checks on each endpoint. */
export const SMOKE_RULES = {
  token: 'the token endpoint issues a token matching the token schema',
  status: 'each endpoint answers 2xx',
  schema: 'each list matches its schema',
  'rate-headers': 'each api response carries well-formed X-Rate-Limit-* headers',
  pagination: 'the next page of a list is reachable with next',
  logout: 'logout succeeds and the token is refused afterwards',
} as const;
export type SmokeRule = keyof typeof SMOKE_RULES;

type Thresholds = Record<string, string[]>;

interface BaseScenario {
  readonly exec?: string;
  readonly gracefulStop?: string;
  readonly tags?: Record<string, string>;
}
export interface ConstantArrivalRateScenario extends BaseScenario {
  readonly executor: 'constant-arrival-rate';
  readonly rate: number;
  readonly timeUnit: string;
  readonly duration: string;
  readonly preAllocatedVUs: number;
  readonly maxVUs: number;
}
export interface ConstantVusScenario extends BaseScenario {
  readonly executor: 'constant-vus';
  readonly vus: number;
  readonly duration: string;
}
export interface PerVuIterationsScenario extends BaseScenario {
  readonly executor: 'per-vu-iterations';
  readonly vus: number;
  readonly iterations: number;
  readonly maxDuration: string;
}

export interface LoadOptions<S> {
  readonly scenarios: Record<string, S>;
  readonly thresholds: Thresholds;
  readonly setupTimeout?: string;
  readonly teardownTimeout?: string;
  readonly summaryTrendStats: string[];
}

const TREND_STATS = ['avg', 'min', 'med', 'max', 'p(90)', 'p(95)', 'count'];

/** Every script fails on a failed check and on any unexpected HTTP status (the response callback says which are expected). */
const COMMON_THRESHOLDS: Thresholds = {
  checks: ['rate==1'],
  http_req_failed: ['rate==0'],
};

/** The paced scripts plan to stay within the budget: a 429 means the plan or LP_RATE is wrong, or another client shares the key. */
const PACED_THRESHOLDS: Thresholds = {
  [METRICS.rateLimited]: ['count==0'],
};

/**
 * Thresholds on a findings counter tagged with rule ids: a contract rule fails the run on its first
 * finding; a platform rule is reported (its threshold always holds) and fails only with LP_STRICT=1.
 */
export function ruleThresholds(metric: string, rules: readonly RuleId[], strict: boolean): Thresholds {
  const thresholds: Thresholds = {};
  for (const rule of rules) thresholds[`${metric}{rule:${rule}}`] = [strict || ruleLevel(rule) === 'contract' ? 'count==0' : 'count>=0'];
  return thresholds;
}

function perRule(metric: string, rules: readonly string[]): Thresholds {
  const thresholds: Thresholds = { [metric]: ['count==0'] };
  // A threshold on each tagged submetric makes k6 report its count in the summary data: that is how
  // handleSummary learns which rule failed (it only sees aggregates).
  for (const rule of rules) thresholds[`${metric}{rule:${rule}}`] = ['count==0'];
  return thresholds;
}

function seconds(value: number): string {
  return `${Math.max(1, Math.ceil(value))}s`;
}

/** A duration variable in the API's notation (`90s`, `2m`); `fallback` seconds when unset. */
export function envDurationSeconds(env: EnvRecord, name: string, fallback: number): number {
  const text = envString(env, name);
  if (text === undefined) return fallback;
  const value = parsePeriod(text);
  if (value === undefined) throw new EnvError(`${name} "${text}" is not a duration like 90s, 2m or 1h.`);
  return value;
}

function requireRate(env: EnvRecord, script: string): Rate {
  const rate = readRate(env);
  if (rate === null) throw new EnvError(`LP_RATE is 0 (no limit), but ${script} needs the target's rate: set LP_RATE to it, e.g. 20/10s.`);
  return rate;
}

export interface RateMismatch {
  /**
   * A different period makes the plan wrong (the scenario is timed on it): the run stops. A
   * different budget is only reported: the probe measures the budget itself and its thresholds
   * compare it with LP_RATE, and a budget the headers overstate may be the very fault to find.
   */
  readonly fatal: boolean;
  readonly reason: string;
}

/**
 * How a target's rate-limit headers disagree with LP_RATE, or `undefined` when they agree.
 * `remaining` of the first response of a window is budget - 1, so a fresh window must say exactly
 * that; a window already in use can only show less.
 */
export function compareRate(rate: Rate, headers: RateLimitHeaders, freshWindow: boolean): RateMismatch | undefined {
  const lpRate = `LP_RATE ${rate.requests}/${rate.period}`;
  if (headers.periodSeconds !== rate.periodSeconds) {
    return {
      fatal: true,
      reason: `X-Rate-Limit-Limit says the period is ${headers.period} but ${lpRate} says ${rate.period}: set LP_RATE to the target's rate.`,
    };
  }
  if (headers.remaining + 1 > rate.requests) {
    return {
      fatal: false,
      reason: `X-Rate-Limit-Remaining ${headers.remaining} allows a budget of at least ${headers.remaining + 1} but ${lpRate} says ${rate.requests}: set LP_RATE to the target's rate (or the target miscounts).`,
    };
  }
  if (freshWindow && headers.remaining + 1 !== rate.requests) {
    return {
      fatal: false,
      reason: `the first request of a window left X-Rate-Limit-Remaining ${headers.remaining}, a budget of ${headers.remaining + 1}, but ${lpRate} says ${rate.requests}: set LP_RATE to the target's rate (or another client shares this key).`,
    };
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// rate-limit.ts: the probe

export interface PlotPlan {
  /** Milliseconds per bucket of the Remaining / 429 plot. */
  readonly bucketMs: number;
  readonly buckets: number;
}

export interface ProbePlan {
  readonly expected: ExpectedRate;
  /** Windows measured from their first request to their first 429 (LP_PROBE_WINDOWS, default 2). */
  readonly windows: number;
  /** The longest the probe may take: a period to start fresh, then per window its spending, a period of Retry-After and a period of rest. */
  readonly durationSeconds: number;
  /** Requests the probe may send in all: a bound on its loop. */
  readonly maxRequests: number;
  readonly plot: PlotPlan;
}

/** Buckets of the probe's plot: at most this many, each a whole number of seconds. */
export const PLOT_MAX_BUCKETS = 60;

export function plotPlan(durationSeconds: number): PlotPlan {
  const bucketSeconds = Math.max(1, Math.ceil(durationSeconds / PLOT_MAX_BUCKETS));
  return { bucketMs: bucketSeconds * 1000, buckets: Math.ceil(durationSeconds / bucketSeconds) + 1 };
}

/** A bucket's tag value: zero-padded so that tags sort in time order. */
export function bucketTag(index: number): string {
  return index < 10 ? `0${index}` : String(index);
}

/** The bucket of a moment `elapsedMs` after the scenario started, clamped to the plan. */
export function bucketOf(plan: PlotPlan, elapsedMs: number): string {
  return bucketTag(Math.min(plan.buckets - 1, Math.max(0, Math.floor(elapsedMs / plan.bucketMs))));
}

/** Seconds a request may take when the probe bounds its time: a slow real target, not the mock. */
const PROBE_REQUEST_SECONDS = 0.25;

/** LP_RATE (default 200/1m, then a platform check), LP_PROBE_WINDOWS (default 2). */
export function probePlan(env: EnvRecord): ProbePlan {
  const rate = requireRate(env, 'the rate-limit probe');
  const explicit = envString(env, 'LP_RATE') !== undefined;
  const windows = envInt(env, 'LP_PROBE_WINDOWS', 2, { min: 1, max: 10 });
  const perWindowRequests = 2 * rate.requests + SPEND_PAST_BUDGET + 3;
  const perWindowSeconds = 2 * rate.periodSeconds + 3 + perWindowRequests * PROBE_REQUEST_SECONDS;
  // One window more than asked: a window whose boundary fell while it was spent measures nothing and is tried again.
  const durationSeconds = Math.ceil(rate.periodSeconds + 2 + (windows + 1) * perWindowSeconds);
  return {
    expected: { rate, explicit },
    windows,
    durationSeconds,
    maxRequests: (windows + 1) * perWindowRequests + 4,
    plot: plotPlan(durationSeconds),
  };
}

export function probeOptions(plan: ProbePlan, strict: boolean): LoadOptions<PerVuIterationsScenario> {
  const plotThresholds: Thresholds = {};
  for (let i = 0; i < plan.plot.buckets; i++) {
    // Always true: they exist so that handleSummary receives the per-bucket aggregates for the plot.
    plotThresholds[`${METRICS.plotRemaining}{bucket:${bucketTag(i)}}`] = ['min>=0'];
    plotThresholds[`${METRICS.plotRefused}{bucket:${bucketTag(i)}}`] = ['count>=0'];
  }
  return {
    scenarios: {
      probe: {
        executor: 'per-vu-iterations',
        // One VU, one iteration that runs the whole course (load/lib/probe.ts): its requests go one
        // after the other, so the order of the answers is the target's order of counting.
        vus: 1,
        iterations: 1,
        maxDuration: seconds(plan.durationSeconds + 10),
        gracefulStop: '5s',
      },
    },
    thresholds: {
      ...COMMON_THRESHOLDS,
      ...ruleThresholds(METRICS.rateFindings, RATE_RULES, strict),
      // The probe proves nothing unless it went past the budget, measured it, and saw a retry served.
      [METRICS.rateLimited]: ['count>0'],
      [METRICS.retryHonoured]: ['count>0'],
      [METRICS.windowsMeasured]: ['count>0'],
      ...plotThresholds,
    },
    // setup() waits out a window spent by an earlier run (Retry-After, at most a period).
    setupTimeout: seconds(plan.expected.rate.periodSeconds + 60),
    summaryTrendStats: TREND_STATS,
  };
}

// ---------------------------------------------------------------------------------------------
// Pacing shared by pagination.ts, token-lifecycle.ts and smoke.ts: stay within the budget.

/** Share of the budget the non-probe scripts plan to use (LP_BUDGET_SHARE, default 0.8): the rest absorbs timing noise. */
export function budgetShare(env: EnvRecord): number {
  return envNumber(env, 'LP_BUDGET_SHARE', 0.8, { min: 0.05, max: 1 });
}

/** Seconds between two requests of one VU so that `vus` VUs together stay within `share` of the rate. */
export function requestIntervalSeconds(rate: Rate | null, vus: number, share: number): number {
  if (rate === null) return 0;
  return (vus * rate.periodSeconds) / (share * rate.requests);
}

/** Spaces one VU's requests: how long to wait before the next one. */
export class Pacer {
  private readonly intervalMs: number;
  private lastMs: number | undefined;

  constructor(intervalSeconds: number) {
    this.intervalMs = Math.max(0, intervalSeconds * 1000);
  }

  /** Seconds to sleep at `nowMs` before sending; then call `sent`. */
  waitSeconds(nowMs: number): number {
    if (this.lastMs === undefined) return 0;
    return Math.max(0, this.lastMs + this.intervalMs - nowMs) / 1000;
  }

  sent(nowMs: number): void {
    this.lastMs = nowMs;
  }
}

// ---------------------------------------------------------------------------------------------
// pagination.ts

export interface PaginationPlan {
  readonly rate: Rate | null;
  readonly vus: number;
  readonly durationSeconds: number;
  readonly limit: number;
  /** Seconds between two page requests of one VU. */
  readonly intervalSeconds: number;
  /** LP_EXPECTED_ITEMS: items a content walk must yield (the mock's `--items`); unchecked when unset. */
  readonly expectedItems: number | undefined;
  /** LP_MAX_PAGES: pages after which a walk stops early, as a sample of a large data set (betatest); default: walk to the end. */
  readonly stopAfter: number | undefined;
}

/** LP_VUS (default 5), LP_DURATION (default two windows, at least 30 s), LP_PAGE_LIMIT (default 50), LP_BUDGET_SHARE, LP_EXPECTED_ITEMS, LP_MAX_PAGES. */
export function paginationPlan(env: EnvRecord): PaginationPlan {
  const rate = readRate(env);
  const vus = envInt(env, 'LP_VUS', 5, { min: 1, max: 500 });
  const durationSeconds = envDurationSeconds(env, 'LP_DURATION', Math.max(30, 2 * (rate?.periodSeconds ?? 0)));
  const limit = envInt(env, 'LP_PAGE_LIMIT', 50, { min: PAGE_LIMIT.min, max: PAGE_LIMIT.max });
  const intervalSeconds = requestIntervalSeconds(rate, vus, budgetShare(env));
  // A VU that waits longer than a snapshot lives would see its own walk expire: a plan error, not a finding.
  if (intervalSeconds >= SNAPSHOT_TTL_SECONDS / 2) {
    throw new EnvError(
      `LP_VUS ${vus} at ${rate?.requests}/${rate?.period} spaces each walk's pages ${Math.round(intervalSeconds)} s apart, too close to the ${SNAPSHOT_TTL_SECONDS} s a snapshot lives: lower LP_VUS.`,
    );
  }
  const expected = envString(env, 'LP_EXPECTED_ITEMS');
  const expectedItems = expected === undefined ? undefined : envInt(env, 'LP_EXPECTED_ITEMS', 0, { min: 0, max: 10_000_000 });
  const stopAfter = envString(env, 'LP_MAX_PAGES') === undefined ? undefined : envInt(env, 'LP_MAX_PAGES', 0, { min: 1, max: 100_000 });
  if (expectedItems !== undefined && stopAfter !== undefined)
    throw new EnvError('LP_EXPECTED_ITEMS and LP_MAX_PAGES exclude each other: a sampled walk cannot count the whole data set.');
  return { rate, vus, durationSeconds, limit, intervalSeconds, expectedItems, stopAfter };
}

export function paginationOptions(plan: PaginationPlan): LoadOptions<ConstantVusScenario> {
  return {
    scenarios: {
      walkers: {
        executor: 'constant-vus',
        vus: plan.vus,
        duration: seconds(plan.durationSeconds),
        // Lets most walks in progress reach their final page; an interrupted walk is not a finding.
        gracefulStop: seconds(Math.min(SNAPSHOT_TTL_SECONDS, 10 * plan.intervalSeconds + 10)),
      },
    },
    thresholds: {
      ...COMMON_THRESHOLDS,
      ...PACED_THRESHOLDS,
      ...perRule(METRICS.walkViolations, Object.keys(WALK_RULES) as WalkRule[]),
      [METRICS.walksCompleted]: ['count>0'],
    },
    summaryTrendStats: TREND_STATS,
  };
}

// ---------------------------------------------------------------------------------------------
// token-lifecycle.ts

/** Api-origin requests of one lifecycle (use, log out, refused use): what it costs of the budget. */
export const LIFECYCLE_API_REQUESTS = 3;

export interface LifecyclePlan {
  readonly rate: Rate | null;
  /** Lifecycles started per `timeUnit`. */
  readonly arrivalRate: number;
  readonly timeUnit: string;
  readonly durationSeconds: number;
  readonly maxVus: number;
}

/** LP_DURATION (default two windows, at least 30 s), LP_VUS (most lifecycles at once, default 5), LP_BUDGET_SHARE. */
export function lifecyclePlan(env: EnvRecord): LifecyclePlan {
  const rate = readRate(env);
  const durationSeconds = envDurationSeconds(env, 'LP_DURATION', Math.max(30, 2 * (rate?.periodSeconds ?? 0)));
  const maxVus = envInt(env, 'LP_VUS', 5, { min: 1, max: 500 });
  const share = budgetShare(env);
  if (rate === null) return { rate, arrivalRate: 5, timeUnit: '1s', durationSeconds, maxVus };
  const arrivalRate = Math.floor((share * rate.requests) / LIFECYCLE_API_REQUESTS);
  if (arrivalRate < 1) {
    throw new EnvError(
      `LP_RATE ${rate.requests}/${rate.period} leaves no room for one lifecycle (${LIFECYCLE_API_REQUESTS} requests) per window: raise LP_BUDGET_SHARE.`,
    );
  }
  return { rate, arrivalRate, timeUnit: formatPeriod(rate.periodSeconds), durationSeconds, maxVus };
}

export function lifecycleOptions(plan: LifecyclePlan): LoadOptions<ConstantArrivalRateScenario> {
  return {
    scenarios: {
      lifecycles: {
        executor: 'constant-arrival-rate',
        rate: plan.arrivalRate,
        timeUnit: plan.timeUnit,
        duration: seconds(plan.durationSeconds),
        preAllocatedVUs: Math.min(plan.maxVus, 2),
        maxVUs: plan.maxVus,
      },
    },
    thresholds: {
      ...COMMON_THRESHOLDS,
      ...PACED_THRESHOLDS,
      ...perRule(METRICS.lifecycleViolations, Object.keys(LIFECYCLE_RULES)),
      [METRICS.lifecyclesCompleted]: ['count>0'],
    },
    summaryTrendStats: TREND_STATS,
  };
}

// ---------------------------------------------------------------------------------------------
// smoke.ts

export interface SmokePlan {
  readonly rate: Rate | null;
  readonly iterations: number;
  readonly intervalSeconds: number;
}

/** LP_ITERATIONS (default 3), LP_BUDGET_SHARE. */
export function smokePlan(env: EnvRecord): SmokePlan {
  const rate = readRate(env);
  const iterations = envInt(env, 'LP_ITERATIONS', 3, { min: 1, max: 100 });
  return { rate, iterations, intervalSeconds: requestIntervalSeconds(rate, 1, budgetShare(env)) };
}

export function smokeOptions(plan: SmokePlan): LoadOptions<PerVuIterationsScenario> {
  return {
    scenarios: {
      smoke: { executor: 'per-vu-iterations', vus: 1, iterations: plan.iterations, maxDuration: '10m' },
    },
    thresholds: {
      ...COMMON_THRESHOLDS,
      ...PACED_THRESHOLDS,
      ...perRule(METRICS.smokeViolations, Object.keys(SMOKE_RULES)),
    },
    summaryTrendStats: TREND_STATS,
  };
}
