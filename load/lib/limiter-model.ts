/**
 * Legal rate limiters for the Node tests of the probe and of the pacing: the contracts' one model of a limiter (contracts/rate-limit-window.ts: every kind of
 * window the behaviour profiles name, requests during a block ignored or extending it) answering as a target would, with the choices the document leaves open
 * in how it says so: token requests counted or not, Reset with 0, 3 or 7 fractional digits, Retry-After as delta-seconds or an HTTP-date, and two that the mock
 * does not make (a Reset cut to the second, a sliding Reset naming when the newest request lapses). Time is passed in: a test drives hours in microseconds.
 * Broken limiters are the mock's own faults (mock/faults/), which wrap the same model. Not bundled (no entry imports it).
 */
import { formatPeriod, type Rate } from '../../contracts/duration.ts';
import type { DuringBlock, ResetDigits, WindowCount, WindowKind } from '../../contracts/rate-limit-window.ts';
import { resetFormat, retryAfterFormat, windowCount } from '../../contracts/rate-limit-window.ts';

export interface LimiterModelOptions {
  readonly budget: number;
  /** A whole number of seconds, as X-Rate-Limit-Limit writes it. */
  readonly periodMs: number;
  readonly window: WindowKind;
  /** Default false. */
  readonly countsTokenRequests?: boolean;
  /** Default 3. */
  readonly resetDigits?: ResetDigits;
  /** Default `seconds`. */
  readonly retryAfter?: 'seconds' | 'http-date';
  /** Default `ignored`. */
  readonly duringBlock?: DuringBlock;
  /** What X-Rate-Limit-Reset names in a sliding window: when its oldest request lapses (default) or when all have. */
  readonly slidingReset?: 'oldest' | 'newest';
}

export class LimiterModel {
  readonly #rate: Rate;
  readonly #count: WindowCount;
  /** Cut to its digits: to the second, a Reset names an instant before its window ends (the harder case for the probe; the mock rounds up instead). */
  readonly #reset: (ms: number) => string;
  readonly #retryAfter: (resetMs: number, now: number) => string;

  constructor(readonly options: LimiterModelOptions) {
    const periodSeconds = options.periodMs / 1000;
    this.#rate = { requests: options.budget, periodSeconds, period: formatPeriod(periodSeconds) };
    this.#count = windowCount(options.window, options.duringBlock ?? 'ignored');
    this.#reset = resetFormat(options.resetDigits ?? 3, 'down');
    this.#retryAfter = retryAfterFormat(options.retryAfter ?? 'seconds');
  }

  /** A token request at `nowMs` ({auth_url}: no rate-limit headers). */
  token(nowMs: number): void {
    if (this.options.countsTokenRequests) this.#count.take(this.#rate, nowMs);
  }

  /** A resource request arriving at `nowMs`. */
  request(nowMs: number) {
    const counted = this.#count.take(this.#rate, nowMs);
    const newest = this.options.window === 'sliding' && this.options.slidingReset === 'newest';
    const headers: Record<string, string> = {
      'X-Rate-Limit-Limit': this.#rate.period,
      'X-Rate-Limit-Remaining': String(counted.remaining),
      'X-Rate-Limit-Reset': this.#reset(newest ? this.#count.clearsAtMs(nowMs) : counted.resetMs),
      Date: new Date(Math.floor(nowMs / 1000) * 1000).toUTCString(),
    };
    if (counted.refused) headers['Retry-After'] = this.#retryAfter(counted.resetMs, nowMs);
    return { status: counted.refused ? 429 : 200, headers };
  }
}
