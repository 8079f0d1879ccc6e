/**
 * When a client may send again after a 429 (document, Errors): "honor `Retry-After`; do not retry at
 * once (immediate retries can extend the limiting); use exponential backoff in automated
 * integrations." Written once for the contract suite's transport, its rate-limit specs and the k6
 * scripts. Pure (time and randomness are passed in) and k6-safe.
 */
import { parseHttpDate, parseRetryAfter, RETRY_AFTER_RESOLUTION_MS } from './rate-limit.ts';
import { fail, ok, type Result } from './result.ts';

/** The instant a 429's Retry-After names, as closely as the client can know it. */
export interface RetryAfterTime {
  /** The header as sent. */
  readonly value: string;
  /**
   * The earliest and latest instants it can name (epoch ms): delta-seconds count from when the target
   * answered, which the client knows only to lie between sending the request and receiving the answer.
   */
  readonly earliestMs: number;
  readonly latestMs: number;
}

/**
 * Retry-After of a 429 sent at `sentMs` and received at `receivedMs`; an error sentence when missing
 * or unreadable. An HTTP-date is an instant on the target's clock: with the response's `Date` header
 * (when the target made it, to the second) it becomes a wait, as RFC 9110 reads it, so that a target
 * whose clock is behind the client's is not retried early; without one, both clocks are taken as one.
 */
export function retryAfterTime(value: string | undefined, sentMs: number, receivedMs: number, date?: string): Result<RetryAfterTime> {
  const early = parseRetryAfter(value, sentMs);
  if (!early.ok || value === undefined) return fail(early.ok ? 'Retry-After is missing' : early.error);
  const at = parseHttpDate(value);
  const madeAt = date === undefined ? Number.NaN : parseHttpDate(date);
  if (!Number.isNaN(at) && !Number.isNaN(madeAt)) {
    // Made somewhere within the second Date names: the wait is at most `at - madeAt`, at least a second less.
    const waitMs = Math.max(0, at - madeAt);
    return ok({ value, earliestMs: sentMs + Math.max(0, waitMs - 1000), latestMs: receivedMs + waitMs });
  }
  const late = parseRetryAfter(value, receivedMs);
  const lateSeconds = late.ok ? late.value : early.value;
  return ok({ value, earliestMs: sentMs + early.value * 1000, latestMs: receivedMs + lateSeconds * 1000 });
}

/**
 * The instant from which the next request may be sent: the latest instant Retry-After can name, plus
 * its resolution. Retry-After is whole seconds, and a target that rounds its wait down names an
 * instant up to a second before its block lifts: a client that waits this much is never refused for
 * the rounding, so a refusal after it is the target's broken promise and not the client's haste.
 */
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
 * Milliseconds to wait before retry number `retry` (1 for the first) after a 429: Retry-After (or
 * nothing when the target sent none or an unreadable one) plus an exponential backoff with "equal
 * jitter" (half fixed, half random), so that clients hit by the same 429 do not come back together.
 */
export function retryDelayMs(retry: number, retryAfterSeconds: number | undefined, random: () => number, policy: RetryPolicy = DEFAULT_RETRY_POLICY): number {
  const backoff = Math.min(policy.capMs, policy.baseMs * 2 ** Math.max(0, retry - 1));
  const jittered = backoff / 2 + (backoff / 2) * Math.min(1, Math.max(0, random()));
  return Math.max(policy.minMs, Math.round((retryAfterSeconds ?? 0) * 1000 + jittered));
}
