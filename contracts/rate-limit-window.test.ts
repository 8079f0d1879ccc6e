/** The one model of a limiter (contracts/rate-limit-window.ts): its arithmetic, and one client's count in each kind of window. */
import { expect, test } from '@playwright/test';
import type { Rate } from './duration.ts';
import {
  endOnResolution,
  isAlignedBoundary,
  resetFormat,
  retryAfterFormat,
  retryAfterSeconds,
  stillCounts,
  windowCount,
  windowStartMs,
} from './rate-limit-window.ts';

const T0 = Date.UTC(2026, 0, 1, 12, 0, 0, 250);
const RATE: Rate = { requests: 2, periodSeconds: 60, period: '1m' };

test('window arithmetic', () => {
  for (const { what, got, expected } of [
    { what: 'a first-request window starts at the request', got: windowStartMs('first-request', T0, 60_000), expected: T0 },
    { what: 'a clock-aligned window starts at a multiple of the period', got: windowStartMs('clock-aligned', T0, 60_000), expected: T0 - 250 },
    { what: 'an end written to the second is rounded up to it', got: endOnResolution(T0, 1000), expected: T0 + 750 },
    { what: 'an end written to the millisecond stays', got: endOnResolution(T0, 1), expected: T0 },
    { what: 'Retry-After rounds the wait up', got: retryAfterSeconds(T0 + 39_500, T0), expected: 40 },
    { what: 'Retry-After is never 0', got: retryAfterSeconds(T0, T0), expected: 1 },
  ]) {
    expect(got, what).toBe(expected);
  }
  expect(stillCounts(T0, T0 + 59_999, 60_000)).toBe(true);
  expect(stillCounts(T0, T0 + 60_000, 60_000)).toBe(false);
  expect(isAlignedBoundary(Date.UTC(2026, 0, 1, 12, 1), 60_000)).toBe(true);
  expect(isAlignedBoundary(T0, 60_000)).toBe(false);
});

test('Reset and Retry-After forms', () => {
  expect(resetFormat(0)(T0)).toBe('2026-01-01T12:00:01Z');
  expect(resetFormat(0, 'down')(T0)).toBe('2026-01-01T12:00:00Z');
  expect(resetFormat(3)(T0)).toBe('2026-01-01T12:00:00.250Z');
  expect(resetFormat(7)(T0)).toBe('2026-01-01T12:00:00.2500000Z');
  expect(retryAfterFormat('seconds')(T0 + 1500, T0)).toBe('2');
  expect(retryAfterFormat('http-date')(T0, T0)).toBe('Thu, 01 Jan 2026 12:00:01 GMT');
});

test.describe('one client counted', () => {
  for (const { window, firstReset, refusedReset } of [
    { window: 'first-request', firstReset: T0 + 60_000, refusedReset: T0 + 60_000 },
    { window: 'clock-aligned', firstReset: T0 - 250 + 60_000, refusedReset: T0 - 250 + 60_000 },
    // The oldest counted request leaves first: the refusal names when it does.
    { window: 'sliding', firstReset: T0 + 60_000, refusedReset: T0 + 60_000 },
  ] as const) {
    test(`${window}: Remaining counts down, the request past the budget is refused with the reset`, () => {
      const count = windowCount(window, 'ignored');
      expect(count.take(RATE, T0)).toEqual({ refused: false, remaining: 1, resetMs: firstReset });
      expect(count.take(RATE, T0 + 10_000)).toEqual({ refused: false, remaining: 0, resetMs: firstReset });
      expect(count.take(RATE, T0 + 20_000)).toEqual({ refused: true, remaining: 0, resetMs: refusedReset });
      expect(count.ended(T0 + 20_000)).toBe(false);
      expect(count.take(RATE, refusedReset).refused).toBe(false);
    });

    test(`${window}, extends-block: a refused request moves the end to one period after it`, () => {
      const count = windowCount(window, 'extends-block');
      count.take(RATE, T0);
      count.take(RATE, T0);
      expect(count.take(RATE, T0 + 30_000)).toMatchObject({ refused: true, resetMs: T0 + 90_000 });
      expect(count.take(RATE, T0 + 89_999).refused).toBe(true);
      expect(count.clearsAtMs(T0 + 89_999)).toBeGreaterThanOrEqual(T0 + 89_999 + 60_000);
    });
  }

  test('spend: the budget left now, as if spent by requests before; the limit resets a period on', () => {
    for (const window of ['first-request', 'sliding'] as const) {
      const count = windowCount(window, 'ignored');
      expect(count.spend(RATE, 0, T0)).toBe(T0 + 60_000);
      expect(count.take(RATE, T0 + 1)).toMatchObject({ refused: true, resetMs: T0 + 60_000 });
      expect(count.take(RATE, T0 + 60_000)).toMatchObject({ refused: false, remaining: 1 });
    }
  });
});
