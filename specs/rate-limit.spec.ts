/**
 * Document, Limits (200 requests per minute per API client, or a custom rate the headers reflect) and
 * Errors (429 with Retry-After). Every test spends a client's whole budget: @quota, so they run alone
 * in the serial project, start from a restored budget where a control plane exists and run against a
 * real service only with LP_QUOTA=1. The window's end is reached by moving the target's clock; the
 * real-time twin of that test waits instead (@slow, for targets without a control plane).
 */
import type { ApiClient } from './fixtures/api.ts';
import { expect, TAGS } from './fixtures/index.ts';
import {
  rateHeaders,
  requireRefusal,
  resetOf,
  retryWindow,
  spendBudget,
  type TargetClock,
  rateTest as test,
  withOrganizationRate,
} from './fixtures/rate-window.ts';

/** How long before the time the 429 names a request must still be refused. */
const PROBE_LEAD_MS = 1000;
/** A custom rate unlike the default in both count and period (the document's own example period). */
const CUSTOM_RATE = '30/12h';

const WINDOW_RULES = 'serves Remaining + 1 requests, then 429 with a Retry-After at X-Rate-Limit-Reset, refused until then, then the budget is back';

test.describe('a client that spends its budget', { tag: TAGS.quota }, () => {
  test(`${WINDOW_RULES} (clock moved)`, async ({ api, tokens, target, targetClock }) => {
    test.skip(
      !target.capabilities.control,
      "This test moves the target's clock through a control plane (LP_CONTROL_URL); its real-time twin (a slow test) covers targets without.",
    );
    await spendOneWindow(api.as((await tokens.issue()).accessToken), targetClock);
  });

  test(`${WINDOW_RULES} (real time)`, { tag: TAGS.slow }, async ({ api, tokens, target, targetClock }) => {
    test.skip(target.capabilities.control, 'The target has a control plane: the test that moves its clock covers this in seconds.');
    // The budget is spent at the target's pace, then up to a period passes in real time.
    test.slow();
    await spendOneWindow(api.as((await tokens.issue()).accessToken), targetClock);
  });
});

test.describe('the rate limit', { tag: TAGS.quota }, () => {
  test('applies per API client: a new token of a spent client is refused, another client is served', async ({ api, tokens, target, targetClock }) => {
    const spender = await tokens.issue();
    requireRefusal(await spendBudget(api.as(spender.accessToken), targetClock));
    const fresh = await tokens.issue();
    await test.step('a new token of the same client', async () => {
      const response = await api.as(fresh.accessToken).list('listContent', { limit: 1 });
      expect(response, 'Expected a new token of the client whose budget is spent to be refused (a budget per client, not per token)').toHaveStatus(429);
    });
    await test.step('a token of another client', async (step) => {
      step.skip(!target.provider, 'No second key (LP_PROVIDER_CLIENT_ID…) is configured to show another client unaffected.');
      const other = await tokens.issue(undefined, 'provider');
      expect(await api.as(other.accessToken).list('listContent', { limit: 1 }), 'Expected another client to be served').toHaveStatus(200);
    });
  });
});

const customRateTest = withOrganizationRate(CUSTOM_RATE);

customRateTest.describe('a custom rate', { tag: TAGS.quota }, () => {
  customRateTest('shows its period in X-Rate-Limit-Limit and its count in the budget', async ({ api, target, targetClock }) => {
    const configured = target.rate;
    customRateTest.skip(!configured, 'The rate configured for the key is not known (a remote target): nothing to compare the headers with.');
    if (!configured) return;
    const spent = await spendBudget(api, targetClock);
    expect(spent.first.periodSeconds, `X-Rate-Limit-Limit "${spent.first.period}" for a key whose rate is ${CUSTOM_RATE}`).toBe(configured.periodSeconds);
    expect(spent.first.remaining, `X-Rate-Limit-Remaining of the first request for a key whose rate is ${CUSTOM_RATE}`).toBe(configured.requests - 1);
    requireRefusal(spent);
    expect(spent.served, `requests served before the first 429 for a key whose rate is ${CUSTOM_RATE}`).toBe(configured.requests);
  });
});

/**
 * One window, from its first request to the first request of the next, with one token throughout
 * (`api` bound to it): moving the clock renews the worker's shared token, which must not matter here.
 */
async function spendOneWindow(api: ApiClient, clock: TargetClock): Promise<void> {
  const spent = await spendBudget(api, clock);
  const refusal = requireRefusal(spent);
  await test.step('serves Remaining + 1 requests, then 429', () => {
    expect(spent.served, `2xx responses before the first 429 (the first response said X-Rate-Limit-Remaining ${spent.first.remaining})`).toBe(
      spent.first.remaining + 1,
    );
  });

  const resetMs = resetOf(spent, refusal);
  const retry = retryWindow(refusal.response, refusal.sentAtMs, refusal.answeredAtMs);
  await test.step('the 429 carries Retry-After naming the time of X-Rate-Limit-Reset, within one second', () => {
    const apart = Math.max(0, retry.earliestMs - resetMs, resetMs - retry.latestMs);
    expect(
      apart,
      `ms between the time Retry-After "${retry.value}" names and X-Rate-Limit-Reset ${iso(resetMs)} (at most 1 s, plus ${clock.slackMs} ms of clock difference)`,
    ).toBeLessThanOrEqual(1000 + clock.slackMs);
  });

  await test.step('refused until that time', async (step) => {
    const probeAt = Math.min(resetMs, retry.earliestMs) - PROBE_LEAD_MS - clock.slackMs;
    step.skip((await clock.now()) >= probeAt, 'The window was nearly over when the budget ran out: no time left to probe before its end.');
    await clock.reach(probeAt);
    const response = await api.list('listContent', { limit: 1 });
    expect(response, `Expected a request ${(resetMs - probeAt) / 1000} s before ${iso(resetMs)} to be refused still`).toHaveStatus(429);
  });

  await test.step('served once it has passed, with the budget back', async () => {
    await clock.reach(Math.max(resetMs, retry.latestMs) + clock.slackMs);
    const back = await api.list('listContent', { limit: 1 });
    expect(back, `Expected a request after ${iso(resetMs)} (the window's end) to be served`).toHaveStatus(200);
    const after = rateHeaders(back);
    expect(after.resetMs, 'X-Rate-Limit-Reset after the window: a new window').toBeGreaterThan(resetMs);
    expect(after.remaining, 'X-Rate-Limit-Remaining after the window: the budget back').toBeGreaterThanOrEqual(spent.first.remaining);
  });
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
