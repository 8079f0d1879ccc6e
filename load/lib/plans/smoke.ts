/**
 * The smoke script's plan (load/smoke.ts): one VU, LP_ITERATIONS iterations, every request on the
 * slot grid within LP_BUDGET_SHARE of the rate (load/lib/pacing.ts); the lists LP_SCOPES covers.
 */
import type { Rate } from '../../../contracts/duration.ts';
import { EnvError, type EnvRecord, envNumber, readRate } from '../env.ts';
import { METRICS } from '../metrics.ts';
import { type Grid, planGrid } from '../pacing.ts';
import {
  budgetShare,
  COMMON_THRESHOLDS,
  envScopes,
  type ListEndpoint,
  type LoadOptions,
  PACED_THRESHOLDS,
  type PerVuIterationsScenario,
  perRule,
  scopedLists,
  TREND_STATS,
} from './common.ts';

/** What smoke.ts checks on each endpoint. */
export const SMOKE_RULES = {
  token: 'the token endpoint issues a token matching the token schema',
  status: 'each endpoint answers 2xx',
  schema: 'each list matches its schema',
  'rate-headers': 'each served list response carries well-formed X-Rate-Limit-* headers, as does any answer that carries them (rate.headers)',
  pagination: 'the next page of a list is reachable with next',
  logout: 'logout succeeds and the token is refused afterwards',
} as const;

export interface SmokePlan {
  readonly rate: Rate | null;
  readonly share: number;
  readonly iterations: number;
  readonly grid: Grid;
  readonly lists: readonly ListEndpoint[];
  readonly skipped: readonly string[];
}

/** LP_ITERATIONS (default 3), LP_BUDGET_SHARE, LP_SCOPES. */
export function smokePlan(env: EnvRecord): SmokePlan {
  const rate = readRate(env);
  const iterations = envNumber(env, 'LP_ITERATIONS');
  const scoped = scopedLists(envScopes(env), 'smoke');
  if (scoped.held.length === 0) throw new EnvError(scoped.skipped.join(' ').replace(/\.$/, ': there is nothing to smoke-test.'));
  const share = budgetShare(env);
  return { rate, share, iterations, grid: planGrid(rate, share), lists: scoped.held, skipped: scoped.skipped };
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
