/**
 * The rate-limit probe (document, Limits and Errors): one VU sends requests above the limit for
 * LP_PROBE_WINDOWS windows; load/lib/probe.ts decides on each response. Thresholds fail the run on
 * any broken rule, and unless the probe both went past the budget and saw a retry succeed.
 *
 * The plan comes from LP_RATE (k6 fixes scenarios before setup() runs); setup() compares it with the
 * target's headers (load/lib/options.ts compareRate): a different period stops the run, a different
 * budget is reported, and the budget threshold then fails on what the probe measures.
 */
import { sleep } from 'k6';
import exec from 'k6/execution';
import http from 'k6/http';
import { Counter, Trend } from 'k6/metrics';
import type { Options } from 'k6/options';
import { ENDPOINTS } from '../contracts/endpoints.ts';
import { headerLookup, parseRateLimitHeaders, type RateLimitHeaders } from '../contracts/rate-limit.ts';
import { abortTest, apiGet, apiGetHonouring, type Credentials, logout, requestToken } from './k6/api.ts';
import { readLoadEnv, reportDir } from './lib/env.ts';
import { bucketOf, compareRate, METRICS, probeOptions, probePlan } from './lib/options.ts';
import { PROBE_RULES, type ProbeEvent, RateLimitProbe } from './lib/probe.ts';
import { type K6SummaryData, summaryFiles } from './lib/summary.ts';
import { joinUrl } from './lib/url.ts';

const env = readLoadEnv(__ENV);
const plan = probePlan(__ENV);
export const options: Options = probeOptions(plan);

// 429 is what the probe is after: not a failed request.
http.setResponseCallback(http.expectedStatuses({ min: 200, max: 299 }, 429));

const violations = new Counter(METRICS.probeViolations);
const rateLimited = new Counter(METRICS.rateLimited);
const retryHonoured = new Counter(METRICS.retryHonoured);
const budgetMeasured = new Trend(METRICS.budgetMeasured);
const timeToFirst429 = new Trend(METRICS.timeToFirst429, true);
const retryAfterError = new Trend(METRICS.retryAfterError);
const plotRemaining = new Trend(METRICS.plotRemaining);
const plotRefused = new Counter(METRICS.plotRefused);

const probe = new RateLimitProbe({ budget: plan.rate.requests, toleranceSeconds: plan.toleranceSeconds });
// The cheapest counted request: one item, no filter.
const probeUrl = joinUrl(env.baseUrl, ENDPOINTS.listContent.path, { limit: 1 });
const REQUEST_NAME = 'probe GET /api/v2/content';
/** Findings logged per rule; the rest are counted only. */
const LOGGED_PER_RULE = 5;

function headersOf(credentials: Credentials): RateLimitHeaders {
  // A window still spent by an earlier run is waited out once (Retry-After, at most one period).
  const response = apiGetHonouring(probeUrl, credentials, 'setup GET /api/v2/content', { retries: 1, maxWaitSeconds: plan.rate.periodSeconds + 1 });
  if (response.status < 200 || response.status >= 300) {
    abortTest(`setup: expected 2xx from GET ${probeUrl}, got ${response.status}: the probe needs a working target and token.`);
  }
  const parsed = parseRateLimitHeaders(headerLookup(response.headers));
  if (!parsed.ok) abortTest(`setup: GET ${probeUrl} answered without usable rate-limit headers: ${parsed.reason}.`);
  return parsed.value;
}

/** Stops the run on a period mismatch; reports a budget mismatch and lets the probe measure. */
function judgeRate(headers: RateLimitHeaders, freshWindow: boolean): void {
  const mismatch = compareRate(plan.rate, headers, freshWindow);
  if (mismatch?.fatal) abortTest(`setup: ${mismatch.reason}`);
  if (mismatch) console.warn(`setup: ${mismatch.reason} The probe goes on and measures the budget.`);
}

export function setup(): Credentials {
  const token = requestToken(env);
  if (!token.ok) abortTest(`setup: ${token.reason}`);
  const first = headersOf(token.credentials);
  judgeRate(first, false);
  if (first.remaining + 1 < plan.rate.requests) {
    // The window is partly spent (an earlier run, another user of the key): wait for its reset and
    // read a fresh window's budget, so that the comparison with LP_RATE is exact.
    const waitSeconds = Math.min(plan.rate.periodSeconds + 1, Math.max(0, (first.resetMs - Date.now()) / 1000 + 0.5));
    sleep(waitSeconds);
    judgeRate(headersOf(token.credentials), true);
  }
  return token.credentials;
}

function record(event: ProbeEvent, receivedMs: number): void {
  if (event.findings.length === 0) violations.add(0);
  const counts = probe.counts;
  for (const finding of event.findings) {
    violations.add(1, { rule: finding.rule });
    if (counts[finding.rule] <= LOGGED_PER_RULE) console.error(`rate-limit probe, ${finding.rule}: ${finding.reason}`);
  }
  rateLimited.add(event.status === 429 ? 1 : 0);
  retryHonoured.add(event.retryHonoured === true ? 1 : 0);
  if (event.budget?.fromWindowStart) budgetMeasured.add(event.budget.count);
  if (event.timeToFirst429Ms !== undefined) timeToFirst429.add(event.timeToFirst429Ms);
  if (event.retryAfterErrorSeconds !== undefined) retryAfterError.add(event.retryAfterErrorSeconds);
  const bucket = bucketOf(plan.plot, receivedMs - exec.scenario.startTime);
  if (event.remaining !== undefined) plotRemaining.add(event.remaining, { bucket });
  plotRefused.add(event.status === 429 ? 1 : 0, { bucket });
}

export default function (credentials: Credentials): void {
  const sentMs = Date.now();
  const response = apiGet(probeUrl, credentials, REQUEST_NAME);
  const receivedMs = Date.now();
  record(probe.observe({ sentMs, receivedMs, status: response.status, headers: response.headers }), receivedMs);
}

export function teardown(credentials: Credentials): void {
  // Polite, not checked: the window may still be spent, and the token would otherwise live 60 days.
  logout(env, credentials);
}

export function handleSummary(data: K6SummaryData): Record<string, string> {
  return summaryFiles(data, {
    script: 'rate-limit',
    rules: { metric: METRICS.probeViolations, sentences: PROBE_RULES },
    plotBucketMs: plan.plot.bucketMs,
    dir: reportDir(__ENV),
    secrets: [env.clientSecret],
    target: env.baseUrl,
    generatedAt: new Date().toISOString(),
  });
}
