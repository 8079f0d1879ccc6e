import { expect, test } from '@playwright/test';
import { DEFAULT_RATE } from '../../contracts/limits.ts';
import { EnvError } from './env.ts';
import {
  bucketOf,
  compareRate,
  lifecycleOptions,
  lifecyclePlan,
  METRICS,
  Pacer,
  paginationOptions,
  paginationPlan,
  plotPlan,
  probeOptions,
  probePlan,
  requestIntervalSeconds,
  smokeOptions,
  smokePlan,
} from './options.ts';

const FAST = { requests: 20, periodSeconds: 10, period: '10s' } as const;
const header = (period: string, periodSeconds: number, remaining: number) => ({ period, periodSeconds, remaining, resetMs: 0 });

test.describe('the probe plan', () => {
  test('20/10s: a period to start, then per window its spending, a period of Retry-After and one of rest, one window spare', () => {
    const plan = probePlan({ LP_RATE: '20/10s' });
    expect(plan).toMatchObject({ expected: { rate: FAST, explicit: true }, windows: 2, durationSeconds: 117, maxRequests: 148 });
    const options = probeOptions(plan, false);
    expect(options.scenarios.probe).toEqual({ executor: 'per-vu-iterations', vus: 1, iterations: 1, maxDuration: '127s', gracefulStop: '5s' });
    expect(options.thresholds[`${METRICS.rateFindings}{rule:rate.remaining}`]).toEqual(['count==0']);
    expect(options.thresholds[`${METRICS.rateFindings}{rule:platform.retry-after-reset}`]).toEqual(['count>=0']);
    expect(probeOptions(plan, true).thresholds[`${METRICS.rateFindings}{rule:platform.retry-after-reset}`]).toEqual(['count==0']);
    expect(options.thresholds[METRICS.rateLimited]).toEqual(['count>0']);
    expect(options.thresholds[METRICS.windowsMeasured]).toEqual(['count>0']);
    expect(options.thresholds[`${METRICS.plotRemaining}{bucket:00}`]).toEqual(['min>=0']);
  });

  test('the default rate is the document’s 200/1m, compared as a platform choice', () => {
    expect(probePlan({})).toMatchObject({ expected: { rate: DEFAULT_RATE, explicit: false } });
  });

  test('a probe needs a rate to probe', () => {
    expect(() => probePlan({ LP_RATE: '0' })).toThrow(EnvError);
  });

  test('plot buckets: whole seconds, at most 60 (plus the graceful stop), clamped', () => {
    expect(plotPlan(22)).toEqual({ bucketMs: 1000, buckets: 23 });
    expect(plotPlan(132)).toEqual({ bucketMs: 3000, buckets: 45 });
    const plan = plotPlan(22);
    expect(bucketOf(plan, -5)).toBe('00');
    expect(bucketOf(plan, 10_999)).toBe('10');
    expect(bucketOf(plan, 1_000_000)).toBe('22');
  });
});

test.describe('the target’s headers against LP_RATE', () => {
  test('agreeing headers pass', () => {
    expect(compareRate(FAST, header('10s', 10, 19), true)).toBeUndefined();
    expect(compareRate(FAST, header('10s', 10, 3), false)).toBeUndefined();
  });
  test('a different period stops the run; a larger budget, or a fresh window with a smaller one, is reported', () => {
    expect(compareRate(FAST, header('1m', 60, 19), false)).toEqual({
      fatal: true,
      reason: "X-Rate-Limit-Limit says the period is 1m but LP_RATE 20/10s says 10s: set LP_RATE to the target's rate.",
    });
    expect(compareRate(FAST, header('10s', 10, 199), false)).toMatchObject({
      fatal: false,
      reason: expect.stringMatching(/allows a budget of at least 200 but LP_RATE 20\/10s says 20/),
    });
    expect(compareRate(FAST, header('10s', 10, 9), true)).toMatchObject({
      fatal: false,
      reason: expect.stringMatching(/a budget of 10, but LP_RATE 20\/10s says 20/),
    });
  });
});

test.describe('pacing within the budget', () => {
  test('VUs together stay within the share of the rate', () => {
    expect(requestIntervalSeconds(DEFAULT_RATE, 5, 0.8)).toBeCloseTo(1.875, 5);
    expect(requestIntervalSeconds(FAST, 1, 0.8)).toBeCloseTo(0.625, 5);
    expect(requestIntervalSeconds(null, 5, 0.8)).toBe(0);
  });

  test('the pacer says how long to wait before the next request', () => {
    const pacer = new Pacer(0.5);
    expect(pacer.waitSeconds(1000)).toBe(0);
    pacer.sent(1000);
    expect(pacer.waitSeconds(1200)).toBeCloseTo(0.3, 5);
    expect(pacer.waitSeconds(2000)).toBe(0);
  });

  test('pagination: constant VUs, paced, refusing plans that would outlive a snapshot', () => {
    const plan = paginationPlan({ LP_RATE: '20/10s', LP_VUS: '2', LP_PAGE_LIMIT: '25', LP_EXPECTED_ITEMS: '250' });
    expect(plan).toMatchObject({ vus: 2, limit: 25, durationSeconds: 30, expectedItems: 250, stopAfter: undefined });
    expect(plan.intervalSeconds).toBeCloseTo(1.25, 5);
    const options = paginationOptions(plan);
    expect(options.scenarios.walkers).toMatchObject({ executor: 'constant-vus', vus: 2, duration: '30s' });
    expect(options.thresholds[METRICS.rateLimited]).toEqual(['count==0']);
    expect(() => paginationPlan({ LP_VUS: '500' })).toThrow(/lower LP_VUS/);
    expect(() => paginationPlan({ LP_PAGE_LIMIT: '1001' })).toThrow('LP_PAGE_LIMIT 1001 is outside 1 to 1000.');
    expect(() => paginationPlan({ LP_EXPECTED_ITEMS: '5', LP_MAX_PAGES: '2' })).toThrow(/exclude each other/);
    expect(() => paginationPlan({ LP_DURATION: '90 seconds' })).toThrow('LP_DURATION "90 seconds" is not a duration like 90s, 2m or 1h.');
  });

  test('token lifecycle: three api requests per cycle within the share', () => {
    const plan = lifecyclePlan({ LP_RATE: '20/10s' });
    expect(plan).toMatchObject({ arrivalRate: 5, timeUnit: '10s', durationSeconds: 30 });
    expect(lifecycleOptions(plan).scenarios.lifecycles).toMatchObject({ executor: 'constant-arrival-rate', rate: 5, timeUnit: '10s' });
    expect(() => lifecyclePlan({ LP_RATE: '2/10s' })).toThrow(/leaves no room/);
  });

  test('smoke: one VU, a few iterations', () => {
    const plan = smokePlan({ LP_ITERATIONS: '2', LP_RATE: '20/10s' });
    expect(smokeOptions(plan).scenarios.smoke).toEqual({ executor: 'per-vu-iterations', vus: 1, iterations: 2, maxDuration: '10m' });
    expect(plan.intervalSeconds).toBeCloseTo(0.625, 5);
  });
});
