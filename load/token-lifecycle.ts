/**
 * The token lifecycle under load (document, States and transitions; Authentication 9): each
 * iteration issues a token, uses it, logs out, and sees the logged-out token refused, every answer
 * judged by the per-response rules too. Every request, the token request included (a target may count
 * it: the document's rate covers all endpoints), takes a slot of one grid within LP_BUDGET_SHARE of the
 * rate (load/lib/pacing.ts). Without a scope for either list, the use and the refused use are left out
 * with a sentence.
 */
import http from 'k6/http';
import { Counter } from 'k6/metrics';
import type { Options } from 'k6/options';
import { ENDPOINTS } from '../contracts/endpoints.ts';
import { UNAUTHENTICATED_STATUSES } from '../contracts/open-behaviours.ts';
import { isRefusal } from '../contracts/rules/exchange.ts';
import { stopForRefusedKey } from './k6/api.ts';
import { instanceGrid, Paced, type PacedOptions } from './k6/paced.ts';
import { judgeAnswer, recorder, verdict } from './k6/verdict.ts';
import { exchangeOf } from './lib/checks.ts';
import { readLoadEnv, reportDir } from './lib/env.ts';
import { METRICS } from './lib/metrics.ts';
import { listRule } from './lib/plans/common.ts';
import { lifecycleOptions, lifecyclePlan } from './lib/plans/token-lifecycle.ts';
import { type K6SummaryData, summaryFiles } from './lib/summary.ts';
import { joinUrl } from './lib/url.ts';

const env = readLoadEnv(__ENV);
const plan = lifecyclePlan(__ENV);
export const options: Options = lifecycleOptions(plan);

// The logged-out token's 401 (or 403) is the expected answer; a 429 is counted and honoured.
http.setResponseCallback(http.expectedStatuses({ min: 200, max: 299 }, ...UNAUTHENTICATED_STATUSES, 429));

const record = recorder('token-lifecycle', new Counter(METRICS.lifecycleViolations));
const completed = new Counter(METRICS.lifecyclesCompleted);
const rateLimited = new Counter(METRICS.rateLimited);

const list = plan.list;
const listUrl = list === undefined ? '' : joinUrl(env.baseUrl, list.path, { limit: 1 });
const listOf = list?.id === 'listUsers' ? 'users' : 'content';
const PACED: PacedOptions = { retries: 2, maxWaitSeconds: plan.rate?.periodSeconds ?? 60, onRateLimited: () => rateLimited.add(1) };

export function setup(): void {
  for (const sentence of plan.skipped) console.warn(sentence);
}

// One lane per VU, across its lifecycles.
let paced: Paced | undefined;
/** Whether the key has worked once for this VU: a refusal after that is the service's, judged under token.issued. */
let issued = false;

export default function (): void {
  paced = paced ?? Paced.forVu(instanceGrid(plan.rate, plan.share), plan.vus, PACED, null);
  const token = paced.token(env);
  // A key refused before it ever worked for this VU is our setting: the run stops naming it, and no rule is blamed.
  if (!token.ok && token.refused && !issued) stopForRefusedKey(`token-lifecycle: ${token.reason}`);
  judgeAnswer(record, exchangeOf(token.response, 'auth'));
  if (!verdict(record, 'token.issued', token.ok, () => ({ expected: 'a token', got: token.ok ? '' : token.reason }), 'POST /oauth/token') || !token.ok) {
    completed.add(0);
    return;
  }
  issued = true;
  const credentials = token.credentials;

  let works = true;
  if (list !== undefined) {
    const used = exchangeOf(paced.get(listUrl, credentials, `GET ${list.path} (fresh token)`), 'api', listOf);
    judgeAnswer(record, used);
    works = verdict(record, listRule(list), used.status === 200, () => ({ expected: '200', got: `${used.status}` }), `GET ${listUrl} with a fresh token`);
  }

  const out = paced.logout(env, credentials);
  judgeAnswer(record, exchangeOf(out, 'api'));
  const logout = `POST ${env.baseUrl}${ENDPOINTS.logout.path} (logout)`;
  const loggedOut = verdict(
    record,
    'platform.logout-response',
    out.status >= 200 && out.status < 300,
    () => ({ expected: 'a 2xx', got: `${out.status}` }),
    logout,
  );

  let refused = list === undefined;
  if (loggedOut && list !== undefined) {
    const after = exchangeOf(paced.get(listUrl, credentials, `GET ${list.path} (logged-out token)`), 'api', listOf);
    judgeAnswer(record, after);
    const request = `GET ${listUrl} with a logged-out token`;
    refused = verdict(record, 'logout.expires-access', isRefusal(after), () => ({ expected: 'a 4xx without data', got: `${after.status}` }), request);
    verdict(record, 'platform.unauthenticated-status', after.status === 401, () => ({ expected: '401', got: `${after.status}` }), request);
  }
  completed.add(works && loggedOut && refused ? 1 : 0);
}

export function handleSummary(data: K6SummaryData): Record<string, string> {
  return summaryFiles(data, {
    script: 'token-lifecycle',
    rules: { metric: METRICS.lifecycleViolations, ids: plan.rules, strict: plan.strict },
    dir: reportDir(__ENV),
    secrets: [env.clientSecret],
    target: env.baseUrl,
    generatedAt: new Date().toISOString(),
  });
}
