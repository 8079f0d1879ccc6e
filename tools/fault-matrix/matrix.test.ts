import { expect, test } from '@playwright/test';
import { FAULTS, type FaultName } from '../../mock/faults/index.ts';
import { faultProject, inColumn, SOUND_PROJECT, variantProject } from './areas.ts';
import { MATRIX_PROFILES } from './profiles.ts';
import { buildMatrix, type Catch, checkCounts, formProblem, type Matrix, renderReport } from './matrix.ts';
import type { RunOutcome, TestOutcome, TestStatus } from './matrix.ts';

const t = (title: string, status: TestStatus, message = '', more: Partial<TestOutcome> = {}): TestOutcome => ({
  file: 'x.spec.ts',
  title,
  status,
  rules: [],
  deviations: [],
  failures: status === 'failed' ? [{ file: 'x.spec.ts', line: 1, message: `content.type (contract): ${message}` }] : [],
  ...more,
});
const project = (name: string, tests: TestOutcome[]) => ({ project: name, tests });
const run = (projects: RunOutcome['projects'], status: RunOutcome['status'] = 'failed'): RunOutcome => ({ status, projects, errors: [] });

const SOUND = project(SOUND_PROJECT, [t('a', 'passed'), t('b', 'passed'), t('flaky on every mock', 'failed', 'boom')]);

test.describe('a fault', () => {
  const cases: { description: string; tests: TestOutcome[] | undefined; caughtBy: string[]; why: RegExp | undefined }[] = [
    {
      description: 'is caught by the tests that fail against it',
      tests: [t('b', 'failed'), t('a', 'failed'), t('c', 'passed')],
      caughtBy: ['x.spec.ts › a', 'x.spec.ts › b'],
      why: undefined,
    },
    {
      description: 'is not caught by a test that fails against the sound mock too',
      tests: [t('flaky on every mock', 'failed'), t('a', 'passed')],
      caughtBy: [],
      why: /sound mock too/,
    },
    {
      description: 'is uncaught when every test passed',
      tests: [t('a', 'passed'), t('b', 'skipped')],
      caughtBy: [],
      why: /all 1 tests that state token.response passed/,
    },
    { description: 'is uncaught when every test was skipped', tests: [t('a', 'skipped')], caughtBy: [], why: /no test ran/ },
    {
      description: 'is uncaught when the run stopped first',
      tests: [t('a', 'passed'), t('b', 'notRun')],
      caughtBy: [],
      why: /stopped before 1 of its 2 tests/,
    },
    {
      description: 'is uncaught, with the reason, when no test declares its rule',
      tests: undefined,
      caughtBy: [],
      why: /no test of the contract suite declares token.response/,
    },
  ];
  for (const c of cases) {
    test(c.description, () => {
      const fault: FaultName = 'token-type-not-bearer';
      const projects = [SOUND, ...(c.tests ? [project(faultProject(fault), c.tests)] : [])];
      const row = buildMatrix(run(projects), { faults: [fault], variants: [] }).faults[0]?.columns.control;
      expect(row?.caughtBy).toEqual(c.caughtBy);
      expect(row?.caught).toBe(c.caughtBy.length > 0);
      if (c.why) expect(row?.why).toMatch(c.why);
      else expect(row?.why).toBeUndefined();
    });
  }
});

test.describe('a fault of a platform rule', () => {
  const fault: FaultName = 'filter-start-date-ignored';
  const rule = FAULTS[fault].rule;

  test('is caught by a platform deviation of its rule that the sound mock does not show', () => {
    const tests = [t('a', 'passed', '', { deviations: [rule] }), t('b', 'passed', '', { deviations: ['platform.error-body'] })];
    const row = buildMatrix(run([SOUND, project(faultProject(fault), tests)]), { faults: [fault], variants: [] }).faults[0];
    expect(row?.columns.control.caughtBy).toEqual(['x.spec.ts › a']);
  });

  test('is caught by a test skipped after it reported the deviation, which counts as one that ran', () => {
    const tests = [t('a', 'skipped', '', { deviations: [rule] }), t('b', 'skipped')];
    const row = buildMatrix(run([SOUND, project(faultProject(fault), tests)]), { faults: [fault], variants: [] }).faults[0];
    expect(row?.columns.control).toMatchObject({ caughtBy: ['x.spec.ts › a'], ran: 1 });
  });

  test('is not caught by a deviation the sound mock shows too', () => {
    const sound = project(SOUND_PROJECT, [t('a', 'passed', '', { deviations: [rule] })]);
    const tests = [t('a', 'passed', '', { deviations: [rule] })];
    const row = buildMatrix(run([sound, project(faultProject(fault), tests)]), { faults: [fault], variants: [] }).faults[0];
    expect(row?.columns.control.caught).toBe(false);
  });
});

test.describe('the blind column', () => {
  const fault: FaultName = 'token-never-expires';
  const rule = FAULTS[fault].rule;

  test('reads its own projects against its own sound mock', () => {
    const projects = [
      SOUND,
      project(inColumn(SOUND_PROJECT, 'blind'), [t('a', 'failed')]),
      project(inColumn(faultProject(fault), 'blind'), [t('a', 'failed', '', { rules: [rule] }), t('c', 'failed', '', { rules: [rule] })]),
    ];
    const row = buildMatrix(run(projects), { faults: [fault], variants: [] }).faults[0];
    expect(row?.columns.blind.caughtBy).toEqual(['x.spec.ts › c']);
  });

  test('does not see a fault whose rule only skipped tests check, and counts it as skipped', () => {
    const tests = [t('a', 'skipped', '', { rules: [rule] }), t('b', 'passed', '', { rules: ['token.issuance'] })];
    const projects = [project(faultProject(fault), [t('a', 'failed', '', { rules: [rule] })]), project(inColumn(faultProject(fault), 'blind'), tests)];
    const m = buildMatrix(run(projects), { faults: [fault], variants: [] });
    expect(m.faults[0]?.columns.blind).toMatchObject({ caught: false, unseen: true, why: expect.stringMatching(/not visible without a control plane/) });
    expect(checkCounts(m)).toEqual({ passed: 1, failed: 0, skipped: 1 });
  });

  test('misses a fault whose rule a test checked and passed', () => {
    const tests = [t('a', 'passed', '', { rules: [rule] })];
    const m = buildMatrix(run([project(inColumn(faultProject(fault), 'blind'), tests)]), { faults: [fault], variants: [] });
    expect(m.faults[0]?.columns.blind).toMatchObject({ caught: false, unseen: false });
  });
});

test.describe('a legal profile', () => {
  test('lists each failing test as a false alarm with its message', () => {
    const variant = 'lenient';
    const m = buildMatrix(run([project(variantProject(variant), [t('a', 'passed'), t('b', 'failed', 'expected 200, got 400')])]), {
      faults: [],
      variants: [variant],
    });
    expect(m.variants.filter((v) => v.column === 'control')).toEqual([
      {
        variant,
        column: 'control',
        open: MATRIX_PROFILES.find((p) => p.name === variant)?.open,
        ran: 2,
        falseAlarms: [{ test: 'x.spec.ts › b', message: 'content.type (contract): expected 200, got 400' }],
        problem: undefined,
      },
    ]);
  });

  test('whose run did not finish is a problem, even without false alarms', () => {
    const variant = 'platform';
    const blind = project(inColumn(variantProject(variant), 'blind'), [t('a', 'passed')]);
    const m = buildMatrix(run([project(variantProject(variant), [t('a', 'passed'), t('b', 'notRun')]), blind], 'interrupted'), {
      faults: [],
      variants: [variant],
    });
    expect(m.variants[0]?.problem).toMatch(/stopped before 1 of its 2 tests/);
    expect(checkCounts(m)).toEqual({ passed: 0, failed: 1, skipped: 0 });
  });

  test('the sound mock is a row of its own, its failures false alarms too', () => {
    const m = buildMatrix(run([SOUND]), { faults: [], variants: [] });
    expect(m.variants.map((v) => [v.variant, v.falseAlarms.length])).toEqual([[undefined, 1]]);
  });
});

test.describe('the counts for CI', () => {
  test('pass each fault caught per column and fail each uncaught fault, false alarm and error of the run', () => {
    const caught: Catch = { caught: true, caughtBy: ['a'], ran: 1, unseen: false, why: undefined };
    const missed: Catch = { caught: false, caughtBy: [], ran: 1, unseen: false, why: 'all passed' };
    const m: Matrix = {
      faults: [
        { fault: 'type-wrong', columns: { control: caught, blind: caught } },
        { fault: 'limit-ignored', columns: { control: missed, blind: caught } },
      ],
      variants: [
        {
          variant: 'cover-1',
          column: 'control',
          open: '',
          ran: 3,
          falseAlarms: [
            { test: 'a', message: '' },
            { test: 'b', message: '' },
          ],
          problem: undefined,
        },
      ],
      errors: ['worker crashed'],
      misreported: [{ project: 'fault:type-wrong', test: 'x.spec.ts › a', problem: 'says "Expected: true"' }],
    };
    expect(checkCounts(m)).toEqual({ passed: 3, failed: 5, skipped: 0 });
  });
});

test.describe('a failure behind a fault', () => {
  const site = (file: string, message: string) => ({ file, line: 3, message });
  const cases: { description: string; file: string; message: string; problem: RegExp | undefined }[] = [
    {
      description: 'in the rule’s words at a spec line',
      file: 'content.spec.ts',
      message: 'content.type (contract): expected "content", got "contents" (GET …)',
      problem: undefined,
    },
    {
      description: 'of a platform rule under LP_STRICT=1',
      file: 'logout.spec.ts',
      message: 'platform.logout-response (platform): expected 204, got 200',
      problem: undefined,
    },
    {
      description: 'located in the harness',
      file: '../harness/verdict/verdict.ts',
      message: 'content.type (contract): …',
      problem: /located in \.\.\/harness\/verdict\/verdict\.ts:3/,
    },
    { description: 'located in a fixture', file: 'fixtures/index.ts', message: 'content.type (contract): …', problem: /located in fixtures\/index\.ts/ },
    { description: 'without a location', file: '', message: 'content.type (contract): …', problem: /has no location/ },
    {
      description: 'in Playwright’s words',
      file: 'content.spec.ts',
      message: 'Error: ids repeated\n\nExpected: true\nReceived: false',
      problem: /rule id and level, says "Expected: true"/,
    },
    {
      description: 'naming no rule of contracts/rules/index.ts',
      file: 'content.spec.ts',
      message: 'content.kind (contract): …',
      problem: /does not start with a rule id/,
    },
  ];
  for (const c of cases) {
    test(`${c.description}: ${c.problem ? 'misreported' : 'well reported'}`, () => {
      const problem = formProblem(site(c.file, c.message));
      if (c.problem === undefined) expect(problem).toBeUndefined();
      else expect(problem).toMatch(c.problem);
    });
  }

  test('covers soft failures: each error of a test, the second of a failed one and those of a test that ended skipped', () => {
    const located = site('content.spec.ts', 'content.type (contract): …');
    const failed = t('a', 'failed', '', { failures: [located, site('', 'content.type (contract): the second, soft')] });
    const skipped = t('b', 'skipped', '', { failures: [site('', 'content.type (contract): before the skip')] });
    const m = buildMatrix(run([SOUND, project(faultProject('type-wrong'), [failed, skipped])]), { faults: ['type-wrong'], variants: [] });
    expect(m.misreported.map((r) => `${r.test}: ${r.problem}`)).toEqual([
      'x.spec.ts › a: has no location: content.type (contract): the second, soft',
      'x.spec.ts › b: has no location: content.type (contract): before the skip',
    ]);
  });

  test('is listed by test, for fault projects only, and fails the run', () => {
    const bad = t('a', 'failed', '', { failures: [site('../harness/walks/list-walk.ts', 'Error: boom')] });
    const m = buildMatrix(
      run([
        SOUND,
        project(faultProject('type-wrong'), [bad]),
        project(inColumn(faultProject('type-wrong'), 'blind'), [t('a', 'failed')]),
        project(variantProject('cover-1'), [bad]),
      ]),
      { faults: ['type-wrong'], variants: [] },
    );
    expect(m.misreported).toEqual([{ project: 'fault:type-wrong', test: 'x.spec.ts › a', problem: expect.stringMatching(/^is located in \.\.\/harness/) }]);
    expect(renderReport(m, { whole: false })).toContain("### Failures not reported as the rule at the spec's line (1)\n\n- fault:type-wrong: x.spec.ts › a");
  });
});

test.describe('the generated text', () => {
  const matrix = buildMatrix(
    run([
      SOUND,
      project(faultProject('type-wrong'), [t('holds | pipes', 'failed', 'line 1\nline 2')]),
      project(variantProject('platform'), [t('b', 'failed', 'why')]),
    ]),
    { faults: ['type-wrong', 'limit-ignored'], variants: ['platform'] },
  );

  test('the report lists each catching test per column and each false alarm with its message', () => {
    const doc = renderReport(matrix);
    expect(doc).toContain('| `type-wrong` | `content.type` (contract) | content | content items have type contents | yes (1 of 1) |');
    expect(doc).toContain('- `type-wrong` (control)\n  - x.spec.ts › holds | pipes\n');
    expect(doc).toContain(
      '| `limit-ignored` | `content.limit` (contract) | content | limit is ignored: pages hold the default count | **no**: no test of the contract suite declares content.limit',
    );
    expect(doc).toMatch(/\| `platform` \| control \| tokens\.expiresIn "countdown", .* \| 1 \| \*\*1\*\* \|/);
    expect(doc).toContain('- platform: x.spec.ts › b\n\n  ```text\n  content.type (contract): why\n  ```');
    expect(renderReport(matrix), 'the same matrix gives the same text').toBe(doc);
  });

  test('the terminal gets the tables and the false alarms, without the list of every catching test', () => {
    const text = renderReport(matrix, { whole: false });
    expect(text).toContain('| `type-wrong` | `content.type` (contract) | content | content items have type contents | yes (1 of 1) |');
    expect(text).toContain('- platform: x.spec.ts › b');
    expect(text).not.toContain('x.spec.ts › holds | pipes');
  });
});
