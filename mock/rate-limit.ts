/**
 * Rate limiting per API client (document, Limits and Errors). Every counted response carries
 * X-Rate-Limit-Limit (the period as written, `1m`), X-Rate-Limit-Remaining (after counting this
 * request) and X-Rate-Limit-Reset (ISO 8601 UTC); past the budget, 429 with Retry-After. The document
 * leaves open how windows are cut and how the reset and Retry-After are written: the profile chooses
 * (rateLimit.window, retryAfter, resetFractionDigits, retryDuringBlock): contracts/rate-limit-window.ts
 * counts and says when the limit resets, mock/rate-windows.ts keeps a count per client.
 */
import type { Rate } from '../contracts/duration.ts';
import { resetFormat, retryAfterFormat } from '../contracts/rate-limit-window.ts';
import type { Profile } from '../schemas/types.ts';
import type { Client } from './clients.ts';
import type { Clock } from './clock.ts';
import { type ApiError, apiErrors } from './errors.ts';
import { type Budget, budgetOf } from './rate-windows.ts';

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
export interface RatePrincipal {
  readonly client: Client;
  readonly token: string;
}

/** The rate limiter as its callers (lists, logout, the token endpoint) see it: one request counted. */
export interface RateLimit {
  /** Counts one request of `who` against its client's rate; a client without a rate is not limited (no headers). */
  take(who: RatePrincipal): RateOutcome;
}

export type RateLimitProfile = Profile['rateLimit'];

/** The 429 error of a refused request (the real service's wording, platform docs). */
export function quotaExceeded(client: Client): ApiError {
  const rate = client.rate ?? { requests: 0, period: '' };
  return apiErrors.quotaExceeded(rate.requests, rate.period);
}

export class RateLimiter implements RateLimit {
  readonly #clock: Clock;
  readonly #budget: Budget;
  readonly #reset: (ms: number) => string;
  readonly #retryAfter: (resetMs: number, now: number) => string;
  /** The last reset written, and its text: most responses of a window name the same instant. */
  #lastResetMs = Number.NaN;
  #lastResetText = '';

  constructor(o: { clock: Clock; profile: RateLimitProfile }) {
    this.#clock = o.clock;
    this.#budget = budgetOf(o.profile.window, o.profile.retryDuringBlock, o.profile.resetFractionDigits === 0 ? 1000 : 1);
    this.#reset = resetFormat(o.profile.resetFractionDigits);
    this.#retryAfter = retryAfterFormat(o.profile.retryAfter);
  }

  take(who: RatePrincipal): RateOutcome {
    const rate = who.client.rate;
    if (rate === null) return { refused: false, headers: [], remaining: Number.POSITIVE_INFINITY, resetMs: 0 };
    const now = this.#clock.now();
    const counted = this.#budget.take(who.client.id, rate, now);
    const headers = this.#headers(rate, counted.remaining, counted.resetMs);
    if (counted.refused) headers.push('Retry-After', this.#retryAfter(counted.resetMs, now));
    return { refused: counted.refused, headers, remaining: counted.remaining, resetMs: counted.resetMs };
  }

  #headers(rate: Rate, remaining: number, resetMs: number): string[] {
    if (resetMs !== this.#lastResetMs) {
      this.#lastResetMs = resetMs;
      this.#lastResetText = this.#reset(resetMs);
    }
    return ['X-Rate-Limit-Limit', rate.period, 'X-Rate-Limit-Remaining', String(remaining), 'X-Rate-Limit-Reset', this.#lastResetText];
  }

  /**
   * The control plane's "budget spent": `client` has `remaining` requests left from now on (clamped to
   * its budget). Returns when the limit resets, epoch ms; undefined for a client without a rate.
   */
  spend(client: Client, remaining: number): number | undefined {
    const rate = client.rate;
    if (rate === null) return undefined;
    return this.#budget.spend(client.id, rate, Math.min(rate.requests, remaining), this.#clock.now());
  }

  /** Drops windows that ended; returns how many are left. */
  sweep(): number {
    return this.#budget.sweep(this.#clock.now());
  }

  clear(): void {
    this.#budget.clear();
  }

  stats(): { windows: number } {
    return { windows: this.#budget.size };
  }
}
