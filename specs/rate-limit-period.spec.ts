/**
 * Document, Limits: X-Rate-Limit-Limit is the "Rate limit period", X-Rate-Limit-Reset "when the limit resets" (judgeWindowPeriod). A custom rate is legal, so
 * the period is compared only with what the target's own resets show: of two windows each opened by its first request, the second opened once the first's reset
 * has passed, the second resets at least one period after the first. Without LP_RATE the default rate is assumed until the target contradicts it (the `working
 * rate` annotation). These compare windows the control plane moves the clock through; in real time, the spend of rate-limit.spec.ts judges the period on the
 * window it opens, a period's wait saved.
 */
import type { Rate } from '../contracts/duration.ts';
import { DEFAULT_RATE } from '../contracts/limits.ts';
import { type RateLimitHeaders, RESET_RESOLUTION_MS, resetPassedMs } from '../contracts/rate-limit.ts';
import { sentence } from '../contracts/rules/exchange.ts';
import { judgeWindowPeriod } from '../contracts/rules/rate-limit.ts';
import type { ApiClient } from '../harness/client/api.ts';
import { describeRequest } from '../harness/client/transport.ts';
import { firstWithRoom, RateClient } from '../harness/rate/spend-budget.ts';
import { checks, expect, type Verdict } from './fixtures/index.ts';
import type { TargetClock } from '../harness/rate/target-clock.ts';
import { rateTest, withOrganizationRate } from './fixtures/rate.ts';

/** Resets waited for before a request opens a window: a sliding window forgets the requests before it one reset at a time. */
const OPENING_TRIES = 4;

/** A legal long window (the document's own example period), shown to the same check where the clock can be moved. */
const LONG_RATE = '30/12h';

const TITLE = 'X-Rate-Limit-Limit is the period of the windows: a window opened after a reset resets no sooner than one period later';

// Also as a run users make reads it, without LP_RATE, wherever the rate is known; and a long custom window.
for (const [it, suffix, needs, told] of [
  [rateTest, '', [], true],
  [rateTest, ' (read as a run without LP_RATE reads it)', ['rate-known'], false],
  [withOrganizationRate(LONG_RATE), ` (a custom rate of ${LONG_RATE})`, ['rate-known'], true],
] as const)
  it(`${TITLE}${suffix}`, checks(['rate.period'], { needs: ['quota', 'control', ...needs] }), async ({ api, target, targetClock, verdict }) => {
    await twoWindows(api, targetClock, workingBudget(told ? target.rate : undefined), verdict);
  });

/**
 * The budget a window opened by one request shows (Remaining + 1): the known rate's (LP_RATE, or the mock's); without one the document's default, `assumed`
 * until the target's answers contradict it (openWindow). `source`: what it was read from, for the `working rate` annotation. Undefined for a key that is not
 * limited (LP_RATE=0).
 */
function workingBudget(rate: Rate | null | undefined) {
  if (rate === null) return undefined;
  if (rate !== undefined) return { requests: rate.requests, assumed: false, source: `${rate.requests}/${rate.period}, the rate in force for the key` };
  return { requests: DEFAULT_RATE.requests, assumed: true, source: `${DEFAULT_RATE.requests}/${DEFAULT_RATE.period}, the document's default (no rate told)` };
}

type WorkingBudget = NonNullable<ReturnType<typeof workingBudget>>;

async function twoWindows(api: ApiClient, clock: TargetClock, budget: WorkingBudget | undefined, verdict: Verdict): Promise<void> {
  rateTest.skip(!budget, 'The key is not rate limited (LP_RATE=0): no window to compare.');
  if (!budget) return;
  const client = new RateClient(api, clock, verdict, { shared: true });
  try {
    const opened = await openWindow(client, budget);
    await clock.reach(resetPassedMs(opened.headers) + clock.slackMs, 'X-Rate-Limit-Reset of the first window');
    const next = await listOne(client);
    rateTest.skip(
      next.headers.remaining + 1 !== budget.requests,
      `Not checked: the request after the first window's reset left X-Rate-Limit-Remaining ${next.headers.remaining}, not ${budget.requests - 1}: it did not open a window of its own.`,
    );
    const breach = judgeWindowPeriod(opened.headers, next.headers);
    verdict.checked('rate.period');
    if (breach) verdict.judge(breach.rule, false, `${sentence(breach)} (${next.request})`);
    expect(next.headers.resetMs, 'X-Rate-Limit-Reset of the second window').toBeGreaterThan(opened.headers.resetMs);
  } finally {
    // Which budget the windows were read with, skipped or not: the run says what it assumed.
    rateTest.info().annotations.push({ type: 'working rate', description: budget.source });
  }
}

/**
 * A response that opened a window, waiting for resets (at most OPENING_TRIES) until one does; else the test is skipped. An assumed budget the first answer does
 * not show gives way to the target's own: after one period without a request (X-Rate-Limit-Limit's), no earlier request counts in any kind of window, so the
 * next request opens one and its Remaining + 1 is the budget in force.
 */
async function openWindow(client: RateClient, budget: WorkingBudget): Promise<{ headers: RateLimitHeaders; request: string }> {
  const { clock } = client;
  let answer = await listOne(client);
  if (budget.assumed && answer.headers.remaining + 1 !== budget.requests) {
    const what = `one idle period (X-Rate-Limit-Limit ${answer.headers.period}) to read the budget in force, as no rate is told`;
    await clock.reach((await clock.now()) + answer.headers.periodSeconds * 1000 + RESET_RESOLUTION_MS + clock.slackMs, what);
    answer = await listOne(client);
    const shown = answer.headers.remaining + 1;
    budget.source = `${shown}/${answer.headers.period}, the budget a window opened after an idle period shows (the document's default ${budget.source.split(',')[0]} assumed first: no rate told)`;
    budget.requests = shown;
    return answer;
  }
  for (let i = 0; i < OPENING_TRIES && answer.headers.remaining + 1 !== budget.requests; i++) {
    await clock.reach(resetPassedMs(answer.headers) + clock.slackMs, 'X-Rate-Limit-Reset of a window opened before this test');
    answer = await listOne(client);
  }
  rateTest.skip(
    answer.headers.remaining + 1 !== budget.requests,
    `Not checked: after ${OPENING_TRIES} resets no request opened a window (X-Rate-Limit-Remaining ${answer.headers.remaining}, not ${budget.requests - 1}).`,
  );
  return answer;
}

/** One content request; a 429 (a window spent by an earlier test) is waited out as its Retry-After says. */
async function listOne(client: RateClient): Promise<{ headers: RateLimitHeaders; request: string }> {
  const response = await firstWithRoom(client, 0);
  return { headers: client.headers(response), request: describeRequest(response.request) };
}
