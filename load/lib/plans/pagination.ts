/** The pagination script's plan (load/pagination.ts): LP_VUS walkers for LP_DURATION. */
import type { ConstantVUsScenario } from 'k6/options';
import { SNAPSHOT_TTL_SECONDS } from '../../../contracts/limits.ts';
import { WALK_RULE_IDS } from '../../../contracts/rules/walk.ts';
import { readDefaulted, readSetting } from '../../../common/settings.ts';
import { EnvError, type EnvRecord } from '../env.ts';
import { METRICS } from '../metrics.ts';
import { pacedOptions, pacedPlan, runSeconds, scopedLists, seconds } from './common.ts';

/** LP_VUS (default 5), LP_DURATION (default two windows, at least 30 s), LP_PAGE_LIMIT (default 50), LP_BUDGET_SHARE, LP_EXPECTED_ITEMS, LP_MAX_PAGES, LP_SCOPES, LP_STRICT. */
export function paginationPlan(env: EnvRecord) {
  const scoped = scopedLists(readDefaulted(env, 'LP_SCOPES'), 'pagination');
  const base = pacedPlan(env, WALK_RULE_IDS, scoped.skipped);
  const { rate, grid } = base;
  const vus = readDefaulted(env, 'LP_VUS');
  const durationSeconds = runSeconds(env, rate);
  const limit = readDefaulted(env, 'LP_PAGE_LIMIT');
  const intervalSeconds = (grid.slotMs * vus) / 1000;
  // A VU that waits longer than a snapshot lives would see its own walk expire: a plan error, not a finding.
  if (intervalSeconds >= SNAPSHOT_TTL_SECONDS / 2)
    throw new EnvError(
      `LP_VUS ${vus} at ${rate?.requests}/${rate?.period} spaces each walk's pages ${Math.round(intervalSeconds)} s apart, too close to the ${SNAPSHOT_TTL_SECONDS} s a snapshot lives: lower LP_VUS.`,
    );
  // Items a content walk must yield (the mock's `--items`), or pages after which a walk stops, as a sample of a large data set.
  const expectedItems = readSetting(env, 'LP_EXPECTED_ITEMS');
  const stopAfter = readSetting(env, 'LP_MAX_PAGES');
  if (expectedItems !== undefined && stopAfter !== undefined)
    throw new EnvError('LP_EXPECTED_ITEMS and LP_MAX_PAGES exclude each other: a sampled walk cannot count the whole data set.');
  // Content first (scopedLists' order, the paginated list the document describes): with both, every fourth walk is of users.
  const [first, second] = scoped.held;
  if (first === undefined) throw new EnvError(scoped.skipped.join(' ').replace(/\.$/, ': there is nothing to walk.'));
  const lists = second === undefined ? [first] : [first, first, first, second];
  return { ...base, vus, durationSeconds, limit, intervalSeconds, expectedItems, stopAfter, lists };
}

export function paginationOptions(plan: ReturnType<typeof paginationPlan>) {
  // Lets most walks in progress reach their final page; an interrupted walk is not a finding.
  const gracefulStop = seconds(Math.min(SNAPSHOT_TTL_SECONDS, 10 * plan.intervalSeconds + 10));
  const walkers: ConstantVUsScenario = { executor: 'constant-vus', vus: plan.vus, duration: seconds(plan.durationSeconds), gracefulStop };
  return pacedOptions(plan, METRICS.walkViolations, { walkers }, { [METRICS.walksCompleted]: ['count>0'] });
}
