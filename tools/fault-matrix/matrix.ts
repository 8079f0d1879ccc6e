/**
 * The fault matrix from a child run's outcome (reporter.ts), in two columns (areas.ts). Pure.
 *
 * A test catches a fault when it fails against the mock with that fault and not against the sound mock of the same column; for a platform rule, a new deviation
 * of it catches it too. In the blind column, a fault whose rule no test could check without a control plane is not seen, and says so: it counts neither way.
 *
 * Every error of a fault project's tests (soft ones too) must be located in specs/*.spec.ts and read `<rule id> (<level>): …`, never Playwright's bare
 * `Expected: true`: each that does not fails the run.
 */
import { markdownTable, tableCell } from '../docs/generated.ts';
import { faultCells } from '../docs/fault-matrix.ts';
import { isRuleId, RULES } from '../../contracts/rules/index.ts';
import { FAULT_NAMES, FAULTS, type FaultName } from '../../mock/faults/index.ts';
import { type Column, COLUMNS, faultProject, inColumn, SOUND_PROJECT, variantProject } from './areas.ts';
import { MATRIX_PROFILES } from './profiles.ts';

/** What the test did: `failed` is failed or timed out, whether expected (a fault project's brokenRule) or not. */
export type TestStatus = 'passed' | 'failed' | 'skipped' | 'notRun';

/** Files are relative to specs/; messages redacted, without colours, cut short. */
export interface TestOutcome {
  readonly file: string;
  /** Describe blocks and title, joined by ` › `. */
  readonly title: string;
  readonly status: TestStatus;
  /** The rules it declares (`rule` annotations), and those of its platform deviations. */
  readonly rules: readonly string[];
  readonly deviations: readonly string[];
  /** Each error of its run, soft failures included, whatever its status; `file` is empty when Playwright gave it no location. */
  readonly failures: ReadonlyArray<{ readonly file: string; readonly line: number; readonly message: string }>;
}

export interface RunOutcome {
  readonly status: 'passed' | 'failed' | 'timedout' | 'interrupted';
  readonly projects: ReadonlyArray<{ readonly project: string; readonly tests: readonly TestOutcome[] }>;
  /** Errors outside any test (a config that did not load, a worker that crashed). */
  readonly errors: readonly string[];
}

type ProjectOutcome = RunOutcome['projects'][number];

/** `file › describe › title`, how the matrix names a test. */
const testName = (t: TestOutcome) => `${t.file} › ${t.title}`;
/** Tests that ran: passed, failed, or skipped after reporting a deviation (a wait too long to make, once the answer that asked for it was judged). */
const ran = (tests: readonly TestOutcome[]) => tests.filter((t) => t.status === 'passed' || t.status === 'failed' || t.deviations.length > 0).length;
const stopped = (tests: readonly TestOutcome[]) => {
  const notRun = tests.filter((t) => t.status === 'notRun').length;
  return notRun > 0 ? `the run stopped before ${notRun} of its ${tests.length} tests ran` : undefined;
};

const RULE_HEAD = /^(\S+) \((contract|platform)\): /;

/** What is wrong with one failure's form, or undefined when it reads as the rule at the spec's line. */
export function formProblem(site: TestOutcome['failures'][number]): string | undefined {
  const problems: string[] = [];
  if (!/^[^/]+\.spec\.ts$/.test(site.file)) problems.push(site.file === '' ? 'has no location' : `is located in ${site.file}:${site.line}, not a spec file`);
  const head = RULE_HEAD.exec(site.message);
  if (head === null || !isRuleId(head[1] ?? '')) problems.push('does not start with a rule id and level');
  if (site.message.includes('Expected: true')) problems.push('says "Expected: true"');
  return problems.length === 0 ? undefined : `${problems.join(', ')}: ${site.message.split('\n')[0] ?? ''}`;
}

const FAULT_PROJECTS = new Set(FAULT_NAMES.flatMap((name) => COLUMNS.map((column) => inColumn(faultProject(name), column))));

/** Every failure of a fault project not in the rule's form, in the run's order: the project, the test, what is wrong and its first line. */
function misreports(run: RunOutcome) {
  return run.projects
    .filter((p) => FAULT_PROJECTS.has(p.project))
    .flatMap((p) =>
      p.tests.flatMap((t) =>
        t.failures.flatMap((site) => {
          const problem = formProblem(site);
          return problem === undefined ? [] : [{ project: p.project, test: testName(t), problem }];
        }),
      ),
    );
}

/** How one column saw a fault (the fault rows), and how each legal profile and the sound mock fared (the variant rows). */
export type Matrix = ReturnType<typeof buildMatrix>;
export type Catch = ReturnType<typeof catchOf>;

/** `variants` are names of legal profiles. */
export function buildMatrix(run: RunOutcome, selection: { faults: readonly FaultName[]; variants: readonly string[] }) {
  const byProject = new Map(run.projects.map((p) => [p.project, p]));
  // What the sound mock of each column did anyway (a failing test by name, a deviation as name#rule) catches nothing.
  const baselines = new Map(
    COLUMNS.map((column) => {
      const tests = byProject.get(inColumn(SOUND_PROJECT, column))?.tests ?? [];
      return [
        column,
        new Set(tests.flatMap((t) => [...(t.status === 'failed' ? [testName(t)] : []), ...t.deviations.map((rule) => `${testName(t)}#${rule}`)])),
      ];
    }),
  );
  return {
    faults: selection.faults.map((fault) => ({
      fault,
      columns: Object.fromEntries(
        COLUMNS.map((column) => [column, catchOf(fault, column, byProject.get(inColumn(faultProject(fault), column)), baselines.get(column) as Set<string>)]),
      ) as Record<Column, Catch>,
    })),
    variants: COLUMNS.flatMap((column) => [
      ...selection.variants.map((variant) => variantRow(variant, column, byProject.get(inColumn(variantProject(variant), column)))),
      ...(byProject.has(inColumn(SOUND_PROJECT, column)) ? [variantRow(undefined, column, byProject.get(inColumn(SOUND_PROJECT, column)))] : []),
    ]),
    errors: run.errors,
    misreported: misreports(run),
  };
}

/** `caughtBy`: sorted test names; `ran`: tests run (not skipped); `unseen` (blind only): no test checking the rule ran; `why`: why uncaught (or unseen). */
function catchOf(fault: FaultName, column: Column, project: ProjectOutcome | undefined, baseline: Set<string>) {
  const { rule } = FAULTS[fault];
  const platform = RULES[rule].level === 'platform';
  const tests = project?.tests ?? [];
  const catches = (t: TestOutcome) =>
    (t.status === 'failed' && !baseline.has(testName(t))) || (platform && t.deviations.includes(rule) && !baseline.has(`${testName(t)}#${rule}`));
  const caughtBy = tests.filter(catches).map(testName).sort();
  const count = ran(tests);
  const cut = stopped(tests);
  const caught = caughtBy.length > 0;
  const checkedRule = ran(tests.filter((t) => t.rules.includes(rule))) > 0;
  const unseen = !caught && column === 'blind' && project !== undefined && cut === undefined && !checkedRule;
  let why: string | undefined;
  if (!caught) {
    if (project === undefined) why = `no test of the contract suite declares ${rule} (its tag @${rule})`;
    else if (cut !== undefined) why = cut;
    else if (unseen) why = `not visible without a control plane: every test that checks ${rule} needs one (or LP_FULL=1)`;
    else if (count === 0) why = `no test ran: all ${tests.length} were skipped`;
    else if (tests.some((t) => t.status === 'failed')) why = `only tests that fail against the sound mock too failed (${count} ran)`;
    else why = `all ${count} tests that state ${rule} passed`;
  }
  return { caught, caughtBy: caughtBy as readonly string[], ran: count, unseen, why };
}

/** `variant`: a legal profile (profiles.ts), or undefined for the sound mock; `problem`: why the run cannot be trusted (it did not finish), apart from false alarms. */
function variantRow(variant: string | undefined, column: Column, project: ProjectOutcome | undefined) {
  const tests = project?.tests ?? [];
  return {
    variant,
    column,
    open: variant === undefined ? 'none: the strict profile (the baseline of the fault matrix)' : (MATRIX_PROFILES.find((p) => p.name === variant)?.open ?? ''),
    ran: ran(tests),
    falseAlarms: tests.filter((t) => t.status === 'failed').map((t) => ({ test: testName(t), message: t.failures.map((f) => f.message).join('\n') })),
    problem: project === undefined ? 'its project did not run' : stopped(tests),
  };
}

/**
 * CI's summary line: each fault caught in a column passes, a fault the blind column cannot see is skipped; each uncaught fault, false alarm, unfinished run,
 * error of the run and misreport fails.
 */
export function checkCounts(m: Matrix): { passed: number; failed: number; skipped: number } {
  const cells = m.faults.flatMap((f) => COLUMNS.map((c) => f.columns[c]));
  const caught = cells.filter((c) => c.caught).length;
  const unseen = cells.filter((c) => c.unseen).length;
  const falseAlarms = m.variants.reduce((sum, v) => sum + v.falseAlarms.length + (v.problem === undefined ? 0 : 1), 0);
  return { passed: caught, failed: cells.length - caught - unseen + falseAlarms + m.errors.length + m.misreported.length, skipped: unseen };
}

export function headline(m: Matrix): string {
  const inColumnOf = (column: Column) => {
    const cells = m.faults.map((f) => f.columns[column]);
    const caught = cells.filter((c) => c.caught).length;
    const unseen = cells.filter((c) => c.unseen).length;
    const alarms = m.variants.filter((v) => v.column === column).reduce((sum, v) => sum + v.falseAlarms.length, 0);
    const seen = column === 'blind' ? ` of the ${m.faults.length - unseen} visible without a control plane` : '';
    return `${column}: ${caught}${seen} of ${m.faults.length} faults caught, ${alarms} false alarm${alarms === 1 ? '' : 's'}`;
  };
  const runs = m.variants.length;
  return `${COLUMNS.map(inColumnOf).join('; ')} (${runs} run${runs === 1 ? '' : 's'} of the whole suite: legal profiles and the sound mock).`;
}

/**
 * The matrix in Markdown: tables hold short cells, lists the long titles. reports/faults/fault-matrix.md (never tracked) holds it whole; the terminal gets it
 * without the list of every catching test and without what each profile does (docs/fault-matrix.md lists that), so that each row fits a line.
 */
export function renderReport(m: Matrix, o: { whole: boolean } = { whole: true }): string {
  const cellOf = (c: Catch) =>
    c.caught ? `yes (${c.caughtBy.length} of ${c.ran})` : c.unseen ? `n/a: ${tableCell(c.why ?? '')}` : `**no**: ${tableCell(c.why ?? '')}`;
  const variantLabel = (v: Matrix['variants'][number]) => `${v.variant ?? '(sound mock)'}${v.column === 'blind' ? ' (blind)' : ''}`;
  const alarmCell = (v: Matrix['variants'][number]) => {
    const alarms = v.falseAlarms.length === 0 ? '0' : `**${v.falseAlarms.length}**`;
    return v.problem === undefined ? alarms : `${alarms} (**${tableCell(v.problem)}**)`;
  };
  const lines = [
    '# Fault matrix: the last run of `npm run test:faults`',
    '',
    headline(m),
    '',
    'What each fault and profile is, and how to add one: docs/fault-matrix.md.',
    '',
    '## Faults',
    '',
    ...markdownTable(
      ['fault', 'rule (level)', 'area', 'what the mock does wrong', 'with control plane', 'blind'],
      m.faults.map((f) => [...faultCells(f.fault), cellOf(f.columns.control), cellOf(f.columns.blind)]),
    ),
  ];
  if (o.whole) {
    lines.push('', '### The tests that caught each fault', '');
    for (const f of m.faults)
      for (const column of COLUMNS) {
        const c = f.columns[column];
        if (c.caught) lines.push(`- \`${f.fault}\` (${column})`, ...c.caughtBy.map((title) => `  - ${title}`));
        else lines.push(`- \`${f.fault}\` (${column}): not caught (${c.why})`);
      }
  }
  lines.push(
    '',
    '## Legal profiles',
    '',
    ...markdownTable(
      ['profile', 'column', ...(o.whole ? ['what it does otherwise than strict'] : []), 'tests run', 'false alarms'],
      m.variants.map((v) => [
        v.variant === undefined ? '(sound mock)' : `\`${v.variant}\``,
        v.column,
        ...(o.whole ? [tableCell(v.open)] : []),
        String(v.ran),
        alarmCell(v),
      ]),
    ),
  );
  const alarms = m.variants.flatMap((v) => v.falseAlarms.map((a) => ({ v, a })));
  if (alarms.length > 0) {
    lines.push('', '### False alarms', '');
    for (const { v, a } of alarms) lines.push(`- ${variantLabel(v)}: ${a.test}`, '', '  ```text', ...a.message.split('\n').map((l) => `  ${l}`), '  ```', '');
  }
  if (m.errors.length > 0) lines.push('', '### Errors of the run', '', ...m.errors.map((e) => `- ${e.split('\n')[0]}`));
  if (m.misreported.length > 0) {
    lines.push('', `### Failures not reported as the rule at the spec's line (${m.misreported.length})`, '');
    for (const r of m.misreported) lines.push(`- ${r.project}: ${r.test}`, `    ${r.problem}`);
  }
  return `${lines.join('\n').trimEnd()}\n`;
}
