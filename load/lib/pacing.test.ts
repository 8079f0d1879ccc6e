import { expect, test } from '@playwright/test';
import { parseRate, type Rate } from '../../contracts/duration.ts';
import { EnvError } from './env.ts';
import type { WindowKind } from '../../contracts/rate-limit-window.ts';
import { LimiterModel, type LimiterModelOptions } from './limiter-model.ts';
import { lanesOf, parseSegment, planGrid, type Segment, SlotPacer, slotsPerPeriod, WHOLE_TEST } from './pacing.ts';

const RATE = parseRate('20/10s') as Rate;
const WINDOWS: readonly WindowKind[] = ['first-request', 'clock-aligned', 'sliding'];

/** A small deterministic generator: the runs are replayable. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

interface Arrival {
  readonly atMs: number;
  readonly token: boolean;
}

/**
 * The requests one instance sends in `durationMs`, as they reach the target: setup (a token request
 * and a GET) on its own lane, then `vus` VUs on theirs, each request answered after a random latency
 * and followed by a random pause; `offsetMs` is how far the instance's clock is from the target's.
 */
function instanceArrivals(o: {
  segment: Segment;
  vus: number;
  share: number;
  startMs: number;
  durationMs: number;
  offsetMs: number;
  rand: () => number;
}): Arrival[] {
  const grid = planGrid(RATE, o.share, o.segment);
  const arrivals: Arrival[] = [];
  const latency = () => 1 + o.rand() * 20;
  const setup = new SlotPacer(grid);
  let now = o.startMs;
  for (const token of [true, false]) {
    const at = setup.take(now);
    arrivals.push({ atMs: at + latency() - o.offsetMs, token });
    now = at + 2 * latency();
  }
  const lanes = lanesOf(o.vus, o.segment);
  for (let lane = 0; lane < lanes; lane++) {
    const pacer = new SlotPacer(grid, lane, lanes, setup.lastSlot);
    let ready = now;
    while (ready < o.startMs + o.durationMs) {
      const at = pacer.take(ready);
      arrivals.push({ atMs: at + latency() - o.offsetMs, token: false });
      ready = at + 2 * latency() + (o.rand() < 0.2 ? o.rand() * 3000 : 0);
    }
  }
  return arrivals;
}

/** Feeds every arrival, in the target's order, to a model limiter; returns the 429s. */
function refusals(arrivals: readonly Arrival[], options: LimiterModelOptions): number {
  const model = new LimiterModel(options);
  let refused = 0;
  for (const a of [...arrivals].sort((x, y) => x.atMs - y.atMs)) {
    if (a.token) model.token(a.atMs);
    else if (model.request(a.atMs).status === 429) refused++;
  }
  return refused;
}

test.describe('the grid', () => {
  test('slots per period: the share of the budget, rounded down, split by execution segment', () => {
    expect(slotsPerPeriod(RATE, 0.8)).toBe(16);
    expect(slotsPerPeriod(RATE, 0.8, parseSegment('0:1/4'))).toBe(4);
    expect(slotsPerPeriod(RATE, 0.8, parseSegment('0:0.7'))).toBe(11);
    expect(slotsPerPeriod(RATE, 0.8, parseSegment('0.7:1'))).toBe(4);
    expect(planGrid(RATE, 0.8)).toEqual({ perPeriod: 16, slotMs: 625 });
    expect(planGrid(null, 0.8).slotMs).toBe(0);
    expect(() => planGrid(RATE, 0.8, parseSegment('0:1/32'))).toThrow(EnvError);
    expect(() => planGrid(RATE, 0.8, parseSegment('0:1/32'))).toThrow(/leaves this instance \(execution segment 0:0.03125\) no whole request per window/);
  });

  test('execution segments as k6 writes them', () => {
    expect(parseSegment(undefined)).toEqual(WHOLE_TEST);
    expect(parseSegment('1/4:2/4')).toEqual({ start: 0.25, end: 0.5 });
    expect(parseSegment('0.5:1')).toEqual({ start: 0.5, end: 1 });
    expect(parseSegment('50%:100%')).toEqual({ start: 0.5, end: 1 });
    expect(parseSegment('1/3')).toEqual({ start: 0, end: 1 / 3 });
    expect(() => parseSegment('2/4:1/4')).toThrow(/is not a part of the test/);
  });

  test('lanes: one per VU, the split rounded up (k6 gives a segment its share rounded either way)', () => {
    expect(lanesOf(5)).toBe(5);
    expect(lanesOf(5, parseSegment('1/3:2/3'))).toBe(2);
    expect(lanesOf(8, parseSegment('0:1/4'))).toBe(2);
    expect(lanesOf(1, parseSegment('0:1/4'))).toBe(1);
  });

  test('a lane takes its own slots, never one in between; late, the next of its own', () => {
    const grid = planGrid(RATE, 0.8);
    const lane1 = new SlotPacer(grid, 1, 3, 9);
    expect(lane1.take(0)).toBe(10 * 625);
    expect(lane1.take(0)).toBe(13 * 625);
    expect(lane1.take(30 * 625 + 1)).toBe(31 * 625);
    expect(lane1.lastSlot).toBe(31);
    const unpaced = new SlotPacer(planGrid(null, 1));
    expect(unpaced.take(1234)).toBe(1234);
  });
});

test.describe('exact pacing: the planned load never exceeds the budget', () => {
  for (const window of WINDOWS) {
    for (const countsTokenRequests of [false, true]) {
      test(`5 VUs at 0.8 of 20/10s, ${window} window, token requests ${countsTokenRequests ? '' : 'not '}counted: no 429 in 5 minutes`, () => {
        for (let seed = 1; seed <= 5; seed++) {
          const rand = random(seed);
          const arrivals = instanceArrivals({
            segment: WHOLE_TEST,
            vus: 5,
            share: 0.8,
            startMs: 1_700_000_000_000 + seed * 777,
            durationMs: 300_000,
            offsetMs: 0,
            rand,
          });
          expect(refusals(arrivals, { budget: 20, periodMs: 10_000, window, countsTokenRequests })).toBe(0);
        }
      });
    }
  }

  test('the whole budget (LP_BUDGET_SHARE 1) holds too, with latency steady', () => {
    for (const window of WINDOWS) {
      const arrivals = instanceArrivals({
        segment: WHOLE_TEST,
        vus: 5,
        share: 1,
        startMs: 1_700_000_000_000,
        durationMs: 120_000,
        offsetMs: 0,
        rand: () => 0.5,
      });
      expect(refusals(arrivals, { budget: 20, periodMs: 10_000, window, countsTokenRequests: true })).toBe(0);
    }
  });

  test('why a grid: five VUs keeping each its own interval, started together, overspend a window', () => {
    const intervalMs = (5 * 10_000) / (0.8 * 20);
    const arrivals: Arrival[] = [{ atMs: 0, token: false }];
    for (let vu = 0; vu < 5; vu++) for (let i = 0; i < 8; i++) arrivals.push({ atMs: 10 + vu + i * intervalMs, token: false });
    expect(refusals(arrivals, { budget: 20, periodMs: 10_000, window: 'first-request' })).toBeGreaterThan(0);
  });
});

test.describe('distributed runs: each instance paces its segment’s share of one budget', () => {
  const splits: Record<string, readonly string[]> = {
    'k6-operator, parallelism 4': ['0:1/4', '1/4:2/4', '2/4:3/4', '3/4:1'],
    'two load zones, 70/30': ['0:0.7', '0.7:1'],
  };
  for (const [name, segments] of Object.entries(splits)) {
    for (const window of WINDOWS) {
      test(`${name}, ${window} window: the instances together stay within the budget, whatever their clocks`, () => {
        for (let seed = 1; seed <= 3; seed++) {
          const rand = random(seed * 31);
          const arrivals = segments.flatMap((text) =>
            instanceArrivals({
              segment: parseSegment(text),
              vus: 8,
              share: 0.8,
              startMs: 1_700_000_000_000 + rand() * 2000,
              durationMs: 120_000,
              offsetMs: (rand() - 0.5) * 6000,
              rand,
            }),
          );
          const total = segments.reduce((sum, text) => sum + slotsPerPeriod(RATE, 0.8, parseSegment(text)), 0);
          expect(total).toBeLessThanOrEqual(16);
          expect(refusals(arrivals, { budget: 20, periodMs: 10_000, window, countsTokenRequests: true })).toBe(0);
        }
      });
    }
  }
});
