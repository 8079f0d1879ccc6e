/**
 * What every script's plan shares: k6 option shapes, thresholds, the rate and the budget share.
 *
 * Why the plans come from LP_RATE and not from the target: k6 fixes the scenarios in the init context,
 * before `setup()` runs, and the init context may not make requests that count. So each plan is
 * computed from LP_RATE (default contracts DEFAULT_RATE, 200/1m) and `setup()` compares it with the
 * target's headers (compareRate): a different period stops the run with a sentence, a different
 * budget is reported.
 *
 * Plain objects shaped like k6's Options (no import from k6, so Node tests can read them); the entry
 * files type them as `Options`.
 */
import { parsePeriod, type Rate } from '../../../contracts/duration.ts';
import { ENDPOINTS } from '../../../contracts/endpoints.ts';
import type { RateLimitHeaders } from '../../../contracts/rate-limit.ts';
import { RESPONSE_RULE_IDS, RULE_IDS, type RuleId, ruleLevel } from '../../../contracts/rules/index.ts';
import { readDefaulted, type SettingName } from '../../../contracts/settings.ts';
import { EnvError, type EnvRecord, envFlag, envNumber, envString, readRate } from '../env.ts';
import { METRICS } from '../metrics.ts';
import { type Grid, planGrid } from '../pacing.ts';

export type Thresholds = Record<string, string[]>;

interface BaseScenario {
  readonly exec?: string;
  readonly gracefulStop?: string;
  readonly tags?: Record<string, string>;
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

export const TREND_STATS = ['avg', 'min', 'med', 'max', 'p(90)', 'p(95)', 'count'];

/** Every script fails on a failed check and on any unexpected HTTP status (the response callback says which are expected). */
export const COMMON_THRESHOLDS: Thresholds = {
  checks: ['rate==1'],
  http_req_failed: ['rate==0'],
};

/**
 * What the plan of every paced script (smoke, pagination, token-lifecycle) holds. Each plans to stay
 * within the budget: a 429 means the plan or LP_RATE is wrong, or another client shares the key.
 */
export interface PacedPlan {
  readonly rate: Rate | null;
  /** LP_BUDGET_SHARE: the share of the budget planned. */
  readonly share: number;
  /** The grid of the whole test (one instance); a distributed instance plans its own from its segment. */
  readonly grid: Grid;
  /** The rules the run judges and reports, in report order: every per-response rule and the script's own. */
  readonly rules: readonly RuleId[];
  /** LP_STRICT: a broken platform rule fails the run. */
  readonly strict: boolean;
  /** Sentences for what LP_SCOPES leaves out. */
  readonly skipped: readonly string[];
}

/** LP_RATE, LP_BUDGET_SHARE and LP_STRICT, the grid, and the rules of a script that judges `own` itself. */
export function pacedPlan(env: EnvRecord, own: readonly RuleId[], skipped: readonly string[]): PacedPlan {
  const rate = readRate(env);
  // The share of the budget planned (LP_BUDGET_SHARE, default 0.8): the rest absorbs timing noise.
  const share = envNumber(env, 'LP_BUDGET_SHARE');
  const rules = RULE_IDS.filter((id) => RESPONSE_RULE_IDS.includes(id) || own.includes(id));
  return { rate, share, grid: planGrid(rate, share), rules, strict: envFlag(env, 'LP_STRICT'), skipped };
}

/** The thresholds of a paced script whose findings of `plan.rules` go to `metric`. */
export function pacedThresholds(metric: string, plan: PacedPlan): Thresholds {
  return { ...COMMON_THRESHOLDS, [METRICS.rateLimited]: ['count==0'], ...ruleThresholds(metric, plan.rules, plan.strict) };
}

/**
 * Thresholds on a findings counter tagged with rule ids: a contract rule fails the run on its first
 * finding; a platform rule is reported (its threshold always holds) and fails only with LP_STRICT=1.
 * A threshold on each tagged submetric makes k6 report its count in the summary data: that is how
 * handleSummary learns which rule broke (it only sees aggregates). The always-true ones on
 * METRICS.rulesJudged{rule:…} only make k6 report each rule's count of judgements, which tells the
 * reports a rule that held (judged, never broken) from one no request exercised.
 */
export function ruleThresholds(metric: string, rules: readonly RuleId[], strict: boolean): Thresholds {
  const thresholds: Thresholds = {};
  for (const rule of rules) {
    thresholds[`${metric}{rule:${rule}}`] = [strict || ruleLevel(rule) === 'contract' ? 'count==0' : 'count>=0'];
    thresholds[`${METRICS.rulesJudged}{rule:${rule}}`] = ['count>=0'];
  }
  return thresholds;
}

/** Whole seconds, at least 1, as k6 writes a duration. */
export function seconds(value: number): string {
  return `${Math.max(1, Math.ceil(value))}s`;
}

/** A duration variable in the API's notation (`90s`, `2m`); `fallback` seconds when unset. */
export function envDurationSeconds(env: EnvRecord, name: SettingName, fallback: number): number {
  const text = envString(env, name);
  if (text === undefined) return fallback;
  const value = parsePeriod(text);
  if (value === undefined) throw new EnvError(`${name} "${text}" is not a duration like 90s, 2m or 1h.`);
  return value;
}

export function requireRate(env: EnvRecord, script: string): Rate {
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

/** The list endpoints a script may call with the scopes of LP_SCOPES (contracts/endpoints.ts acceptedScopes). */
export type ListEndpoint = typeof ENDPOINTS.listContent | typeof ENDPOINTS.listUsers;

export interface ScopedLists {
  /** The lists a token with these scopes may call, content first. */
  readonly held: readonly ListEndpoint[];
  /** One sentence per list left out, naming the scopes it needs. */
  readonly skipped: readonly string[];
}

/**
 * Which lists the scripts may call: a script never sends a request the key's scopes do not cover (it
 * would be refused, and count in the budget all the same); it leaves that part out with a sentence.
 */
export function scopedLists(scopes: readonly string[], script: string): ScopedLists {
  const held: ListEndpoint[] = [];
  const skipped: string[] = [];
  for (const endpoint of [ENDPOINTS.listContent, ENDPOINTS.listUsers] as const) {
    const accepted: readonly string[] = endpoint.acceptedScopes;
    if (accepted.some((scope) => scopes.includes(scope))) held.push(endpoint);
    else skipped.push(`${script}: LP_SCOPES ${scopes.join(',')} holds neither ${accepted.join(' nor ')}, so GET ${endpoint.path} is left out.`);
  }
  return { held, skipped };
}

/** The rule a served answer of `list` to a token of its scope keeps: users.list, or the platform's scope of the content list. */
export function listRule(list: ListEndpoint): RuleId {
  return list.id === 'listUsers' ? 'users.list' : 'platform.endpoint-scopes';
}

/** LP_SCOPES as the scripts request it (load/lib/env.ts readLoadEnv reads the same). */
export function envScopes(env: EnvRecord): string[] {
  return readDefaulted(env, 'LP_SCOPES');
}
