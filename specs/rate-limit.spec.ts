/**
 * Document, Limits (200 requests per minute per API client, or a custom rate the headers reflect) and Errors (429 with Retry-After). Every test spends a
 * client's whole budget (@quota: alone, in the serial project). A window's end is reached by moving the target's clock, or without a control plane waited for
 * in real time: one spend shows what it can (two windows), since each wait is a period.
 */
import type { TestStepInfo } from '@playwright/test';
import type { Rate } from '../contracts/duration.ts';
import { DEFAULT_RATE } from '../contracts/limits.ts';
import { type RateLimitHeaders, RESET_RESOLUTION_MS, resetPassedMs, resetResolutionMs } from '../contracts/rate-limit.ts';
import { sentence } from '../contracts/rules/exchange.ts';
import { judgeWindowPeriod } from '../contracts/rules/rate-limit.ts';
import { checks, expect, type Verdict } from './fixtures/index.ts';
import { describeRequest } from '../harness/client/transport.ts';
import { RateClient, requireLastRequest, requireRefusal, spendBudget } from '../harness/rate/spend-budget.ts';
import { rateTest as test, withOrganizationRate } from './fixtures/rate.ts';

/** A custom rate unlike the default in both count and period (the document's own example period). */
const CUSTOM_RATE = '30/12h';

/** A spend's Remaining may fall faster than it sends where the run's other tests use the key too: only what no other request explains is judged. */
const SHARED = { shared: true } as const;

// One client, two windows: each rule a spend can show, judged on the spend that shows it; rate.headers too: every answer is judged, to Remaining 0 and the 429.
const ONE_SPEND_CHECKS = [
  'rate.reset',
  'rate.period',
  'rate.429',
  'rate.retry-after',
  'rate.per-client',
  'rate.headers',
  'platform.retry-after-reset',
] as const;

test.describe('a client that spends its budget', () => {
  test(
    'serves it to Remaining 0, has it back once X-Rate-Limit-Reset has passed for a window a period long, then refuses ' +
      'the request past it with 429 and Retry-After, for a new token and the users endpoint too, serves another client, ' +
      'and serves again once Retry-After has passed',
    checks([...ONE_SPEND_CHECKS], { needs: ['quota'] }),
    async ({ api, tokens, target, targetClock, verdict }) => {
      test.slow(!targetClock.moved);
      // Both tokens before the budget is spent: a token request may count in the budget ("all endpoints"),
      // and one sent while the client is refused may be refused itself, or extend the block.
      const spender = await tokens.issue();
      const fresh = await tokens.issue();
      const client = new RateClient(api.as(spender.accessToken), targetClock, verdict, SHARED);
      const usersScope = target.client.scopes.some((scope) => scope.startsWith('users:'));
      // "One API client, all endpoints": the first window is spent on users where the key may list them. Spent to its last request, never past it: no 429
      // starts a block a limiter may extend, so only a reset that did not come can refuse the request after it.
      const last = requireLastRequest(await spendBudget(client, usersScope ? 'listUsers' : 'listContent', false), verdict);
      const ready =
        await test.step('a request once X-Rate-Limit-Reset of the answer that said Remaining 0 has passed is served, in a window a period long', async (step) => {
          await targetClock.reach(resetPassedMs(last) + targetClock.slackMs, 'X-Rate-Limit-Reset of the answer that said Remaining 0');
          const findings = client.broken.length;
          const back = await client.list();
          if (back.status === 429 && client.broken.length === findings) step.skip(true, "Not checked: the target's clock may not have reached the reset yet.");
          verdict.checked('rate.reset');
          if (back.status !== 200) return false;
          expectPeriod(client.headers(back), last, target.rate, verdict, step, describeRequest(back.request));
          return true;
        });
      if (!ready) return;
      const retryAfter = requireRefusal(await spendBudget(client), verdict) && client.observer.seen.retry?.value;
      const notChecked = 'Not checked: X-Rate-Limit-Reset of the refusal may have passed before the request was answered.';
      await test.step('a new token of the same client is refused', async (step) => {
        // A budget per client, not per token.
        client.switchTo(api.as(fresh.accessToken), 'a new token of the same client');
        await client.list();
        step.skip(!client.observer.seen.checked.includes('rate.per-client'), notChecked);
      });
      await test.step('GET /api/v2/users of the same client is refused', async (step) => {
        step.skip(!usersScope, 'The key holds no users scope (LP_SCOPES).');
        client.observer.crossing('GET /api/v2/users of the same client');
        await client.list('listUsers');
        step.skip(!client.observer.seen.checked.includes('rate.per-client'), notChecked);
      });
      await test.step('a token of another client is served', async (step) => {
        step.skip(!target.provider, 'No second key (LP_PROVIDER_CLIENT_ID…) is configured to show another client unaffected.');
        const other = await tokens.issue(undefined, 'provider');
        expect(await api.as(other.accessToken).list('listContent', { limit: 1 })).toHaveStatus(200, 'rate.per-client');
      });
      verdict.checked('rate.per-client', 'rate.429');
      // Without a readable Retry-After (the observer found it) nothing names a time to wait for.
      if (!retryAfter) return;
      await test.step('a request once the latest Retry-After has passed is served, with the budget back', async () => {
        // The latest refusal's: each refusal during a block may extend it, as the document warns.
        const what = `the time Retry-After "${client.observer.seen.retry?.value ?? retryAfter}" of the latest 429 named`;
        await targetClock.reach(client.observer.retryNamedAtMs() ?? 0, what);
        await client.list();
      });
      verdict.checked('rate.429', 'rate.retry-after', 'rate.headers', 'platform.retry-after-reset');
    },
  );
});

/**
 * rate.period on the answer that opened a window once `spent`'s reset had passed: opened by it alone (Remaining + 1 is the budget in force: LP_RATE's, or the
 * document's default), its window resets at least one period after `spent`'s in every kind of window, a sliding one too (nothing of `spent`'s window still
 * counts). Without the budget known to be in force it is not judged.
 */
function expectPeriod(
  opened: RateLimitHeaders,
  spent: RateLimitHeaders,
  rate: Rate | null | undefined,
  verdict: Verdict,
  step: TestStepInfo,
  request: string,
): void {
  const budget = (rate ?? DEFAULT_RATE).requests;
  step.skip(rate === null, 'The key is not rate limited (LP_RATE=0): no window to compare.');
  step.skip(
    opened.remaining + 1 !== budget,
    `Not checked (rate.period): the request after the reset left X-Rate-Limit-Remaining ${opened.remaining}, not ${budget - 1} of ` +
      `${rate ? 'the rate in force' : "the document's default rate (set LP_RATE to the key's rate)"}: it did not open a window of its own.`,
  );
  const breach = judgeWindowPeriod(spent, opened);
  verdict.checked('rate.period');
  if (breach) verdict.judge(breach.rule, false, `${sentence(breach)} (${request})`);
}

const customRateTest = withOrganizationRate(CUSTOM_RATE);
customRateTest.describe('a custom rate', () => {
  customRateTest(
    'shows its period in X-Rate-Limit-Limit and its count in the budget',
    checks(['rate.budget', 'rate.429'], { needs: ['quota', 'rate-known'] }),
    async ({ api, target, targetClock, tokens, verdict }) => {
      const configured = target.rate;
      customRateTest.skip(!configured, 'The key is not rate limited (LP_RATE=0): no budget to compare.');
      if (!configured) return;
      const rate = `${configured.requests}/${configured.period}`;
      const client = new RateClient(api, targetClock, verdict, { ...SHARED, expected: { rate: configured, explicit: true } });
      let counted = await countOneWindow(client, tokens, configured);
      // Budget that came back during the spend (a window's end, a sliding window) hides the budget in
      // the count: in real time, once the refusal has lifted, one more window is counted.
      if (counted.spent.gaveBack && !targetClock.moved) {
        const until = Math.max(client.observer.retryAllowedAtMs() ?? 0, resetPassedMs(client.observer.seen.headers ?? counted.spent.last));
        await targetClock.reach(until + targetClock.slackMs, 'the end of the refusal, to count one more window');
        counted = await countOneWindow(client, tokens, configured);
      }
      const { spent, known, tokenRequests } = counted;
      const request = `the spend of GET ${api.url('listContent')}`;
      const spentBefore = configured.requests - 1 - spent.first.remaining;
      verdict.contract(
        'rate.budget',
        spentBefore >= known && spentBefore <= known + tokenRequests,
        () =>
          `expected X-Rate-Limit-Remaining ${configured.requests - 1 - known} (or less by the ${tokenRequests} token requests sent in the window) ` +
          `for the first request after ${known} in its window of a key whose rate is ${rate}, got ${spent.first.remaining} (${request})`,
      );
      requireRefusal(spent, verdict);
      customRateTest.skip(
        spent.gaveBack,
        `Not checked: budget came back during the spend (a window ended, or a sliding window gave some back), so the ${spent.served} requests served before the 429 say nothing of the budget.`,
      );
      verdict.contract(
        'rate.429',
        spent.served === configured.requests - spentBefore,
        () =>
          `expected ${configured.requests - spentBefore} requests served before the first 429 for a key whose rate is ${rate}, got ${spent.served} (${request})`,
      );
    },
  );
});

/**
 * One window of a key whose rate is `configured`, spent to its first 429 from a known start: one request makes sure the token is there, then (unless it found a
 * fresh window) no request of the client is less than a period old. `known`: requests certainly counted in the window before the spend's first;
 * `tokenRequests`: token requests sent meanwhile, which may count too ("all endpoints").
 */
async function countOneWindow(client: RateClient, tokens: { readonly sent: number }, configured: Rate) {
  const { clock } = client;
  const probeSentMs = await clock.now();
  const probe = client.headers(await client.list());
  // The probe counts in its window unless a fresh one is waited for.
  let known = 1;
  if (probe.remaining < configured.requests - 1) {
    known = 0;
    const freshMs = Math.max(resetPassedMs(probe), probeSentMs + configured.periodSeconds * 1000 + RESET_RESOLUTION_MS) + clock.slackMs;
    await clock.reach(freshMs, 'a fresh window (the probe found this one part spent)');
  }
  // A token request in the fresh window (the token renewed after the clock moved) may count too.
  const tokenRequestsBefore = tokens.sent;
  const spent = await spendBudget(client);
  // A window aligned to the clock may have ended between the probe and the spend: then the probe does not count in the spend's window.
  if (spent.first.resetMs - probe.resetMs > Math.max(resetResolutionMs(probe), resetResolutionMs(spent.first))) known = 0;
  return { spent, known, tokenRequests: tokens.sent - tokenRequestsBefore };
}
