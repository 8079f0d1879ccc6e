/**
 * Pointed at a target that breaks one rule, the suite fails and the failure names the rule (or, for a platform rule, reports a platform deviation naming it). A
 * child run starts the embedded mock once per fault of self-check/cases.ts (and once without), runs the test that states the rule, and reports: each test must
 * fail against its fault with the expected message, and pass against the sound mock.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { JSONReport, JSONReportSuite } from '@playwright/test/reporter';
import { ANNOTATIONS } from '../../harness/report/annotations.ts';
import { CHILD_TEST_TIMEOUT_MS, runPlaywright } from '../../harness/self-check/child-run.ts';
import { expect, SELF_CHECK, test } from '../fixtures/index.ts';
import { FAULT_CASES } from './self-check/cases.ts';

type Outcome = { readonly project: string; readonly title: string; readonly status: string; readonly message: string; readonly deviations: string[] };

test.describe('the suite catches a broken rule', SELF_CHECK, () => {
  // One worker for the whole block: beforeAll's child run must happen once, not once per worker.
  test.describe.configure({ mode: 'default' });
  let outcomes: Outcome[] = [];
  let log = '';
  test.beforeAll(async () => {
    test.setTimeout(CHILD_TEST_TIMEOUT_MS);
    const work = mkdtempSync(path.join(tmpdir(), 'lp-self-check-'));
    try {
      const run = await runPlaywright({ config: 'specs/self/self-check/faults.config.ts', cwd: work, env: { LP_TARGET: 'mock' } });
      log = run.log;
      outcomes = flatten((JSON.parse(readFileSync(path.join(work, 'self-check.json'), 'utf8')) as JSONReport).suites);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
  for (const c of FAULT_CASES)
    test(`${c.fault}: "${c.title}" fails, saying so`, () => {
      const mine = outcomes.filter((o) => o.project === c.fault);
      const titles = mine.map((o) => o.title);
      expect(titles, `tests run against ${c.fault}\n${log.slice(-1500)}`).toEqual([c.title]);
      if (c.level === 'platform') {
        expect(mine[0]?.status, `outcome against ${c.fault} (a platform rule: reported, not failed)`).toBe('expected');
        expect(mine[0]?.deviations.join('\n')).toMatch(c.message);
      } else {
        expect(mine[0]?.status, `outcome against ${c.fault}`).toBe('unexpected');
        expect(mine[0]?.message).toMatch(c.message);
      }
    });
  test('the same tests pass against the mock without faults', () => {
    const sound = outcomes.filter((o) => o.project === 'no-fault');
    expect(sound.length, 'tests run against the sound mock').toBe(FAULT_CASES.length);
    const unsound = sound.filter((o) => o.status !== 'expected' || o.deviations.length > 0).map((o) => `${o.title}: ${o.message}${o.deviations.join('; ')}`);
    expect(unsound).toEqual([]);
  });
});

function flatten(suites: readonly JSONReportSuite[] | undefined): Outcome[] {
  return (suites ?? []).flatMap((suite) => [
    ...suite.specs.flatMap((spec) =>
      spec.tests.map((t) => ({
        project: t.projectName,
        title: spec.title,
        status: t.status,
        message: t.results.flatMap((r) => r.errors.map((e) => e.message)).join('\n'),
        deviations: t.results.flatMap((r) => r.annotations.filter((a) => a.type === ANNOTATIONS.deviation).map((a) => a.description ?? '')),
      })),
    ),
    ...flatten(suite.suites),
  ]);
}
