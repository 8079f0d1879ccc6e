/**
 * Document, Limits: X-Rate-Limit-Limit is the "Rate limit period" and X-Rate-Limit-Reset "when the
 * limit resets"; judged together by contracts/rate-limit-rules.ts (judgeWindowPeriod). A custom rate
 * is legal and the headers "reflect the limit in force", so the period is never compared with a
 * guess: only with what the target's own resets show. Two windows are each opened by their first
 * request (Remaining + 1 is the budget of the rate in force, which only a known rate tells: LP_RATE,
 * or the mock's), the second once the first's reset has passed; the second must then reset at least
 * one period after the first. @quota: it counts the budget, alone, in the serial project.
 */
import type { Rate } from '../contracts/duration.ts';
import { judgeWindowPeriod } from '../contracts/rate-limit-rules.ts';
import type { RateLimitHeaders } from '../contracts/rate-limit.ts';
import type { ApiClient } from '../harness/client/api.ts';
import { checks, expect, type Verdict } from './fixtures/index.ts';
import { rateHeaders, resetPassedMs, retryWindow } from '../harness/rate/rate-headers.ts';
import { type TargetClock, rateTest, withOrganizationRate } from './fixtures/rate.ts';
import { describeRequest } from '../harness/client/transport.ts';

/** Resets waited for before a request opens a window: a sliding window forgets the requests before it one reset at a time. */
const OPENING_TRIES = 4;

/** A legal long window (the document's own example period), shown to the same check where the clock can be moved. */
const LONG_RATE = '30/12h';

const TITLE = 'X-Rate-Limit-Limit is the period of the windows: a window opened after a reset resets no sooner than one period later';

rateTest(TITLE, checks(['rate.period'], { needs: ['quota', 'rate-known'] }), async ({ api, target, targetClock, verdict }) => {
  await twoWindows(api, targetClock, target.rate, verdict);
});

const longRateTest = withOrganizationRate(LONG_RATE);

longRateTest(
  `${TITLE} (a custom rate of ${LONG_RATE})`,
  checks(['rate.period'], { needs: ['quota', 'rate-known', 'control'] }),
  async ({ api, target, targetClock, verdict }) => {
    await twoWindows(api, targetClock, target.rate, verdict);
  },
);

async function twoWindows(api: ApiClient, clock: TargetClock, rate: Rate | null | undefined, verdict: Verdict): Promise<void> {
  rateTest.skip(!rate, 'The key is not rate limited (LP_RATE=0): no window to compare.');
  if (!rate) return;
  const opened = await openWindow(api, clock, rate);
  await clock.reach(resetPassedMs(opened.headers) + clock.slackMs, 'X-Rate-Limit-Reset of the first window');
  const next = await listOne(api, clock);
  rateTest.skip(
    next.headers.remaining + 1 !== rate.requests,
    `Not checked: the request after the first window's reset left X-Rate-Limit-Remaining ${next.headers.remaining}, not ${rate.requests - 1}: it did not open a window of its own.`,
  );
  const finding = judgeWindowPeriod(opened.headers, next.headers);
  verdict.record(['rate.period'], finding ? [{ rule: finding.rule, message: `${finding.reason} (${next.request})` }] : []);
  expect(next.headers.resetMs, 'X-Rate-Limit-Reset of the second window').toBeGreaterThan(opened.headers.resetMs);
}

/** A response that opened a window, waiting for resets (at most OPENING_TRIES) until one does; else the test is skipped. */
async function openWindow(api: ApiClient, clock: TargetClock, rate: Rate): Promise<{ headers: RateLimitHeaders; request: string }> {
  let answer = await listOne(api, clock);
  for (let i = 0; i < OPENING_TRIES && answer.headers.remaining + 1 !== rate.requests; i++) {
    await clock.reach(resetPassedMs(answer.headers) + clock.slackMs, 'X-Rate-Limit-Reset of a window opened before this test');
    answer = await listOne(api, clock);
  }
  rateTest.skip(
    answer.headers.remaining + 1 !== rate.requests,
    `Not checked: after ${OPENING_TRIES} resets no request opened a window (X-Rate-Limit-Remaining ${answer.headers.remaining}, not ${rate.requests - 1}).`,
  );
  return answer;
}

/** One content request; a 429 (a window spent by an earlier test) is waited out once, as its Retry-After says. */
async function listOne(api: ApiClient, clock: TargetClock): Promise<{ headers: RateLimitHeaders; request: string }> {
  const sentMs = await clock.now();
  let response = await api.list('listContent', { limit: 1 });
  if (response.status === 429) {
    const retry = retryWindow(response, sentMs, await clock.now());
    await clock.reach(retry.latestMs + clock.slackMs, `the time Retry-After "${retry.value}" of a 429 named`);
    response = await api.list('listContent', { limit: 1 });
  }
  expect(response).toHaveStatus(200);
  return { headers: rateHeaders(response), request: describeRequest(response.request) };
}
