/**
 * Exact pacing of the scripts that must stay within the key's budget (pagination, token-lifecycle, smoke): every request of the key, setup's and teardown's
 * included, on a slot of one time grid, no two on one slot (docs/load.md, "Staying within the budget: the slot grid", and "Distributed runs"). Any span of one
 * period holds at most `perPeriod` slots wherever it starts, so the plan holds in every kind of window; VUs pace on lanes of the grid, not intervals of their
 * own, so they never bunch up. Pure (time is passed in) so that Node tests check the plan against models of every kind of window.
 */
import type { Rate } from '../../contracts/duration.ts';
import { EnvError } from './env.ts';

/** The part of the whole test an instance runs: k6's execution segment, as fractions of 1. */
export type Segment = { readonly start: number; readonly end: number };

export const WHOLE_TEST: Segment = { start: 0, end: 1 };

/** `1/4`, `25%` or `0.25` as a number; undefined for anything else. */
function fraction(text: string): number | undefined {
  const [, num, den, value, percent] = /^(?:(\d+)\/(\d+)|(\d+(?:\.\d+)?)(%?))$/.exec(text.trim()) ?? [];
  if (num !== undefined) return Number(den) > 0 ? Number(num) / Number(den) : undefined;
  return value === undefined ? undefined : Number(value) / (percent ? 100 : 1);
}

/** k6's execution segment (`0:1/4`, `1/4:2/4`, `0.5:1`, `50%:100%`, or `v` for `0:v`), the whole test when absent; an EnvError where k6 would refuse it. */
export function parseSegment(text: string | null | undefined): Segment {
  if (text === undefined || text === null || text.trim() === '') return WHOLE_TEST;
  const parts = text.split(':');
  const [from, to] = parts.length === 1 ? ['0', parts[0] ?? ''] : parts;
  const [start, end] = [fraction(from ?? ''), fraction(to ?? '')];
  if (parts.length > 2 || start === undefined || end === undefined || start < 0 || end > 1 || end <= start)
    throw new EnvError(`the execution segment "${text}" is not a part of the test like 0:1/4 or 1/4:2/4.`);
  return { start, end };
}

/** Slots per period an instance may use: its segment's share of `share` of the budget, rounded down. */
export function slotsPerPeriod(rate: Rate, share: number, segment: Segment = WHOLE_TEST): number {
  // The epsilon keeps 0.8 × 20 = 16 from becoming 15.999… and losing a slot.
  return Math.floor(share * rate.requests * (segment.end - segment.start) + 1e-9);
}

export interface Grid {
  /** Milliseconds between two slots of this instance; 0 when the target does not limit (no pacing). */
  readonly slotMs: number;
  readonly perPeriod: number;
}

/** The grid of one instance; throws an EnvError with a sentence when its share leaves no request per window. */
export function planGrid(rate: Rate | null, share: number, segment: Segment = WHOLE_TEST): Grid {
  if (rate === null) return { slotMs: 0, perPeriod: Number.POSITIVE_INFINITY };
  const perPeriod = slotsPerPeriod(rate, share, segment);
  if (perPeriod < 1) {
    const part = segment.start === 0 && segment.end === 1 ? 'the run' : `this instance (execution segment ${segment.start}:${segment.end})`;
    throw new EnvError(
      `LP_RATE ${rate.requests}/${rate.period} at LP_BUDGET_SHARE ${share} leaves ${part} no whole request per window: raise LP_BUDGET_SHARE or run fewer instances.`,
    );
  }
  return { slotMs: (rate.periodSeconds * 1000) / perPeriod, perPeriod };
}

/** VUs of an instance at most: k6 rounds a segment's share of `vus` either way, so it is rounded up (an unused lane wastes slots, a shared one overspends). */
export const lanesOf = (vus: number, segment: Segment = WHOLE_TEST): number => Math.max(1, Math.ceil(vus * (segment.end - segment.start) - 1e-9));

/** One lane of a grid: the slots a VU (or setup, on a lane of its own before the VUs start) may send on. */
export class SlotPacer {
  /**
   * @param lane 0-based; VU i of an instance takes lane i - 1.
   * @param lastSlot The last slot taken (setup hands it to the VUs): the lane's next is after it; null before any.
   */
  constructor(
    readonly grid: Grid,
    readonly lane = 0,
    readonly lanes = 1,
    public lastSlot: number | null = null,
  ) {
    if (!(lane >= 0 && lane < lanes)) throw new RangeError(`lane ${lane} is not one of ${lanes} lanes`);
  }

  /** Takes the lane's first free slot at or after `notBeforeMs`: when to send (epoch ms), or without a limit `notBeforeMs` itself. */
  take(notBeforeMs: number): number {
    if (this.grid.slotMs === 0) return notBeforeMs;
    let slot = Math.max((this.lastSlot ?? Number.NEGATIVE_INFINITY) + 1, Math.ceil(notBeforeMs / this.grid.slotMs));
    slot += (((this.lane - slot) % this.lanes) + this.lanes) % this.lanes;
    this.lastSlot = slot;
    return slot * this.grid.slotMs;
  }
}
