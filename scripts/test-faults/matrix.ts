/**
 * The fault matrix from a child run's outcome: per fault, whether a test caught it and which; per
 * legal profile, the false alarms. Pure: scripts/test-faults.ts feeds it the run, and matrix.test.ts
 * feeds it tables.
 *
 * A test catches a fault when it fails against the mock with that fault and not against the sound
 * mock: a test that fails anyway proves nothing about the fault (it is counted as a false alarm of
 * the sound mock instead).
 */
import { RULES, type RuleId, type RuleLevel } from '../../contracts/rules.ts';
import { FAULTS, type FaultName } from '../../mock/faults/index.ts';
import { type FaultArea, faultProject, SOUND_PROJECT, variantProject } from '../../specs/faults/areas.ts';
import { EXCLUDED, MATRIX_PROFILES } from '../../specs/faults/profiles.ts';
import { type ProjectOutcome, type RunOutcome, type TestOutcome, testName } from './outcome.ts';

export interface FaultRow {
  readonly fault: FaultName;
  readonly area: FaultArea;
  /** The rule of contracts/rules.ts it breaks, and that rule's level. */
  readonly rule: RuleId;
  readonly level: RuleLevel;
  readonly breaks: string;
  readonly caught: boolean;
  /** Tests that caught it (`file › describe › title`), in file and title order. */
  readonly caughtBy: readonly string[];
  /** Tests that ran against it (not skipped). */
  readonly ran: number;
  /** Why it counts as uncaught, where no test caught it. */
  readonly why: string | undefined;
}

export interface FalseAlarm {
  readonly test: string;
  readonly message: string;
}

export interface VariantRow {
  /** A legal profile of specs/faults/profiles.ts, or undefined for the sound mock (strict). */
  readonly variant: string | undefined;
  readonly open: string;
  readonly ran: number;
  readonly falseAlarms: readonly FalseAlarm[];
  /** Why the variant's run cannot be trusted (it did not finish), apart from false alarms. */
  readonly problem: string | undefined;
}

export interface Matrix {
  readonly faults: readonly FaultRow[];
  readonly variants: readonly VariantRow[];
  /** Errors of the run outside any test. */
  readonly errors: readonly string[];
}

export interface Selection {
  readonly faults: readonly FaultName[];
  /** Names of legal profiles (specs/faults/profiles.ts). */
  readonly variants: readonly string[];
  /** Faults that could not run, with the reason (areas.ts: specProblem). */
  readonly problems: ReadonlyMap<FaultName, string>;
}

export function buildMatrix(run: RunOutcome, selection: Selection): Matrix {
  const byProject = new Map(run.projects.map((p) => [p.project, p]));
  const sound = byProject.get(SOUND_PROJECT);
  const failsAnyway = new Set((sound?.tests ?? []).filter((t) => t.status === 'failed').map(testName));
  return {
    faults: selection.faults.map((fault) => faultRow(fault, byProject.get(faultProject(fault)), failsAnyway, selection.problems.get(fault))),
    variants: [
      ...selection.variants.map((variant) => variantRow(variant, byProject.get(variantProject(variant)))),
      ...(sound === undefined ? [] : [variantRow(undefined, sound)]),
    ],
    errors: run.errors,
  };
}

function faultRow(fault: FaultName, project: ProjectOutcome | undefined, failsAnyway: ReadonlySet<string>, problem: string | undefined): FaultRow {
  const { area, breaks, rule } = FAULTS[fault];
  const level = RULES[rule].level;
  const tests = project?.tests ?? [];
  const caughtBy = tests
    .filter((t) => t.status === 'failed' && !failsAnyway.has(testName(t)))
    .map(testName)
    .sort();
  const ran = tests.filter((t) => t.status === 'passed' || t.status === 'failed').length;
  const notRun = tests.filter((t) => t.status === 'notRun').length;
  const caught = caughtBy.length > 0;
  let why: string | undefined;
  if (!caught) {
    if (problem !== undefined) why = problem;
    else if (project === undefined) why = 'no project ran it (its area has no spec file in specs/faults/areas.ts)';
    else if (notRun > 0) why = `the run stopped before ${notRun} of its ${tests.length} tests ran`;
    else if (ran === 0) why = `no test ran: all ${tests.length} were skipped`;
    else if (tests.some((t) => t.status === 'failed')) why = `only tests that fail against the sound mock too failed (${ran} ran)`;
    else why = `all ${ran} tests of its area passed`;
  }
  return { fault, area, rule, level, breaks, caught, caughtBy, ran, why };
}

function variantRow(variant: string | undefined, project: ProjectOutcome | undefined): VariantRow {
  const tests = project?.tests ?? [];
  const notRun = tests.filter((t) => t.status === 'notRun').length;
  let problem: string | undefined;
  if (project === undefined) problem = 'its project did not run';
  else if (notRun > 0) problem = `the run stopped before ${notRun} of its ${tests.length} tests ran`;
  return {
    variant,
    open: variant === undefined ? 'none: the strict profile (the baseline of the fault matrix)' : (MATRIX_PROFILES.find((p) => p.name === variant)?.open ?? ''),
    ran: tests.filter((t) => t.status === 'passed' || t.status === 'failed').length,
    falseAlarms: tests.filter((t) => t.status === 'failed').map((t: TestOutcome) => ({ test: testName(t), message: t.message })),
    problem,
  };
}

/**
 * The checks for CI's summary line: each fault caught passes; each uncaught fault, each false alarm,
 * each variant run that did not finish and each error of the run fails.
 */
export function checkCounts(m: Matrix): { passed: number; failed: number } {
  const caught = m.faults.filter((f) => f.caught).length;
  const falseAlarms = m.variants.reduce((sum, v) => sum + v.falseAlarms.length + (v.problem === undefined ? 0 : 1), 0);
  return { passed: caught, failed: m.faults.length - caught + falseAlarms + m.errors.length };
}

/** One sentence: the matrix in numbers. */
export function headline(m: Matrix): string {
  const caught = m.faults.filter((f) => f.caught).length;
  const alarms = m.variants.reduce((sum, v) => sum + v.falseAlarms.length, 0);
  const runs = m.variants.length;
  return `${caught} of ${m.faults.length} faults caught; ${alarms} false alarm${alarms === 1 ? '' : 's'} in ${runs} run${runs === 1 ? '' : 's'} of the whole suite (legal profiles and the sound mock).`;
}

/** The matrix for a terminal: a fault's first `maxTitles` catching tests, every false alarm with its message. */
export function renderText(m: Matrix, o: { maxTitles: number }): string {
  const faultWidth = Math.max(5, ...m.faults.map((f) => f.fault.length));
  const areaWidth = Math.max(4, ...m.faults.map((f) => f.area.length));
  const indent = ' '.repeat(faultWidth + areaWidth + 12);
  const lines = [`${'fault'.padEnd(faultWidth)}  ${'area'.padEnd(areaWidth)}  caught  tests that caught it`];
  for (const f of m.faults) {
    const head = `${f.fault.padEnd(faultWidth)}  ${f.area.padEnd(areaWidth)}  ${(f.caught ? 'yes' : 'NO').padEnd(6)}  `;
    const detail = f.caught ? shortList(f.caughtBy, o.maxTitles) : [`(${f.why})`];
    lines.push(`${head}${detail[0] ?? ''}`, ...detail.slice(1).map((line) => `${indent}${line}`));
  }
  const variantWidth = Math.max(7, ...m.variants.map((v) => variantLabel(v).length));
  lines.push('', `${'profile'.padEnd(variantWidth)}  tests  false alarms`);
  for (const v of m.variants) {
    const problem = v.problem === undefined ? '' : `  (${v.problem})`;
    lines.push(`${variantLabel(v).padEnd(variantWidth)}  ${String(v.ran).padStart(5)}  ${v.falseAlarms.length}${problem}`);
  }
  const alarms = m.variants.flatMap((v) => v.falseAlarms.map((a) => ({ v, a })));
  if (alarms.length > 0) lines.push('', 'false alarms:');
  for (const { v, a } of alarms) lines.push(`- ${variantLabel(v)}: ${a.test}`, ...a.message.split('\n').map((line) => `    ${line}`));
  if (m.errors.length > 0) lines.push('', 'errors of the run:', ...m.errors.map((e) => `- ${e.split('\n')[0]}`));
  return lines.join('\n');
}

/**
 * docs/fault-matrix.md: the whole matrix, every catching test listed. Deterministic (no times, no
 * dates); tables hold short cells only, the lists the long titles, so the file reads well raw too.
 */
export function renderDocument(m: Matrix): string {
  const lines = [
    '# Fault matrix and legal profiles',
    '',
    '<!-- Generated by `npm run test:faults` (scripts/test-faults.ts) from its last full run: do not edit. -->',
    '',
    `${headline(m)} How to add a fault: see the README, section "Fault matrix".`,
    '',
    '## Faults',
    '',
    'Each fault of `mock/faults/catalogue.ts` breaks one rule of `contracts/rules.ts` (a contract rule fails any run, a platform',
    'rule only with LP_STRICT=1); the specs of its area (`specs/faults/areas.ts`) run against a mock with that fault. A test',
    'catches it when it fails there and passes against the sound mock.',
    '',
    '| fault | rule (level) | area | what the mock does wrong | caught | tests that caught it |',
    '|---|---|---|---|---|---|',
    ...m.faults.map(
      (f) =>
        `| \`${f.fault}\` | \`${f.rule}\` (${f.level}) | ${f.area} | ${cell(f.breaks)} | ${f.caught ? 'yes' : '**no**'} | ${f.caught ? `${f.caughtBy.length} of ${f.ran}` : cell(f.why ?? '')} |`,
    ),
    '',
    '### The tests that caught each fault',
    '',
    ...m.faults.flatMap((f) =>
      f.caught ? [`- \`${f.fault}\``, ...f.caughtBy.map((title) => `  - ${title}`)] : [`- \`${f.fault}\`: **not caught** (${f.why})`],
    ),
    '',
    '## Legal profiles',
    '',
    'Each profile of `specs/faults/profiles.ts` is a service the API document allows (the built-in platform and lenient profiles,',
    'and covering profiles that together show every value of every option); the whole contract suite (without @self and @slow',
    'tests) runs against a mock with it, and against the sound mock (strict). Any failure is a false alarm.',
    '',
    '| profile | what it does otherwise than strict | tests run | false alarms |',
    '|---|---|---|---|',
    ...m.variants.map((v) => `| ${variantCell(v)} | ${cell(v.open)} | ${v.ran} | ${falseAlarmCell(v)} |`),
    '',
    ...(EXCLUDED.length === 0
      ? ['No option value is left out of the covering profiles.']
      : [
          'Option values left out of the covering profiles because a spec refuses them although the document allows them:',
          '',
          ...EXCLUDED.map((e) => `- \`${e.option}\` ${cell(JSON.stringify(e.value))}: \`${e.spec}\` (${cell(e.why)})`),
        ]),
  ];
  const alarms = m.variants.flatMap((v) => v.falseAlarms.map((a) => ({ v, a })));
  if (alarms.length > 0) {
    lines.push('', '### False alarms', '');
    for (const { v, a } of alarms) lines.push(`- ${variantLabel(v)}: ${a.test}`, '', '  ```text', ...a.message.split('\n').map((l) => `  ${l}`), '  ```', '');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

export const README_START = '<!-- fault-matrix:start -->';
export const README_END = '<!-- fault-matrix:end -->';

/** The README's section between the markers: how to extend the matrix, and the matrix in short. */
export function renderReadmeSection(m: Matrix): string {
  return [
    README_START,
    '## Fault matrix (`npm run test:faults`)',
    '',
    '<!-- Generated by `npm run test:faults` between these markers: edit scripts/test-faults/matrix.ts, not this text. -->',
    '',
    'The suite proves that it catches every broken rule and accepts every legal service. `npm run test:faults` starts the',
    'embedded mock once per fault of `mock/faults/catalogue.ts` (each breaks one rule of `contracts/rules.ts`) and runs the specs',
    'of its area; a fault no test catches fails the run. It also runs the whole contract suite against the mock with each legal',
    'profile of `specs/faults/profiles.ts` (the built-in platform and lenient profiles, and covering profiles generated from',
    '`schemas/profile.schema.json` so that every value of every option runs); any failure there is a false alarm and fails the',
    'run. The sound mock (strict, no fault) runs the whole suite too: a test that fails there catches nothing, and is a false',
    'alarm. All of it is one Playwright run (`specs/faults/faults.config.ts`, a project per fault and per profile) on every core;',
    'CI runs it after `npm test`. `npm run test:faults -- <fault or profile>…` runs only those (and the sound mock), without',
    "rewriting this section; `-- --limit <minutes>` changes the time limit of the run (6 minutes, for CI's 10).",
    '',
    'When the API document changes:',
    '',
    '1. Register the new fault in `mock/faults/catalogue.ts`: the rule of `contracts/rules.ts` it breaks and its `area`.',
    '2. Implement it in `mock/faults/`, at one of the seams of `mock/seams.ts` (or by other options alone); the core of the mock',
    '   never knows faults. A new choice the document leaves open is a new option of `schemas/profile.schema.json` instead.',
    '3. A fault needs a spec that catches it: a test stating the rule, in a spec file listed for its area in',
    '   `specs/faults/areas.ts` (add the file to the row, or a row for a new area). A legal profile needs nothing: the suite',
    '   must already accept it; if it does not, the spec that fails is too strict.',
    '4. Run `npm run test:faults`: it checks the new entry with all the others and regenerates this section and',
    '   [`docs/fault-matrix.md`](docs/fault-matrix.md) (every catching test, every false alarm with its message).',
    '',
    `Current matrix: ${headline(m)} Each fault shows the first test that caught it; [\`docs/fault-matrix.md\`](docs/fault-matrix.md)`,
    'lists them all, and every false alarm with its message.',
    '',
    '| fault | rule | caught by |',
    '|---|---|---|',
    ...m.faults.map((f) => `| \`${f.fault}\` | \`${f.rule}\` | ${f.caught ? firstOf(f.caughtBy) : `**not caught**: ${cell(f.why ?? '')}`} |`),
    '',
    '| profile | what it does otherwise than strict | false alarms |',
    '|---|---|---|',
    ...m.variants.map((v) => `| ${variantCell(v)} | ${cell(v.open)} | ${falseAlarmCell(v)} |`),
    README_END,
  ].join('\n');
}

/** `text` with its marked section replaced by `section` (appended, after a blank line, where it has none). */
export function replaceSection(text: string, section: string): string {
  const start = text.indexOf(README_START);
  const end = text.indexOf(README_END);
  if (start === -1 || end === -1 || end < start) return `${text.trimEnd()}\n\n${section}\n`;
  return `${text.slice(0, start)}${section}${text.slice(end + README_END.length)}`;
}

function variantLabel(v: VariantRow): string {
  return v.variant ?? '(sound mock)';
}

function variantCell(v: VariantRow): string {
  return v.variant === undefined ? '(sound mock)' : `\`${v.variant}\``;
}

/** The count (the tests and their messages are listed under the table). */
function falseAlarmCell(v: VariantRow): string {
  const alarms = v.falseAlarms.length === 0 ? '0' : `**${v.falseAlarms.length}**`;
  return v.problem === undefined ? alarms : `${alarms} (**${cell(v.problem)}**)`;
}

/** The first catching test, and how many more docs/fault-matrix.md lists. */
function firstOf(titles: readonly string[]): string {
  const more = titles.length - 1;
  return `${cell(titles[0] ?? '')}${more > 0 ? ` (and ${more} more)` : ''}`;
}

function shortList(items: readonly string[], max: number): string[] {
  return items.length <= max ? [...items] : [...items.slice(0, max), `… and ${items.length - max} more`];
}

/** Text safe in a Markdown table cell: pipes escaped, line breaks folded. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
}
