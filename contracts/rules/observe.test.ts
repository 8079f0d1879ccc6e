import { expect, test } from '@playwright/test';
import { headerLookup } from '../rate-limit.ts';
import type { Exchange } from './exchange.ts';
import { CLIENT_RULES } from './client.ts';
import { perStep, SequenceDriver } from './observe.ts';
import { RATE_LIMIT_RULES } from './rate-limit.ts';

interface Step {
  readonly n: number;
}

const exchange = (n: number): Exchange => ({
  origin: 'api',
  request: { method: 'GET', url: `/api/v2/content?n=${n}` },
  status: 200,
  header: headerLookup({}),
  body: undefined,
  text: '',
  sentMs: n,
  receivedMs: n + 1,
});

test('the driver runs every observer of its table over each step, records which ran, makes the findings at their level, then commits the step', () => {
  const committed: number[] = [];
  let computed = 0;
  const even = perStep((step: Step) => {
    computed++;
    return step.n % 2 === 0;
  });
  const rules = {
    'rate.even': { level: 'contract', observe: (step: Step) => (even(step) ? null : { expected: 'an even n', got: String(step.n) }) },
    'platform.odd': { level: 'platform', observe: (step: Step) => (even(step) ? undefined : null) },
    'rate.judged-alone': { level: 'contract' },
  } as const;
  const driver = new SequenceDriver(rules, {
    step: (e) => (e.sentMs === 0 ? undefined : { n: e.sentMs ?? 0 }),
    commit: (step: Step) => void committed.push(step.n),
  });
  // An exchange the sequence only takes in: nothing ran.
  expect(driver.observe(exchange(0))).toEqual([]);
  expect(driver.checked).toEqual([]);
  // Not applicable (undefined) is not checked; held (null) is.
  expect(driver.observe(exchange(2))).toEqual([]);
  expect(driver.checked).toEqual(['rate.even']);
  expect(driver.observe(exchange(3))).toEqual([
    { rule: 'rate.even', level: 'contract', expected: 'an even n', got: '3', request: 'GET /api/v2/content?n=3', atMs: 4 },
  ]);
  expect(driver.checked).toEqual(['rate.even', 'platform.odd']);
  expect(committed).toEqual([2, 3]);
  // Two observers, one computation per step.
  expect(computed).toBe(2);
});

test('every rate and client rule is registered with its observer', () => {
  const without = Object.entries({ ...RATE_LIMIT_RULES, ...CLIENT_RULES }).filter(([, rule]) => typeof rule.observe !== 'function');
  expect(without.map(([id]) => id)).toEqual([]);
});
