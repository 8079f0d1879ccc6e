/**
 * The token lifecycle under load (document, States and transitions; Authentication 9): each iteration issues a token, uses it, logs out, and sees the
 * logged-out token refused, every answer judged by the per-response rules too. Every request, the token request included, takes a slot of one grid within
 * LP_BUDGET_SHARE of the rate (load/lib/pacing.ts). Without a scope for either list, the use and the refused use are left out with a sentence.
 */
import http from 'k6/http';
import { Counter } from 'k6/metrics';
import type { Options } from 'k6/options';
import { UNAUTHENTICATED_STATUSES } from '../contracts/open-behaviours.ts';
import { judgedGet, judgedLogout, judgedToken, pacedScript, verdict } from './k6/verdict.ts';
import { readLoadEnv } from './lib/env.ts';
import { METRICS } from './lib/metrics.ts';
import { listRule } from './lib/plans/common.ts';
import { lifecycleOptions, lifecyclePlan } from './lib/plans/token-lifecycle.ts';
import { joinUrl } from './lib/url.ts';

const env = readLoadEnv(__ENV);
const plan = lifecyclePlan(__ENV);
export const options: Options = lifecycleOptions(plan);

// The logged-out token's 401 (or 403) is the expected answer; a 429 is counted and honoured.
http.setResponseCallback(http.expectedStatuses({ min: 200, max: 299 }, ...UNAUTHENTICATED_STATUSES, 429));

const script = pacedScript('token-lifecycle', METRICS.lifecycleViolations, plan, env);
const record = script.record;
export const setup = script.warnSkipped;
export const handleSummary = script.handleSummary;
const completed = new Counter(METRICS.lifecyclesCompleted);

const list = plan.list;
const listUrl = list === undefined ? '' : joinUrl(env.baseUrl, list.path, { limit: 1 });

export default function (): void {
  const paced = script.lane(plan.vus);
  const credentials = judgedToken(record, paced, env, 'token-lifecycle');
  let works = credentials !== undefined;
  if (credentials !== undefined && list !== undefined) {
    const used = judgedGet(record, paced, listUrl, credentials, `GET ${list.path} (fresh token)`, list);
    works = verdict(record, listRule(list), used.status === 200, () => ({ expected: '200', got: `${used.status}` }), `GET ${listUrl} with a fresh token`);
  }
  const refused = credentials !== undefined && judgedLogout(record, paced, env, credentials, list && listUrl, `GET ${list?.path} (logged-out token)`);
  completed.add(works && refused ? 1 : 0);
}
