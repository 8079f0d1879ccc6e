/** The fixed-window rate limiter (mock/rate-limit.ts) on a manual clock, with its faults and variants. */
import { expect, test } from '@playwright/test';
import { headerLookup, parseRateLimitHeaders, parseRetryAfter } from '../../contracts/rate-limit.ts';
import { ClientRegistry } from '../clients.ts';
import { ManualClock } from '../clock.ts';
import type { FaultName } from '../faults.ts';
import { RateLimiter, type RateOutcome } from '../rate-limit.ts';
import type { VariantName } from '../variants.ts';

function setup(o: { faults?: FaultName[]; variants?: VariantName[] } = {}) {
  const clock = new ManualClock(Date.UTC(2026, 0, 1, 12, 0, 0, 250));
  const clients = new ClientRegistry(
    [
      { id: 'a', secret: 's', scopes: [] },
      { id: 'b', secret: 's', scopes: [] },
      { id: 'custom', secret: 's', scopes: [], rate: '2/10s' },
      { id: 'off', secret: 's', scopes: [], rate: '0' },
    ],
    { rate: { requests: 3, periodSeconds: 60, period: '1m' }, tokenTtlSeconds: 60 },
  );
  const limiter = new RateLimiter({ clock, faults: new Set(o.faults), variants: new Set(o.variants) });
  const take = (id: string, token = 't1') => limiter.take({ client: clients.get(id)!, token });
  return { clock, limiter, take };
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
  const retry = parseRetryAfter(h['Retry-After'], clock.now());
  expect(retry.ok && clock.now() + retry.value * 1000).toBeGreaterThanOrEqual(start + 60_000);
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
  for (let i = 0; i < 10; i++) expect(take('off')).toEqual({ refused: false, headers: [] });
});

test('ended windows are evicted', () => {
  const { take, clock, limiter } = setup();
  take('a');
  take('b');
  expect(limiter.stats().windows).toBe(2);
  clock.advance(60);
  expect(limiter.sweep()).toBe(0);
});

test.describe('variants', () => {
  test('retry-after-http-date: an HTTP-date at or after the reset', () => {
    const { take, clock } = setup({ variants: ['retry-after-http-date'] });
    const start = clock.now();
    for (let i = 0; i < 3; i++) take('a');
    const value = headers(take('a'))['Retry-After'];
    expect(value).toBe(new Date(Math.ceil((start + 60_000) / 1000) * 1000).toUTCString());
    const parsed = parseRetryAfter(value, clock.now());
    expect(parsed.ok && clock.now() + parsed.value * 1000).toBeGreaterThanOrEqual(start + 60_000);
  });
  test('seven-digit-fractions: X-Rate-Limit-Reset with 7 fractional digits', () => {
    const { take } = setup({ variants: ['seven-digit-fractions'] });
    expect(headers(take('a'))['X-Rate-Limit-Reset']).toBe('2026-01-01T12:01:00.2500000Z');
  });
});

test.describe('faults break exactly their rule', () => {
  const spend = (take: (id: string, token?: string) => RateOutcome, n: number) => Array.from({ length: n }, (_, i) => take('a', `t${i}`));
  for (const { fault, check } of [
    { fault: 'rate-header-limit-missing', check: (o: RateOutcome[]) => expect(headers(o[0]!)).not.toHaveProperty('X-Rate-Limit-Limit') },
    { fault: 'rate-header-remaining-missing', check: (o: RateOutcome[]) => expect(headers(o[0]!)).not.toHaveProperty('X-Rate-Limit-Remaining') },
    { fault: 'rate-header-reset-missing', check: (o: RateOutcome[]) => expect(headers(o[0]!)).not.toHaveProperty('X-Rate-Limit-Reset') },
    {
      fault: 'rate-header-reset-malformed',
      check: (o: RateOutcome[]) => expect(parseRateLimitHeaders(headerLookup(headers(o[0]!)))).toMatchObject({ ok: false, reason: /not an ISO 8601/ }),
    },
    {
      fault: 'rate-remaining-constant',
      check: (o: RateOutcome[]) => expect(o.slice(0, 3).map((x) => headers(x)['X-Rate-Limit-Remaining'])).toEqual(['3', '3', '3']),
    },
    { fault: 'rate-no-429', check: (o: RateOutcome[]) => expect(o.every((x) => !x.refused)).toBe(true) },
    { fault: 'rate-429-early', check: (o: RateOutcome[]) => expect(o.map((x) => x.refused)).toEqual([false, false, true, true]) },
    { fault: 'retry-after-missing', check: (o: RateOutcome[]) => expect(o[3]?.refused && headers(o[3])).not.toHaveProperty('Retry-After') },
    { fault: 'retry-after-short', check: (o: RateOutcome[]) => expect(Number(headers(o[3]!)['Retry-After'])).toBe(30) },
    { fault: 'rate-budget-per-token', check: (o: RateOutcome[]) => expect(o.every((x) => !x.refused)).toBe(true) },
  ] as const) {
    test(fault, () => {
      const { take } = setup({ faults: [fault] });
      check(spend(take, 4));
    });
  }
});
