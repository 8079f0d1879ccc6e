/**
 * How a client's requests are counted against its rate, in the three kinds of window a profile may
 * choose (rateLimit.window): a fixed window from the client's first request, fixed windows aligned to
 * multiples of the period since the epoch, or a sliding window in which each request counts for one
 * period after it was made. With `extendsBlock`, each request refused during a block moves the end
 * of the block to one period after it (the document warns that immediate retries can extend it).
 *
 * Memory stays bounded: ended windows are swept when the map doubles and at least once a minute of
 * virtual time, never on a request that finds its own window.
 */
import type { Rate } from '../contracts/duration.ts';

export interface Counted {
  readonly refused: boolean;
  /** Requests left after this one (0 when refused). */
  readonly remaining: number;
  /** When the limit resets: the window's end, the block's end, or when the oldest counted request leaves a sliding window. */
  readonly resetMs: number;
}

export interface Budget {
  take(key: string, rate: Rate, now: number): Counted;
  /**
   * Sets what is left of `key`'s budget now to `remaining` (0 to rate.requests), as if the requests
   * before had spent the rest: a window starts now where none is open. Returns when the limit resets.
   */
  spend(key: string, rate: Rate, remaining: number, now: number): number;
  /** Drops what no longer limits anyone; returns how many clients are left. */
  sweep(now: number): number;
  clear(): void;
  readonly size: number;
}

export type WindowKind = 'first-request' | 'clock-aligned' | 'sliding';

const SWEEP_FLOOR = 1024;
const SWEEP_INTERVAL_MS = 60_000;

/**
 * @param resolutionMs fixed windows end on a multiple of this: 1000 where X-Rate-Limit-Reset is written
 *   in whole seconds, so that the reset it names is the window's end, not up to a second after it.
 */
export function budgetOf(kind: WindowKind, extendsBlock: boolean, resolutionMs = 1): Budget {
  return kind === 'sliding' ? new SlidingBudget(extendsBlock) : new FixedBudget(kind === 'clock-aligned', extendsBlock, resolutionMs);
}

/** Sweeping of ended entries, amortised: when the map has doubled, or a minute of virtual time has passed. */
abstract class Swept<T> {
  protected readonly entries = new Map<string, T>();
  #sweepAt = SWEEP_FLOOR;
  #nextSweepMs = 0;

  get size(): number {
    return this.entries.size;
  }

  protected abstract ended(entry: T, now: number): boolean;

  /** Called before an entry is created (not on a request that finds its own). */
  protected added(now: number): void {
    if (this.entries.size >= this.#sweepAt || now >= this.#nextSweepMs) this.#sweepAt = Math.max(SWEEP_FLOOR, 2 * this.sweep(now));
  }

  sweep(now: number): number {
    this.#nextSweepMs = now + SWEEP_INTERVAL_MS;
    for (const [key, entry] of this.entries) if (this.ended(entry, now)) this.entries.delete(key);
    return this.entries.size;
  }

  clear(): void {
    this.entries.clear();
    this.#sweepAt = SWEEP_FLOOR;
    this.#nextSweepMs = 0;
  }
}

interface Window {
  endMs: number;
  count: number;
}

class FixedBudget extends Swept<Window> implements Budget {
  readonly #aligned: boolean;
  readonly #extendsBlock: boolean;
  readonly #resolutionMs: number;

  constructor(aligned: boolean, extendsBlock: boolean, resolutionMs: number) {
    super();
    this.#aligned = aligned;
    this.#extendsBlock = extendsBlock;
    this.#resolutionMs = resolutionMs;
  }

  /** The end of a window, or of a block, that would end at `ms`. */
  #end(ms: number): number {
    return this.#resolutionMs === 1 ? ms : Math.ceil(ms / this.#resolutionMs) * this.#resolutionMs;
  }

  protected ended(window: Window, now: number): boolean {
    return now >= window.endMs;
  }

  /** The window `key` is in at `now`: its current one, or a new one when it had none or that one ended. */
  #current(key: string, periodMs: number, now: number): Window {
    const window = this.entries.get(key);
    if (window !== undefined && now < window.endMs) return window;
    const start = this.#aligned ? now - (now % periodMs) : now;
    this.added(now);
    const opened = { endMs: this.#end(start + periodMs), count: 0 };
    this.entries.set(key, opened);
    return opened;
  }

  take(key: string, rate: Rate, now: number): Counted {
    const periodMs = rate.periodSeconds * 1000;
    const window = this.#current(key, periodMs, now);
    if (window.count >= rate.requests) {
      if (this.#extendsBlock) window.endMs = this.#end(now + periodMs);
      return { refused: true, remaining: 0, resetMs: window.endMs };
    }
    window.count++;
    return { refused: false, remaining: rate.requests - window.count, resetMs: window.endMs };
  }

  spend(key: string, rate: Rate, remaining: number, now: number): number {
    const window = this.#current(key, rate.periodSeconds * 1000, now);
    window.count = rate.requests - remaining;
    return window.endMs;
  }
}

/** The times of the requests counted in the last period, oldest first, in a ring that grows up to the budget. */
interface Log {
  times: Float64Array;
  head: number;
  length: number;
  /** Refused until then (extendsBlock only). */
  blockedUntilMs: number;
  /** The period of the rate the log was last counted with, for the sweep. */
  periodMs: number;
}

class SlidingBudget extends Swept<Log> implements Budget {
  readonly #extendsBlock: boolean;

  constructor(extendsBlock: boolean) {
    super();
    this.#extendsBlock = extendsBlock;
  }

  protected ended(log: Log, now: number): boolean {
    if (now < log.blockedUntilMs) return false;
    if (log.length === 0) return true;
    const newest = log.times[(log.head + log.length - 1) % log.times.length] as number;
    return newest <= now - log.periodMs;
  }

  take(key: string, rate: Rate, now: number): Counted {
    const periodMs = rate.periodSeconds * 1000;
    let log = this.entries.get(key);
    if (log === undefined) {
      // Swept first: a new, still empty log would count as ended.
      this.added(now);
      log = { times: new Float64Array(Math.min(rate.requests, 16)), head: 0, length: 0, blockedUntilMs: 0, periodMs };
      this.entries.set(key, log);
    }
    log.periodMs = periodMs;
    if (now < log.blockedUntilMs) {
      log.blockedUntilMs = now + periodMs;
      return { refused: true, remaining: 0, resetMs: log.blockedUntilMs };
    }
    // A request counts for one period after it was made: at exactly that time it no longer does.
    const size = log.times.length;
    while (log.length > 0 && (log.times[log.head] as number) <= now - periodMs) {
      log.head = (log.head + 1) % size;
      log.length--;
    }
    if (log.length >= rate.requests) {
      const oldest = log.times[log.head] as number;
      if (!this.#extendsBlock) return { refused: true, remaining: 0, resetMs: oldest + periodMs };
      log.blockedUntilMs = now + periodMs;
      return { refused: true, remaining: 0, resetMs: log.blockedUntilMs };
    }
    if (log.length === log.times.length) grow(log, rate.requests);
    log.times[(log.head + log.length) % log.times.length] = now;
    log.length++;
    return { refused: false, remaining: rate.requests - log.length, resetMs: (log.times[log.head] as number) + periodMs };
  }

  /** The spent part counts as requests made now: the budget comes back one period from now, all at once. */
  spend(key: string, rate: Rate, remaining: number, now: number): number {
    const periodMs = rate.periodSeconds * 1000;
    const spent = rate.requests - remaining;
    let log = this.entries.get(key);
    if (log === undefined) {
      this.added(now);
      log = { times: new Float64Array(0), head: 0, length: 0, blockedUntilMs: 0, periodMs };
      this.entries.set(key, log);
    }
    log.periodMs = periodMs;
    log.blockedUntilMs = 0;
    // Sized to the spent count (at most the budget, as take's ring): the next request may grow it.
    log.times = new Float64Array(Math.max(1, Math.min(spent, rate.requests)));
    log.times.fill(now, 0, spent);
    log.head = 0;
    log.length = spent;
    return now + periodMs;
  }
}

/** Doubles the ring (at most to the budget), oldest entry first again. */
function grow(log: Log, budget: number): void {
  const old = log.times;
  const times = new Float64Array(Math.min(Math.max(1, old.length * 2), budget));
  for (let i = 0; i < log.length; i++) times[i] = old[(log.head + i) % old.length] as number;
  log.times = times;
  log.head = 0;
}
