/**
 * The rate-limit probe (document, Limits and Errors): one VU, one iteration that runs the probe's course (load/lib/probe.ts): spend a fresh window to its first
 * 429, honour Retry-After, retry once, for LP_PROBE_WINDOWS windows. The rate rules' observer (contracts/rules/rate-limit.ts) judges every answer; each finding
 * is counted under its rule id and logged in its rule's words. The plan comes from LP_RATE: docs/load.md says why, and why a distributed run is refused.
 */
import { sleep } from 'k6';
import exec from 'k6/execution';
import http from 'k6/http';
import { Counter, Trend } from 'k6/metrics';
import type { Options } from 'k6/options';
import { ENDPOINTS } from '../contracts/endpoints.ts';
import { headerLookup, parseRateLimitHeaders, retryAfterTime, retryAllowedAtMs } from '../contracts/rate-limit.ts';
import { rateRuleIds } from '../contracts/rules/rate-limit.ts';
import type { Exchange } from '../contracts/rules/exchange.ts';
import { findingLine } from '../common/report.ts';
import { abortTest, apiGet, type Credentials, logout, requestToken, stopForRefusedKey } from './k6/api.ts';
import { judged } from './k6/verdict.ts';
import { readLoadEnv } from './lib/env.ts';
import { METRICS } from './lib/metrics.ts';
import { compareRate, scopedLists } from './lib/plans/common.ts';
import { bucketOf, probeOptions, probePlan } from './lib/plans/rate-limit.ts';
import { probeExchange, RateLimitProbe } from './lib/probe.ts';
import { type K6SummaryData, summaryFiles } from './lib/summary.ts';
import { joinUrl } from './lib/url.ts';

const env = readLoadEnv(__ENV);
const plan = probePlan(__ENV);
const strict = __ENV.LP_STRICT === '1';
export const options: Options = probeOptions(plan, strict);

// 429 is what the probe is after: not a failed request.
http.setResponseCallback(http.expectedStatuses({ min: 200, max: 299 }, 429));

const findings = new Counter(METRICS.rateFindings);
const rateLimited = new Counter(METRICS.rateLimited);
const retryHonoured = new Counter(METRICS.retryHonoured);
const budgetMeasured = new Trend(METRICS.budgetMeasured);
const windowsMeasured = new Counter(METRICS.windowsMeasured);
const timeToFirst429 = new Trend(METRICS.timeToFirst429, true);
const retryAfterApart = new Trend(METRICS.retryAfterApart);
const plotRemaining = new Trend(METRICS.plotRemaining);
const plotRefused = new Counter(METRICS.plotRefused);

// The cheapest counted request: one item, no filter, of a list the key's scopes cover.
const scoped = scopedLists(env.scopes, 'rate-limit');
const probed = scoped.held[0] ?? ENDPOINTS.listContent;
const probeUrl = joinUrl(env.baseUrl, probed.path, { limit: 1 });
const probedList: 'content' | 'users' = probed.id === 'listUsers' ? 'users' : 'content';
const REQUEST = `GET ${probed.path}?limit=1`;
/** Findings logged per rule; the rest are counted only. */
const LOGGED_PER_RULE = 5;

interface SetupData {
  readonly credentials: Credentials;
  /** Setup's token request and first GET, which may still count: the probe is fed them first. */
  readonly before: ReadonlyArray<Parameters<typeof probeExchange>>;
}

export function setup(): SetupData {
  if (scoped.held.length === 0) abortTest(`setup: ${scoped.skipped.join(' ')} The probe needs one list to count requests on.`);
  const segment = exec.test.options.executionSegment;
  if (segment !== undefined && segment !== null && String(segment) !== '0:1')
    abortTest(
      `setup: the rate-limit probe runs on one instance only (this one runs execution segment ${String(segment)}): one client's budget cannot be measured from several machines; run it with parallelism 1.`,
    );
  const tokenSent = Date.now();
  const token = requestToken(env);
  const before: Parameters<typeof probeExchange>[] = [['setup POST /oauth/token', undefined, { status: 200, headers: {} }, tokenSent, Date.now()]];
  if (!token.ok && token.refused) stopForRefusedKey(`setup: ${token.reason}`);
  if (!token.ok) abortTest(`setup: ${token.reason}`);
  const sentMs = Date.now();
  const response = apiGet(probeUrl, token.credentials, `setup ${REQUEST}`);
  before.push([`setup ${REQUEST}`, probedList, { status: response.status, headers: response.headers }, sentMs, Date.now()]);
  const parsed = parseRateLimitHeaders(headerLookup(response.headers));
  // A different budget is what the probe measures; a different period stops it.
  const mismatch = parsed.ok ? compareRate(plan.expected.rate, parsed.value) : undefined;
  if (mismatch?.fatal) abortTest(`setup: ${mismatch.reason}`);
  if (response.status !== 429 && (response.status < 200 || response.status >= 300))
    abortTest(`setup: expected 2xx or 429 from GET ${probeUrl}, got ${response.status}: the probe needs a working target and token.`);
  if (response.status === 429) {
    // A window an earlier run spent: nothing is sent before its Retry-After has passed (at most a period).
    const retry = retryAfterTime(response.headers['Retry-After'], sentMs, Date.now());
    const untilMs = retry.ok ? retryAllowedAtMs(retry.value) : Date.now() + plan.expected.rate.periodSeconds * 1000;
    sleep(Math.min(plan.expected.rate.periodSeconds + 1, Math.max(0, (untilMs - Date.now()) / 1000)));
  }
  return { credentials: token.credentials, before };
}

let probe: RateLimitProbe;
let windowStartMs = 0;
const logged: Record<string, number> = {};

/** Feeds one exchange to the probe, then counts and logs what the observer made of it: the rules judged, the findings, the probe's metrics. */
function record(exchange: Exchange, startMs: number): void {
  const found = probe.observe(exchange);
  const seen = probe.observer.seen;
  const receivedMs = exchange.receivedMs ?? startMs;
  findings.add(0);
  for (const rule of seen.checked) judged(rule);
  for (const finding of found) {
    judged(finding.rule);
    findings.add(1, { rule: finding.rule });
    logged[finding.rule] = (logged[finding.rule] ?? 0) + 1;
    if ((logged[finding.rule] ?? 0) <= LOGGED_PER_RULE) console.error(`rate-limit probe, ${findingLine(finding)}`);
  }
  rateLimited.add(exchange.status === 429 ? 1 : 0);
  retryHonoured.add(seen.honoured === true ? 1 : 0);
  windowsMeasured.add(seen.budget === undefined ? 0 : 1);
  if (seen.budget !== undefined) {
    budgetMeasured.add(seen.budget.served);
    timeToFirst429.add(receivedMs - windowStartMs);
  }
  if (seen.fresh) windowStartMs = receivedMs;
  if (seen.retryAfterApartSeconds !== undefined) retryAfterApart.add(seen.retryAfterApartSeconds);
  const bucket = bucketOf(plan.plot, receivedMs - startMs);
  if (seen.headers !== undefined) plotRemaining.add(seen.headers.remaining, { bucket });
  plotRefused.add(exchange.status === 429 ? 1 : 0, { bucket });
}

export default function (data: SetupData): void {
  const startMs = Date.now();
  // The course ends a little before k6's maxDuration would cut the iteration.
  probe = new RateLimitProbe({ expected: plan.expected, windows: plan.windows, deadlineMs: startMs + plan.durationSeconds * 1000 });
  // Setup data reaches the VU as JSON: the token request's undefined list comes back null.
  for (const [request, list, answer, sentMs, receivedMs] of data.before) record(probeExchange(request, list ?? undefined, answer, sentMs, receivedMs), startMs);
  for (let i = 0; i < plan.maxRequests; i++) {
    const step = probe.next(Date.now());
    if (step.kind === 'done') {
      console.log(`rate-limit probe: done, ${step.reason}.`);
      break;
    }
    const waitMs = step.atMs - Date.now();
    if (waitMs > 0) sleep(waitMs / 1000);
    const sentMs = Date.now();
    const response = apiGet(probeUrl, data.credentials, `probe ${REQUEST} (${step.phase})`);
    record(probeExchange(`${REQUEST} (${step.phase})`, probedList, response, sentMs, Date.now()), startMs);
  }
}

export function teardown(data: SetupData): void {
  // Polite, not checked: the token would otherwise live 60 days.
  logout(env, data.credentials);
}

export function handleSummary(data: K6SummaryData): Record<string, string> {
  // The rate in force is judged under one of two rules, by whether LP_RATE names it.
  const notChecked = plan.expected.explicit
    ? { 'platform.default-rate': 'LP_RATE is set, so the rate in force is judged against it (rate.budget)' }
    : { 'rate.budget': 'LP_RATE is not set, so the rate in force is judged against the default rate (platform.default-rate)' };
  const rules = { metric: METRICS.rateFindings, ids: rateRuleIds(), strict, notChecked };
  return summaryFiles(data, { script: 'rate-limit', rules, plotBucketMs: plan.plot.bucketMs }, env);
}
