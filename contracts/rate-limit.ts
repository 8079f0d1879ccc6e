/**
 * Reading the rate-limit promise off a response (document, Limits and Errors): the three
 * X-Rate-Limit-* headers and Retry-After. Shared by the specs and the k6 probe, so k6-safe.
 */
import { parsePeriod } from './duration.ts';

export interface RateLimitHeaders {
  /** The period as sent, e.g. `1m`. */
  readonly period: string;
  readonly periodSeconds: number;
  readonly remaining: number;
  /** Epoch milliseconds of X-Rate-Limit-Reset. */
  readonly resetMs: number;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; reason: string };

/** "UTC date and time, ISO 8601": a date, a time, optional fraction (any digits), and Z or +00:00. */
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]00:?00)$/;

/** Epoch ms of an ISO 8601 UTC time (the real service sends 7 fractional digits); NaN if not one. */
export function parseIsoUtc(text: string): number {
  if (!ISO_UTC.test(text)) return Number.NaN;
  const dot = text.indexOf('.', 19);
  if (dot < 0) return Date.parse(text);
  let end = dot + 1;
  while (end < text.length && text.charCodeAt(end) >= 48 && text.charCodeAt(end) <= 57) end++;
  // Cut the fraction to milliseconds: engines differ on longer fractions.
  return Date.parse(`${text.slice(0, dot + 1)}${text.slice(dot + 1, Math.min(end, dot + 4)).padEnd(3, '0')}${text.slice(end)}`);
}

/** A header getter that works for Playwright (lower-case record), k6 (canonical case) and fetch. */
export type HeaderLookup = (name: string) => string | undefined;

export function headerLookup(headers: Record<string, string | undefined>): HeaderLookup {
  const lower: Record<string, string | undefined> = {};
  for (const key of Object.keys(headers)) lower[key.toLowerCase()] = headers[key];
  return (name) => lower[name.toLowerCase()];
}

/** Parses the three X-Rate-Limit-* headers, saying which one is missing or malformed. */
export function parseRateLimitHeaders(get: HeaderLookup): Parsed<RateLimitHeaders> {
  const period = get('x-rate-limit-limit');
  const remaining = get('x-rate-limit-remaining');
  const reset = get('x-rate-limit-reset');
  if (period === undefined) return { ok: false, reason: 'X-Rate-Limit-Limit is missing' };
  if (remaining === undefined) return { ok: false, reason: 'X-Rate-Limit-Remaining is missing' };
  if (reset === undefined) return { ok: false, reason: 'X-Rate-Limit-Reset is missing' };
  const periodSeconds = parsePeriod(period);
  if (periodSeconds === undefined) return { ok: false, reason: `X-Rate-Limit-Limit "${period}" is not a period like 1m, 12h or 1d` };
  if (!/^\d+$/.test(remaining.trim())) return { ok: false, reason: `X-Rate-Limit-Remaining "${remaining}" is not a non-negative integer` };
  const resetMs = parseIsoUtc(reset.trim());
  if (Number.isNaN(resetMs)) return { ok: false, reason: `X-Rate-Limit-Reset "${reset}" is not an ISO 8601 UTC date and time` };
  return { ok: true, value: { period: period.trim(), periodSeconds, remaining: Number(remaining.trim()), resetMs } };
}

/**
 * Retry-After in seconds from `nowMs`: the document does not give its format, so both forms of
 * RFC 9110 are read: delta-seconds (`30`) and an HTTP-date (`Wed, 21 Oct 2015 07:28:00 GMT`).
 */
export function parseRetryAfter(value: string | undefined, nowMs: number): Parsed<number> {
  if (value === undefined) return { ok: false, reason: 'Retry-After is missing' };
  const text = value.trim();
  if (/^\d+$/.test(text)) return { ok: true, value: Number(text) };
  if (/^[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(text)) {
    const at = Date.parse(text);
    if (!Number.isNaN(at)) return { ok: true, value: Math.max(0, (at - nowMs) / 1000) };
  }
  return { ok: false, reason: `Retry-After "${value}" is neither delta-seconds nor an HTTP-date` };
}
