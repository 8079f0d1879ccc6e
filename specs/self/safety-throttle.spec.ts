/**
 * How the suite backs off (document, Errors: after a 429, honour Retry-After, do not retry at once, back off exponentially). The suite's own client against a
 * private mock with a tiny budget whose clock the test moves: waits are recorded and skipped over, never slept through.
 */
import type { Rate } from '../../contracts/duration.ts';
import { DEFAULT_RETRY_POLICY, retryAfterSeconds, retryDelayMs } from '../../contracts/rate-limit.ts';
import { createMock, type MockServer } from '../../mock/app.ts';
import { BUILT_IN_PROFILES } from '../../mock/profile.ts';
import { ANNOTATIONS } from '../../harness/report/annotations.ts';
import { expect, TAGS, test } from '../fixtures/index.ts';
import { ORG_KEY as ORG, rateHarness } from '../../harness/rate/rate-harness.ts';
import type { TooLongWait } from '../../harness/client/transport.ts';

const TINY: Rate = { requests: 3, periodSeconds: 10, period: '10s' };

let mock: MockServer;
test.beforeAll(async () => {
  mock = createMock({ rate: TINY });
  await mock.listen();
});
test.afterAll(async () => mock.close());
test.beforeEach(() => mock.reset());

test.describe('the suite’s client', { tag: TAGS.self }, () => {
  test('throttles itself under the rate limit: it waits for the reset instead of meeting a 429', async () => {
    const h = rateHarness(mock);
    const token = await h.token();
    const statuses: number[] = [];
    for (let i = 0; i < 3 * TINY.requests; i++) statuses.push((await h.list(token, ORG.id)).status);
    const refused = statuses.filter((s) => s !== 200);
    expect(refused, 'statuses other than 200').toEqual([]);
    expect(h.retries, '429s met').toEqual([]);
    expect(h.waits.length, 'waits for a window to reset').toBeGreaterThan(0);
    for (const wait of h.waits) expect(wait, 'a throttle wait').toBeLessThanOrEqual(TINY.periodSeconds * 1000 + 100);
  });
  test('retries a 429 after Retry-After plus backoff, never at once, and counts it', async () => {
    const h = rateHarness(mock);
    const token = await h.token();
    const statuses: number[] = [];
    for (let i = 0; i <= TINY.requests; i++) statuses.push((await h.list(token)).status);
    expect(statuses, 'statuses seen by the caller').toEqual([200, 200, 200, 200]);
    expect(h.retries.length, '429s retried').toBe(1);
    const retryAfter = retryAfterSeconds(h.retries[0]?.retryAfter, mock.clock.now());
    expect(retryAfter, 'the 429 carried Retry-After').toBeDefined();
    expect(h.waits[0], 'the wait before the retry').toBeGreaterThanOrEqual((retryAfter ?? 0) * 1000 + DEFAULT_RETRY_POLICY.baseMs / 2);
  });
  test('gives up after a bounded number of tries and returns the 429', async () => {
    const h = rateHarness(mock, { sleep: async (ms) => void h.waits.push(ms) });
    const token = await h.token();
    for (let i = 0; i < TINY.requests; i++) await h.list(token);
    expect((await h.list(token)).status, 'the last answer').toBe(429);
    expect(h.retries.length, 'retries').toBe(DEFAULT_RETRY_POLICY.maxAttempts - 1);
    const backoffs = h.waits.map((ms, i) => ms - (retryAfterSeconds(h.retries[i]?.retryAfter, mock.clock.now()) ?? 0) * 1000);
    expect(backoffs, 'waits grow from one retry to the next').toEqual([...backoffs].sort((a, b) => a - b));
  });
  test('never waits longer than its bound: a longer Retry-After is told to its caller and not waited for', async () => {
    const told: TooLongWait[] = [];
    const h = rateHarness(mock, { maxWaitMs: 1000, onTooLong: (event) => void told.push(event) });
    const token = await h.token();
    for (let i = 0; i < TINY.requests; i++) await h.list(token);
    await expect(h.list(token), 'the request refused for longer than the bound').rejects.toThrow(/rate limited for \d+ s more, longer than the 1 s/);
    expect(h.waits, 'waits').toEqual([]);
    const heard = told.map((t) => [t.why, t.maxWaitMs, t.waitMs > 1000, t.retryAfter !== undefined]);
    expect(heard, 'what the caller was told').toEqual([['retry', 1000, true, true]]);
  });
  test('lets quota-tagged tests see every 429 as it comes', async () => {
    const h = rateHarness(mock, { quota: true });
    const token = await h.token();
    for (let i = 0; i < TINY.requests; i++) await h.list(token, ORG.id);
    expect((await h.list(token, ORG.id)).status).toBe(429);
    expect(h.waits, 'waits').toEqual([]);
  });
  test('waits out a token endpoint that throttles token requests, in quota-tagged tests too: a token is never what they spend', async () => {
    const strict = BUILT_IN_PROFILES.strict;
    const throttled = createMock({ profile: { ...strict, tokens: { ...strict.tokens, requestLimit: '1/10s' } } });
    await throttled.listen();
    try {
      const h = rateHarness(throttled, { quota: true });
      await h.token();
      await h.token();
      const retriedAfter = h.retries.map((r) => r.retryAfter);
      expect(retriedAfter, 'the 429 of the second token request, retried after its Retry-After').toEqual(['10']);
    } finally {
      await throttled.close();
    }
  });
  test('reports each retry as an annotation on the test', async ({ transport }, testInfo) => {
    // The fixture's own transport, against a 1-request budget of one second: one real wait of about a second.
    const quick = createMock({ rate: { requests: 1, periodSeconds: 1, period: '1s' } });
    await quick.listen();
    try {
      const h = rateHarness(quick);
      const token = await h.token();
      const url = `${quick.baseUrl}/api/v2/content?limit=1`;
      const send = () => transport.send({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
      expect((await send()).status).toBe(200);
      expect((await send()).status).toBe(200);
      const annotations = testInfo.annotations.filter((a) => a.type === ANNOTATIONS.retry);
      expect(annotations.length, `"${ANNOTATIONS.retry}" annotations`).toBe(1);
      // Provoked here, not met: keep it out of the run's count of retries.
      testInfo.annotations.splice(testInfo.annotations.indexOf(annotations[0] as (typeof annotations)[number]), 1);
    } finally {
      await quick.close();
    }
  });
});

test.describe('the retry schedule', { tag: TAGS.self }, () => {
  for (const { retry, retryAfter, random, expected } of [
    { retry: 1, retryAfter: undefined, random: 0, expected: DEFAULT_RETRY_POLICY.minMs },
    { retry: 1, retryAfter: 0, random: 1, expected: 500 },
    { retry: 2, retryAfter: 3, random: 0, expected: 3500 },
    { retry: 3, retryAfter: 3, random: 1, expected: 5000 },
    { retry: 10, retryAfter: 0, random: 1, expected: DEFAULT_RETRY_POLICY.capMs },
  ])
    test(`retry ${retry} after Retry-After ${retryAfter ?? 'none'} (jitter ${random}) waits ${expected} ms`, () => {
      expect(retryDelayMs(retry, retryAfter, () => random)).toBe(expected);
    });
});
