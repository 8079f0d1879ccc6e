/** Rate limiting as the api origin applies it: which responses are counted and carry the headers. */
import { headerLookup, parseRateLimitHeaders, retryAfterSeconds } from '../../contracts/rate-limit.ts';
import { api, control, expect, getToken, json, profiled, PROVIDER, START_MS, test } from './http-fixtures.ts';

const rateOf = (res: Response) => parseRateLimitHeaders((name) => res.headers.get(name) ?? undefined);

test.describe('default rate: 200 per 1m', () => {
  test('the first response of a window says 199 and resets a minute after it', async ({ mock }) => {
    const { access_token } = await getToken(mock);
    const res = await api(mock, '/api/v2/content?limit=1', access_token);
    expect(rateOf(res)).toEqual({ ok: true, value: { period: '1m', periodSeconds: 60, remaining: 199, resetMs: START_MS + 60_000 } });
    expect(res.headers.get('x-rate-limit-reset')).toBe(new Date(START_MS + 60_000).toISOString());
  });
});

test.describe('a small budget', () => {
  test.use({ mockOptions: { rate: { requests: 3, periodSeconds: 10, period: '10s' } } });

  test('every counted response carries the headers: 200, 4xx from resources, 403, logout; then 429 with Retry-After and an error body', async ({ mock }) => {
    const { access_token } = await getToken(mock, 'content:read');
    const statuses: number[] = [];
    for (const path of ['/api/v2/content?limit=1', '/api/v2/content?limit=0', '/api/v2/users']) {
      const res = await api(mock, path, access_token);
      statuses.push(res.status);
      expect(rateOf(res), path).toMatchObject({ ok: true, value: { period: '10s', remaining: 3 - statuses.length } });
    }
    expect(statuses).toEqual([200, 400, 403]);
    mock.clock.advance(2.5);
    const refused = await api(mock, '/oauth/token', access_token, { method: 'POST' });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('8');
    expect(retryAfterSeconds(refused.headers.get('retry-after') ?? undefined, 0)).toBe(8);
    expect(rateOf(refused)).toMatchObject({ ok: true, value: { remaining: 0, resetMs: START_MS + 10_000 } });
    expect((await json(refused)).errors[0]).toMatchObject({
      status: 429,
      code: 'quota-exceeded',
      title: 'API calls quota exceeded.',
      detail: 'Maximum 3 requests allowed per 10s.',
    });
    // Still logged in: the refused logout did not happen.
    mock.clock.advance(7.5);
    expect((await api(mock, '/api/v2/content?limit=1', access_token)).status).toBe(200);
  });

  test('the budget is per client: a new token of the same client shares it, another client has its own', async ({ mock }) => {
    for (let i = 0; i < 3; i++) await api(mock, '/api/v2/content?limit=1', (await getToken(mock)).access_token);
    expect((await api(mock, '/api/v2/content?limit=1', (await getToken(mock)).access_token)).status).toBe(429);
    const other = await getToken(mock, 'content:read', PROVIDER);
    expect((await api(mock, '/api/v2/content?limit=1', other.access_token)).status).toBe(200);
  });

  test('the token endpoint and the control plane are not limited, and a 401 is not counted', async ({ mock }) => {
    for (let i = 0; i < 5; i++) {
      expect((await api(mock, '/api/v2/content')).status).toBe(401);
      expect((await control(mock, '/clock', undefined, 'GET')).status).toBe(200);
    }
    const { access_token } = await getToken(mock);
    for (let i = 0; i < 5; i++) await getToken(mock);
    const res = await api(mock, '/api/v2/content?limit=1', access_token);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-rate-limit-remaining')).toBe('2');
    expect((await control(mock, '/clock', undefined, 'GET')).headers.get('x-rate-limit-limit')).toBeNull();
  });
});

test.describe('a custom rate per key from the clients list', () => {
  test.use({ mockOptions: { clients: [{ id: 'k', secret: 's', scopes: ['content:read'], rate: '20/12h' }] } });
  test('the headers reflect the limit in force', async ({ mock }) => {
    const { access_token } = await getToken(mock, 'content:read', { id: 'k', secret: 's' });
    const res = await api(mock, '/api/v2/content?limit=1', access_token);
    expect(rateOf(res)).toMatchObject({ ok: true, value: { period: '12h', remaining: 19 } });
  });
});

test.describe('rate null: limiting off', () => {
  test.use({ mockOptions: { rate: null } });
  test('no rate headers and no 429', async ({ mock }) => {
    const { access_token } = await getToken(mock);
    for (let i = 0; i < 3; i++) {
      const res = await api(mock, '/api/v2/users?limit=1', access_token);
      expect(res.status).toBe(200);
      expect(res.headers.get('x-rate-limit-limit')).toBeNull();
    }
  });
});

test.describe('profile rateLimit.resetFractionDigits 7', () => {
  test.use({ mockOptions: { profile: profiled({ rateLimit: { resetFractionDigits: 7 } }) } });
  test('X-Rate-Limit-Reset has 7 fractional digits and still parses', async ({ mock }) => {
    const res = await api(mock, '/api/v2/users?limit=1', (await getToken(mock)).access_token);
    expect(res.headers.get('x-rate-limit-reset')).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{7}Z$/);
    expect(parseRateLimitHeaders(headerLookup({ ...Object.fromEntries(res.headers) }))).toMatchObject({ ok: true });
  });
});

test.describe('profile rateLimit.rate', () => {
  test.use({ mockOptions: { profile: profiled({ rateLimit: { rate: '5/10s' } }) } });
  test('is the rate of keys without their own', async ({ mock }) => {
    const res = await api(mock, '/api/v2/users?limit=1', (await getToken(mock)).access_token);
    expect(rateOf(res)).toMatchObject({ ok: true, value: { period: '10s', remaining: 4 } });
  });
});
