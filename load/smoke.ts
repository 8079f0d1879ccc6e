/**
 * One VU, every endpoint, a few iterations (LP_ITERATIONS, default 3): token, the content list
 * (default page, a small page and its next page, each date filter), the users list, logout and the
 * refused logged-out token. Every answer is judged by the per-response rules, and each call by the
 * rule its answer keeps (load/lib/plans/smoke.ts). Every request takes a slot of the grid within
 * LP_BUDGET_SHARE of the rate (load/lib/pacing.ts); a list LP_SCOPES does not cover is left out with
 * a sentence.
 */
import http from 'k6/http';
import { Counter } from 'k6/metrics';
import type { Options } from 'k6/options';
import { ENDPOINTS } from '../contracts/endpoints.ts';
import { isFinalNext, UNAUTHENTICATED_STATUSES } from '../contracts/open-behaviours.ts';
import { type Exchange, isRefusal, isServed } from '../contracts/rules/exchange.ts';
import { type Credentials, stopForRefusedKey } from './k6/api.ts';
import { instanceGrid, Paced } from './k6/paced.ts';
import { judgeAnswer, recorder, verdict } from './k6/verdict.ts';
import { exchangeOf } from './lib/checks.ts';
import { readLoadEnv, reportDir } from './lib/env.ts';
import { METRICS } from './lib/metrics.ts';
import { type ListCall, smokeOptions, smokePlan } from './lib/plans/smoke.ts';
import { type K6SummaryData, summaryFiles } from './lib/summary.ts';
import { joinUrl, queryParam, withQueryParam } from './lib/url.ts';

const env = readLoadEnv(__ENV);
const plan = smokePlan(__ENV);
export const options: Options = smokeOptions(plan);

http.setResponseCallback(http.expectedStatuses({ min: 200, max: 299 }, ...UNAUTHENTICATED_STATUSES, 429));

const record = recorder('smoke', new Counter(METRICS.smokeViolations));
const rateLimited = new Counter(METRICS.rateLimited);
const PACED = { retries: 2, maxWaitSeconds: plan.rate?.periodSeconds ?? 60, onRateLimited: () => rateLimited.add(1) };
// The one VU's lane: all of the instance's grid.
let paced: Paced | undefined;
/** Whether the key has worked once: a refusal after that is the service's, judged under the token rule. */
let issued = false;
/** The list the logged-out token is tried on: one the scopes cover. */
const REFUSED_PATH = (plan.lists[0] ?? ENDPOINTS.listContent).path;

/** GETs `url` (of `call`'s list, if any) and judges the answer by every per-response rule, and by `rule` that it is served. */
function get(url: string, credentials: Credentials, name: string, call?: ListCall, rule = call?.rule): Exchange {
  const exchange = exchangeOf((paced as Paced).get(url, credentials, name), 'api', call && (call.list.id === 'listContent' ? 'content' : 'users'));
  judgeAnswer(record, exchange);
  if (rule !== undefined) verdict(record, rule, isServed(exchange), () => ({ expected: 'a 2xx', got: `${exchange.status}` }), `GET ${url}`);
  return exchange;
}

export function setup(): void {
  for (const sentence of plan.skipped) console.warn(sentence);
}

export default function (): void {
  paced = paced ?? Paced.forVu(instanceGrid(plan.rate, plan.share), 1, PACED, null);
  const token = paced.token(env);
  // A key refused before it ever worked is our setting: the run stops naming it, and no rule is blamed.
  if (!token.ok && token.refused && !issued) stopForRefusedKey(`smoke: ${token.reason}`);
  judgeAnswer(record, exchangeOf(token.response, 'auth'));
  if (!verdict(record, 'token.issued', token.ok, () => ({ expected: 'a token', got: token.ok ? '' : token.reason }), 'POST /oauth/token') || !token.ok) return;
  issued = true;
  const credentials = token.credentials;

  for (const call of plan.calls) {
    const url = joinUrl(env.baseUrl, call.list.path, call.query);
    const next = (get(url, credentials, call.name, call).body as { links?: { next?: unknown } } | undefined)?.links?.next;
    const cursor = typeof next === 'string' ? queryParam(next, 'next') : undefined;
    // envelope.next-link judges a links.next without a next value.
    if (!call.followNext || isFinalNext(next) || cursor === undefined || cursor === '') continue;
    get(withQueryParam(url, 'next', cursor), credentials, `${call.name} next`, call, 'snapshot.next');
  }

  const out = paced.logout(env, credentials);
  judgeAnswer(record, exchangeOf(out, 'api'));
  const logoutRequest = `POST ${env.baseUrl}${ENDPOINTS.logout.path} (logout)`;
  if (!verdict(record, 'platform.logout-response', out.status >= 200 && out.status < 300, () => ({ expected: 'a 2xx', got: `${out.status}` }), logoutRequest))
    return;
  const url = joinUrl(env.baseUrl, REFUSED_PATH, { limit: 1 });
  const after = get(url, credentials, `GET ${REFUSED_PATH} (logged-out token)`);
  const request = `GET ${url} with a logged-out token`;
  verdict(record, 'logout.expires-access', isRefusal(after), () => ({ expected: 'a 4xx without data', got: `${after.status}` }), request);
  verdict(record, 'platform.unauthenticated-status', after.status === 401, () => ({ expected: '401', got: `${after.status}` }), request);
}

export function handleSummary(data: K6SummaryData): Record<string, string> {
  return summaryFiles(data, {
    script: 'smoke',
    rules: { metric: METRICS.smokeViolations, ids: plan.rules, strict: plan.strict },
    dir: reportDir(__ENV),
    secrets: [env.clientSecret],
    target: env.baseUrl,
    generatedAt: new Date().toISOString(),
  });
}
