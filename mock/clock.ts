/** The mock's only source of time: nothing else in mock/ reads wall time, so a test (or the control plane) can move 60 days forward in a millisecond. */

export interface Clock {
  /** Epoch milliseconds, as the mock sees them. */
  now(): number;
}

/** The clock's last instant, 9999-12-31T23:59:59.999Z: past it ISO 8601 needs six-digit years, and not far past it `Date` cannot represent the time. */
const LATEST_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** A source clock (wall time by default, given by the CLI) plus an offset that only moves forward: real time keeps working, and `advance` skips ahead. */
export class VirtualClock implements Clock {
  #offsetMs = 0;

  constructor(private readonly source: () => number) {}

  now(): number {
    return this.source() + this.#offsetMs;
  }

  /** Moves the clock forward; negative or non-finite amounts, and any past LATEST_MS, are refused (time never runs back). */
  advance(seconds: number): void {
    if (!Number.isFinite(seconds) || seconds < 0) throw new RangeError(`cannot advance the clock by ${seconds} s`);
    if (seconds > this.maxAdvanceSeconds()) throw new RangeError(`cannot advance the clock by ${seconds} s: it would pass 9999-12-31`);
    this.#offsetMs += seconds * 1000;
  }

  /** The largest advance allowed now (LATEST_MS minus now, in seconds). */
  maxAdvanceSeconds(): number {
    return Math.max(0, (LATEST_MS - this.now()) / 1000);
  }

  /** Back to the source's time (control-plane reset). */
  reset(): void {
    this.#offsetMs = 0;
  }
}

/** The Date header (RFC 9110 §5.6.7) on the mock's clock, like X-Rate-Limit-Reset, Retry-After and body times (node's follows wall time); cached per second. */
export function httpDate(clock: Clock): () => string {
  let second = Number.NaN;
  let text = '';
  return () => {
    const now = Math.floor(clock.now() / 1000);
    if (now !== second) {
      second = now;
      text = new Date(now * 1000).toUTCString();
    }
    return text;
  };
}
