/**
 * One VU, every endpoint, a few iterations (LP_ITERATIONS, default 3): token, the content list (default page, a small page and its next page, each date
 * filter), the users list, logout and the refused logged-out token. Every answer is judged by the per-response rules, and each call by the rule its answer
 * keeps (load/lib/plans/smoke.ts). Every request takes a slot of the grid within LP_BUDGET_SHARE of the rate (load/lib/pacing.ts); a list LP_SCOPES does not
 * cover is left out with a sentence.
 */
import http from 'k6/http';
import type { Options } from 'k6/options';
import { ENDPOINTS } from '../contracts/endpoints.ts';
import { isFinalNext, UNAUTHENTICATED_STATUSES } from '../contracts/open-behaviours.ts';
import { nextValue, withNext } from '../contracts/pagination.ts';
import { type Exchange, isServed } from '../contracts/rules/exchange.ts';
import type { Credentials } from './k6/api.ts';
import type { Paced } from './k6/paced.ts';
import { judgedGet, judgedLogout, judgedToken, pacedScript, verdict } from './k6/verdict.ts';
import { readLoadEnv } from './lib/env.ts';
import { METRICS } from './lib/metrics.ts';
import { type ListCall, smokeOptions, smokePlan } from './lib/plans/smoke.ts';
import { joinUrl } from './lib/url.ts';

const env = readLoadEnv(__ENV);
const plan = smokePlan(__ENV);
export const options: Options = smokeOptions(plan);

http.setResponseCallback(http.expectedStatuses({ min: 200, max: 299 }, ...UNAUTHENTICATED_STATUSES, 429));

const script = pacedScript('smoke', METRICS.smokeViolations, plan, env);
const record = script.record;
export const setup = script.warnSkipped;
export const handleSummary = script.handleSummary;
/** The list the logged-out token is tried on: one the scopes cover. */
const REFUSED_PATH = (plan.lists[0] ?? ENDPOINTS.listContent).path;

/** GETs `url` of `call`'s list, judged by every per-response rule and by `rule`: that it is served. */
function get(paced: Paced, url: string, credentials: Credentials, name: string, call: ListCall, rule = call.rule): Exchange {
  const exchange = judgedGet(record, paced, url, credentials, name, call.list);
  verdict(record, rule, isServed(exchange), () => ({ expected: 'a 2xx', got: `${exchange.status}` }), `GET ${url}`);
  return exchange;
}

export default function (): void {
  // The one VU's lane: all of the instance's grid.
  const paced = script.lane(1);
  const credentials = judgedToken(record, paced, env, 'smoke');
  if (credentials === undefined) return;
  for (const call of plan.calls) {
    const url = joinUrl(env.baseUrl, call.list.path, call.query);
    const next = (get(paced, url, credentials, call.name, call).body as { links?: { next?: unknown } } | undefined)?.links?.next;
    const cursor = typeof next === 'string' ? nextValue(next) : undefined;
    // envelope.next-link judges a links.next without a next value.
    if (!call.followNext || isFinalNext(next) || cursor === undefined || cursor === '') continue;
    get(paced, withNext(url, cursor), credentials, `${call.name} next`, call, 'snapshot.next');
  }
  judgedLogout(record, paced, env, credentials, joinUrl(env.baseUrl, REFUSED_PATH, { limit: 1 }), `GET ${REFUSED_PATH} (logged-out token)`);
}
