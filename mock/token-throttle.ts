/**
 * Throttling of failed token requests: a fixed window opens at a client_id's first failure; once it holds the rate's failures, every token request naming that
 * client_id gets 429 with Retry-After until it ends, right credentials included (a 200 would confirm a guessed secret). A success clears the failures. Where
 * the profile limits token requests (tokens.requestLimit), the same window counts each one.
 *
 * Memory stays bounded: ended windows are swept (once per period of virtual time, and whenever the map doubles), and ids no key has are capped, oldest first,
 * in a map of their own so a flood of invented ids cannot push a real key's failures out.
 */
import type { Rate } from '../contracts/duration.ts';
import { retryAfterSeconds } from '../contracts/rate-limit-window.ts';
import type { Clock } from './clock.ts';
import type { Replies, Reply } from './http.ts';

/** Failed token requests allowed per client_id: 10 per minute. */
export const DEFAULT_TOKEN_THROTTLE: Rate = { requests: 10, periodSeconds: 60, period: '1m' };

/** Most client_ids without a key remembered at once. */
export const MAX_UNKNOWN_IDS = 10_000;

const SWEEP_FLOOR = 1024;

type Window = { readonly endMs: number; failures: number };

/** `rate`: requests counted per client_id and period; `counted`: what they are, for the 429 (default failed token requests); `isKnown`: a configured key. */
type ThrottleParts = { clock: Clock; rate: Rate; replies: Replies; isKnown: (clientId: string) => boolean; counted?: string };

export class FailureThrottle {
  readonly #known = new Map<string, Window>();
  readonly #unknown = new Map<string, Window>();
  #sweepAt = SWEEP_FLOOR;
  #nextSweepMs = 0;

  constructor(private readonly o: ThrottleParts) {}

  /** A reply refusing this client's token request outright (429), or undefined to go on. */
  admit(clientId: string): Reply | undefined {
    const window = this.#map(clientId).get(clientId);
    if (window === undefined || window.failures < this.o.rate.requests) return undefined;
    const now = this.o.clock.now();
    if (this.#over(window, now)) return undefined;
    const seconds = retryAfterSeconds(window.endMs, now);
    const description = `Too many ${this.o.counted ?? 'failed token requests'} for this client_id (${this.o.rate.requests} per ${this.o.rate.period}); retry after ${seconds} s.`;
    return this.o.replies.oauth({ status: 429, error: 'invalid_request', description }, ['Cache-Control', 'no-store', 'Retry-After', String(seconds)]);
  }

  /** The outcome of a request that named `clientId`: false for wrong credentials or a bad grant (or any request, where all count). */
  record(clientId: string, succeeded: boolean): void {
    const map = this.#map(clientId);
    if (succeeded) return void map.delete(clientId);
    const now = this.o.clock.now();
    let window = map.get(clientId);
    if (window === undefined || this.#over(window, now)) {
      if (now >= this.#nextSweepMs || this.#known.size + this.#unknown.size >= this.#sweepAt) this.#sweep(now);
      window = { endMs: now + this.o.rate.periodSeconds * 1000, failures: 0 };
      // Re-inserted, so that the map stays in order of window start: the cap drops the oldest first.
      map.delete(clientId);
      map.set(clientId, window);
      const oldest = this.#unknown.size > MAX_UNKNOWN_IDS ? this.#unknown.keys().next().value : undefined;
      if (oldest !== undefined) this.#unknown.delete(oldest);
    }
    window.failures++;
  }

  reset(): void {
    this.#known.clear();
    this.#unknown.clear();
    this.#sweepAt = SWEEP_FLOOR;
    this.#nextSweepMs = 0;
  }

  /** Client_ids with a window (ended ones included until the next sweep). */
  get size(): number {
    return this.#known.size + this.#unknown.size;
  }

  /** Ended, or opened before the clock was put back (a control-plane reset): it ends more than one period from now. */
  #over(window: Window, now: number): boolean {
    return now >= window.endMs || window.endMs - now > this.o.rate.periodSeconds * 1000;
  }

  #map(clientId: string): Map<string, Window> {
    return this.o.isKnown(clientId) ? this.#known : this.#unknown;
  }

  #sweep(now: number): void {
    for (const map of [this.#known, this.#unknown]) for (const [id, w] of map) if (now >= w.endMs) map.delete(id);
    this.#sweepAt = Math.max(SWEEP_FLOOR, 2 * this.size);
    this.#nextSweepMs = now + this.o.rate.periodSeconds * 1000;
  }
}
