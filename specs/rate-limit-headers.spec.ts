/**
 * Document, Limits: the rate-limit response headers and the rate per API client, judged by the rate
 * rules' observer. The arithmetic tests are @quota: alone, so that no other worker spends the budget.
 */
import { RESOURCE_ENDPOINTS } from '../contracts/endpoints.ts';
import { DEFAULT_RATE } from '../contracts/limits.ts';
import { RateClient, firstWithRoom, type SpendEndpoint } from '../harness/rate/spend-budget.ts';
import { holdingKey } from '../harness/run/key-lock.ts';
import { checks, expect } from './fixtures/index.ts';
import { rateTest } from './fixtures/rate.ts';

/** Requests in the Remaining arithmetic test. */
const REQUESTS = 5;

/** Requests of one key between two of the other key's: more than one, so a shared budget cannot pass for a rounding. */
const OTHER_CLIENT_REQUESTS = 3;

/** Why rate.per-client is not checked where the observer did not judge the second answer by it. */
const MAY_HAVE_RESET = 'Not checked: the reset the first answer announced may have come between the two requests.';

rateTest.describe('every resource response', () => {
  rateTest(
    'shows the rate in force: LP_RATE where it is set, else the default 200 per 1m (a platform expectation)',
    checks('rate.budget', 'platform.default-rate'),
    async ({ api, target, targetClock, verdict }) => {
      rateTest.skip(target.rate === null, 'The key is not rate limited (LP_RATE=0): no rate to compare.');
      // Not the first of its window, as far as this test knows: Remaining may only be lower.
      const expected = { rate: target.rate ?? DEFAULT_RATE, explicit: target.rate !== undefined };
      const client = new RateClient(api, targetClock, verdict, { expected });
      expect(await client.list()).toHaveStatus(200);
      verdict.checked(expected.explicit ? 'rate.budget' : 'platform.default-rate');
    },
  );
  for (const endpoint of RESOURCE_ENDPOINTS)
    rateTest(
      `of ${endpoint.method} ${endpoint.path} carries the three X-Rate-Limit headers, well formed, reset within one period`,
      checks(['rate.headers'], { needs: endpoint.id === 'listUsers' ? ['users-scope'] : [] }),
      async ({ api, targetClock, verdict }) => {
        const client = new RateClient(api, targetClock, verdict);
        expect(await client.list(endpoint.id as SpendEndpoint)).toHaveStatus(200);
        verdict.checked('rate.headers');
      },
    );
});

rateTest.describe('the rate budget', checks([], { needs: ['quota'] }), () => {
  rateTest('X-Rate-Limit-Remaining falls by one per request within a window', checks('rate.remaining'), async ({ api, targetClock, verdict }) => {
    const client = new RateClient(api, targetClock, verdict);
    await firstWithRoom(client, REQUESTS - 1);
    let judged = false;
    for (let i = 1; i < REQUESTS; i++) {
      expect(await client.list()).toHaveStatus(200);
      judged ||= client.observer.seen.checked.includes('rate.remaining');
    }
    // A step that may have crossed the reset the answer before announced is not judged.
    rateTest.skip(!judged, `Not checked: each of the ${REQUESTS} requests may have come after the reset the answer before it announced.`);
    verdict.checked('rate.remaining');
  });
  rateTest('is not reset by a new token of the same client', checks('rate.per-client'), async ({ api, tokens, targetClock, verdict }) => {
    // Room for the request after the token's, and for the token request, which may count too.
    const client = new RateClient(api, targetClock, verdict);
    await firstWithRoom(client, 2);
    const fresh = await client.token(() => tokens.issue());
    client.switchTo(api.as(fresh.accessToken), 'a new token of the same client');
    expect(await client.list()).toHaveStatus(200);
    // Only the end of the first window may start a new one; a window per token must not.
    rateTest.skip(!client.observer.seen.checked.includes('rate.per-client'), MAY_HAVE_RESET);
    verdict.checked('rate.per-client');
  });
  // Which key spends and which watches its own budget meanwhile, both ways: a service may count one kind of key against the other's budget and not the reverse.
  for (const [spender, watcher] of [
    ['organization', 'provider'],
    ['provider', 'organization'],
  ] as const)
    rateTest(
      `is not spent by another client: the ${watcher} key's by the ${spender} key's requests`,
      checks(['rate.per-client'], { needs: ['provider'] }),
      async ({ api, target, tokens, targetClock, verdict }) => {
        // The provider key's requests are counted one by one: the real-time walks that use it beside the serial phase wait.
        await holdingKey(rateTest.info().project.outputDir, target.provider?.clientId ?? '', async () => {
          // Both tokens first: a token request may count in its own client's budget, never in the other's.
          const spending = new RateClient(api.as((await tokens.forScopes(undefined, spender)).accessToken), targetClock, verdict);
          const watching = new RateClient(api.as((await tokens.forScopes(undefined, watcher)).accessToken), targetClock, verdict);
          // Each key with room for what it sends here, the spender's first (its wait must not fall between the watcher's two answers).
          await firstWithRoom(spending, OTHER_CLIENT_REQUESTS);
          await firstWithRoom(watching, 1);
          for (let i = 0; i < OTHER_CLIENT_REQUESTS; i++) expect(await spending.list()).toHaveStatus(200);
          // One request of the watching key between its two answers: the other key's requests must not count.
          watching.observer.crossing(`${OTHER_CLIENT_REQUESTS} requests of the ${spender} key (another API client)`);
          expect(await watching.list()).toHaveStatus(200);
          rateTest.skip(!watching.observer.seen.checked.includes('rate.per-client'), MAY_HAVE_RESET);
          verdict.checked('rate.per-client');
        });
      },
    );
});
