/**
 * What the k6 scripts do with their judgements, by the ids of contracts/rules/: each rule judged is counted on METRICS.rulesJudged (the reports tell a rule
 * that held from one nothing exercised), each finding on the script's findings counter tagged with its rule and logged in one line. The per-response rules are
 * the suite's judges, with the bundled standalone schema validators.
 */
import * as VALIDATORS from 'generated:validators';
import { Counter } from 'k6/metrics';
import { ENDPOINTS } from '../../contracts/endpoints.ts';
import { type Broken, type Exchange, isRefusal, isServed } from '../../contracts/rules/exchange.ts';
import { findingLine } from '../../common/report.ts';
import { type Finding, finding } from '../../contracts/rules/finding.ts';
import type { RuleId } from '../../contracts/rules/index.ts';
import { judgeExchange } from '../../contracts/rules/judge.ts';
import { exchangeOf } from '../lib/checks.ts';
import type { LoadEnv } from '../lib/env.ts';
import { METRICS } from '../lib/metrics.ts';
import type { ListEndpoint, PacedPlan } from '../lib/plans/common.ts';
import { type K6SummaryData, summaryFiles } from '../lib/summary.ts';
import { type Credentials, stopForRefusedKey } from './api.ts';
import { instanceGrid, Paced, type PacedOptions } from './paced.ts';

// Created once, in the init context of the one module every script's judgements go through.
const rulesJudged = new Counter(METRICS.rulesJudged);

/** Counts one judgement of `rule`, held or broken: without any, the reports say the rule was not checked. */
export function judged(rule: RuleId): void {
  rulesJudged.add(1, { rule });
}

/** Records rules judged and the findings among them; true when none broke. */
export type Recorder = (judged: Iterable<RuleId>, findings: readonly Finding[]) => boolean;

/** One rule's verdict on one request; true when it held. */
export function verdict(record: Recorder, rule: RuleId, ok: boolean, broken: () => Broken, request: string): boolean {
  return record([rule], ok ? [] : [finding(rule, broken(), request)]);
}

/** `exchange`, judged by every per-response rule. */
function answer(record: Recorder, exchange: Exchange): Exchange {
  const { checked, findings } = judgeExchange(exchange, { validators: VALIDATORS });
  record(checked, findings);
  return exchange;
}

/** GETs `url` and judges the answer by every per-response rule (as a page of `list`, where given). */
export function judgedGet(record: Recorder, paced: Paced, url: string, credentials: Credentials, name: string, list?: ListEndpoint): Exchange {
  return answer(record, exchangeOf(paced.get(url, credentials, name), 'api', list && (list.id === 'listUsers' ? 'users' : 'content')));
}

/** Whether the key has worked once for this VU: a refusal after that is the service's, judged under token.issued. */
let keyWorked = false;

/** A token from `paced`, judged (token.issued and every rule of its answer); undefined when none came. */
export function judgedToken(record: Recorder, paced: Paced, env: LoadEnv, script: string): Credentials | undefined {
  const token = paced.token(env);
  // A key refused before it ever worked is our setting: the run stops naming it, and no rule is blamed.
  if (!token.ok && token.refused && !keyWorked) stopForRefusedKey(`${script}: ${token.reason}`);
  answer(record, exchangeOf(token.response, 'auth'));
  // A 429 left after the retries is the service's right on every endpoint (counted as rate limited): no token, no broken rule.
  if (token.response.status === 429) return undefined;
  const got = token.ok ? '' : token.reason;
  if (!verdict(record, 'token.issued', token.ok, () => ({ expected: 'a token', got }), `POST ${env.authUrl}${ENDPOINTS.token.path}`) || !token.ok)
    return undefined;
  keyWorked = true;
  return token.credentials;
}

/**
 * Logs out (platform.logout-response), then sends `url`, when given, with the logged-out token (logout.expires-access, platform.unauthenticated-status), every
 * answer judged by its rules too: true when the logout was answered and the token refused.
 */
export function judgedLogout(record: Recorder, paced: Paced, env: LoadEnv, credentials: Credentials, url: string | undefined, name: string): boolean {
  const out = answer(record, exchangeOf(paced.logout(env, credentials), 'api'));
  // Refused by the rate limit after the retries (counted as rate limited): nothing was logged out, nothing to judge.
  if (out.status === 429) return false;
  const logout = `POST ${env.baseUrl}${ENDPOINTS.logout.path}`;
  if (!verdict(record, 'platform.logout-response', isServed(out), () => ({ expected: 'a 2xx', got: `${out.status}` }), logout) || url === undefined)
    return isServed(out);
  const after = judgedGet(record, paced, url, credentials, name);
  const request = `GET ${url} with a logged-out token`;
  verdict(record, 'platform.unauthenticated-status', after.status === 401, () => ({ expected: '401', got: `${after.status}` }), request);
  return verdict(record, 'logout.expires-access', isRefusal(after), () => ({ expected: 'a 4xx without data', got: `${after.status}` }), request);
}

/** What a script that stays within the budget shares: its recorder (findings on `metric`), its lanes, setup's warnings, handleSummary. */
export function pacedScript(script: string, metric: string, plan: PacedPlan, env: LoadEnv) {
  const rateLimited = new Counter(METRICS.rateLimited);
  const options: PacedOptions = { maxWaitSeconds: plan.rate?.periodSeconds ?? 60, onRateLimited: () => rateLimited.add(1) };
  const findings = new Counter(metric);
  const record: Recorder = (rules, broken) => {
    for (const rule of rules) judged(rule);
    // A zero keeps the counter's samples flowing, so its thresholds are evaluated on data.
    findings.add(0);
    for (const f of broken) {
      findings.add(1, { rule: f.rule });
      console.error(`${script}, ${findingLine(f)}`);
    }
    return broken.length === 0;
  };
  let lane: Paced | undefined;
  return {
    record,
    /** The calling VU's lane, one of `vus`, after setup's `lastSlot`; made at its first call, kept across iterations. */
    lane: (vus: number, lastSlot: number | null = null) => (lane = lane ?? Paced.forVu(instanceGrid(plan.rate, plan.share), vus, options, lastSlot)),
    /** Setup's or teardown's lane: the whole grid. */
    alone: () => new Paced(options, instanceGrid(plan.rate, plan.share)),
    warnSkipped: () => plan.skipped.forEach((sentence) => console.warn(sentence)),
    handleSummary: (data: K6SummaryData) => summaryFiles(data, { script, rules: { metric, ids: plan.rules, strict: plan.strict } }, env),
  };
}
