/**
 * Every client's count of requests against its rate: the counting itself, in each kind of window a
 * profile may choose (rateLimit.window, retryDuringBlock), is the contracts' one model of a limiter
 * (contracts/rate-limit-window.ts); here it is kept per client, on the mock's clock (time is passed in).
 *
 * Memory stays bounded: ended counts are swept when the map doubles and at least once a minute of
 * virtual time, never on a request that finds its own count.
 */
import type { Rate } from '../contracts/duration.ts';
import type { Counted, DuringBlock, WindowCount, WindowKind } from '../contracts/rate-limit-window.ts';
import { windowCount } from '../contracts/rate-limit-window.ts';

const SWEEP_FLOOR = 1024;
const SWEEP_INTERVAL_MS = 60_000;

/**
 * @param resolutionMs fixed windows end on a multiple of this: 1000 where X-Rate-Limit-Reset is written
 *   in whole seconds, so that the reset it names is the window's end, not up to a second after it.
 */
export function budgetOf(kind: WindowKind, duringBlock: DuringBlock, resolutionMs = 1): Budget {
  return new Budget(() => windowCount(kind, duringBlock, resolutionMs));
}

/** One count per client, swept amortised: when the map has doubled, or a minute of virtual time has passed. */
export class Budget {
  readonly #counts = new Map<string, WindowCount>();
  readonly #open: () => WindowCount;
  #sweepAt = SWEEP_FLOOR;
  #nextSweepMs = 0;

  constructor(open: () => WindowCount) {
    this.#open = open;
  }

  get size(): number {
    return this.#counts.size;
  }

  /**
   * `key`'s count; a new one is made (after a sweep when one is due) when it has none, or when its
   * count ended: an ended count limits no one, and a fresh one counts the same from here on, so a
   * client coming back after its window is where the others' ended counts are swept too.
   */
  #count(key: string, now: number): WindowCount {
    const found = this.#counts.get(key);
    if (found !== undefined && !found.ended(now)) return found;
    // Swept first: a new, still empty count would count as ended.
    if (this.#counts.size >= this.#sweepAt || now >= this.#nextSweepMs) this.#sweepAt = Math.max(SWEEP_FLOOR, 2 * this.sweep(now));
    const opened = this.#open();
    this.#counts.set(key, opened);
    return opened;
  }

  take(key: string, rate: Rate, now: number): Counted {
    return this.#count(key, now).take(rate, now);
  }

  /**
   * Sets what is left of `key`'s budget now to `remaining` (0 to rate.requests), as if the requests
   * before had spent the rest: a window starts now where none is open. Returns when the limit resets.
   */
  spend(key: string, rate: Rate, remaining: number, now: number): number {
    return this.#count(key, now).spend(rate, remaining, now);
  }

  /** Drops what no longer limits anyone; returns how many clients are left. */
  sweep(now: number): number {
    this.#nextSweepMs = now + SWEEP_INTERVAL_MS;
    for (const [key, count] of this.#counts) if (count.ended(now)) this.#counts.delete(key);
    return this.#counts.size;
  }

  clear(): void {
    this.#counts.clear();
    this.#sweepAt = SWEEP_FLOOR;
    this.#nextSweepMs = 0;
  }
}
