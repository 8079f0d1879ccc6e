/**
 * Rate limiting per API client (document, Limits and Errors): a fixed window that starts at the
 * client's first counted request and lasts the rate's period. Every counted response carries
 * X-Rate-Limit-Limit (the period as written, `1m`), X-Rate-Limit-Remaining (after counting this
 * request) and X-Rate-Limit-Reset (window end, ISO 8601 UTC); past the budget, 429 with Retry-After
 * in delta-seconds, rounded up so that waiting that long always lands at or after the reset.
 */
import type { Rate } from '../contracts/duration.ts';
import type { Client } from './clients.ts';
import type { Clock } from './clock.ts';
import { type ApiError, apiErrors } from './errors.ts';
import type { Faults } from './faults.ts';
import type { Variants } from './variants.ts';

interface Window {
  readonly endMs: number;
  count: number;
  /** X-Rate-Limit-Reset, formatted once per window. */
  readonly resetText: string;
}

export interface RateOutcome {
  /** 429: the request is not served and not counted. */
  readonly refused: boolean;
  /** Rate-limit headers for the response (Retry-After included when refused); the caller owns the list. */
  readonly headers: string[];
}

/** Who a request is counted for: its client, or (fault `rate-budget-per-token`) its token. */
export interface RatePrincipal {
  readonly client: Client;
  readonly token: string;
}

const SWEEP_FLOOR = 1024;
/** Opening a window also sweeps when this much virtual time has passed since the last sweep (not on the per-request path). */
const SWEEP_INTERVAL_MS = 60_000;

/** The 429 error of a refused request (the real service's wording, reference notes). */
export function quotaExceeded(client: Client): ApiError {
  const rate = client.rate ?? { requests: 0, period: '' };
  return apiErrors.quotaExceeded(rate.requests, rate.period);
}

export class RateLimiter {
  readonly #clock: Clock;
  readonly #windows = new Map<string, Window>();
  #sweepAt = SWEEP_FLOOR;
  #nextSweepMs = 0;
  readonly #perToken: boolean;
  readonly #sendLimit: boolean;
  readonly #sendRemaining: boolean;
  readonly #sendReset: boolean;
  readonly #remainingConstant: boolean;
  readonly #never429: boolean;
  /** 1 with `rate-429-early`: the last request of the budget is refused too. */
  readonly #early: number;
  readonly #sendRetryAfter: boolean;
  readonly #retryAfterShort: boolean;
  readonly #retryAfterDate: boolean;
  readonly #resetFormat: (endMs: number) => string;

  constructor(o: { clock: Clock; faults: Faults; variants: Variants }) {
    const f = o.faults;
    this.#clock = o.clock;
    this.#perToken = f.has('rate-budget-per-token');
    this.#sendLimit = !f.has('rate-header-limit-missing');
    this.#sendRemaining = !f.has('rate-header-remaining-missing');
    this.#sendReset = !f.has('rate-header-reset-missing');
    this.#remainingConstant = f.has('rate-remaining-constant');
    this.#never429 = f.has('rate-no-429');
    this.#early = f.has('rate-429-early') ? 1 : 0;
    this.#sendRetryAfter = !f.has('retry-after-missing');
    this.#retryAfterShort = f.has('retry-after-short');
    this.#retryAfterDate = o.variants.has('retry-after-http-date');
    this.#resetFormat = f.has('rate-header-reset-malformed')
      ? // A local-looking time without zone or `T`: not ISO 8601 UTC.
        (ms) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ')
      : o.variants.has('seven-digit-fractions')
        ? // The real service's form: 7 fractional digits.
          (ms) => `${new Date(ms).toISOString().slice(0, 23)}0000Z`
        : (ms) => new Date(ms).toISOString();
  }

  /** Counts one request of `who` against its client's rate (null: not limited, no headers). */
  take(who: RatePrincipal): RateOutcome {
    const rate = who.client.rate;
    if (rate === null) return { refused: false, headers: [] };
    const now = this.#clock.now();
    const key = this.#perToken ? who.token : who.client.id;
    let window = this.#windows.get(key);
    if (window === undefined || now >= window.endMs) {
      const endMs = now + rate.periodSeconds * 1000;
      window = { endMs, count: 0, resetText: this.#resetFormat(endMs) };
      this.#windows.set(key, window);
      if (this.#windows.size >= this.#sweepAt || now >= this.#nextSweepMs) this.#sweepAt = Math.max(SWEEP_FLOOR, 2 * this.sweep());
    }
    const refused = !this.#never429 && window.count + this.#early >= rate.requests;
    if (!refused) window.count++;
    const headers = this.#headers(rate, window);
    if (refused && this.#sendRetryAfter) headers.push('Retry-After', this.#retryAfter(window.endMs, now));
    return { refused, headers };
  }

  #headers(rate: Rate, window: Window): string[] {
    const headers: string[] = [];
    if (this.#sendLimit) headers.push('X-Rate-Limit-Limit', rate.period);
    if (this.#sendRemaining)
      headers.push('X-Rate-Limit-Remaining', String(this.#remainingConstant ? rate.requests : Math.max(0, rate.requests - window.count)));
    if (this.#sendReset) headers.push('X-Rate-Limit-Reset', window.resetText);
    return headers;
  }

  #retryAfter(endMs: number, now: number): string {
    if (this.#retryAfterDate) return new Date(Math.ceil(endMs / 1000) * 1000).toUTCString();
    const seconds = (endMs - now) / 1000;
    return String(this.#retryAfterShort ? Math.floor(seconds / 2) : Math.ceil(seconds));
  }

  /** Drops ended windows; returns how many are left. */
  sweep(): number {
    const now = this.#clock.now();
    this.#nextSweepMs = now + SWEEP_INTERVAL_MS;
    for (const [key, w] of this.#windows) if (now >= w.endMs) this.#windows.delete(key);
    return this.#windows.size;
  }

  clear(): void {
    this.#windows.clear();
    this.#sweepAt = SWEEP_FLOOR;
    this.#nextSweepMs = 0;
  }

  stats(): { windows: number } {
    return { windows: this.#windows.size };
  }
}
