/**
 * The token lifecycle under load (document, States and transitions; Authentication 9): each
 * iteration issues a token, uses it, logs out, and sees the logged-out token refused. Every request,
 * the token request included (a target may count it: the document's rate covers all endpoints), takes
 * a slot of one grid within LP_BUDGET_SHARE of the rate (load/lib/pacing.ts). Without a scope for
 * either list, the use and the refused use are left out with a sentence.
 */
import http from 'k6/http';
import { Counter } from 'k6/metrics';
import type { Options } from 'k6/options';
import { UNAUTHENTICATED_STATUSES } from '../contracts/open-behaviours.ts';
import { type Response, stopForRefusedKey } from './k6/api.ts';
import { instanceGrid, Paced, type PacedOptions } from './k6/paced.ts';
import { verdicts } from './k6/verdict.ts';
import { readLoadEnv, reportDir } from './lib/env.ts';
import { METRICS } from './lib/metrics.ts';
import { LIFECYCLE_RULES, lifecycleOptions, lifecyclePlan } from './lib/plans/token-lifecycle.ts';
import type { RuleId } from '../contracts/rules/index.ts';
import { type K6SummaryData, summaryFiles } from './lib/summary.ts';
import { joinUrl } from './lib/url.ts';

const env = readLoadEnv(__ENV);
const plan = lifecyclePlan(__ENV);
export const options: Options = lifecycleOptions(plan);

// The logged-out token's 401 (or 403) is the expected answer; a 429 is counted and honoured.
http.setResponseCallback(http.expectedStatuses({ min: 200, max: 299 }, ...UNAUTHENTICATED_STATUSES, 429));

const violations = new Counter(METRICS.lifecycleViolations);
const completed = new Counter(METRICS.lifecyclesCompleted);
const rateLimited = new Counter(METRICS.rateLimited);

const listUrl = plan.list === undefined ? undefined : joinUrl(env.baseUrl, plan.list.path, { limit: 1 });
const listName = plan.list === undefined ? '' : `GET ${plan.list.path}`;
const PACED: PacedOptions = { retries: 2, maxWaitSeconds: plan.rate?.periodSeconds ?? 60, onRateLimited: () => rateLimited.add(1) };

const verdict = verdicts('token-lifecycle', violations, LIFECYCLE_RULES);

function status(response: Response): string {
  return `got ${response.status}`;
}

export function setup(): void {
  for (const sentence of plan.skipped) console.warn(sentence);
}

// One lane per VU, across its lifecycles.
let paced: Paced | undefined;
/** Whether the key has worked once for this VU: a refusal after that is the service's, judged under token-issued. */
let issued = false;

export default function (): void {
  paced = paced ?? Paced.forVu(instanceGrid(plan.rate, plan.share), plan.vus, PACED, null);
  const token = paced.token(env);
  // A key refused before it ever worked for this VU is our setting: the run stops naming it, and no rule is blamed.
  if (!token.ok && token.refused && !issued) stopForRefusedKey(`token-lifecycle: ${token.reason}`);
  if (!token.ok) {
    verdict('token-issued', false, () => token.reason);
    completed.add(0);
    return;
  }
  verdict('token-issued', true, () => '');
  issued = true;
  const credentials = token.credentials;

  let works = true;
  if (listUrl !== undefined) {
    const used = paced.get(listUrl, credentials, `${listName} (fresh token)`);
    works = verdict('token-works', used.status === 200, () => `expected 200 from GET ${listUrl} with a fresh token, ${status(used)}`);
  }

  const out = paced.logout(env, credentials);
  const loggedOut = verdict(
    'logout-accepted',
    out.status >= 200 && out.status < 300,
    () => `expected 2xx from POST ${env.baseUrl}/oauth/token (logout), ${status(out)}`,
  );

  let refusedOk = listUrl === undefined;
  if (loggedOut && listUrl !== undefined) {
    const after = paced.get(listUrl, credentials, `${listName} (logged-out token)`);
    const refusedStatuses: readonly number[] = UNAUTHENTICATED_STATUSES;
    refusedOk = verdict(
      'logged-out-refused',
      refusedStatuses.includes(after.status),
      () => `expected ${UNAUTHENTICATED_STATUSES.join(' or ')} from GET ${listUrl} with a logged-out token, ${status(after)}`,
    );
  }
  completed.add(works && loggedOut && refusedOk ? 1 : 0);
}

export function handleSummary(data: K6SummaryData): Record<string, string> {
  return summaryFiles(data, {
    script: 'token-lifecycle',
    rules: { metric: METRICS.lifecycleViolations, ids: Object.keys(LIFECYCLE_RULES) as RuleId[] },
    dir: reportDir(__ENV),
    secrets: [env.clientSecret],
    target: env.baseUrl,
    generatedAt: new Date().toISOString(),
  });
}
