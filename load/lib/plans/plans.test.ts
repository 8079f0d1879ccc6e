import { expect, test } from '@playwright/test';
import { DEFAULT_RATE } from '../../../contracts/limits.ts';
import { EnvError } from '../env.ts';
import { METRICS } from '../metrics.ts';
import { compareRate, scopedLists } from './common.ts';
import { paginationOptions, paginationPlan } from './pagination.ts';
import { bucketOf, plotPlan, probeOptions, probePlan } from './rate-limit.ts';
import { smokeOptions, smokePlan } from './smoke.ts';
import { LIFECYCLE_REQUESTS, lifecycleOptions, lifecyclePlan } from './token-lifecycle.ts';

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
    expect(compareRate(FAST, header('10s', 10, 19))).toBeUndefined();
    expect(compareRate(FAST, header('10s', 10, 3))).toBeUndefined();
  });
  test('a different period stops the run; a larger budget is reported', () => {
    expect(compareRate(FAST, header('1m', 60, 19))).toEqual({
      fatal: true,
      reason: "X-Rate-Limit-Limit says the period is 1m but LP_RATE 20/10s says 10s: set LP_RATE to the target's rate.",
    });
    expect(compareRate(FAST, header('10s', 10, 199))).toMatchObject({
      fatal: false,
      reason: expect.stringMatching(/allows a budget of at least 200 but LP_RATE 20\/10s says 20/),
    });
  });
});

test.describe('scopes: no script calls a list the key’s scopes do not cover', () => {
  const cases = [
    { scopes: ['content:read', 'users:read'], held: ['listContent', 'listUsers'], skipped: 0 },
    { scopes: ['content:write'], held: ['listContent'], skipped: 1 },
    { scopes: ['users:write'], held: ['listUsers'], skipped: 1 },
    { scopes: ['groups:read'], held: [], skipped: 2 },
  ];
  for (const c of cases) {
    test(`${c.scopes.join(',')}: ${c.held.join(', ') || 'nothing'}`, () => {
      const scoped = scopedLists(c.scopes, 'smoke');
      expect(scoped.held.map((e) => e.id)).toEqual(c.held);
      expect(scoped.skipped).toHaveLength(c.skipped);
    });
  }

  test('a content-only key: pagination walks content only, smoke leaves users out, both say so', () => {
    const env = { LP_RATE: '20/10s', LP_SCOPES: 'content:read' };
    expect(paginationPlan(env).lists.map((e) => e.id)).toEqual(['listContent']);
    expect(paginationPlan(env).skipped).toEqual([
      'pagination: LP_SCOPES content:read holds neither users:read nor users:write, so GET /api/v2/users is left out.',
    ]);
    expect(smokePlan(env).lists.map((e) => e.id)).toEqual(['listContent']);
    expect(lifecyclePlan(env).list?.id).toBe('listContent');
    expect(() => paginationPlan({ LP_SCOPES: 'groups:read' })).toThrow(/there is nothing to walk/);
    expect(lifecyclePlan({ LP_SCOPES: 'groups:read' })).toMatchObject({
      list: undefined,
      skipped: expect.arrayContaining([expect.stringMatching(/only issues a token and logs out/)]),
    });
  });

  test('both scopes: three content walks to one users walk', () => {
    expect(paginationPlan({}).lists.map((e) => e.id)).toEqual(['listContent', 'listContent', 'listContent', 'listUsers']);
  });
});

test.describe('the paced plans', () => {
  test('pagination: constant VUs on the grid, refusing plans that would outlive a snapshot', () => {
    const plan = paginationPlan({ LP_RATE: '20/10s', LP_VUS: '2', LP_PAGE_LIMIT: '25', LP_EXPECTED_ITEMS: '250' });
    expect(plan).toMatchObject({ vus: 2, limit: 25, durationSeconds: 30, expectedItems: 250, stopAfter: undefined, grid: { perPeriod: 16, slotMs: 625 } });
    expect(plan.intervalSeconds).toBeCloseTo(1.25, 5);
    const options = paginationOptions(plan);
    expect(options.scenarios.walkers).toMatchObject({ executor: 'constant-vus', vus: 2, duration: '30s' });
    expect(options.thresholds[METRICS.rateLimited]).toEqual(['count==0']);
    expect(() => paginationPlan({ LP_VUS: '500' })).toThrow(/lower LP_VUS/);
    expect(() => paginationPlan({ LP_PAGE_LIMIT: '1001' })).toThrow('LP_PAGE_LIMIT must be a whole number from 1 to 1000, got "1001".');
    expect(() => paginationPlan({ LP_EXPECTED_ITEMS: '5', LP_MAX_PAGES: '2' })).toThrow(/exclude each other/);
    expect(() => paginationPlan({ LP_DURATION: '90 seconds' })).toThrow('LP_DURATION must be a period like 90s, 2m, 12h or 60d, got "90 seconds".');
  });

  test('token lifecycle: four slots per lifecycle, the token request counted', () => {
    const plan = lifecyclePlan({ LP_RATE: '20/10s' });
    expect(LIFECYCLE_REQUESTS).toBe(4);
    expect(plan).toMatchObject({ vus: 5, durationSeconds: 30, grid: { perPeriod: 16 } });
    expect(lifecycleOptions(plan).scenarios.lifecycles).toMatchObject({ executor: 'constant-vus', vus: 5, duration: '30s' });
    expect(() => lifecyclePlan({ LP_RATE: '1/10s' })).toThrow(/no whole request per window/);
  });

  test('smoke: one VU, a few iterations', () => {
    const plan = smokePlan({ LP_ITERATIONS: '2', LP_RATE: '20/10s' });
    expect(smokeOptions(plan).scenarios.smoke).toEqual({ executor: 'per-vu-iterations', vus: 1, iterations: 2, maxDuration: '10m' });
    expect(plan.grid.slotMs).toBe(625);
  });
});
