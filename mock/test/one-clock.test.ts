/**
 * One clock in every header: Date comes from the mock's clock as X-Rate-Limit-Reset, Retry-After and
 * the times in bodies do, so that a client reading Reset against Date (the usual way to survive a
 * clock skew) waits what the mock means, however far the control plane moved the clock.
 */
import { parseRateLimitHeaders } from '../../contracts/rate-limit.ts';
import { api, control, expect, getToken, json, postToken, START_MS, test } from './http-fixtures.ts';
import { rawExchange } from './raw-http.ts';

const HOUR_S = 3600;

function dateOf(res: Response): number {
  const date = Date.parse(res.headers.get('date') ?? '');
  expect(date, `Date: ${res.headers.get('date')}`).not.toBeNaN();
  return date;
}

test.describe('a clock that follows wall time, moved an hour', () => {
  // As the CLI runs it: wall time plus the offset the control plane adds.
  test.use({ mockOptions: { timeSource: Date.now } });

  test('Date and X-Rate-Limit-Reset of one response are within one period of each other', async ({ mock }) => {
    const { access_token } = await getToken(mock);
    expect((await control(mock, '/clock', { advanceSeconds: HOUR_S })).status).toBe(200);
    const res = await api(mock, '/api/v2/content?limit=1', access_token);
    expect(res.status).toBe(200);
    const rate = parseRateLimitHeaders((name) => res.headers.get(name) ?? undefined);
    if (!rate.ok) throw new Error(rate.error);
    const gap = rate.value.resetMs - dateOf(res);
    // Date has whole seconds: the reset is up to one period and that second after it, never before.
    expect(gap, `Reset ${res.headers.get('x-rate-limit-reset')} against Date ${res.headers.get('date')}`).toBeGreaterThan(0);
    expect(gap).toBeLessThanOrEqual(rate.value.periodSeconds * 1000 + 1000);
    expect(dateOf(res)).toBeGreaterThan(Date.now() + (HOUR_S - 60) * 1000);
  });

  test('the control plane, the token endpoint and answers node gives before a request is read say the same time', async ({ mock }) => {
    expect((await control(mock, '/clock', { advanceSeconds: HOUR_S })).status).toBe(200);
    const clock = await fetch(`${mock.baseUrl}/_mock/clock`);
    const now = Date.parse((await json(clock)).now);
    expect(Math.abs(dateOf(clock) - now)).toBeLessThan(1000);
    const token = await postToken(mock, 'grant_type=client_credentials');
    expect(Math.abs(dateOf(token) - now)).toBeLessThan(5000);
    // A head node cannot parse is answered straight to the socket, with the same clock's Date.
    const raw = await rawExchange(mock.baseUrl, Buffer.from('GET / HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n'), { timeoutMs: 10_000 });
    if (raw.kind !== 'response') throw new Error(`expected a 400, got ${raw.kind}: ${raw.detail}`);
    expect(raw.status).toBe(400);
    expect(Math.abs(Date.parse(raw.headers.date ?? '') - now)).toBeLessThan(5000);
  });
});

test('a frozen clock: Date names its second, not the wall', async ({ mock }) => {
  mock.clock.advance(1.5);
  const res = await api(mock, '/api/v2/content?limit=1');
  expect(res.headers.get('date')).toBe(new Date(START_MS + 1000).toUTCString());
});
