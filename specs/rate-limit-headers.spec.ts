/**
 * Document, Limits: rate-limit response headers (X-Rate-Limit-Limit a period like `1m`,
 * X-Rate-Limit-Remaining the requests remaining, X-Rate-Limit-Reset a UTC ISO 8601 time) and the
 * rate per API client. The arithmetic tests are @quota: they run alone (project contract-serial),
 * since another worker spending the same client's budget would change the count under them.
 */
import { RESOURCE_ENDPOINTS } from '../contracts/endpoints.ts';
import { headerLookup, parseRateLimitHeaders, type RateLimitHeaders } from '../contracts/rate-limit.ts';
import type { ApiClient, ResourceEndpointId } from './fixtures/api.ts';
import { type ApiResponse, expect, TAGS, test } from './fixtures/index.ts';

/** Clock difference tolerated between the target and us (without a control plane, "now" is ours). */
const CLOCK_SLACK_MS = 5000;
/** Requests in the Remaining arithmetic test. */
const REQUESTS = 5;

test.describe('every resource response', () => {
  for (const endpoint of RESOURCE_ENDPOINTS) {
    test(`of ${endpoint.method} ${endpoint.path} carries the three X-Rate-Limit headers, well formed, reset within one period`, async ({ api, targetNow }) => {
      const response = await api.list(endpoint.id as ResourceEndpointId, { limit: 1 });
      expect(response).toHaveStatus(200);
      const now = await targetNow();
      const headers = rateHeaders(response);
      expect(headers.resetMs, `X-Rate-Limit-Reset ${new Date(headers.resetMs).toISOString()} is not before now`).toBeGreaterThanOrEqual(now - CLOCK_SLACK_MS);
      expect(headers.resetMs, `X-Rate-Limit-Reset is at most one period (${headers.period}) ahead`).toBeLessThanOrEqual(
        now + headers.periodSeconds * 1000 + CLOCK_SLACK_MS,
      );
    });
  }
});

test.describe('the rate budget', { tag: TAGS.quota }, () => {
  test('X-Rate-Limit-Remaining falls by one per request within a window', async ({ api }) => {
    const seen: RateLimitHeaders[] = [];
    for (let i = 0; i < REQUESTS; i++) seen.push(rateHeaders(await listOne(api)));
    const steps = seen.slice(1).flatMap((h, i) => {
      const before = seen[i] as RateLimitHeaders;
      return h.resetMs === before.resetMs ? [{ from: before.remaining, to: h.remaining }] : [];
    });
    expect(steps.length, 'consecutive requests within one window').toBeGreaterThan(0);
    expect(
      steps.filter((s) => s.to !== s.from - 1),
      'Remaining steps that were not a fall by one',
    ).toEqual([]);
  });

  test('is not reset by a new token of the same client', async ({ api, tokens, targetNow }) => {
    const before = rateHeaders(await listOne(api));
    const fresh = await tokens.issue();
    const after = rateHeaders(await listOne(api.as(fresh.accessToken)));
    // Only the end of the first window may start a new one; a window per token must not.
    test.skip((await targetNow()) + CLOCK_SLACK_MS >= before.resetMs, 'The window ended between the two requests; nothing to compare.');
    expect(after.remaining, `Remaining for a new token after ${before.remaining} for the old one`).toBe(before.remaining - 1);
  });
});

async function listOne(api: ApiClient): Promise<ApiResponse> {
  const response = await api.list('listContent', { limit: 1 });
  expect(response).toHaveStatus(200);
  return response;
}

function rateHeaders(response: ApiResponse): RateLimitHeaders {
  const parsed = parseRateLimitHeaders(headerLookup(response.headers));
  if (!parsed.ok) throw new Error(`Rate-limit headers of ${response.request.method} ${response.request.url}: ${parsed.reason}.`);
  return parsed.value;
}
