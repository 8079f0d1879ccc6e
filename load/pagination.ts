/**
 * Many VUs walking snapshots at once (document, List content items, pagination rules 1–5), within LP_BUDGET_SHARE of the rate: every request, setup's and
 * teardown's included, on a slot of one grid (load/lib/pacing.ts). Each iteration is one walk, judged page by page by the walk of contracts/rules/walk.ts and
 * by the per-response rules. Lists LP_SCOPES does not cover are left out with a sentence.
 */
import exec from 'k6/execution';
import http from 'k6/http';
import { Counter, Trend } from 'k6/metrics';
import type { Options } from 'k6/options';
import { headerLookup, parseRateLimitHeaders } from '../contracts/rate-limit.ts';
import { PaginationWalk } from '../contracts/rules/walk.ts';
import { abortTest, type Credentials, stopForRefusedKey } from './k6/api.ts';
import { judgedGet, pacedScript } from './k6/verdict.ts';
import { readLoadEnv } from './lib/env.ts';
import { METRICS } from './lib/metrics.ts';
import { compareRate } from './lib/plans/common.ts';
import { paginationOptions, paginationPlan } from './lib/plans/pagination.ts';
import { joinUrl } from './lib/url.ts';

const env = readLoadEnv(__ENV);
const plan = paginationPlan(__ENV);
export const options: Options = paginationOptions(plan);

// A 429 is counted (lp_rate_limited must stay 0) and honoured, not a failed request.
http.setResponseCallback(http.expectedStatuses({ min: 200, max: 299 }, 429));

const script = pacedScript('pagination', METRICS.walkViolations, plan, env);
const record = script.record;
export const handleSummary = script.handleSummary;
const walksCompleted = new Counter(METRICS.walksCompleted);
const walkPages = new Trend(METRICS.walkPages);

const MAX_PAGES = 10_000;

interface SetupData {
  readonly credentials: Credentials;
  /** The last grid slot setup took: the VUs start after it. */
  readonly lastSlot: number | null;
}

export function setup(): SetupData {
  script.warnSkipped();
  const paced = script.alone();
  const token = paced.token(env);
  if (!token.ok && token.refused) stopForRefusedKey(`setup: ${token.reason}`);
  if (!token.ok) abortTest(`setup: ${token.reason}`);
  const first = plan.lists[0];
  if (plan.rate !== null && first !== undefined) {
    const response = paced.get(joinUrl(env.baseUrl, first.path, { limit: 1 }), token.credentials, `setup GET ${first.path}`);
    const parsed = parseRateLimitHeaders(headerLookup(response.headers));
    if (!parsed.ok) abortTest(`setup: GET ${first.path} answered ${response.status} without usable rate-limit headers: ${parsed.error}.`);
    const mismatch = compareRate(plan.rate, parsed.value);
    if (mismatch?.fatal) abortTest(`setup: ${mismatch.reason}`);
    if (mismatch) console.warn(`setup: ${mismatch.reason}`);
  }
  return { credentials: token.credentials, lastSlot: paced.lastSlot };
}

export default function (data: SetupData): void {
  const paced = script.lane(plan.vus, data.lastSlot);
  const list = plan.lists[exec.scenario.iterationInTest % plan.lists.length] ?? plan.lists[0];
  if (list === undefined) return;
  const expectedCount = list.id === 'listContent' ? plan.expectedItems : undefined;
  const first = joinUrl(env.baseUrl, list.path, { limit: plan.limit });
  const walk = new PaginationWalk(first, { limit: plan.limit, maxPages: MAX_PAGES, expectedCount, stopAfter: plan.stopAfter });
  // The walk stops itself at MAX_PAGES; the loop's own bound is a second guard.
  for (let url = walk.next; url !== undefined && walk.pages <= MAX_PAGES; url = walk.next)
    record([], walk.observe(judgedGet(record, paced, url, data.credentials, `walk GET ${list.path}`, list)));
  record(walk.judged, walk.end());
  walksCompleted.add(walk.complete && walk.findings.length === 0 ? 1 : 0);
  walkPages.add(walk.pages);
}

export function teardown(data: SetupData): void {
  // After every VU's last request: the next slot of the grid is free.
  script.alone().logout(env, data.credentials);
}
