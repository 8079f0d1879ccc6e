/**
 * The token lifecycle under load (document, States and transitions; Authentication 9): each
 * iteration issues a token, uses it, logs out, and sees the logged-out token refused. Iterations
 * arrive at a constant rate that keeps the api-origin requests within LP_BUDGET_SHARE of the rate.
 */
import http from 'k6/http';
import { Counter } from 'k6/metrics';
import type { Options } from 'k6/options';
import { ENDPOINTS } from '../contracts/endpoints.ts';
import { UNAUTHENTICATED_STATUSES } from '../contracts/open-behaviours.ts';
import { apiGetHonouring, logout, type Response, requestToken } from './k6/api.ts';
import { verdicts } from './k6/verdict.ts';
import { readLoadEnv, reportDir } from './lib/env.ts';
import { LIFECYCLE_RULES, lifecycleOptions, lifecyclePlan, METRICS } from './lib/options.ts';
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

const listUrl = joinUrl(env.baseUrl, ENDPOINTS.listContent.path, { limit: 1 });
const honouring = { retries: 2, maxWaitSeconds: plan.rate?.periodSeconds ?? 60, onRateLimited: () => rateLimited.add(1) };

const verdict = verdicts('token-lifecycle', violations, LIFECYCLE_RULES);

function status(response: Response): string {
  return `got ${response.status}`;
}

export default function (): void {
  const token = requestToken(env);
  if (!token.ok) {
    verdict('token-issued', false, () => token.reason);
    completed.add(0);
    return;
  }
  verdict('token-issued', true, () => '');
  const credentials = token.credentials;

  const used = apiGetHonouring(listUrl, credentials, 'GET /api/v2/content (fresh token)', honouring);
  const works = verdict('token-works', used.status === 200, () => `expected 200 from GET ${listUrl} with a fresh token, ${status(used)}`);

  const out = logout(env, credentials);
  const loggedOut = verdict(
    'logout-accepted',
    out.status >= 200 && out.status < 300,
    () => `expected 2xx from POST ${env.baseUrl}/oauth/token (logout), ${status(out)}`,
  );

  let refusedOk = false;
  if (loggedOut) {
    const after = apiGetHonouring(listUrl, credentials, 'GET /api/v2/content (logged-out token)', honouring);
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
    rules: { metric: METRICS.lifecycleViolations, sentences: LIFECYCLE_RULES },
    dir: reportDir(__ENV),
    secrets: [env.clientSecret],
    target: env.baseUrl,
    generatedAt: new Date().toISOString(),
  });
}
