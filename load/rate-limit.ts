/**
 * The rate-limit probe (document, Limits and Errors): one VU, one iteration that runs the probe's
 * course (load/lib/probe.ts): spend a fresh window to its first 429, honour Retry-After, retry once,
 * for LP_PROBE_WINDOWS windows. The rule engine of contracts/ judges every answer; each finding is
 * counted under its rule id and logged with its reason.
 *
 * The plan comes from LP_RATE (k6 fixes scenarios before setup() runs); setup() stops the run when
 * the target's period differs, and refuses a distributed run: one budget cannot be measured from
 * several machines.
 */
import { sleep } from 'k6';
import exec from 'k6/execution';
import http from 'k6/http';
import { Counter, Trend } from 'k6/metrics';
import type { Options } from 'k6/options';
import { ENDPOINTS } from '../contracts/endpoints.ts';
import { headerLookup, parseRateLimitHeaders } from '../contracts/rate-limit.ts';
import { retryAfterTime, retryAllowedAtMs } from '../contracts/rate-limit-retry.ts';
import { RATE_RULES } from '../contracts/rate-limit-rules.ts';
import { RULES } from '../contracts/rules/index.ts';
import { abortTest, apiGet, type Credentials, logout, requestToken, stopForRefusedKey } from './k6/api.ts';
import { judged } from './k6/verdict.ts';
import { readLoadEnv, reportDir } from './lib/env.ts';
import { METRICS } from './lib/metrics.ts';
import { scopedLists } from './lib/plans/common.ts';
import { bucketOf, probeOptions, probePlan } from './lib/plans/rate-limit.ts';
import { judgedRules, type ProbeEvent, RateLimitProbe } from './lib/probe.ts';
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
const REQUEST = `GET ${probed.path}?limit=1`;
/** Findings logged per rule; the rest are counted only. */
const LOGGED_PER_RULE = 5;

interface SetupData {
  readonly credentials: Credentials;
  /** Requests setup made with the key (token, first GET): the probe counts them in. */
  readonly requests: ReadonlyArray<{ readonly sentMs: number; readonly receivedMs: number }>;
}

export function setup(): SetupData {
  if (scoped.held.length === 0) abortTest(`setup: ${scoped.skipped.join(' ')} The probe needs one list to count requests on.`);
  const segment = exec.test.options.executionSegment;
  if (segment !== undefined && segment !== null && String(segment) !== '0:1') {
    abortTest(
      `setup: the rate-limit probe runs on one instance only (this one runs execution segment ${String(segment)}): one client's budget cannot be measured from several machines; run it with parallelism 1.`,
    );
  }
  const requests: Array<{ sentMs: number; receivedMs: number }> = [];
  const tokenSent = Date.now();
  const token = requestToken(env);
  requests.push({ sentMs: tokenSent, receivedMs: Date.now() });
  if (!token.ok && token.refused) stopForRefusedKey(`setup: ${token.reason}`);
  if (!token.ok) abortTest(`setup: ${token.reason}`);
  const sentMs = Date.now();
  const response = apiGet(probeUrl, token.credentials, `setup ${REQUEST}`);
  requests.push({ sentMs, receivedMs: Date.now() });
  const parsed = parseRateLimitHeaders(headerLookup(response.headers));
  if (parsed.ok && parsed.value.periodSeconds !== plan.expected.rate.periodSeconds) {
    abortTest(
      `setup: X-Rate-Limit-Limit says the period is ${parsed.value.period} but LP_RATE ${plan.expected.rate.requests}/${plan.expected.rate.period} says ${plan.expected.rate.period}: set LP_RATE to the target's rate.`,
    );
  }
  if (response.status !== 429 && (response.status < 200 || response.status >= 300)) {
    abortTest(`setup: expected 2xx or 429 from GET ${probeUrl}, got ${response.status}: the probe needs a working target and token.`);
  }
  if (response.status === 429) {
    // A window an earlier run spent: nothing is sent before its Retry-After has passed (at most a period).
    const retry = retryAfterTime(response.headers['Retry-After'], sentMs, Date.now());
    const untilMs = retry.ok ? retryAllowedAtMs(retry.value) : Date.now() + plan.expected.rate.periodSeconds * 1000;
    sleep(Math.min(plan.expected.rate.periodSeconds + 1, Math.max(0, (untilMs - Date.now()) / 1000)));
  }
  return { credentials: token.credentials, requests };
}

function record(event: ProbeEvent, receivedMs: number, startMs: number): void {
  const counts = probe.counts;
  findings.add(0);
  for (const rule of judgedRules(event, plan.expected)) judged(rule);
  for (const finding of [...event.findings, ...event.own]) {
    findings.add(1, { rule: finding.rule });
    const level = RULES[finding.rule].level === 'platform' ? 'platform deviation' : 'broken';
    if (counts[finding.rule] <= LOGGED_PER_RULE) console.error(`rate-limit probe, ${finding.rule} (${level}): ${finding.reason} [${finding.request}]`);
  }
  rateLimited.add(event.status === 429 ? 1 : 0);
  retryHonoured.add(event.honoured === true ? 1 : 0);
  windowsMeasured.add(event.budget === undefined ? 0 : 1);
  if (event.budget !== undefined) {
    budgetMeasured.add(event.budget.served);
    timeToFirst429.add(receivedMs - windowStartMs);
  }
  if (event.fresh) windowStartMs = receivedMs;
  if (event.retryAfterApartSeconds !== undefined) retryAfterApart.add(event.retryAfterApartSeconds);
  const bucket = bucketOf(plan.plot, receivedMs - startMs);
  if (event.headers !== undefined) plotRemaining.add(event.headers.remaining, { bucket });
  plotRefused.add(event.status === 429 ? 1 : 0, { bucket });
}

let probe: RateLimitProbe;
let windowStartMs = 0;

export default function (data: SetupData): void {
  const startMs = Date.now();
  // The course ends a little before k6's maxDuration would cut the iteration.
  probe = new RateLimitProbe({ expected: plan.expected, windows: plan.windows, deadlineMs: startMs + plan.durationSeconds * 1000 });
  for (const request of data.requests) probe.before(request.sentMs, request.receivedMs);
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
    const receivedMs = Date.now();
    record(
      probe.observe({ request: `${REQUEST} (${step.phase})`, sentMs, receivedMs, status: response.status, headers: response.headers }),
      receivedMs,
      startMs,
    );
  }
}

export function teardown(data: SetupData): void {
  // Polite, not checked: the token would otherwise live 60 days.
  logout(env, data.credentials);
}

export function handleSummary(data: K6SummaryData): Record<string, string> {
  return summaryFiles(data, {
    script: 'rate-limit',
    rules: {
      metric: METRICS.rateFindings,
      ids: RATE_RULES,
      strict,
      // The rate in force is judged under one of two rules, by whether LP_RATE names it.
      notChecked: plan.expected.explicit
        ? { 'platform.default-rate': 'LP_RATE is set, so the rate in force is judged against it (rate.budget)' }
        : { 'rate.budget': 'LP_RATE is not set, so the rate in force is judged against the default rate (platform.default-rate)' },
    },
    plotBucketMs: plan.plot.bucketMs,
    dir: reportDir(__ENV),
    secrets: [env.clientSecret],
    target: env.baseUrl,
    generatedAt: new Date().toISOString(),
  });
}
