/**
 * One VU, every endpoint, a few iterations (LP_ITERATIONS, default 3): token, the content list
 * (default page, a small page and its next page, each date filter), the users list, logout and the
 * refused logged-out token. Every request takes a slot of the grid within LP_BUDGET_SHARE of the
 * rate (load/lib/pacing.ts); a list LP_SCOPES does not cover is left out with a sentence.
 */

import {
  validateContentAttributes,
  validateContentList,
  validateErrorBody,
  validateListEnvelope,
  validateResourceObject,
  validateTokenResponse,
  validateUsersList,
} from 'generated:validators';
import http from 'k6/http';
import { Counter } from 'k6/metrics';
import type { Options } from 'k6/options';
import { CONTENT_FILTERS, ENDPOINTS } from '../contracts/endpoints.ts';
import { isFinalNext, UNAUTHENTICATED_STATUSES } from '../contracts/open-behaviours.ts';
import { bodyJson, bodyText, type Credentials, type Response, stopForRefusedKey } from './k6/api.ts';
import { instanceGrid, Paced } from './k6/paced.ts';
import { verdicts } from './k6/verdict.ts';
import type { SchemaValidators } from '../contracts/rules/exchange.ts';
import { judgeRules, type StandaloneValidator, schemaProblem } from './lib/checks.ts';
import { readLoadEnv, reportDir } from './lib/env.ts';
import { METRICS } from './lib/metrics.ts';
import { SMOKE_RULES, smokeOptions, smokePlan } from './lib/plans/smoke.ts';
import type { RuleId } from '../contracts/rules/index.ts';
import { type K6SummaryData, summaryFiles } from './lib/summary.ts';
import { joinUrl, type QueryParams, queryParam, withQueryParam } from './lib/url.ts';

const env = readLoadEnv(__ENV);
const plan = smokePlan(__ENV);
export const options: Options = smokeOptions(plan);

http.setResponseCallback(http.expectedStatuses({ min: 200, max: 299 }, ...UNAUTHENTICATED_STATUSES, 429));

const violations = new Counter(METRICS.smokeViolations);
const rateLimited = new Counter(METRICS.rateLimited);
const verdict = verdicts('smoke', violations, SMOKE_RULES);
const PACED = { retries: 2, maxWaitSeconds: plan.rate?.periodSeconds ?? 60, onRateLimited: () => rateLimited.add(1) };
// The one VU's lane: all of the instance's grid.
let paced: Paced | undefined;
/** Whether the key has worked once: a refusal after that is the service's, judged under the token rule. */
let issued = false;

/** Dates wide enough to keep every item: the smoke test checks that each filter is accepted, not what it keeps. */
const FILTER_VALUES: Record<string, string> = {
  'filter[start_date]': '2000-01-01',
  'filter[end_date]': '2100-01-01',
  'filter[modified_after]': '2000-01-01',
  'filter[modified_before]': '2100-01-01',
};

interface ListCall {
  readonly name: string;
  readonly path: string;
  readonly query: QueryParams;
  readonly title: string;
  readonly list: 'content' | 'users';
  readonly validate: StandaloneValidator;
  /** Also request the next page (pagination rule 2). */
  readonly followNext?: boolean;
}

const VALIDATORS: Record<string, StandaloneValidator> = {
  listContent: validateContentList as StandaloneValidator,
  listUsers: validateUsersList as StandaloneValidator,
};
/** The judges of contracts/rules/ validate with the bundled standalone validators. */
const JUDGE_VALIDATORS: SchemaValidators = {
  tokenResponse: validateTokenResponse,
  listEnvelope: validateListEnvelope,
  resourceObject: validateResourceObject,
  contentAttributes: validateContentAttributes,
  errorBody: validateErrorBody,
};
const CALLS: readonly ListCall[] = plan.lists.flatMap((list): ListCall[] => {
  const base = {
    path: list.path,
    title: list.id === 'listContent' ? 'content list' : 'users list',
    list: list.id === 'listContent' ? ('content' as const) : ('users' as const),
    validate: VALIDATORS[list.id] as StandaloneValidator,
  };
  if (list.id !== 'listContent') return [{ ...base, name: `GET ${list.path}`, query: { limit: 5 } }];
  return [
    { ...base, name: `GET ${list.path}`, query: {} },
    { ...base, name: `GET ${list.path} limit=5`, query: { limit: 5 }, followNext: true },
    ...CONTENT_FILTERS.map((filter) => ({ ...base, name: `GET ${list.path} ${filter.name}`, query: { limit: 5, [filter.name]: FILTER_VALUES[filter.name] } })),
  ];
});
/** The list the logged-out token is tried on: one the scopes cover. */
const REFUSED_PATH = (plan.lists[0] ?? ENDPOINTS.listContent).path;

function get(url: string, credentials: Credentials, name: string): Response {
  return (paced as Paced).get(url, credentials, name);
}

/** Status, schema and rate-limit headers of one list response; its body when all three hold. */
function checkList(call: ListCall, url: string, response: Response): unknown {
  const request = `GET ${url}`;
  const statusOk = verdict('status', response.status >= 200 && response.status < 300, () => `expected 2xx from ${request}, got ${response.status}`);
  // rate.headers, as the contract suite judges it: which answers must carry the headers is decided there once.
  const rate = judgeRules(
    { origin: 'api', list: call.list, method: 'GET', url, status: response.status, headers: response.headers, body: bodyText(response) },
    JUDGE_VALIDATORS,
    ['rate.headers'],
  );
  if (rate.checked.length > 0) verdict('rate-headers', rate.findings.length === 0, () => rate.findings.map((f) => f.message).join('; '));
  if (!statusOk) return undefined;
  const body = bodyJson(response);
  const problem = schemaProblem(call.title, call.validate, body);
  return verdict('schema', problem === undefined, () => `${request} ${problem}`) ? body : undefined;
}

export function setup(): void {
  for (const sentence of plan.skipped) console.warn(sentence);
}

export default function (): void {
  paced = paced ?? Paced.forVu(instanceGrid(plan.rate, plan.share), 1, PACED, null);
  const token = paced.token(env);
  // A key refused before it ever worked is our setting: the run stops naming it, and no rule is blamed.
  if (!token.ok && token.refused && !issued) stopForRefusedKey(`smoke: ${token.reason}`);
  if (!verdict('token', token.ok, () => (token.ok ? '' : token.reason)) || !token.ok) return;
  issued = true;
  const credentials = token.credentials;

  for (const call of CALLS) {
    const url = joinUrl(env.baseUrl, call.path, call.query);
    const body = checkList(call, url, get(url, credentials, call.name));
    if (!call.followNext || body === undefined) continue;
    const next = (body as { links?: { next?: unknown } }).links?.next;
    if (isFinalNext(next)) continue;
    const cursor = typeof next === 'string' ? queryParam(next, 'next') : undefined;
    if (!verdict('pagination', cursor !== undefined && cursor !== '', () => `links.next ${JSON.stringify(next)} of GET ${url} carries no next value`)) continue;
    const nextUrl = withQueryParam(url, 'next', cursor ?? '');
    const nextResponse = get(nextUrl, credentials, `${call.name} next`);
    verdict('pagination', checkList(call, nextUrl, nextResponse) !== undefined, () => `the next page GET ${nextUrl} answered ${nextResponse.status}`);
  }

  const out = paced.logout(env, credentials);
  if (!verdict('logout', out.status >= 200 && out.status < 300, () => `expected 2xx from the logout POST ${env.baseUrl}/oauth/token, got ${out.status}`))
    return;
  const url = joinUrl(env.baseUrl, REFUSED_PATH, { limit: 1 });
  const after = get(url, credentials, `GET ${REFUSED_PATH} (logged-out token)`);
  const refused: readonly number[] = UNAUTHENTICATED_STATUSES;
  verdict(
    'logout',
    refused.includes(after.status),
    () => `expected ${UNAUTHENTICATED_STATUSES.join(' or ')} from GET ${url} with a logged-out token, got ${after.status}`,
  );
}

export function handleSummary(data: K6SummaryData): Record<string, string> {
  return summaryFiles(data, {
    script: 'smoke',
    rules: { metric: METRICS.smokeViolations, ids: Object.keys(SMOKE_RULES) as RuleId[] },
    dir: reportDir(__ENV),
    secrets: [env.clientSecret],
    target: env.baseUrl,
    generatedAt: new Date().toISOString(),
  });
}
