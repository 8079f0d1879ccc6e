import { expect, test } from '@playwright/test';
import { type Exchange, RateLimitJudge } from './rate-limit-judge.ts';

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
  return { request: 'GET /api/v2/content?limit=1', sentMs: atMs, receivedMs: atMs + 2, status, headers };
}

const rules = (judge: RateLimitJudge) => Object.entries(judge.counts).filter(([, n]) => n > 0);

test('a fixed window spent to its 429, honoured, and the next window: no finding, the budget measured', () => {
  const judge = new RateLimitJudge({ expected, clockSlackMs: 0 });
  const end = T0 + 10_000;
  expect(judge.observe(at(T0, 200, 4, end)).fresh).toBe(true);
  for (let i = 1; i < 5; i++) expect(judge.observe(at(T0 + i * 10, 200, 4 - i, end)).judgedStep).toBe(true);
  const refused = judge.observe(at(T0 + 60, 429, 0, end, '10'));
  expect(refused.budget).toEqual({ served: 5, promised: 5 });
  expect(judge.retryAllowedAtMs()).toBe(T0 + 60 + 2 + 11_000);
  const retry = judge.observe(at(T0 + 11_062, 200, 4, T0 + 21_062));
  expect(retry).toMatchObject({ honoured: true, fresh: true });
  expect(rules(judge)).toEqual([]);
});

test('a sliding window whose Reset names the end of its newest request gives back, one by one, the requests of a period earlier: no contract finding', () => {
  const judge = new RateLimitJudge({ expected, clockSlackMs: 0 });
  // Five requests a second apart; the window forgets each 10 s after it was made.
  for (let i = 0; i < 5; i++) judge.observe(at(T0 + i * 1000, 200, 4 - i, T0 + i * 1000 + 10_000));
  judge.observe(at(T0 + 5000, 429, 0, T0 + 14_000, '5'));
  // 11.1 s: the first two requests are forgotten, this one takes one place; the announced reset (14 s) has not come.
  const verdict = judge.observe(at(T0 + 11_100, 200, 1, T0 + 21_100));
  expect(verdict).toMatchObject({ findings: [], judgedStep: true, honoured: true });
  // Its Retry-After names the first lapse, not the Reset it announced: the platform's choice differs, the document's holds.
  expect(rules(judge)).toEqual([['platform.retry-after-reset', 1]]);
});

test('without history, a Remaining that rises before the announced reset is not judged a fault, but one that stays put is', () => {
  const judge = new RateLimitJudge({ clockSlackMs: 0 });
  judge.observe(at(T0, 200, 3, T0 + 10_000));
  expect(judge.observe(at(T0 + 10, 200, 3, T0 + 10_000)).findings.map((f) => f.rule)).toEqual(['rate.remaining']);
});

test('a token request in between may count: Remaining may fall by two', () => {
  const judge = new RateLimitJudge({ expected, clockSlackMs: 0 });
  judge.observe(at(T0, 200, 4, T0 + 10_000));
  judge.elsewhere(T0 + 5, T0 + 7);
  expect(judge.observe(at(T0 + 10, 200, 2, T0 + 10_000)).findings).toEqual([]);
});

test('a request sent during the block may extend it: a refusal before the latest Retry-After is then no finding', () => {
  const judge = new RateLimitJudge({ expected, clockSlackMs: 0 });
  judge.observe(at(T0, 200, 0, T0 + 10_000));
  judge.observe(at(T0 + 10, 429, 0, T0 + 10_000, '10'));
  judge.observe(at(T0 + 1000, 429, 0, T0 + 11_000, '10'));
  const after = judge.observe(at(T0 + 11_100, 429, 0, T0 + 11_000, '1'));
  expect(after.honoured).toBeUndefined();
  expect(judge.counts['rate.retry-after']).toBe(0);
});

test('a refusal after honouring Retry-After, nothing sent meanwhile, breaks rate.retry-after', () => {
  const judge = new RateLimitJudge({ expected, clockSlackMs: 0 });
  judge.observe(at(T0, 200, 0, T0 + 10_000));
  judge.observe(at(T0 + 10, 429, 0, T0 + 10_000, '4'));
  const retry = judge.observe(at(T0 + 5100, 429, 0, T0 + 10_000, '5'));
  expect(retry.honoured).toBe(false);
  expect(retry.findings.map((f) => f.rule)).toEqual(['rate.retry-after']);
});

test('a 429 without Retry-After breaks rate.retry-after, and the client backs off exponentially', () => {
  const judge = new RateLimitJudge({ expected, clockSlackMs: 0 });
  judge.observe(at(T0, 200, 0, T0 + 10_000));
  expect(judge.observe(at(T0 + 10, 429, 0, T0 + 10_000)).findings.map((f) => f.rule)).toEqual(['rate.retry-after']);
  const first = (judge.retryAllowedAtMs() ?? 0) - (T0 + 12);
  judge.observe(at(T0 + 12 + first, 429, 0, T0 + 10_000));
  const second = (judge.retryAllowedAtMs() ?? 0) - (T0 + 14 + first);
  expect(second).toBe(2 * first);
});

test('a refusal after the reset of a spent window breaks rate.reset', () => {
  const judge = new RateLimitJudge({ expected, clockSlackMs: 0 });
  judge.observe(at(T0, 200, 0, T0 + 10_000));
  expect(judge.observe(at(T0 + 12_000, 429, 0, T0 + 10_000, '1')).findings.map((f) => f.rule)).toContain('rate.reset');
});

test('Date headers narrow the clock difference, so steps close to the reset are judged', () => {
  const withDate = (exchange: Exchange): Exchange => ({
    ...exchange,
    headers: { ...(exchange.headers as Record<string, string>), Date: new Date(Math.floor(exchange.sentMs / 1000) * 1000).toUTCString() },
  });
  const loose = new RateLimitJudge({ expected });
  const narrowed = new RateLimitJudge({ expected, dateHeaders: true });
  for (const judge of [loose, narrowed]) {
    judge.observe(withDate(at(T0 + 5000, 200, 4, T0 + 10_000)));
  }
  expect(loose.observe(withDate(at(T0 + 6000, 200, 3, T0 + 10_000))).judgedStep).toBe(false);
  expect(narrowed.observe(withDate(at(T0 + 6000, 200, 3, T0 + 10_000))).judgedStep).toBe(true);
});
