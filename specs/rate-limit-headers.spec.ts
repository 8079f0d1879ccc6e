/**
 * Document, Limits: rate-limit response headers (X-Rate-Limit-Limit a period like `1m`,
 * X-Rate-Limit-Remaining the requests remaining, X-Rate-Limit-Reset a UTC ISO 8601 time) and the
 * rate per API client, judged by contracts/rate-limit-rules.ts. The arithmetic tests are @quota: they
 * run alone (project contract-serial), since another worker spending the same client's budget would
 * change the count under them.
 */
import { RESOURCE_ENDPOINTS } from '../contracts/endpoints.ts';
import { headerLookup, type RateLimitHeaders } from '../contracts/rate-limit.ts';
import { DEFAULT_RATE } from '../contracts/limits.ts';
import { judgeRateHeaders, judgeRateInForce, judgeRemainingStep, TARGET_CLOCK_SLACK_MS } from '../contracts/rate-limit-rules.ts';
import { type ApiClient, probeQuery, type ResourceEndpointId } from '../harness/client/api.ts';
import { type ApiResponse, checks, expect, test, type Verdict } from './fixtures/index.ts';
import { rateHeaders, resetEarliestMs } from '../harness/rate/rate-headers.ts';
import { firstWithRoom } from '../harness/rate/spend-budget.ts';
import { rateTest } from './fixtures/rate.ts';
import { describeRequest } from '../harness/client/transport.ts';

/** Requests in the Remaining arithmetic test. */
const REQUESTS = 5;

/** Requests of one key between two of the other key's: more than one, so a shared budget cannot pass for a rounding. */
const OTHER_CLIENT_REQUESTS = 3;

/** Which key spends and which watches its own budget meanwhile. */
const DIRECTIONS = [
  { spender: 'organization', watcher: 'provider' },
  { spender: 'provider', watcher: 'organization' },
] as const;

test.describe('every resource response', () => {
  test(
    'shows the rate in force: LP_RATE where it is set, else the default 200 per 1m (a platform expectation)',
    checks('rate.budget', 'platform.default-rate'),
    async ({ api, target, verdict }) => {
      test.skip(target.rate === null, 'The key is not rate limited (LP_RATE=0): no rate to compare.');
      const response = await api.list('listContent', { limit: 1 });
      expect(response).toHaveStatus(200);
      judgeRate(verdict, rateHeaders(response), target.rate ?? undefined, describeRequest(response.request));
    },
  );

  for (const endpoint of RESOURCE_ENDPOINTS) {
    test(
      `of ${endpoint.method} ${endpoint.path} carries the three X-Rate-Limit headers, well formed, reset within one period`,
      checks(['rate.headers'], { needs: endpoint.id === 'listUsers' ? ['users-scope'] : [] }),
      async ({ api, targetNow, verdict }) => {
        const response = await api.list(endpoint.id as ResourceEndpointId, probeQuery(endpoint.id as ResourceEndpointId));
        expect(response).toHaveStatus(200);
        const now = await targetNow();
        const { findings } = judgeRateHeaders(headerLookup(response.headers), { status: response.status, nowMs: now, clockSlackMs: TARGET_CLOCK_SLACK_MS });
        verdict.checked('rate.headers');
        for (const f of findings) verdict.judge(f.rule, false, `${f.reason} (${describeRequest(response.request)})`);
      },
    );
  }
});

rateTest.describe('the rate budget', checks([], { needs: ['quota'] }), () => {
  rateTest('X-Rate-Limit-Remaining falls by one per request within a window', checks('rate.remaining'), async ({ api, targetClock, verdict }) => {
    const seen: { headers: RateLimitHeaders; answeredAtMs: number }[] = [];
    for (let i = 0; i < REQUESTS; i++) {
      const headers = rateHeaders(i === 0 ? await firstWithRoom(api, targetClock, REQUESTS - 1) : await listOne(api));
      seen.push({ headers, answeredAtMs: await targetClock.now() });
    }
    // Before the reset the answer before announced, nothing comes back, whatever the kind of window;
    // a step that may have crossed it is not judged. The target counted the request at the latest
    // when it answered: on a slow machine that may be well after it was sent.
    const steps = seen.slice(1).map(({ headers: after, answeredAtMs }, i) => {
      const before = (seen[i] as (typeof seen)[number]).headers;
      const resetMayHaveCome = answeredAtMs + targetClock.slackMs >= resetEarliestMs(before);
      return judgeRemainingStep({ before, after, afterServed: true, returned: resetMayHaveCome ? 'reset' : 0 });
    });
    rateTest.skip(!steps.some((s) => s.judged), `Not checked: each of the ${REQUESTS} requests may have come after the reset the answer before it announced.`);
    const request = `GET ${api.url('listContent', { limit: 1 })}`;
    verdict.checked('rate.remaining');
    for (const [i, s] of steps.entries())
      if (s.finding) verdict.judge(s.finding.rule, false, `request ${i + 2} of ${REQUESTS}: ${s.finding.reason} (${request})`);
  });

  rateTest('is not reset by a new token of the same client', checks('rate.per-client'), async ({ api, tokens, targetClock, verdict }) => {
    // Room for the request after the token's, and for the token request, which may count too.
    const before = rateHeaders(await firstWithRoom(api, targetClock, 2));
    const fresh = await tokens.issue();
    const after = rateHeaders(await listOne(api.as(fresh.accessToken)));
    // Only the end of the first window may start a new one; a window per token must not.
    rateTest.skip(
      (await targetClock.now()) + targetClock.slackMs >= resetEarliestMs(before),
      'Not checked: the reset the first answer announced may have come between the two requests.',
    );
    // The token request in between may count too: the rate covers all endpoints.
    const step = judgeRemainingStep({ before, after, afterServed: true, between: { counted: 0, uncertain: 1 }, returned: 0 });
    verdict.judge(
      'rate.per-client',
      step.finding === undefined,
      () =>
        `a new token of the same client after Remaining ${before.remaining} for the old one: ${step.finding?.reason} (GET ${api.url('listContent', { limit: 1 })})`,
    );
  });

  // Both ways: a service may count one kind of key against the other's budget and not the reverse.
  for (const { spender, watcher } of DIRECTIONS) {
    rateTest(
      `is not spent by another client: the ${watcher} key's by the ${spender} key's requests`,
      checks(['rate.per-client'], { needs: ['provider'] }),
      async ({ api, tokens, targetClock, verdict }) => {
        // Both tokens first: a token request may count in its own client's budget, never in the other's.
        const spending = api.as((await tokens.forScopes(undefined, spender)).accessToken);
        const watching = api.as((await tokens.forScopes(undefined, watcher)).accessToken);
        // Each key with room for what it sends here, the spender's first (its wait must not fall
        // between the watcher's two answers).
        await firstWithRoom(spending, targetClock, OTHER_CLIENT_REQUESTS);
        const before = rateHeaders(await firstWithRoom(watching, targetClock, 1));
        for (let i = 0; i < OTHER_CLIENT_REQUESTS; i++) await listOne(spending);
        const after = rateHeaders(await listOne(watching));
        rateTest.skip(
          (await targetClock.now()) + targetClock.slackMs >= resetEarliestMs(before),
          'Not checked: the reset the first answer announced may have come between the two requests.',
        );
        // One request of the watching key between its two answers: the other key's requests must not count.
        const step = judgeRemainingStep({ before, after, afterServed: true, returned: 0 });
        verdict.judge(
          'rate.per-client',
          step.finding === undefined,
          () =>
            `the ${watcher} key after ${OTHER_CLIENT_REQUESTS} requests of the ${spender} key (another API client) in between: ${step.finding?.reason} (GET ${api.url('listContent', { limit: 1 })})`,
        );
      },
    );
  }
});

async function listOne(api: ApiClient): Promise<ApiResponse> {
  const response = await api.list('listContent', { limit: 1 });
  expect(response).toHaveStatus(200);
  return response;
}

/**
 * One response against the rate in force: the configured one (LP_RATE: rate.budget, a contract rule,
 * "headers reflect the limit in force") or, unset, the default the platform documents (a platform
 * rule). Not the first of its window, as far as this test knows: Remaining may only be lower.
 */
function judgeRate(
  verdict: Verdict,
  headers: RateLimitHeaders,
  configured: { requests: number; periodSeconds: number; period: string } | undefined,
  request: string,
): void {
  const expected = { rate: configured ?? DEFAULT_RATE, explicit: configured !== undefined };
  const finding = judgeRateInForce(headers, expected, false);
  const rule = expected.explicit ? 'rate.budget' : 'platform.default-rate';
  verdict.checked(rule);
  if (finding) verdict.judge(finding.rule, false, `${finding.reason} (${request})`);
}
