/**
 * The token lifecycle's plan (load/token-lifecycle.ts): LP_VUS VUs each running lifecycles (issue a
 * token, use it, log out, see it refused) for LP_DURATION, every request on the slot grid within
 * LP_BUDGET_SHARE of the rate (load/lib/pacing.ts).
 *
 * The token request takes a slot like the others: the document's rate covers "all endpoints", and a
 * service may count token requests in the budget (the platform profile does). The script cannot learn
 * before its scenario is fixed whether the target does, so the plan always counts them.
 */
import type { Rate } from '../../../contracts/duration.ts';
import type { RuleId } from '../../../contracts/rules/index.ts';
import { type EnvRecord, envFlag, envNumber, readRate } from '../env.ts';
import { METRICS } from '../metrics.ts';
import { type Grid, planGrid } from '../pacing.ts';
import {
  budgetShare,
  COMMON_THRESHOLDS,
  type ConstantVusScenario,
  envDurationSeconds,
  envScopes,
  type ListEndpoint,
  listRule,
  type LoadOptions,
  PACED_THRESHOLDS,
  reportedRules,
  ruleThresholds,
  scopedLists,
  seconds,
  TREND_STATS,
} from './common.ts';

/** Requests of one lifecycle, each on a slot: token, use, log out, refused use. */
export const LIFECYCLE_REQUESTS = 4;

export interface LifecyclePlan {
  readonly rate: Rate | null;
  readonly share: number;
  readonly vus: number;
  readonly durationSeconds: number;
  readonly grid: Grid;
  /** Lifecycles per period the whole test may complete at most. */
  readonly lifecyclesPerPeriod: number;
  /** The list the token is used on (content when the scopes allow), or undefined: the use and the refused use are left out. */
  readonly list: ListEndpoint | undefined;
  /** The rules the run judges and reports (document, States and transitions; Authentication 9). */
  readonly rules: readonly RuleId[];
  /** LP_STRICT: a broken platform rule fails the run. */
  readonly strict: boolean;
  readonly skipped: readonly string[];
}

/** LP_DURATION (default two windows, at least 30 s), LP_VUS (default 5), LP_BUDGET_SHARE, LP_SCOPES, LP_STRICT. */
export function lifecyclePlan(env: EnvRecord): LifecyclePlan {
  const rate = readRate(env);
  const share = budgetShare(env);
  const durationSeconds = envDurationSeconds(env, 'LP_DURATION', Math.max(30, 2 * (rate?.periodSeconds ?? 0)));
  const vus = envNumber(env, 'LP_VUS');
  const grid = planGrid(rate, share);
  const scoped = scopedLists(envScopes(env), 'token-lifecycle');
  const list = scoped.held[0];
  const skipped = list === undefined ? [...scoped.skipped, 'token-lifecycle: with no list to call, each lifecycle only issues a token and logs out.'] : [];
  const used: RuleId[] = list === undefined ? [] : [listRule(list), 'logout.expires-access', 'platform.unauthenticated-status'];
  const rules = reportedRules(['token.issued', 'platform.logout-response', ...used]);
  const lifecyclesPerPeriod = Math.floor(grid.perPeriod / LIFECYCLE_REQUESTS);
  return { rate, share, vus, durationSeconds, grid, lifecyclesPerPeriod, list, rules, strict: envFlag(env, 'LP_STRICT'), skipped };
}

export function lifecycleOptions(plan: LifecyclePlan): LoadOptions<ConstantVusScenario> {
  return {
    scenarios: {
      lifecycles: {
        executor: 'constant-vus',
        vus: plan.vus,
        duration: seconds(plan.durationSeconds),
        // A lifecycle in progress finishes: a token left logged in would live for its whole lifetime.
        gracefulStop: seconds((LIFECYCLE_REQUESTS * plan.vus * plan.grid.slotMs) / 1000 + 10),
      },
    },
    thresholds: {
      ...COMMON_THRESHOLDS,
      ...PACED_THRESHOLDS,
      ...ruleThresholds(METRICS.lifecycleViolations, plan.rules, plan.strict),
      [METRICS.lifecyclesCompleted]: ['count>0'],
    },
    summaryTrendStats: TREND_STATS,
  };
}
