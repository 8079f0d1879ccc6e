/**
 * Reading the X-Rate-Limit-* headers and Retry-After off a response (document, Limits and Errors), and when a client may send again after a 429 ("honor
 * `Retry-After`; do not retry at once; use exponential backoff"); what they must say is judged in rules/rate-limit.ts. Pure and k6-safe.
 */
import { parsePeriod } from './duration.ts';
import { fail, ok, type Result } from '../util/result.ts';
import { namesCalendarMoment } from './timestamps.ts';

export interface RateLimitHeaders {
  /** The period as sent, e.g. `1m`. */
  readonly period: string;
  readonly periodSeconds: number;
  readonly remaining: number;
  /** Epoch milliseconds of X-Rate-Limit-Reset. */
  readonly resetMs: number;
}

/** How far X-Rate-Limit-Reset may be from its instant: "ISO 8601" fixes no fractional digits, so one written to the second is up to a second off either way. */
export const RESET_RESOLUTION_MS = 1000;

/** This Reset's resolution: on a whole second it may have been written to the second; with a fraction, to the millisecond. */
export function resetResolutionMs(headers: RateLimitHeaders): number {
  return headers.resetMs % 1000 === 0 ? RESET_RESOLUTION_MS : 1;
}

/** When X-Rate-Limit-Reset has surely passed, whatever the resolution it is written in. */
export function resetPassedMs(headers: RateLimitHeaders): number {
  return headers.resetMs + resetResolutionMs(headers);
}

/** Retry-After is whole seconds in both of its forms (delta-seconds, HTTP-date). */
export const RETRY_AFTER_RESOLUTION_MS = 1000;

/** "UTC date and time, ISO 8601": a date, a time, optional fraction (any digits), and Z or +00:00. */
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]00:?00)$/;

/** Epoch ms of an ISO 8601 UTC time (the real service sends 7 fractional digits); NaN if not one. */
export function parseIsoUtc(text: string): number {
  // The pattern and a day of the calendar: Date.parse rolls 2026-02-30 over to March.
  if (!ISO_UTC.test(text) || !namesCalendarMoment(text)) return Number.NaN;
  // The fraction cut to milliseconds: engines differ on longer fractions.
  return Date.parse(text.replace(/\.(\d+)/, (_, digits: string) => `.${digits.slice(0, 3).padEnd(3, '0')}`));
}

/** An IMF-fixdate (RFC 9110), the HTTP-date form of Retry-After and of `Date`: epoch ms, or NaN. */
export function parseHttpDate(text: string): number {
  const date = text.trim();
  if (!/^[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(date)) return Number.NaN;
  const ms = Date.parse(date);
  // A day of the calendar, read back as written (Date.parse rolls 30 Feb over to March); the day name is not compared.
  return Number.isNaN(ms) || new Date(ms).toUTCString().slice(5) !== date.slice(5) ? Number.NaN : ms;
}

/** A header getter that works for Playwright (lower-case record), k6 (canonical case) and fetch. */
export type HeaderLookup = (name: string) => string | undefined;

export function headerLookup(headers: Readonly<Record<string, string | undefined>>): HeaderLookup {
  const lower = Object.fromEntries(Object.entries(headers).map(([key, value]) => [key.toLowerCase(), value]));
  return (name) => lower[name.toLowerCase()];
}

/** Parses the three X-Rate-Limit-* headers, saying which one is missing or malformed. */
export function parseRateLimitHeaders(get: HeaderLookup): Result<RateLimitHeaders> {
  const period = get('x-rate-limit-limit');
  const remaining = get('x-rate-limit-remaining');
  const reset = get('x-rate-limit-reset');
  if (period === undefined) return fail('X-Rate-Limit-Limit is missing');
  if (remaining === undefined) return fail('X-Rate-Limit-Remaining is missing');
  if (reset === undefined) return fail('X-Rate-Limit-Reset is missing');
  const periodSeconds = parsePeriod(period);
  if (periodSeconds === undefined) return fail(`X-Rate-Limit-Limit "${period}" is not a period like 1m, 12h or 1d`);
  if (!/^\d+$/.test(remaining.trim())) return fail(`X-Rate-Limit-Remaining "${remaining}" is not a non-negative integer`);
  const resetMs = parseIsoUtc(reset.trim());
  if (Number.isNaN(resetMs)) return fail(`X-Rate-Limit-Reset "${reset}" is not an ISO 8601 UTC date and time`);
  return ok({ period: period.trim(), periodSeconds, remaining: Number(remaining.trim()), resetMs });
}

/** The instant a 429's Retry-After names, as closely as the client can know it. */
export interface RetryAfterTime {
  readonly value: string;
  /** Which of RFC 9110's two forms it takes: delta-seconds count from the answer, an HTTP-date is on the target's clock. */
  readonly form: 'seconds' | 'http-date';
  /** Earliest and latest instants it can name (epoch ms): delta-seconds count from the answer, known only to lie between sending and receiving. */
  readonly earliestMs: number;
  readonly latestMs: number;
}

/**
 * THE reader of Retry-After: that of a 429 sent at `sentMs` and received at `receivedMs` (default: `sentMs`); an error sentence when missing or unreadable. The
 * document gives no format, so both RFC 9110 forms are read: delta-seconds (`30`) and an HTTP-date (`Wed, 21 Oct 2015 07:28:00 GMT`). An HTTP-date is on the
 * target's clock: the response's `Date` header makes it a wait, as RFC 9110 reads it; without one, both clocks are one.
 */
export function retryAfterTime(value: string | undefined, sentMs: number, receivedMs = sentMs, date?: string): Result<RetryAfterTime> {
  if (value === undefined) return fail('Retry-After is missing');
  const text = value.trim();
  if (/^\d+$/.test(text)) return ok({ value, form: 'seconds', earliestMs: sentMs + Number(text) * 1000, latestMs: receivedMs + Number(text) * 1000 });
  const at = parseHttpDate(text);
  if (Number.isNaN(at)) return fail(`Retry-After "${value}" is neither delta-seconds nor an HTTP-date`);
  const madeAt = date === undefined ? Number.NaN : parseHttpDate(date);
  if (Number.isNaN(madeAt)) return ok({ value, form: 'http-date', earliestMs: Math.max(sentMs, at), latestMs: Math.max(receivedMs, at) });
  // Made somewhere within the second Date names: the wait is at most `at - madeAt`, at least a second less.
  const waitMs = Math.max(0, at - madeAt);
  return ok({ value, form: 'http-date', earliestMs: sentMs + Math.max(0, waitMs - 1000), latestMs: receivedMs + waitMs });
}

/** The wait in seconds a Retry-After read at `nowMs` asks for (what retryDelayMs takes), or undefined when unreadable. */
export function retryAfterSeconds(value: string | undefined, nowMs: number): number | undefined {
  const time = retryAfterTime(value, nowMs);
  return time.ok ? (time.value.earliestMs - nowMs) / 1000 : undefined;
}

/** When the next request may be sent: the latest instant Retry-After can name plus its resolution (a wait rounded down names one up to a second early). */
export function retryAllowedAtMs(time: RetryAfterTime): number {
  return time.latestMs + RETRY_AFTER_RESOLUTION_MS;
}

export interface RetryPolicy {
  /** Tries in all, the first included. Default 4. */
  readonly maxAttempts: number;
  /** Backoff before the first retry, doubled for each further one. Default 500 ms. */
  readonly baseMs: number;
  /** Largest backoff added to Retry-After. Default 8 s. */
  readonly capMs: number;
  /** Never retry sooner than this, even when Retry-After says 0 ("do not retry at once"). Default 250 ms. */
  readonly minMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 4, baseMs: 500, capMs: 8000, minMs: 250 };

/**
 * Milliseconds to wait before retry number `retry` (1 for the first) after a 429: Retry-After (or nothing when the target sent none or an unreadable one) plus
 * an exponential backoff with "equal jitter" (half fixed, half random), so that clients hit by the same 429 do not come back together.
 */
export function retryDelayMs(retry: number, retryAfterSeconds: number | undefined, random: () => number, policy: RetryPolicy = DEFAULT_RETRY_POLICY): number {
  const backoff = Math.min(policy.capMs, policy.baseMs * 2 ** Math.max(0, retry - 1));
  const jittered = backoff / 2 + (backoff / 2) * Math.min(1, Math.max(0, random()));
  return Math.max(policy.minMs, Math.round((retryAfterSeconds ?? 0) * 1000 + jittered));
}
