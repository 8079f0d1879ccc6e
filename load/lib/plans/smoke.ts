/** The smoke script's plan (load/smoke.ts): one VU, LP_ITERATIONS iterations, the list calls LP_SCOPES covers, each with the rule its answer keeps. */
import { CONTENT_FILTERS } from '../../../contracts/endpoints.ts';
import type { RuleId } from '../../../contracts/rules/index.ts';
import { readDefaulted } from '../../../common/settings.ts';
import { EnvError, type EnvRecord } from '../env.ts';
import { METRICS } from '../metrics.ts';
import type { QueryParams } from '../url.ts';
import { type ListEndpoint, listRule, pacedOptions, pacedPlan, scopedLists } from './common.ts';

/** Dates wide enough to keep every item: the smoke test checks that each filter is accepted, not what it keeps. */
const WIDEST = { from: '2000-01-01', before: '2100-01-01' } as const;

export interface ListCall {
  readonly name: string;
  readonly list: ListEndpoint;
  readonly query: QueryParams;
  /** The rule a served answer keeps: the list's for its scope, the limit's, the filter's. */
  readonly rule: RuleId;
  /** Also request the next page (pagination rule 2). */
  readonly followNext?: boolean;
}

function callsOf(list: ListEndpoint): ListCall[] {
  const name = `GET ${list.path}`;
  if (list.id !== 'listContent') return [{ name, list, query: { limit: 5 }, rule: listRule(list) }];
  return [
    { name, list, query: {}, rule: listRule(list) },
    { name: `${name} limit=5`, list, query: { limit: 5 }, rule: 'platform.limit-bounds', followNext: true },
    ...CONTENT_FILTERS.map((f): ListCall => ({ name: `${name} ${f.name}`, list, query: { limit: 5, [f.name]: WIDEST[f.bound] }, rule: 'platform.filters' })),
  ];
}

/** LP_ITERATIONS (default 3), LP_BUDGET_SHARE, LP_SCOPES, LP_STRICT. */
export function smokePlan(env: EnvRecord) {
  const scoped = scopedLists(readDefaulted(env, 'LP_SCOPES'), 'smoke');
  if (scoped.held.length === 0) throw new EnvError(scoped.skipped.join(' ').replace(/\.$/, ': there is nothing to smoke-test.'));
  const calls = scoped.held.flatMap(callsOf);
  const own: RuleId[] = ['token.issued', 'snapshot.next', 'platform.logout-response', 'logout.expires-access', 'platform.unauthenticated-status'];
  const base = pacedPlan(env, [...own, ...calls.map((c) => c.rule)], scoped.skipped);
  return { ...base, iterations: readDefaulted(env, 'LP_ITERATIONS'), lists: scoped.held, calls };
}

export function smokeOptions(plan: ReturnType<typeof smokePlan>) {
  return pacedOptions(plan, METRICS.smokeViolations, { smoke: { executor: 'per-vu-iterations', vus: 1, iterations: plan.iterations, maxDuration: '10m' } });
}
