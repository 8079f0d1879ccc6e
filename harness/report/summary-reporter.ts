/**
 * The end of every run's output:
 * - what the run checked of the API document, per rule, and what it did not, and why (skip sentences);
 * - what became of the tokens the workers were issued (their `[tokens]` lines, added up);
 * - the plain closing line CI reads: `N passed, N failed[, N skipped][, N platform deviations]`.
 * It writes the counts, the deviations and the rules' states to reports/summary/<run>.json (so
 * tools/test-all.ts can add up several runs), gives the HTML report a title that states the verdict
 * (read by the html reporter in its own onEnd, which comes after this one's), and writes the rules
 * page `rules.html` beside that report once it exists.
 *
 * Every one of those names the run's target (harness/report/target-description.ts, given by
 * playwright.config.ts as the `target` option), as does the JUnit file (the testsuites' name and
 * each testsuite's properties, added once the junit reporter has written it); the last lines say
 * where the reports are.
 */
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FullConfig, FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';
import { trippedSentence } from '../target/breaker.ts';
import { addSuiteProperties } from './junit-properties.ts';
import { coverage, deviationsOf, type RuleCoverage, type TestRecord } from './coverage.ts';
import { countsLine, renderRunHtml, renderRunText } from './render.ts';
import type { TargetDescription } from './target-description.ts';

export interface SummaryReporterOptions {
  /** The run's target, named in every report. Default: none named (a config that gives none). */
  readonly target?: TargetDescription;
  /** Where the html reporter writes (PLAYWRIGHT_HTML_OUTPUT_DIR wins, as it does for that reporter). Default reports/html. */
  readonly htmlDir?: string;
  /** Where the junit reporter writes (PLAYWRIGHT_JUNIT_OUTPUT_FILE wins, as it does for that reporter). Default: no JUnit file. */
  readonly junitFile?: string;
}

export interface Counts {
  passed: number;
  failed: number;
  skipped: number;
  flaky: number;
  /** Platform deviations (distinct, over every test). */
  deviations?: number;
}

export interface TokenCounts {
  issued: number;
  loggedOut: number;
  alreadyEnded: number;
  notLoggedOut: number;
}

export function formatCounts(c: Counts): string {
  return `${c.passed} passed, ${c.failed} failed${c.skipped > 0 ? `, ${c.skipped} skipped` : ''}${(c.deviations ?? 0) > 0 ? `, ${c.deviations} platform deviations` : ''}`;
}

/** The annotation types of specs/fixtures (not imported: a reporter loads without the fixtures' Playwright test). */
const RULE = 'rule';
const NEEDS = 'needs';
const CHECKED = '_rules-checked';
const DEVIATION = 'platform-deviation';
const TOKENS_LINE = /^\[tokens\] worker \d+: (\d+) issued, (\d+) logged out, (\d+) already ended, (\d+) not logged out/;

export default class SummaryReporter implements Reporter {
  readonly #tests = new Set<TestCase>();
  readonly #tokens: TokenCounts = { issued: 0, loggedOut: 0, alreadyEnded: 0, notLoggedOut: 0 };
  #rules: RuleCoverage[] | undefined;
  #records: TestRecord[] = [];
  readonly #target: TargetDescription | undefined;
  readonly #htmlDir: string;
  readonly #junitFile: string | undefined;
  #summaryFile = '';
  /** The projects' output folders, where the breaker of harness/target/breaker.ts leaves its sentence. */
  #outputDirs: string[] = [];

  constructor(options: SummaryReporterOptions = {}) {
    this.#target = options.target;
    this.#htmlDir = process.env.PLAYWRIGHT_HTML_OUTPUT_DIR ?? options.htmlDir ?? path.resolve('reports', 'html');
    this.#junitFile = process.env.PLAYWRIGHT_JUNIT_OUTPUT_FILE ?? options.junitFile;
  }

  onBegin(config: FullConfig): void {
    this.#outputDirs = [...new Set(config.projects.map((p) => p.outputDir))];
    this.#began = Date.now();
    // Read by the junit reporter in its onEnd: the name of the file's <testsuites>.
    if (this.#target) process.env.PLAYWRIGHT_JUNIT_SUITE_NAME ??= `Learning Platform API contract suite against ${this.#target.line}`;
  }

  onTestEnd(test: TestCase): void {
    this.#tests.add(test);
  }

  onStdOut(chunk: string | Buffer, test?: TestCase): void {
    if (test) return;
    for (const line of chunk.toString().split('\n')) {
      const m = TOKENS_LINE.exec(line.trim());
      if (!m) continue;
      this.#tokens.issued += Number(m[1]);
      this.#tokens.loggedOut += Number(m[2]);
      this.#tokens.alreadyEnded += Number(m[3]);
      this.#tokens.notLoggedOut += Number(m[4]);
    }
  }

  /** What onEnd found, printed by onExit. */
  #printed: string[] = [];
  /** The counts line, printed last of all. */
  #closing = '';
  /** When the run began: a report file older than that is an earlier run's, not this one's. */
  #began = Date.now();

  async onEnd(result: FullResult): Promise<{ status?: FullResult['status'] } | undefined> {
    const counts: Counts = { passed: 0, failed: 0, skipped: 0, flaky: 0, deviations: 0 };
    const records: TestRecord[] = [];
    const deviations: string[] = [];
    for (const test of this.#tests) {
      const outcome = test.outcome();
      if (outcome === 'expected') counts.passed++;
      else if (outcome === 'flaky') {
        counts.passed++;
        counts.flaky++;
      } else if (outcome === 'skipped') counts.skipped++;
      else counts.failed++;
      const record = recordOf(test);
      records.push(record);
      deviations.push(...record.deviations.map((d) => `${record.title}: ${d}`));
    }
    counts.deviations = deviations.length;
    // A run that broke before or around its tests (config error, global setup, timeout) must not read as green.
    if (result.status !== 'passed' && counts.failed === 0) counts.failed = 1;
    // The run stopped itself (harness/target/breaker.ts): its tests were skipped, the run is red, the sentence said once.
    const stopped = this.#outputDirs.map(trippedSentence).find((s) => s !== undefined);
    if (stopped !== undefined && counts.failed === 0) counts.failed = 1;

    const declaring = records.some((r) => r.declared.length > 0);
    this.#rules = declaring ? coverage(records) : undefined;
    this.#records = records;
    const name = process.env.LP_SUMMARY_NAME ?? 'last';
    const dir = path.join('reports', 'summary');
    mkdirSync(dir, { recursive: true });
    const summary = {
      ...counts,
      status: result.status,
      ...(this.#target ? { target: { line: this.#target.line, ...this.#target.facts } } : {}),
      tokens: this.#tokens,
      deviationList: deviations,
      rules: this.#rules?.map((r) => ({ id: r.id, state: r.state, why: r.why, ...(r.firstFailure === undefined ? {} : { firstFailure: r.firstFailure }) })),
    };
    this.#summaryFile = path.join(dir, `${name}.json`);
    writeFileSync(this.#summaryFile, `${JSON.stringify(summary, null, 1)}\n`);

    const lines: string[] = [];
    if (this.#rules) {
      // The html reporter reads its title in its own onEnd; this reporter comes before it in the
      // config, so the verdict heads the report.
      const against = this.#target ? ` · target: ${this.#target.line}` : '';
      process.env.PLAYWRIGHT_HTML_TITLE ??= `${formatCounts(counts)}${against} · rules: ${countsLine(this.#rules)} · per rule: rules.html beside this report`;
      lines.push(`\n${renderRunText(this.#rules)}`);
      if (deviations.length > 0) lines.push(`\nPlatform deviations (reported; LP_STRICT=1 fails them):\n${deviations.map((d) => `  ${d}`).join('\n')}`);
    }
    if (this.#tokens.issued > 0) {
      lines.push(
        `\nTokens: ${this.#tokens.issued} issued, ${this.#tokens.loggedOut} logged out, ${this.#tokens.alreadyEnded} already ended (logged out or expired by a test), ${this.#tokens.notLoggedOut} not logged out`,
      );
    }
    if (stopped !== undefined) lines.push(`\nThe run stopped: ${stopped}`);
    this.#printed = lines;
    this.#closing = formatCounts(counts);
    // Skipped tests alone would exit 0: a run that stopped itself must not.
    return stopped === undefined ? undefined : { status: 'failed' };
  }

  /** After every reporter's onEnd: the summary is the last thing the run prints, its counts the last line. */
  async onExit(): Promise<void> {
    const lines = [...this.#printed];
    if (this.#rules) {
      this.#writeRulesPage(this.#rules);
      if (this.#target) this.#addJUnitProperties(this.#target);
      lines.push(`\nTarget: ${this.#target?.line ?? 'not named (the config gives the summary reporter no target)'}`);
    }
    // Whatever the run held: the reports exist for a run of unit tests too (which has no target to name).
    lines.push(`${this.#rules ? '' : '\n'}${this.#reportsLine()}`, this.#closing);
    for (const line of lines) console.log(line);
  }

  /** After the html reporter's onEnd, which clears its folder first. */
  #writeRulesPage(rules: readonly RuleCoverage[]): void {
    try {
      mkdirSync(this.#htmlDir, { recursive: true });
      const page = renderRunHtml(rules, {
        title: 'Rules of the API document: what this run checked',
        deviations: deviationsOf(this.#records),
        ...(this.#target ? { target: this.#target } : {}),
      });
      writeFileSync(path.join(this.#htmlDir, 'rules.html'), page);
    } catch {
      // No report folder to write beside (an html reporter elsewhere): the terminal and the summary file have it all.
    }
  }

  /** After the junit reporter's onEnd, which writes its file whole. */
  #addJUnitProperties(target: TargetDescription): void {
    if (this.#junitFile === undefined || !existsSync(this.#junitFile)) return;
    const properties: Record<string, string> = { 'lp.target': target.line };
    for (const [key, value] of Object.entries(target.facts)) properties[`lp.${key}`] = value;
    try {
      writeFileSync(this.#junitFile, addSuiteProperties(readFileSync(this.#junitFile, 'utf8'), properties));
    } catch {
      // A JUnit file this process cannot rewrite keeps the target in its <testsuites> name.
    }
  }

  /** Where this run's reports are, those that exist, relative to the working directory when inside it. */
  #reportsLine(): string {
    const shown = (file: string) => {
      const relative = path.relative(process.cwd(), path.resolve(file));
      return relative.startsWith('..') || path.isAbsolute(relative) ? path.resolve(file) : relative;
    };
    const files = [path.join(this.#htmlDir, 'index.html'), path.join(this.#htmlDir, 'rules.html'), this.#junitFile, this.#summaryFile];
    // Slack of a second for file systems that keep modification times in whole seconds.
    const written = (file: string | undefined): file is string =>
      file !== undefined && file !== '' && existsSync(file) && statSync(file).mtimeMs >= this.#began - 1000;
    const present = files.filter(written).map(shown);
    return present.length > 0 ? `Reports: ${present.join(', ')}` : 'Reports: none written';
  }

  printsToStdio(): boolean {
    return true;
  }
}

function recordOf(test: TestCase): TestRecord {
  const last = test.results.at(-1) as TestResult | undefined;
  const annotations = [...test.annotations, ...(last?.annotations ?? [])];
  const of = (type: string) => [...new Set(annotations.filter((a) => a.type === type).map((a) => a.description ?? ''))];
  const outcome = test.outcome();
  const status = last === undefined ? 'did-not-run' : outcome === 'skipped' ? 'skipped' : outcome === 'unexpected' ? 'failed' : 'passed';
  const skip = annotations.find((a) => a.type === 'skip')?.description;
  return {
    title: `${path.basename(test.location.file)} › ${test.titlePath().slice(3).join(' › ')}`,
    declared: of(RULE),
    needs: of(NEEDS),
    checked: of(CHECKED).flatMap((d) => d.split(' ')),
    status,
    ...(skip === undefined ? {} : { skipReason: skip }),
    deviations: of(DEVIATION),
    failures: (last?.errors ?? []).map((e) => e.message ?? ''),
  };
}
