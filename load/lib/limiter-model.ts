/**
 * Models of the rate limiters the API document allows (and of broken ones), for the Node tests of the
 * probe and of the pacing: every kind of window the behaviour profiles name (`first-request`,
 * `clock-aligned`, `sliding`), token requests counted or not, Reset with 0, 3 or 7 fractional
 * digits, Retry-After as delta-seconds or an HTTP-date, requests during a block ignored or extending
 * it; and the mock's rate-limit faults. Time is passed in: a test drives hours in microseconds.
 * Not bundled (no entry imports it).
 */

export type WindowKind = 'first-request' | 'clock-aligned' | 'sliding';

export type ModelFault = 'rate-no-429' | 'retry-after-missing' | 'retry-after-short' | 'rate-remaining-constant' | 'rate-429-early';

export interface LimiterModelOptions {
  readonly budget: number;
  readonly periodMs: number;
  readonly window: WindowKind;
  readonly countsTokenRequests?: boolean;
  readonly resetDigits?: 0 | 3 | 7;
  readonly retryAfter?: 'seconds' | 'http-date';
  readonly duringBlock?: 'ignored' | 'extends-block';
  /** What X-Rate-Limit-Reset names in a sliding window: when its oldest request lapses (default) or when all have. */
  readonly slidingReset?: 'oldest' | 'newest';
  readonly fault?: ModelFault;
}

export interface ModelResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
}

function periodText(ms: number): string {
  return ms % 60_000 === 0 ? `${ms / 60_000}m` : `${ms / 1000}s`;
}

export class LimiterModel {
  readonly options: LimiterModelOptions;
  /** Arrival times of the counted requests (sliding) or of the current window's (fixed). */
  private counted: number[] = [];
  private windowStart: number | undefined;
  private blockedUntil: number | undefined;
  /** Every counted arrival, for tests that check a plan against every window. */
  readonly arrivals: number[] = [];

  constructor(options: LimiterModelOptions) {
    this.options = options;
  }

  /** A token request at `nowMs` ({auth_url}: no rate-limit headers). */
  token(nowMs: number): void {
    if (this.options.countsTokenRequests) this.count(nowMs);
  }

  /** A resource request arriving at `nowMs`. */
  request(nowMs: number): ModelResponse {
    const o = this.options;
    this.roll(nowMs);
    const blocked = this.blockedUntil !== undefined && nowMs < this.blockedUntil;
    const spent = this.counted.length + (o.fault === 'rate-429-early' ? 1 : 0) >= o.budget;
    const refused = o.fault !== 'rate-no-429' && (blocked || spent);
    if (!refused) this.count(nowMs);
    const freeAt = this.freeAt(nowMs);
    if (refused && o.duringBlock === 'extends-block') this.blockedUntil = blocked ? nowMs + o.periodMs : freeAt;
    const headers: Record<string, string> = {
      'X-Rate-Limit-Limit': periodText(o.periodMs),
      'X-Rate-Limit-Remaining': String(o.fault === 'rate-remaining-constant' ? o.budget : Math.max(0, o.budget - this.counted.length)),
      'X-Rate-Limit-Reset': this.formatReset(this.resetAt(nowMs)),
      Date: new Date(Math.floor(nowMs / 1000) * 1000).toUTCString(),
    };
    if (refused && o.fault !== 'retry-after-missing') {
      const until = Math.max(freeAt, this.blockedUntil ?? 0);
      const seconds = Math.ceil((until - nowMs) / 1000);
      headers['Retry-After'] =
        o.fault === 'retry-after-short'
          ? String(Math.floor(seconds / 2))
          : o.retryAfter === 'http-date'
            ? new Date(Math.ceil(until / 1000) * 1000).toUTCString()
            : String(seconds);
    }
    return { status: refused ? 429 : 200, headers };
  }

  private count(nowMs: number): void {
    this.roll(nowMs);
    if (this.windowStart === undefined) this.windowStart = this.alignedStart(nowMs);
    this.counted.push(nowMs);
    this.arrivals.push(nowMs);
  }

  private alignedStart(nowMs: number): number {
    return this.options.window === 'clock-aligned' ? Math.floor(nowMs / this.options.periodMs) * this.options.periodMs : nowMs;
  }

  /** Drops what no longer counts at `nowMs`. */
  private roll(nowMs: number): void {
    const { window, periodMs } = this.options;
    if (window === 'sliding') {
      this.counted = this.counted.filter((t) => t + periodMs > nowMs);
      return;
    }
    if (this.windowStart !== undefined && nowMs >= this.windowStart + periodMs) {
      this.windowStart = undefined;
      this.counted = [];
    }
  }

  /** When the next request could be served, budget-wise. */
  private freeAt(nowMs: number): number {
    const { window, periodMs } = this.options;
    if (window === 'sliding') return (this.counted[0] ?? nowMs) + periodMs;
    return (this.windowStart ?? this.alignedStart(nowMs)) + periodMs;
  }

  private resetAt(nowMs: number): number {
    const { window, periodMs, slidingReset } = this.options;
    if (window === 'sliding' && slidingReset === 'newest') return (this.counted[this.counted.length - 1] ?? nowMs) + periodMs;
    return this.freeAt(nowMs);
  }

  private formatReset(ms: number): string {
    const iso = new Date(ms).toISOString();
    const digits = this.options.resetDigits ?? 3;
    // Written to the second, the instant is cut (the harder case: the window ends after the Reset shown).
    if (digits === 0) return `${iso.slice(0, 19)}Z`;
    return digits === 7 ? `${iso.slice(0, 23)}0000Z` : iso;
  }
}
