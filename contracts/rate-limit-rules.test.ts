import { expect, test } from '@playwright/test';
import { headerLookup, type RateLimitHeaders } from './rate-limit.ts';
import { DEFAULT_RETRY_POLICY, retryAfterTime, retryAllowedAtMs, retryDelayMs } from './rate-limit-retry.ts';
import {
  judgeRateHeaders,
  judgeRateInForce,
  judgeRefusal,
  judgeRemainingStep,
  judgeRetryAfterReset,
  judgeWindowPeriod,
  RATE_RULES,
} from './rate-limit-rules.ts';
import { RULES } from './rules/index.ts';

const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);
const RATE = { requests: 20, periodSeconds: 10, period: '10s' } as const;
const h = (remaining: number, resetMs = T0 + 10_000, period = '10s', periodSeconds = 10): RateLimitHeaders => ({ period, periodSeconds, remaining, resetMs });

test('every rule the engine names is in the catalogue', () => {
  for (const rule of RATE_RULES) expect(RULES[rule], rule).toBeDefined();
});

test.describe('headers of one response', () => {
  const good = { 'X-Rate-Limit-Limit': '10s', 'X-Rate-Limit-Remaining': '3', 'X-Rate-Limit-Reset': '2026-01-01T12:00:10Z' };
  for (const { name, headers, status, resource, rule } of [
    { name: 'well formed on a 2xx', headers: good, status: 200, resource: true, rule: undefined },
    { name: 'missing on a 2xx of a resource', headers: {}, status: 200, resource: true, rule: 'rate.headers' },
    { name: 'one missing on a 2xx', headers: { ...good, 'X-Rate-Limit-Reset': undefined }, status: 200, resource: true, rule: 'rate.headers' },
    { name: 'missing on a 429', headers: {}, status: 429, resource: true, rule: 'platform.rate-headers-everywhere' },
    { name: 'missing on logout', headers: {}, status: 204, resource: false, rule: 'platform.rate-headers-everywhere' },
    { name: 'malformed on a 429', headers: { ...good, 'X-Rate-Limit-Remaining': 'lots' }, status: 429, resource: true, rule: 'rate.headers' },
  ] as const) {
    test(`${name}: ${rule ?? 'no finding'}`, () => {
      const { findings } = judgeRateHeaders(headerLookup(headers), { status, resource });
      expect(findings.map((f) => f.rule)).toEqual(rule === undefined ? [] : [rule]);
    });
  }
  test('Reset must lie between the response and one period later (with its resolution and the clock slack)', () => {
    const at = (nowMs: number, clockSlackMs = 0) => judgeRateHeaders(headerLookup(good), { status: 200, nowMs, clockSlackMs }).findings.length;
    expect(at(T0 + 9_000)).toBe(0);
    expect(at(T0 + 10_900)).toBe(0);
    expect(at(T0 + 12_000)).toBe(1);
    expect(at(T0 - 1_500)).toBe(1);
    expect(at(T0 - 1_500, 5000)).toBe(0);
  });
});

test.describe('one step of Remaining', () => {
  for (const { name, step, judged, rule } of [
    { name: 'a fall by one', step: { before: h(5), after: h(4), afterServed: true }, judged: true, rule: undefined },
    { name: 'no fall', step: { before: h(5), after: h(5), afterServed: true }, judged: true, rule: 'rate.remaining' },
    { name: 'a fall by two', step: { before: h(5), after: h(3), afterServed: true }, judged: true, rule: 'rate.remaining' },
    {
      name: 'a fall by two over a token request that may count',
      step: { before: h(5), after: h(3), afterServed: true, between: { counted: 0, uncertain: 1 } },
      judged: true,
      rule: undefined,
    },
    { name: 'served past the budget', step: { before: h(0), after: h(0), afterServed: true }, judged: true, rule: 'rate.429' },
    { name: 'a refusal at 0', step: { before: h(0), after: h(0), afterServed: false }, judged: true, rule: undefined },
    { name: 'a new window (Reset a period later)', step: { before: h(0), after: h(19, T0 + 20_000), afterServed: true }, judged: false, rule: undefined },
    { name: 'a reset that may have come', step: { before: h(0), after: h(0), afterServed: true, returned: 'reset' as const }, judged: false, rule: undefined },
    {
      name: 'a sliding window that forgot one request of a period earlier',
      step: { before: h(0), after: h(0, T0 + 10_100), afterServed: true, returned: 1 },
      judged: true,
      rule: undefined,
    },
    {
      name: 'a Reset moved forward by less than its resolution, history unknown: only a fall too large counts',
      step: { before: h(3), after: h(3, T0 + 10_300), afterServed: true },
      judged: true,
      rule: undefined,
    },
    { name: 'the same, but a fall by two', step: { before: h(3), after: h(1, T0 + 10_300), afterServed: true }, judged: true, rule: 'rate.remaining' },
  ] as const) {
    test(`${name}: ${judged ? (rule ?? 'holds') : 'not judged'}`, () => {
      const verdict = judgeRemainingStep(step);
      expect(verdict.judged).toBe(judged);
      expect(verdict.finding?.rule).toBe(rule);
    });
  }
});

test.describe('a refusal outside a block', () => {
  test('while the previous response left budget: early', () => {
    expect(judgeRefusal(h(3), { counted: 0, uncertain: 0 }, undefined)?.rule).toBe('rate.429');
    expect(judgeRefusal(h(1), { counted: 0, uncertain: 1 }, undefined)).toBeUndefined();
    expect(judgeRefusal(h(1), { counted: 1, uncertain: 0 }, h(0))).toBeUndefined();
  });
  test('whose own headers say budget remains: early', () => {
    expect(judgeRefusal(undefined, { counted: 0, uncertain: 0 }, h(1))?.reason).toMatch(/says 1 remain/);
  });
});

test.describe('Retry-After', () => {
  test('delta-seconds name an instant between sending plus the wait and receiving plus the wait', () => {
    const retry = retryAfterTime('8', T0, T0 + 200);
    expect(retry).toEqual({ ok: true, value: { value: '8', earliestMs: T0 + 8000, latestMs: T0 + 8200 } });
    if (retry.ok) expect(retryAllowedAtMs(retry.value)).toBe(T0 + 9200);
  });
  test('an HTTP-date names its own instant', () => {
    const retry = retryAfterTime('Thu, 01 Jan 2026 12:00:10 GMT', T0, T0 + 200);
    expect(retry.ok && [retry.value.earliestMs, retry.value.latestMs]).toEqual([T0 + 10_000, T0 + 10_000]);
  });
  test('missing or unreadable: a sentence', () => {
    expect(retryAfterTime(undefined, T0, T0)).toEqual({ ok: false, error: 'Retry-After is missing' });
    expect(retryAfterTime('soon', T0, T0)).toMatchObject({ ok: false, error: /neither delta-seconds nor an HTTP-date/ });
  });
  test('against X-Rate-Limit-Reset: within the tolerance, or a platform deviation naming both', () => {
    const retry = retryAfterTime('9', T0, T0 + 10);
    if (!retry.ok) throw new Error(retry.error);
    expect(judgeRetryAfterReset(retry.value, T0 + 9_005)).toEqual({ apartMs: 0, finding: undefined });
    expect(judgeRetryAfterReset(retry.value, T0 + 10_010).finding).toBeUndefined();
    const far = judgeRetryAfterReset(retry.value, T0 + 12_000);
    expect(far.finding?.rule).toBe('platform.retry-after-reset');
    expect(far.finding?.reason).toMatch(/names an instant 3\.0 s before X-Rate-Limit-Reset 2026-01-01T12:00:12\.000Z/);
  });
  test('backoff: Retry-After plus an exponential, jittered wait, never at once', () => {
    expect(retryDelayMs(1, 2, () => 0)).toBe(2250);
    expect(retryDelayMs(3, undefined, () => 1)).toBe(2000);
    expect(retryDelayMs(10, undefined, () => 1)).toBe(DEFAULT_RETRY_POLICY.capMs);
    expect(retryDelayMs(1, 0, () => 0, { ...DEFAULT_RETRY_POLICY, baseMs: 0 })).toBe(DEFAULT_RETRY_POLICY.minMs);
  });
});

test.describe('the rate in force', () => {
  test('a configured rate is a contract check; the default only a platform one', () => {
    expect(judgeRateInForce(h(19), { rate: RATE, explicit: true }, true)).toBeUndefined();
    expect(judgeRateInForce(h(9), { rate: RATE, explicit: true }, true)?.rule).toBe('rate.budget');
    expect(judgeRateInForce(h(9), { rate: RATE, explicit: true }, false)).toBeUndefined();
    expect(judgeRateInForce(h(25), { rate: RATE, explicit: false }, false)?.rule).toBe('platform.default-rate');
    expect(judgeRateInForce(h(19, T0, '1m', 60), { rate: RATE, explicit: true }, true)?.reason).toMatch(/period is 1m/);
  });
});

test.describe('the period against the resets of two windows, each opened by its first request', () => {
  // The second window is opened once the first one's reset has passed.
  for (const { name, second, rule } of [
    { name: 'a window from the first request, opened 2 s after the reset', second: h(19, T0 + 22_000), rule: undefined },
    { name: 'aligned windows, the next one', second: h(19, T0 + 20_000), rule: undefined },
    { name: 'a reset written to the second, rounded either way', second: h(19, T0 + 19_000), rule: undefined },
    { name: 'a window that resets half a period after the last', second: h(19, T0 + 15_000), rule: 'rate.period' },
    { name: 'a period of 1h over windows of 10 s', second: h(19, T0 + 20_000, '1h', 3600), rule: 'rate.period' },
  ] as const) {
    test(`${name}: ${rule ?? 'no finding'}`, () => {
      const first = second.period === '1h' ? h(19, T0 + 10_000, '1h', 3600) : h(19);
      expect(judgeWindowPeriod(first, second)?.rule).toBe(rule);
    });
  }
});
