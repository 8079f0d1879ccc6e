/**
 * What every script's plan shares: k6 option shapes, thresholds, the rate and the budget share. k6 fixes the scenarios in the init context, before `setup()`
 * runs, and the init context may not make requests that count: so each plan is computed from LP_RATE and `setup()` compares it with the target's headers
 * (compareRate). Plain objects typed by k6's own option types (types only: Node tests read them).
 */
import type { Scenario } from 'k6/options';
import type { Rate } from '../../../contracts/duration.ts';
import { ENDPOINTS } from '../../../contracts/endpoints.ts';
import type { RateLimitHeaders } from '../../../contracts/rate-limit.ts';
import { RESPONSE_RULE_IDS, RULE_IDS, type RuleId, ruleLevel } from '../../../contracts/rules/index.ts';
import { readDefaulted, readSetting } from '../../../common/settings.ts';
import { type EnvRecord, readRate } from '../env.ts';
import { METRICS } from '../metrics.ts';
import { planGrid } from '../pacing.ts';

export type Thresholds = Record<string, string[]>;

export const TREND_STATS = ['avg', 'min', 'med', 'max', 'p(90)', 'p(95)', 'count'];

/** Every script fails on a failed check and on any unexpected HTTP status (the response callback says which are expected). */
export const COMMON_THRESHOLDS: Thresholds = { checks: ['rate==1'], http_req_failed: ['rate==0'] };

/**
 * The plan of a script within the budget (smoke, pagination, token-lifecycle: a 429 means the plan or LP_RATE is wrong, or another client shares the key):
 * LP_RATE, LP_BUDGET_SHARE (the rest of the budget absorbs timing noise), LP_STRICT, the whole test's grid (a distributed instance plans its own from its
 * segment), the rules judged, in report order (every per-response rule and the script's `own`), and sentences for what LP_SCOPES leaves out.
 */
export function pacedPlan(env: EnvRecord, own: readonly RuleId[], skipped: readonly string[]) {
  const rate = readRate(env);
  const share = readDefaulted(env, 'LP_BUDGET_SHARE');
  const rules = RULE_IDS.filter((id) => RESPONSE_RULE_IDS.includes(id) || own.includes(id));
  return { rate, share, grid: planGrid(rate, share), rules, strict: readSetting(env, 'LP_STRICT') === true, skipped };
}

export type PacedPlan = ReturnType<typeof pacedPlan>;

/** The options of a paced script: its scenarios, the thresholds of its findings of `plan.rules` on `metric`, and its `own`. */
export function pacedOptions(plan: PacedPlan, metric: string, scenarios: Record<string, Scenario>, own: Thresholds = {}) {
  const thresholds = { ...COMMON_THRESHOLDS, [METRICS.rateLimited]: ['count==0'], ...ruleThresholds(metric, plan.rules, plan.strict), ...own };
  return { scenarios, thresholds, summaryTrendStats: TREND_STATS };
}

/**
 * Thresholds on a findings counter tagged with rule ids: a contract rule fails the run on its first finding, a platform rule only with LP_STRICT=1. Only a
 * thresholded submetric reaches handleSummary: the always-true ones on METRICS.rulesJudged tell a rule that held from one no request exercised.
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
export const seconds = (value: number): string => `${Math.max(1, Math.ceil(value))}s`;

/** LP_DURATION in seconds; by default two windows, at least 30 s. */
export const runSeconds = (env: EnvRecord, rate: Rate | null): number => readSetting(env, 'LP_DURATION') ?? Math.max(30, 2 * (rate?.periodSeconds ?? 0));

/**
 * How a target's rate-limit headers disagree with LP_RATE, or `undefined` when they agree. A different period is `fatal` (the scenario is timed on it); a
 * larger budget is only reported: it may be the very fault to find. A window in use may leave any Remaining below the budget.
 */
export function compareRate(rate: Rate, headers: RateLimitHeaders): { fatal: boolean; reason: string } | undefined {
  const lpRate = `LP_RATE ${rate.requests}/${rate.period}`;
  const period = `X-Rate-Limit-Limit says the period is ${headers.period} but ${lpRate} says ${rate.period}`;
  if (headers.periodSeconds !== rate.periodSeconds) return { fatal: true, reason: `${period}: set LP_RATE to the target's rate.` };
  if (headers.remaining + 1 <= rate.requests) return undefined;
  const budget = `X-Rate-Limit-Remaining ${headers.remaining} allows a budget of at least ${headers.remaining + 1}`;
  return { fatal: false, reason: `${budget} but ${lpRate} says ${rate.requests}: set LP_RATE to the target's rate (or the target miscounts).` };
}

/** The list endpoints a script may call with the scopes of LP_SCOPES (contracts/endpoints.ts acceptedScopes). */
export type ListEndpoint = typeof ENDPOINTS.listContent | typeof ENDPOINTS.listUsers;

/** The lists `scopes` cover, content first, and a sentence per list left out: no script sends a request its scopes do not cover (it would still count). */
export function scopedLists(scopes: readonly string[], script: string): { held: ListEndpoint[]; skipped: string[] } {
  const lists: ListEndpoint[] = [ENDPOINTS.listContent, ENDPOINTS.listUsers];
  const covered = (list: ListEndpoint) => list.acceptedScopes.some((scope: string) => scopes.includes(scope));
  const leftOut = (list: ListEndpoint) =>
    `${script}: LP_SCOPES ${scopes.join(',')} holds neither ${list.acceptedScopes.join(' nor ')}, so GET ${list.path} is left out.`;
  return { held: lists.filter(covered), skipped: lists.filter((list) => !covered(list)).map(leftOut) };
}

/** The rule a served answer of `list` to a token of its scope keeps: users.list, or the platform's scope of the content list. */
export const listRule = (list: ListEndpoint): RuleId => (list.id === 'listUsers' ? 'users.list' : 'platform.endpoint-scopes');
