/**
 * The token lifecycle's plan (load/token-lifecycle.ts): LP_VUS VUs running lifecycles for LP_DURATION. The token request takes a slot like the others: the
 * document's rate covers "all endpoints", and the script cannot learn before its scenario is fixed whether the target counts token requests.
 */
import type { ConstantVUsScenario } from 'k6/options';
import type { RuleId } from '../../../contracts/rules/index.ts';
import { readDefaulted } from '../../../common/settings.ts';
import type { EnvRecord } from '../env.ts';
import { METRICS } from '../metrics.ts';
import { listRule, pacedOptions, pacedPlan, runSeconds, scopedLists, seconds } from './common.ts';

/** Requests of one lifecycle, each on a slot: token, use, log out, refused use. */
export const LIFECYCLE_REQUESTS = 4;

/** LP_DURATION (default two windows, at least 30 s), LP_VUS (default 5), LP_BUDGET_SHARE, LP_SCOPES, LP_STRICT. */
export function lifecyclePlan(env: EnvRecord) {
  const scoped = scopedLists(readDefaulted(env, 'LP_SCOPES'), 'token-lifecycle');
  const list = scoped.held[0];
  const skipped = list === undefined ? [...scoped.skipped, 'token-lifecycle: with no list to call, each lifecycle only issues a token and logs out.'] : [];
  const used: RuleId[] = list === undefined ? [] : [listRule(list), 'logout.expires-access', 'platform.unauthenticated-status'];
  const base = pacedPlan(env, ['token.issued', 'platform.logout-response', ...used], skipped);
  return { ...base, durationSeconds: runSeconds(env, base.rate), vus: readDefaulted(env, 'LP_VUS'), list };
}

export function lifecycleOptions(plan: ReturnType<typeof lifecyclePlan>) {
  // A lifecycle in progress finishes: a token left logged in would live for its whole lifetime.
  const gracefulStop = seconds((LIFECYCLE_REQUESTS * plan.vus * plan.grid.slotMs) / 1000 + 10);
  const lifecycles: ConstantVUsScenario = { executor: 'constant-vus', vus: plan.vus, duration: seconds(plan.durationSeconds), gracefulStop };
  return pacedOptions(plan, METRICS.lifecycleViolations, { lifecycles }, { [METRICS.lifecyclesCompleted]: ['count>0'] });
}
