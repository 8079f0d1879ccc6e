/**
 * Rate limiting per API client (document, Limits and Errors): every counted response carries the three X-Rate-Limit-* headers; past the budget, 429 with
 * Retry-After. The profile cuts windows and writes the times (rateLimit); contracts/rate-limit-window.ts counts.
 *
 * Memory stays bounded: ended counts are swept when the map doubles and at least once a minute of virtual time, never on a request that finds its own count.
 */
import { resetFormat, retryAfterFormat, type WindowCount, windowCount } from '../contracts/rate-limit-window.ts';
import type { Profile } from '../schemas/types.ts';
import type { Client } from './clients.ts';
import type { Clock } from './clock.ts';
import { type ApiError, apiErrors } from './error-bodies.ts';

const SWEEP_FLOOR = 1024;
const SWEEP_INTERVAL_MS = 60_000;

export interface RateOutcome {
  /** 429: the request is not served and not counted. */
  readonly refused: boolean;
  /** Rate-limit headers for the response (Retry-After included when refused); the caller owns the list. */
  readonly headers: string[];
  /** Requests left after this one (0 when refused). */
  readonly remaining: number;
  /** When the limit resets, epoch ms: what X-Rate-Limit-Reset and Retry-After name. */
  readonly resetMs: number;
}

/** Who a request is counted for: its client's budget (the token is named for the seams that need it). */
export type RatePrincipal = { readonly client: Client; readonly token: string };

/** The rate limiter as its callers (lists, logout, the token endpoint) see it: one request counted. */
export interface RateLimit {
  /** Counts one request of `who` against its client's rate; a client without a rate is not limited (no headers). */
  take(who: RatePrincipal): RateOutcome;
}

/** The 429 error of a refused request (the real service's wording, platform docs). */
export function quotaExceeded(client: Client): ApiError {
  return apiErrors.quotaExceeded(client.rate?.requests ?? 0, client.rate?.period ?? '');
}

export class RateLimiter implements RateLimit {
  readonly #clock: Clock;
  readonly #open: () => WindowCount;
  readonly #counts = new Map<string, WindowCount>();
  #sweepAt = SWEEP_FLOOR;
  #nextSweepMs = 0;
  readonly #reset: (ms: number) => string;
  readonly #retryAfter: (resetMs: number, now: number) => string;
  /** The last reset written, and its text: most responses of a window name the same instant. */
  #lastResetMs = Number.NaN;
  #lastResetText = '';

  constructor(o: { clock: Clock; profile: Profile['rateLimit'] }) {
    this.#clock = o.clock;
    this.#open = () => windowCount(o.profile.window, o.profile.retryDuringBlock, o.profile.resetFractionDigits === 0 ? 1000 : 1);
    this.#reset = resetFormat(o.profile.resetFractionDigits);
    this.#retryAfter = retryAfterFormat(o.profile.retryAfter);
  }

  take(who: RatePrincipal): RateOutcome {
    const rate = who.client.rate;
    if (rate === null) return { refused: false, headers: [], remaining: Number.POSITIVE_INFINITY, resetMs: 0 };
    const now = this.#clock.now();
    const counted = this.#count(who.client.id, now).take(rate, now);
    if (counted.resetMs !== this.#lastResetMs) {
      this.#lastResetMs = counted.resetMs;
      this.#lastResetText = this.#reset(counted.resetMs);
    }
    const headers = ['X-Rate-Limit-Limit', rate.period, 'X-Rate-Limit-Remaining', String(counted.remaining), 'X-Rate-Limit-Reset', this.#lastResetText];
    if (counted.refused) headers.push('Retry-After', this.#retryAfter(counted.resetMs, now));
    return { refused: counted.refused, headers, remaining: counted.remaining, resetMs: counted.resetMs };
  }

  /** The client's count, new where it has none or it ended (an ended count limits no one; a fresh one counts the same), after a sweep when one is due. */
  #count(key: string, now: number): WindowCount {
    const found = this.#counts.get(key);
    if (found !== undefined && !found.ended(now)) return found;
    // Swept first: a new, still empty count would count as ended.
    if (this.#counts.size >= this.#sweepAt || now >= this.#nextSweepMs) this.#sweepAt = Math.max(SWEEP_FLOOR, 2 * this.sweep());
    const opened = this.#open();
    this.#counts.set(key, opened);
    return opened;
  }

  /** The control plane's "budget spent": `remaining` requests left from now (clamped); returns when the limit resets, or undefined without a rate. */
  spend(client: Client, remaining: number): number | undefined {
    const rate = client.rate;
    if (rate === null) return undefined;
    const now = this.#clock.now();
    return this.#count(client.id, now).spend(rate, Math.min(rate.requests, remaining), now);
  }

  /** Drops the counts that ended; returns how many are left. */
  sweep(): number {
    const now = this.#clock.now();
    this.#nextSweepMs = now + SWEEP_INTERVAL_MS;
    for (const [key, count] of this.#counts) if (count.ended(now)) this.#counts.delete(key);
    return this.#counts.size;
  }

  clear(): void {
    this.#counts.clear();
    this.#sweepAt = SWEEP_FLOOR;
    this.#nextSweepMs = 0;
  }

  stats(): { windows: number } {
    return { windows: this.#counts.size };
  }
}
