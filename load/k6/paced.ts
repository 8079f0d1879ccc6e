/**
 * Requests of the paced scripts (pagination, token-lifecycle, smoke), each sent on a slot of the grid of load/lib/pacing.ts; after a 429, nothing is sent
 * before Retry-After has passed, plus an exponential backoff with jitter (contracts/rate-limit.ts), and then again only on a slot. The grid of an instance
 * follows its k6 execution segment (k6-operator, Grafana Cloud), read here where `k6/execution` is at hand.
 */
import { sleep } from 'k6';
import exec from 'k6/execution';
import type { Rate } from '../../contracts/duration.ts';
import { DEFAULT_RETRY_POLICY, headerLookup, retryAfterTime, retryAllowedAtMs, retryDelayMs } from '../../contracts/rate-limit.ts';
import type { LoadEnv } from '../lib/env.ts';
import { type Grid, lanesOf, parseSegment, planGrid, type Segment, SlotPacer } from '../lib/pacing.ts';
import { abortTest, apiGet, type Credentials, logout, type Response, requestToken, type TokenResult } from './api.ts';

/** This instance's part of the test: its execution segment, the whole test when it has none. */
function instanceSegment(): Segment {
  const segment = exec.test.options.executionSegment as unknown;
  return parseSegment(segment === null || segment === undefined ? undefined : String(segment));
}

/** This instance's grid: its segment's share of the planned budget. Stops the run with a sentence when that is no whole request. */
export function instanceGrid(rate: Rate | null, share: number): Grid {
  try {
    return planGrid(rate, share, instanceSegment());
  } catch (error) {
    return abortTest((error as Error).message);
  }
}

/** Retries after a 429, each after Retry-After and a backoff. */
const RETRIES = 2;

export interface PacedOptions {
  /** The longest Retry-After honoured, in seconds; a longer one ends the retries: one odd header must not stall a VU for an hour. */
  readonly maxWaitSeconds: number;
  readonly onRateLimited?: (response: Response) => void;
}

/** One VU's (or setup's) requests, each on a slot of its lane. */
export class Paced extends SlotPacer {
  /** Setup's or teardown's lane by default: every slot of the instance's grid. */
  constructor(
    private readonly options: PacedOptions,
    ...lane: ConstructorParameters<typeof SlotPacer>
  ) {
    super(...lane);
  }

  /** The lane of the calling VU among the `vus` VUs of the whole test, after setup's slots. */
  static forVu(grid: Grid, vus: number, options: PacedOptions, lastSlot: number | null): Paced {
    const lanes = lanesOf(vus, instanceSegment());
    const lane = exec.vu.idInInstance - 1;
    if (lane >= lanes) abortTest(`VU ${exec.vu.idInInstance} of this instance has no lane of the ${lanes} its execution segment plans for.`);
    return new Paced(options, grid, lane, lanes, lastSlot);
  }

  /** Sleeps until the next slot of the lane at or after `notBeforeMs`. */
  private waitSlot(notBeforeMs = Date.now()): void {
    const waitMs = this.take(notBeforeMs) - Date.now();
    if (waitMs > 0) sleep(waitMs / 1000);
  }

  /** Sends `send` on a slot; after a 429, waits Retry-After and a backoff, and retries on a later slot. */
  private send(send: () => Response): Response {
    this.waitSlot();
    let sentMs = Date.now();
    let response = send();
    for (let retry = 1; response.status === 429; retry++) {
      this.options.onRateLimited?.(response);
      if (retry > RETRIES) break;
      const receivedMs = Date.now();
      const get = headerLookup(response.headers);
      const after = retryAfterTime(get('retry-after'), sentMs, receivedMs, get('date'));
      // Retry-After's instant (or nothing, when it is missing or unreadable) plus the backoff.
      const fromMs = after.ok ? retryAllowedAtMs(after.value) : receivedMs;
      // A wait longer than that is given up rather than cut short: sending early could extend the block.
      if (fromMs - receivedMs > this.options.maxWaitSeconds * 1000) break;
      this.waitSlot(fromMs + retryDelayMs(retry, 0, Math.random, DEFAULT_RETRY_POLICY));
      sentMs = Date.now();
      response = send();
    }
    return response;
  }

  get(url: string, credentials: Credentials, name: string): Response {
    return this.send(() => apiGet(url, credentials, name));
  }

  /** A token request takes a slot too: a target may count it (the document: all endpoints), and may throttle token requests: its 429 is honoured too. */
  token(env: LoadEnv, name?: string): TokenResult {
    let result: TokenResult | undefined;
    this.send(() => (result = requestToken(env, name)).response);
    return result as TokenResult;
  }

  logout(env: LoadEnv, credentials: Credentials, name?: string): Response {
    return this.send(() => logout(env, credentials, name));
  }
}
