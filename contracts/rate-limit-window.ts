/**
 * How a rate limiter counts one client's requests, in each kind of window the document leaves open: a fixed window from the client's first request, fixed
 * windows aligned to multiples of the period, or a sliding one in which each request counts for one period. With `extends-block`, each request refused during a
 * block moves its end to one period after it (the document warns immediate retries can extend it). Also how headers write a count's reset and Retry-After.
 *
 * The one model of a limiter: the mock counts with it, and the load scripts' Node tests model legal targets with it (load/lib/limiter-model.ts). Time is passed
 * in; k6-safe (no Node modules, no `URL`, no `u`-flag regexes).
 */
import type { Rate } from './duration.ts';

export type WindowKind = 'first-request' | 'clock-aligned' | 'sliding';

/** What requests refused during a block do: nothing, or move its end to one period after each. */
export type DuringBlock = 'ignored' | 'extends-block';

interface Counted {
  readonly refused: boolean;
  /** Requests left after this one (0 when refused). */
  readonly remaining: number;
  /** When the limit resets: the window's end, the block's end, or when the oldest counted request leaves a sliding window. */
  readonly resetMs: number;
}

export interface WindowCount {
  /** Counts a request at `now`, or refuses it when the budget is spent. */
  take(rate: Rate, now: number): Counted;
  /** Sets the budget left now to `remaining` (0 to rate.requests), as if earlier requests spent the rest (opening a window if none is); returns the reset. */
  spend(rate: Rate, remaining: number, now: number): number;
  /** Nothing counted limits the client any more at `now`: the count may be dropped. */
  ended(now: number): boolean;
  /** When every request counted so far will have lapsed (a fixed window's end; a sliding one's newest request, one period on). */
  clearsAtMs(now: number): number;
}

/** Where the fixed window opened by a request at `nowMs` starts. */
export function windowStartMs(kind: Exclude<WindowKind, 'sliding'>, nowMs: number, periodMs: number): number {
  return kind === 'clock-aligned' ? nowMs - (nowMs % periodMs) : nowMs;
}

/** `ms` rounded up to a multiple of `resolutionMs`: a window, or a block, that ends at `ms` ends there. */
export function endOnResolution(ms: number, resolutionMs: number): number {
  return resolutionMs === 1 ? ms : Math.ceil(ms / resolutionMs) * resolutionMs;
}

/** Whether a request made at `requestMs` still counts at `nowMs` in a sliding window: at exactly one period after, it no longer does. */
export function stillCounts(requestMs: number, nowMs: number, periodMs: number): boolean {
  return requestMs > nowMs - periodMs;
}

/** Whether `ms` is a boundary of clock-aligned windows: where one ends and the next starts. */
export function isAlignedBoundary(ms: number, periodMs: number): boolean {
  return windowStartMs('clock-aligned', ms, periodMs) === ms;
}

/**
 * The count of one client in a window of `kind`.
 * @param resolutionMs fixed windows end on a multiple of this: 1000 where X-Rate-Limit-Reset is written in whole seconds, so that the reset it names is the
 *   window's end, not up to a second after it.
 */
export function windowCount(kind: WindowKind, duringBlock: DuringBlock, resolutionMs = 1): WindowCount {
  const extendsBlock = duringBlock === 'extends-block';
  return kind === 'sliding' ? new SlidingCount(extendsBlock) : new FixedCount(kind, extendsBlock, resolutionMs);
}

class FixedCount implements WindowCount {
  private endMs = Number.NEGATIVE_INFINITY;
  private count = 0;

  constructor(
    private readonly kind: Exclude<WindowKind, 'sliding'>,
    private readonly extendsBlock: boolean,
    private readonly resolutionMs: number,
  ) {}

  /** Opens a window at `now` when none is open: one way into a window for take and spend. */
  private current(periodMs: number, now: number): void {
    if (now < this.endMs) return;
    this.endMs = endOnResolution(windowStartMs(this.kind, now, periodMs) + periodMs, this.resolutionMs);
    this.count = 0;
  }

  take(rate: Rate, now: number): Counted {
    const periodMs = rate.periodSeconds * 1000;
    this.current(periodMs, now);
    if (this.count >= rate.requests) {
      if (this.extendsBlock) this.endMs = endOnResolution(now + periodMs, this.resolutionMs);
      return { refused: true, remaining: 0, resetMs: this.endMs };
    }
    this.count++;
    return { refused: false, remaining: rate.requests - this.count, resetMs: this.endMs };
  }

  spend(rate: Rate, remaining: number, now: number): number {
    this.current(rate.periodSeconds * 1000, now);
    this.count = rate.requests - remaining;
    return this.endMs;
  }

  ended(now: number): boolean {
    return now >= this.endMs;
  }

  clearsAtMs(now: number): number {
    return this.ended(now) ? now : this.endMs;
  }
}

/** The times of the requests counted in the last period, oldest first: at most the budget. */
class SlidingCount implements WindowCount {
  private times: number[] = [];
  /** Refused until then (extends-block only). */
  private blockedUntilMs = 0;
  /** The period of the rate last counted with, for `ended`. */
  private periodMs = 0;

  constructor(private readonly extendsBlock: boolean) {}

  take(rate: Rate, now: number): Counted {
    const periodMs = rate.periodSeconds * 1000;
    this.periodMs = periodMs;
    const lapsed = this.times.findIndex((t) => stillCounts(t, now, periodMs));
    this.times.splice(0, lapsed < 0 ? this.times.length : lapsed);
    const blocked = now < this.blockedUntilMs;
    if (blocked || this.times.length >= rate.requests) {
      if (!blocked && !this.extendsBlock) return { refused: true, remaining: 0, resetMs: (this.times[0] as number) + periodMs };
      this.blockedUntilMs = now + periodMs;
      return { refused: true, remaining: 0, resetMs: this.blockedUntilMs };
    }
    this.times.push(now);
    return { refused: false, remaining: rate.requests - this.times.length, resetMs: (this.times[0] as number) + periodMs };
  }

  /** The spent part counts as requests made now: the budget comes back one period from now, all at once. */
  spend(rate: Rate, remaining: number, now: number): number {
    this.periodMs = rate.periodSeconds * 1000;
    this.blockedUntilMs = 0;
    this.times = Array.from({ length: rate.requests - remaining }, () => now);
    return now + this.periodMs;
  }

  ended(now: number): boolean {
    return now >= this.blockedUntilMs && now >= this.clearsAtMs(now);
  }

  clearsAtMs(now: number): number {
    const newest = this.times[this.times.length - 1];
    return Math.max(newest === undefined ? now : newest + this.periodMs, this.blockedUntilMs);
  }
}

/** How X-Rate-Limit-Reset is written: 0, 3 or 7 fractional digits. */
export type ResetDigits = 0 | 3 | 7;

/** X-Rate-Limit-Reset with 0, 3 or 7 fractional digits: rounded `up` (the mock) never early; `down`, a legal target that cuts, up to a second early. */
export function resetFormat(digits: ResetDigits, rounding: 'up' | 'down' = 'up'): (ms: number) => string {
  const whole = rounding === 'up' ? Math.ceil : Math.floor;
  if (digits === 0) return (ms) => `${new Date(whole(ms / 1000) * 1000).toISOString().slice(0, 19)}Z`;
  if (digits === 7) return (ms) => `${new Date(whole(ms)).toISOString().slice(0, 23)}0000Z`;
  return (ms) => new Date(whole(ms)).toISOString();
}

/** The wait until `resetMs`, in whole seconds rounded up (waiting that long lands at or after the reset), at least 1. */
export function retryAfterSeconds(resetMs: number, now: number): number {
  return Math.max(1, Math.ceil((resetMs - now) / 1000));
}

/** Retry-After in delta-seconds or as an HTTP-date (the second after the reset, or the reset itself on a whole second). */
export function retryAfterFormat(form: 'seconds' | 'http-date'): (resetMs: number, now: number) => string {
  if (form === 'http-date') return (resetMs) => new Date(Math.ceil(resetMs / 1000) * 1000).toUTCString();
  return (resetMs, now) => String(retryAfterSeconds(resetMs, now));
}
