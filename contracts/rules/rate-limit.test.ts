import { expect, test } from '@playwright/test';
import { headerLookup } from '../rate-limit.ts';
import type { Exchange } from './exchange.ts';
import { RULES } from './index.ts';
import { RateObserver } from './rate-limit.ts';

const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);
const RATE = { requests: 5, periodSeconds: 10, period: '10s' } as const;
const expected = { rate: RATE, explicit: true };

/** An exchange at `atMs` (2 ms round trip) with the three headers, and Retry-After when given. */
function at(atMs: number, status: number, remaining: number, resetMs: number, retryAfter?: string): Exchange {
  const headers: Record<string, string> = {
    'X-Rate-Limit-Limit': '10s',
    'X-Rate-Limit-Remaining': String(remaining),
    'X-Rate-Limit-Reset': new Date(resetMs).toISOString(),
  };
  if (retryAfter !== undefined) headers['Retry-After'] = retryAfter;
  return withHeaders(atMs, status, headers);
}

function withHeaders(atMs: number, status: number, headers: Record<string, string>): Exchange {
  const request = { method: 'GET', url: '/api/v2/content?limit=1' };
  return { origin: 'api', list: 'content', request, status, header: headerLookup(headers), body: undefined, text: '', sentMs: atMs, receivedMs: atMs + 2 };
}

/** Feeds the exchanges in order; the rules broken, with how often. */
function observed(judge: RateObserver, ...exchanges: Exchange[]): string[] {
  return exchanges.flatMap((e) => judge.observe(e).map((f) => f.rule));
}

const rules = (found: string[]) => [...new Set(found)];

test('a fixed window spent to its 429, honoured, and the next window: no finding, the budget measured', () => {
  const judge = new RateObserver({ expected, clockSlackMs: 0 });
  const end = T0 + 10_000;
  const found = observed(judge, at(T0, 200, 4, end));
  expect(judge.seen.fresh).toBe(true);
  for (let i = 1; i < 5; i++) {
    found.push(...observed(judge, at(T0 + i * 10, 200, 4 - i, end)));
    expect(judge.seen.checked).toContain('rate.remaining');
  }
  found.push(...observed(judge, at(T0 + 60, 429, 0, end, '10')));
  expect(judge.seen.budget).toEqual({ served: 5, promised: 5 });
  expect(judge.retryAllowedAtMs()).toBe(T0 + 60 + 2 + 11_000);
  found.push(...observed(judge, at(T0 + 11_062, 200, 4, T0 + 21_062)));
  expect(judge.seen).toMatchObject({ honoured: true, fresh: true });
  expect(judge.seen.checked).toContain('rate.period');
  expect(found).toEqual([]);
});

test('a sliding window whose Reset names the end of its newest request gives back, one by one, the requests of a period earlier: no contract finding', () => {
  const judge = new RateObserver({ expected, clockSlackMs: 0 });
  // Five requests a second apart; the window forgets each 10 s after it was made.
  const found: string[] = [];
  for (let i = 0; i < 5; i++) found.push(...observed(judge, at(T0 + i * 1000, 200, 4 - i, T0 + i * 1000 + 10_000)));
  found.push(...observed(judge, at(T0 + 5000, 429, 0, T0 + 14_000, '5')));
  // 11.1 s: the first two requests are forgotten, this one takes one place; the announced reset (14 s) has not come.
  found.push(...observed(judge, at(T0 + 11_100, 200, 1, T0 + 21_100)));
  expect(judge.seen).toMatchObject({ honoured: true });
  expect(judge.seen.checked).toContain('rate.remaining');
  // Its Retry-After names the first lapse, not the Reset it announced: the platform's choice differs, the document's holds.
  expect(rules(found)).toEqual(['platform.retry-after-reset']);
});

test('without history, a Remaining that rises before the announced reset is not judged a fault, but one that stays put is', () => {
  const judge = new RateObserver({ clockSlackMs: 0 });
  expect(observed(judge, at(T0, 200, 3, T0 + 10_000), at(T0 + 10, 200, 3, T0 + 10_000))).toEqual(['rate.remaining']);
});

test('a token request in between may count: Remaining may fall by two', () => {
  const judge = new RateObserver({ expected, clockSlackMs: 0 });
  const token: Exchange = { ...withHeaders(T0 + 5, 200, {}), origin: 'auth', list: undefined };
  expect(observed(judge, at(T0, 200, 4, T0 + 10_000), token, at(T0 + 10, 200, 2, T0 + 10_000))).toEqual([]);
});

test('across a new token, a renewed budget breaks rate.per-client', () => {
  const judge = new RateObserver({ expected, clockSlackMs: 0 });
  observed(judge, at(T0, 200, 0, T0 + 10_000));
  judge.crossing('a new token of the same client');
  expect(observed(judge, at(T0 + 10, 200, 4, T0 + 10_010))).toEqual(['rate.per-client']);
});

test('a request sent during the block may extend it: a refusal before the latest Retry-After is then no finding', () => {
  const judge = new RateObserver({ expected, clockSlackMs: 0 });
  const found = observed(judge, at(T0, 200, 0, T0 + 10_000), at(T0 + 10, 429, 0, T0 + 10_000, '10'), at(T0 + 1000, 429, 0, T0 + 11_000, '10'));
  found.push(...observed(judge, at(T0 + 10_900, 429, 0, T0 + 11_000, '1')));
  expect(judge.seen.honoured).toBeUndefined();
  expect(found).not.toContain('rate.retry-after');
});

test('a refusal after honouring Retry-After, nothing sent meanwhile, breaks rate.retry-after', () => {
  const judge = new RateObserver({ expected, clockSlackMs: 0 });
  observed(judge, at(T0, 200, 0, T0 + 10_000), at(T0 + 10, 429, 0, T0 + 10_000, '4'));
  expect(observed(judge, at(T0 + 5100, 429, 0, T0 + 10_000, '5'))).toEqual(['rate.retry-after']);
  expect(judge.seen.honoured).toBe(false);
});

test('a 429 without Retry-After breaks rate.retry-after, and the client backs off exponentially', () => {
  const judge = new RateObserver({ expected, clockSlackMs: 0 });
  observed(judge, at(T0, 200, 0, T0 + 10_000));
  expect(observed(judge, at(T0 + 10, 429, 0, T0 + 10_000))).toEqual(['rate.retry-after']);
  const first = (judge.retryAllowedAtMs() ?? 0) - (T0 + 12);
  observed(judge, at(T0 + 12 + first, 429, 0, T0 + 10_000));
  const second = (judge.retryAllowedAtMs() ?? 0) - (T0 + 14 + first);
  expect(second).toBe(2 * first);
});

test('a refusal after the reset of a spent window breaks rate.reset', () => {
  const judge = new RateObserver({ expected, clockSlackMs: 0 });
  expect(observed(judge, at(T0, 200, 0, T0 + 10_000), at(T0 + 12_000, 429, 0, T0 + 10_000, '1'))).toContain('rate.reset');
});

test('a window opened after the reset of the one before that resets less than a period later breaks rate.period', () => {
  const judge = new RateObserver({ expected, clockSlackMs: 0 });
  expect(observed(judge, at(T0, 200, 4, T0 + 10_000), at(T0 + 11_100, 200, 4, T0 + 13_000))).toEqual(['rate.period']);
});

test('Date headers narrow the clock difference, so steps close to the reset are judged', () => {
  const withDate = (atMs: number, remaining: number): Exchange => {
    const headers = { 'X-Rate-Limit-Limit': '10s', 'X-Rate-Limit-Remaining': String(remaining), 'X-Rate-Limit-Reset': new Date(T0 + 10_000).toISOString() };
    return withHeaders(atMs, 200, { ...headers, Date: new Date(Math.floor(atMs / 1000) * 1000).toUTCString() });
  };
  const loose = new RateObserver({ expected });
  const narrowed = new RateObserver({ expected, dateHeaders: true });
  for (const judge of [loose, narrowed]) judge.observe(withDate(T0 + 5000, 4));
  loose.observe(withDate(T0 + 6000, 3));
  narrowed.observe(withDate(T0 + 6000, 3));
  expect(loose.seen.checked).not.toContain('rate.remaining');
  expect(narrowed.seen.checked).toContain('rate.remaining');
});

test('the registry judges Retry-After of any 429 on its own, and the headers of a served page', () => {
  const judge = (id: 'rate.retry-after' | 'rate.headers', exchange: Exchange) => RULES[id].judge(exchange, { validators: {} as never });
  expect(judge('rate.retry-after', at(T0, 429, 0, T0 + 10_000))).toMatchObject({ got: 'Retry-After is missing' });
  expect(judge('rate.retry-after', at(T0, 429, 0, T0 + 10_000, 'Wed, 21 Oct 2015 07:28:00 GMT'))).toBeNull();
  expect(judge('rate.headers', withHeaders(T0, 200, { 'X-Rate-Limit-Limit': '1 minute' }))).toMatchObject({
    expected: 'the X-Rate-Limit headers, where present, well formed',
  });
});

test.describe('headers of one answer, by the registry judges', () => {
  const good = { 'X-Rate-Limit-Limit': '10s', 'X-Rate-Limit-Remaining': '3', 'X-Rate-Limit-Reset': '2026-01-01T12:00:10Z' };
  const judged = (headers: Record<string, string>, status: number, list: Exchange['list'], clock?: { nowMs: number; slackMs: number }) =>
    (['rate.headers', 'platform.rate-headers-everywhere'] as const).filter((id) => {
      const exchange = { ...withHeaders(T0, status, headers), list };
      return RULES[id].judge(exchange, { validators: {} as never, clock }) ?? null;
    });
  for (const { name, headers, status, list, rules } of [
    { name: 'well formed on a 2xx', headers: good, status: 200, list: 'content', rules: [] },
    { name: 'missing on a 2xx of a resource', headers: {}, status: 200, list: 'content', rules: ['rate.headers'] },
    { name: 'one missing on a 2xx', headers: { ...good, 'X-Rate-Limit-Reset': '' }, status: 200, list: 'content', rules: ['rate.headers'] },
    { name: 'missing on a 429', headers: {}, status: 429, list: 'content', rules: ['platform.rate-headers-everywhere'] },
    { name: 'missing on logout', headers: {}, status: 204, list: undefined, rules: ['platform.rate-headers-everywhere'] },
    { name: 'malformed on a 429', headers: { ...good, 'X-Rate-Limit-Remaining': '-1' }, status: 429, list: 'content', rules: ['rate.headers'] },
  ] as const) {
    test(`${name}: ${rules.join(', ') || 'no finding'}`, () => {
      expect(judged(headers, status, list)).toEqual(rules);
    });
  }
  test('Reset must lie between the answer and one period later (with its resolution and the clock slack)', () => {
    const at = (nowMs: number, slackMs = 0) => judged(good, 200, 'content', { nowMs, slackMs }).length;
    expect([at(T0 + 9_000), at(T0 + 10_900), at(T0 + 12_000), at(T0 - 1_500), at(T0 - 1_500, 5000)]).toEqual([0, 0, 1, 1, 0]);
  });
});
