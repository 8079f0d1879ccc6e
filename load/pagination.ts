/**
 * Many VUs walking snapshots at once (document, List content items, pagination rules 1–5), within
 * LP_BUDGET_SHARE of the rate: every request, setup's and teardown's included, on a slot of one grid
 * (load/lib/pacing.ts). Each iteration is one walk, checked page by page by contracts/pagination.ts,
 * with each page validated by the bundled standalone schema validators. Lists LP_SCOPES does not
 * cover are left out with a sentence.
 */

import { validateContentList, validateUsersList } from 'generated:validators';
import { check } from 'k6';
import exec from 'k6/execution';
import http from 'k6/http';
import { Counter, Trend } from 'k6/metrics';
import type { Options } from 'k6/options';
import { PaginationWalk, WALK_RULES } from '../contracts/pagination.ts';
import { headerLookup, parseRateLimitHeaders } from '../contracts/rate-limit.ts';
import { abortTest, bodyText, type Credentials, type Response, stopForRefusedKey } from './k6/api.ts';
import { instanceGrid, Paced, type PacedOptions } from './k6/paced.ts';
import { judged } from './k6/verdict.ts';
import { type StandaloneValidator, schemaProblem } from './lib/checks.ts';
import { readLoadEnv, reportDir } from './lib/env.ts';
import { METRICS } from './lib/metrics.ts';
import { compareRate } from './lib/plans/common.ts';
import { paginationOptions, paginationPlan } from './lib/plans/pagination.ts';
import type { RuleId } from '../contracts/rules/index.ts';
import { type K6SummaryData, summaryFiles } from './lib/summary.ts';
import { joinUrl } from './lib/url.ts';

const env = readLoadEnv(__ENV);
const plan = paginationPlan(__ENV);
export const options: Options = paginationOptions(plan);

// A 429 is counted (lp_rate_limited must stay 0) and honoured, not a failed request.
http.setResponseCallback(http.expectedStatuses({ min: 200, max: 299 }, 429));

const violations = new Counter(METRICS.walkViolations);
const walksCompleted = new Counter(METRICS.walksCompleted);
const walkPages = new Trend(METRICS.walkPages);
const rateLimited = new Counter(METRICS.rateLimited);

const VALIDATORS: Record<string, { title: string; validate: StandaloneValidator }> = {
  listContent: { title: 'content list', validate: validateContentList as StandaloneValidator },
  listUsers: { title: 'users list', validate: validateUsersList as StandaloneValidator },
};
const MAX_PAGES = 10_000;
const PACED: PacedOptions = { retries: 2, maxWaitSeconds: plan.rate?.periodSeconds ?? 60, onRateLimited: () => rateLimited.add(1) };

interface SetupData {
  readonly credentials: Credentials;
  /** The last grid slot setup took: the VUs start after it. */
  readonly lastSlot: number | null;
}

export function setup(): SetupData {
  for (const sentence of plan.skipped) console.warn(sentence);
  const paced = Paced.alone(instanceGrid(plan.rate, plan.share), PACED);
  const token = paced.token(env);
  if (!token.ok && token.refused) stopForRefusedKey(`setup: ${token.reason}`);
  if (!token.ok) abortTest(`setup: ${token.reason}`);
  const first = plan.lists[0];
  if (plan.rate !== null && first !== undefined) {
    const response = paced.get(joinUrl(env.baseUrl, first.path, { limit: 1 }), token.credentials, `setup GET ${first.path}`);
    const parsed = parseRateLimitHeaders(headerLookup(response.headers));
    if (!parsed.ok) abortTest(`setup: GET ${first.path} answered ${response.status} without usable rate-limit headers: ${parsed.error}.`);
    const mismatch = compareRate(plan.rate, parsed.value, false);
    if (mismatch?.fatal) abortTest(`setup: ${mismatch.reason}`);
    if (mismatch) console.warn(`setup: ${mismatch.reason}`);
  }
  return { credentials: token.credentials, lastSlot: paced.lastSlot };
}

// One lane per VU, across its walks: made at its first iteration (setup's last slot is known only then).
let paced: Paced | undefined;

export default function (data: SetupData): void {
  paced = paced ?? Paced.forVu(instanceGrid(plan.rate, plan.share), plan.vus, PACED, data.lastSlot);
  const list = plan.lists[exec.scenario.iterationInTest % plan.lists.length] ?? plan.lists[0];
  if (list === undefined) return;
  const validator = VALIDATORS[list.id];
  const walk = new PaginationWalk(joinUrl(env.baseUrl, list.path, { limit: plan.limit }), {
    limit: plan.limit,
    maxPages: MAX_PAGES,
    resourceType: list.resourceType,
    ...(list.id !== 'listContent' || plan.expectedItems === undefined ? {} : { expectedCount: plan.expectedItems }),
    ...(plan.stopAfter === undefined ? {} : { stopAfter: plan.stopAfter }),
    validate: (body) => (validator === undefined ? undefined : schemaProblem(validator.title, validator.validate, body)),
  });
  for (let page = 0; page <= MAX_PAGES; page++) {
    const response: Response = paced.get(walk.url, data.credentials, `walk GET ${list.path}`);
    const step = walk.page(response.status, bodyText(response));
    if (step.kind === 'next') continue;
    for (const rule of walk.judged) judged(rule);
    if (step.findings.length === 0) violations.add(0);
    for (const finding of step.findings) {
      violations.add(1, { rule: finding.rule });
      console.error(`pagination, ${finding.rule} (page ${finding.page}): ${finding.reason}`);
    }
    walksCompleted.add(step.complete && step.ok ? 1 : 0);
    walkPages.add(step.pages);
    check(step, { 'a walk keeps the traversal invariants': (s) => s.ok });
    return;
  }
}

export function teardown(data: SetupData): void {
  // After every VU's last request: the next slot of the grid is free.
  Paced.alone(instanceGrid(plan.rate, plan.share), PACED).logout(env, data.credentials);
}

/** Why a walk rule goes unjudged in this configuration, rather than "no request exercised it". */
const NOT_CHECKED: Record<string, string> = {
  ...(plan.stopAfter === undefined
    ? {}
    : { 'walk-ends': 'LP_MAX_PAGES stops each walk before its final page', 'item-count': 'LP_MAX_PAGES stops each walk before its final page' }),
  ...(plan.expectedItems !== undefined || plan.stopAfter !== undefined ? {} : { 'item-count': 'LP_EXPECTED_ITEMS is not set: the number of items is unknown' }),
};

export function handleSummary(data: K6SummaryData): Record<string, string> {
  return summaryFiles(data, {
    script: 'pagination',
    rules: { metric: METRICS.walkViolations, ids: Object.keys(WALK_RULES) as RuleId[], notChecked: NOT_CHECKED },
    dir: reportDir(__ENV),
    secrets: [env.clientSecret],
    target: env.baseUrl,
    generatedAt: new Date().toISOString(),
  });
}
