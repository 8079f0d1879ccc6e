/**
 * Document, Limits: rate-limit response headers (X-Rate-Limit-Limit a period like `1m`,
 * X-Rate-Limit-Remaining the requests remaining, X-Rate-Limit-Reset a UTC ISO 8601 time) and the
 * rate per API client, judged by contracts/rate-limit-rules.ts. The arithmetic tests are @quota: they
 * run alone (project contract-serial), since another worker spending the same client's budget would
 * change the count under them.
 */
import { RESOURCE_ENDPOINTS } from '../contracts/endpoints.ts';
import { headerLookup, type RateLimitHeaders } from '../contracts/rate-limit.ts';
import { judgeRateHeaders, judgeRemainingStep, TARGET_CLOCK_SLACK_MS } from '../contracts/rate-limit-rules.ts';
import type { ApiClient, ResourceEndpointId } from './fixtures/api.ts';
import { type ApiResponse, checks, expect, test } from './fixtures/index.ts';
import { rateHeaders } from './fixtures/rate-window.ts';
import { describeRequest } from './fixtures/transport.ts';

/** Requests in the Remaining arithmetic test. */
const REQUESTS = 5;

test.describe('every resource response', () => {
  for (const endpoint of RESOURCE_ENDPOINTS) {
    test(
      `of ${endpoint.method} ${endpoint.path} carries the three X-Rate-Limit headers, well formed, reset within one period`,
      checks(['rate.headers'], { needs: endpoint.id === 'listUsers' ? ['users-scope'] : [] }),
      async ({ api, targetNow }) => {
        const response = await api.list(endpoint.id as ResourceEndpointId, { limit: 1 });
        expect(response).toHaveStatus(200);
        const now = await targetNow();
        const { findings } = judgeRateHeaders(headerLookup(response.headers), { status: response.status, nowMs: now, clockSlackMs: TARGET_CLOCK_SLACK_MS });
        expect(
          findings.map((f) => f.reason),
          `X-Rate-Limit headers of ${describeRequest(response.request)}`,
        ).toEqual([]);
      },
    );
  }
});

test.describe('the rate budget', checks([], { needs: ['quota'] }), () => {
  test('X-Rate-Limit-Remaining falls by one per request within a window', checks('rate.remaining'), async ({ api }) => {
    const seen: RateLimitHeaders[] = [];
    for (let i = 0; i < REQUESTS; i++) seen.push(rateHeaders(await listOne(api)));
    const steps = seen.slice(1).map((after, i) => judgeRemainingStep({ before: seen[i] as RateLimitHeaders, after, afterServed: true }));
    expect(steps.filter((s) => s.judged).length, 'consecutive requests within one window').toBeGreaterThan(0);
    expect(
      steps.flatMap((s) => (s.finding ? [s.finding.reason] : [])),
      'Remaining steps that were not a fall by one',
    ).toEqual([]);
  });

  test('is not reset by a new token of the same client', checks('rate.per-client'), async ({ api, tokens, targetNow }) => {
    const before = rateHeaders(await listOne(api));
    const fresh = await tokens.issue();
    const after = rateHeaders(await listOne(api.as(fresh.accessToken)));
    // Only the end of the first window may start a new one; a window per token must not.
    test.skip((await targetNow()) + TARGET_CLOCK_SLACK_MS >= before.resetMs, 'The window ended between the two requests; nothing to compare.');
    // The token request in between may count too: the rate covers all endpoints.
    const step = judgeRemainingStep({ before, after, afterServed: true, between: { counted: 0, uncertain: 1 }, returned: 0 });
    expect(step.finding?.reason, `Remaining for a new token after ${before.remaining} for the old one`).toBeUndefined();
  });
});

async function listOne(api: ApiClient): Promise<ApiResponse> {
  const response = await api.list('listContent', { limit: 1 });
  expect(response).toHaveStatus(200);
  return response;
}
