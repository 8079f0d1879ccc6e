/**
 * Many VUs walking snapshots at once (document, List content items, pagination rules 1–5), paced
 * to stay within LP_BUDGET_SHARE of the rate: each iteration is one walk, checked page by page by
 * load/lib/walk.ts, with each page validated by the bundled standalone schema validators.
 */

import { validateContentList, validateUsersList } from 'generated:validators';
import { check, sleep } from 'k6';
import exec from 'k6/execution';
import http from 'k6/http';
import { Counter, Trend } from 'k6/metrics';
import type { Options } from 'k6/options';
import { ENDPOINTS } from '../contracts/endpoints.ts';
import { headerLookup, parseRateLimitHeaders } from '../contracts/rate-limit.ts';
import { abortTest, apiGetHonouring, bodyText, type Credentials, logout, requestToken } from './k6/api.ts';
import { type StandaloneValidator, schemaProblem } from './lib/checks.ts';
import { readLoadEnv, reportDir } from './lib/env.ts';
import { compareRate, METRICS, Pacer, paginationOptions, paginationPlan } from './lib/options.ts';
import { type K6SummaryData, summaryFiles } from './lib/summary.ts';
import { joinUrl } from './lib/url.ts';
import { PaginationWalk, WALK_RULES } from './lib/walk.ts';

const env = readLoadEnv(__ENV);
const plan = paginationPlan(__ENV);
export const options: Options = paginationOptions(plan);

// A 429 is counted (lp_rate_limited must stay 0) and honoured, not a failed request.
http.setResponseCallback(http.expectedStatuses({ min: 200, max: 299 }, 429));

const violations = new Counter(METRICS.walkViolations);
const walksCompleted = new Counter(METRICS.walksCompleted);
const walkPages = new Trend(METRICS.walkPages);
const rateLimited = new Counter(METRICS.rateLimited);

const CONTENT = { endpoint: ENDPOINTS.listContent, title: 'content list', validate: validateContentList as StandaloneValidator, expected: plan.expectedItems };
const USERS = { endpoint: ENDPOINTS.listUsers, title: 'users list', validate: validateUsersList as StandaloneValidator, expected: undefined };
/** Mostly content (the paginated list the document describes), every fourth walk users. */
const LISTS = [CONTENT, CONTENT, CONTENT, USERS] as const;
const MAX_PAGES = 10_000;
// One pacer per VU, across its walks: the interval holds between any two of its requests.
const pacer = new Pacer(plan.intervalSeconds);

export function setup(): Credentials {
  const token = requestToken(env);
  if (!token.ok) abortTest(`setup: ${token.reason}`);
  if (plan.rate !== null) {
    const response = apiGetHonouring(joinUrl(env.baseUrl, ENDPOINTS.listUsers.path, { limit: 1 }), token.credentials, 'setup GET /api/v2/users', {
      retries: 1,
      maxWaitSeconds: plan.rate.periodSeconds + 1,
    });
    const parsed = parseRateLimitHeaders(headerLookup(response.headers));
    if (!parsed.ok) abortTest(`setup: GET /api/v2/users answered ${response.status} without usable rate-limit headers: ${parsed.error}.`);
    const mismatch = compareRate(plan.rate, parsed.value, false);
    if (mismatch?.fatal) abortTest(`setup: ${mismatch.reason}`);
    if (mismatch) console.warn(`setup: ${mismatch.reason}`);
  }
  return token.credentials;
}

export default function (credentials: Credentials): void {
  const list = LISTS[exec.scenario.iterationInTest % LISTS.length] ?? LISTS[0];
  const resourceType = list.endpoint.resourceType;
  const walk = new PaginationWalk(joinUrl(env.baseUrl, list.endpoint.path, { limit: plan.limit }), {
    limit: plan.limit,
    maxPages: MAX_PAGES,
    resourceType,
    ...(list.expected === undefined ? {} : { expectedCount: list.expected }),
    ...(plan.stopAfter === undefined ? {} : { stopAfter: plan.stopAfter }),
    validate: (body) => schemaProblem(list.title, list.validate, body),
  });
  for (let page = 0; page <= MAX_PAGES; page++) {
    sleep(pacer.waitSeconds(Date.now()));
    pacer.sent(Date.now());
    const response = apiGetHonouring(walk.url, credentials, `walk GET ${list.endpoint.path}`, {
      retries: 2,
      maxWaitSeconds: plan.rate?.periodSeconds ?? 60,
      onRateLimited: () => rateLimited.add(1),
    });
    const step = walk.page(response.status, bodyText(response));
    if (step.kind === 'next') continue;
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

export function teardown(credentials: Credentials): void {
  logout(env, credentials);
}

export function handleSummary(data: K6SummaryData): Record<string, string> {
  return summaryFiles(data, {
    script: 'pagination',
    rules: { metric: METRICS.walkViolations, sentences: WALK_RULES },
    dir: reportDir(__ENV),
    secrets: [env.clientSecret],
    target: env.baseUrl,
    generatedAt: new Date().toISOString(),
  });
}
