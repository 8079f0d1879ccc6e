/** The rate limiter (mock/rate-limit.ts) on a manual clock, under each of the profile's rateLimit options. */
import { expect, test } from '@playwright/test';
import { headerLookup, parseRateLimitHeaders, retryAfterSeconds } from '../../contracts/rate-limit.ts';
import { ClientRegistry } from '../clients.ts';
import { VirtualClock } from '../clock.ts';
import { BUILT_IN_PROFILES, type Profile } from '../profile.ts';
import { RateLimiter, type RateOutcome } from '../rate-limit.ts';

function setup(o: Partial<Profile['rateLimit']> = {}) {
  const clock = new VirtualClock(() => Date.UTC(2026, 0, 1, 12, 0, 0, 250));
  const clients = new ClientRegistry(
    [
      { id: 'a', secret: 's', scopes: [] },
      { id: 'b', secret: 's', scopes: [] },
      { id: 'custom', secret: 's', scopes: [], rate: '2/10s' },
      { id: 'off', secret: 's', scopes: [], rate: '0' },
    ],
    { rate: { requests: 3, periodSeconds: 60, period: '1m' }, tokenTtlSeconds: 60 },
  );
  const limiter = new RateLimiter({ clock, profile: { ...BUILT_IN_PROFILES.strict.rateLimit, ...o } });
  const take = (id: string, token = 't1') => limiter.take({ client: clients.get(id)!, token });
  return { clock, limiter, take, clients };
}

function headers(outcome: RateOutcome): Record<string, string> {
  const record: Record<string, string> = {};
  for (let i = 0; i < outcome.headers.length; i += 2) record[outcome.headers[i] as string] = outcome.headers[i + 1] as string;
  return record;
}

test('a window starts at the first request: Remaining counts down after counting, Reset is the window end', () => {
  const { take, clock } = setup();
  const start = clock.now();
  for (const remaining of ['2', '1', '0']) {
    const outcome = take('a');
    expect(outcome.refused).toBe(false);
    expect(headers(outcome)).toEqual({
      'X-Rate-Limit-Limit': '1m',
      'X-Rate-Limit-Remaining': remaining,
      'X-Rate-Limit-Reset': new Date(start + 60_000).toISOString(),
    });
    clock.advance(10);
  }
});

test('past the budget: 429 with Retry-After rounded up to the reset, and the refusal does not move the window', () => {
  const { take, clock } = setup();
  const start = clock.now();
  for (let i = 0; i < 3; i++) take('a');
  clock.advance(20.5);
  const refused = take('a');
  expect(refused.refused).toBe(true);
  const h = headers(refused);
  expect(h['X-Rate-Limit-Remaining']).toBe('0');
  expect(h['Retry-After']).toBe('40'); // 39.5 s to the reset, rounded up
  const parsed = parseRateLimitHeaders(headerLookup(h));
  expect(parsed.ok && parsed.value.resetMs).toBe(start + 60_000);
  expect(clock.now() + (retryAfterSeconds(h['Retry-After'], clock.now()) ?? Number.NaN) * 1000).toBeGreaterThanOrEqual(start + 60_000);
  clock.advance(39.499);
  expect(take('a').refused).toBe(true);
  clock.advance(0.001);
  const fresh = take('a');
  expect(fresh.refused).toBe(false);
  expect(headers(fresh)['X-Rate-Limit-Remaining']).toBe('2');
});

test('the budget is per client, not per token; another client has its own', () => {
  const { take } = setup();
  take('a', 't1');
  take('a', 't2');
  take('a', 't3');
  expect(take('a', 't4').refused).toBe(true);
  expect(take('b', 't5').refused).toBe(false);
});

test('a client rate from the clients file applies and shows in the headers; rate 0 means no limit and no headers', () => {
  const { take } = setup();
  expect(headers(take('custom'))).toMatchObject({ 'X-Rate-Limit-Limit': '10s', 'X-Rate-Limit-Remaining': '1' });
  take('custom');
  expect(take('custom').refused).toBe(true);
  for (let i = 0; i < 10; i++) expect(take('off')).toMatchObject({ refused: false, headers: [] });
});

test('ended windows are evicted', () => {
  const { take, clock, limiter } = setup();
  take('a');
  take('b');
  expect(limiter.stats().windows).toBe(2);
  clock.advance(60);
  expect(limiter.sweep()).toBe(0);
});

test.describe('Retry-After and X-Rate-Limit-Reset forms', () => {
  test('retryAfter http-date: an HTTP-date at or after the reset', () => {
    const { take, clock } = setup({ retryAfter: 'http-date' });
    const start = clock.now();
    for (let i = 0; i < 3; i++) take('a');
    const value = headers(take('a'))['Retry-After'];
    expect(value).toBe(new Date(Math.ceil((start + 60_000) / 1000) * 1000).toUTCString());
    expect(clock.now() + (retryAfterSeconds(value, clock.now()) ?? Number.NaN) * 1000).toBeGreaterThanOrEqual(start + 60_000);
  });
  for (const { digits, reset } of [
    { digits: 7, reset: '2026-01-01T12:01:00.2500000Z' },
    { digits: 3, reset: '2026-01-01T12:01:00.250Z' },
    // Whole seconds: the window itself ends on one, so the reset written is exact.
    { digits: 0, reset: '2026-01-01T12:01:01Z' },
  ] as const) {
    test(`resetFractionDigits ${digits}: ${reset}`, () => {
      const { take } = setup({ resetFractionDigits: digits });
      const first = take('a');
      const h = headers(first);
      expect(h['X-Rate-Limit-Reset']).toBe(reset);
      expect(parseRateLimitHeaders(headerLookup(h))).toMatchObject({ ok: true });
      expect(first.resetMs).toBe(Date.parse(reset));
    });
  }

  test('resetFractionDigits 0: refused until the whole second written, served from it', () => {
    const { take, clock } = setup({ resetFractionDigits: 0 });
    for (let i = 0; i < 3; i++) take('a');
    clock.advance(60.749); // 12:01:00.999, past the period but before the written reset
    expect(take('a').refused).toBe(true);
    clock.advance(0.001);
    expect(take('a').refused).toBe(false);
  });
});

test.describe('window kinds', () => {
  test('clock-aligned: windows start at multiples of the period since the epoch', () => {
    const { take, clock } = setup({ window: 'clock-aligned' });
    // 12:00:00.250 is inside the window 12:00:00–12:01:00.
    expect(headers(take('a'))['X-Rate-Limit-Reset']).toBe('2026-01-01T12:01:00.000Z');
    take('a');
    take('a');
    clock.advance(30);
    const refused = take('a');
    expect(refused.refused).toBe(true);
    expect(headers(refused)['Retry-After']).toBe('30');
    clock.advance(29.75);
    expect(take('a')).toMatchObject({ refused: false, remaining: 2, resetMs: Date.UTC(2026, 0, 1, 12, 2) });
  });

  test('sliding: a request counts for one period; Reset is when the oldest counted one leaves', () => {
    const { take, clock } = setup({ window: 'sliding' });
    const t0 = clock.now();
    expect(take('a')).toMatchObject({ remaining: 2, resetMs: t0 + 60_000 });
    clock.advance(20);
    expect(take('a')).toMatchObject({ remaining: 1, resetMs: t0 + 60_000 });
    clock.advance(20);
    expect(take('a')).toMatchObject({ remaining: 0, resetMs: t0 + 60_000 });
    const refused = take('a');
    expect(refused).toMatchObject({ refused: true, remaining: 0, resetMs: t0 + 60_000 });
    expect(headers(refused)['Retry-After']).toBe('20');
    clock.advance(20); // the first request leaves the window: one slot is back
    expect(take('a')).toMatchObject({ refused: false, remaining: 0, resetMs: t0 + 80_000 });
    expect(take('a').refused).toBe(true);
    clock.advance(60); // every request has left
    expect(take('a')).toMatchObject({ refused: false, remaining: 2 });
  });

  for (const window of ['first-request', 'clock-aligned', 'sliding'] as const) {
    test(`${window}, retryDuringBlock extends-block: each refused request moves the end of the block to one period after it`, () => {
      const { take, clock } = setup({ window, retryDuringBlock: 'extends-block' });
      for (let i = 0; i < 3; i++) take('a');
      clock.advance(10);
      const first = take('a');
      expect(first).toMatchObject({ refused: true, resetMs: clock.now() + 60_000 });
      clock.advance(59);
      const second = take('a');
      expect(second).toMatchObject({ refused: true, resetMs: clock.now() + 60_000 });
      expect(headers(second)['Retry-After']).toBe('60');
      clock.advance(60);
      expect(take('a').refused).toBe(false);
    });
  }

  test('retryDuringBlock ignored: refusals leave the end where it was', () => {
    const { take, clock } = setup({ retryDuringBlock: 'ignored' });
    for (let i = 0; i < 3; i++) take('a');
    const end = take('a').resetMs;
    clock.advance(30);
    expect(take('a').resetMs).toBe(end);
  });

  test('sliding windows are evicted once every request has left', () => {
    const { take, clock, limiter } = setup({ window: 'sliding' });
    take('a');
    clock.advance(30);
    take('b');
    clock.advance(30);
    expect(limiter.sweep()).toBe(1);
    clock.advance(30);
    expect(limiter.sweep()).toBe(0);
  });
});
