/**
 * The run's bound (harness/preflight/bound.ts) once its tests are known, right after the list reporter's `Running N tests` line. The end of every run's output:
 * what it checked per rule and what not and why, what the rate limit and the tokens cost it, where the reports are, and the closing line CI reads (`N passed, N
 * failed[, N skipped][, N platform deviations]`). It writes reports/summary/<run>.json (tools/test-all.ts adds runs up), the HTML report's title and the rules
 * page beside it, each naming the run's target.
 */
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestResult } from '@playwright/test/reporter';
import { boundLine } from '../preflight/bound.ts';
import { trippedSentence } from '../run/breaker.ts';
import { readConfig } from '../run/config.ts';
import { ANNOTATIONS } from './annotations.ts';
import { countsLine, coverage, deviationsOf, type TestRecord } from './coverage.ts';
import { renderRunHtml, renderRunText } from './render.ts';

export interface SummaryReporterOptions {
  /** The run's target, named in every report. Default: none named (a config that gives none). */
  readonly target?: string;
  /** Where the html reporter writes (PLAYWRIGHT_HTML_OUTPUT_DIR wins, as it does for that reporter). Default reports/html. */
  readonly htmlDir?: string;
  /** Where the junit reporter writes (PLAYWRIGHT_JUNIT_OUTPUT_FILE wins, as it does for that reporter). Default: no JUnit file. */
  readonly junitFile?: string;
  /** Where the run's summary file goes (<dir>/<LP_SUMMARY_NAME or last>.json). Default reports/summary. */
  readonly summaryDir?: string;
}

export interface Counts {
  passed: number;
  failed: number;
  skipped: number;
  flaky: number;
  /** Platform deviations (distinct, over every test). */
  deviations?: number;
}

export function formatCounts(c: Counts): string {
  return `${c.passed} passed, ${c.failed} failed${c.skipped > 0 ? `, ${c.skipped} skipped` : ''}${(c.deviations ?? 0) > 0 ? `, ${c.deviations} platform deviations` : ''}`;
}

const TOKENS_LINE = /^\[tokens\] worker \d+: (\d+) issued, (\d+) logged out, (\d+) already ended, (\d+) not logged out/;

export default class SummaryReporter implements Reporter {
  readonly #tests = new Set<TestCase>();
  /** Issued, logged out, already ended, not logged out. */
  readonly #tokens = [0, 0, 0, 0];
  readonly #htmlDir: string;
  readonly #junitFile: string | undefined;
  #summaryFile = '';
  /** The projects' output folders, where the breaker of harness/run/breaker.ts leaves its sentence. */
  #outputDirs: string[] = [];
  /** When the run began: a report file older than that is an earlier run's, not this one's. */
  #began = Date.now();
  /** What onEnd found, printed by onExit, and the rules page it writes. */
  #printed: string[] = [];
  #page: string | undefined;

  constructor(private readonly options: SummaryReporterOptions = {}) {
    this.#htmlDir = process.env.PLAYWRIGHT_HTML_OUTPUT_DIR ?? options.htmlDir ?? path.resolve('reports', 'html');
    this.#junitFile = process.env.PLAYWRIGHT_JUNIT_OUTPUT_FILE ?? options.junitFile;
  }

  onBegin(config: FullConfig, suite: Suite): void {
    this.#outputDirs = [...new Set(config.projects.map((p) => p.outputDir))];
    this.#began = Date.now();
    const tests = suite.allTests().filter((test) => test.parent.project()?.name.startsWith('contract'));
    const tagged = (tag: string) => tests.filter((test) => test.tags.includes(tag)).length;
    if (tests.length > 0) console.log(boundLine(readConfig(), { quota: tagged('@quota'), slow: tagged('@slow') }));
  }

  onTestEnd(test: TestCase): void {
    this.#tests.add(test);
  }

  onStdOut(chunk: string | Buffer, test?: TestCase): void {
    if (test) return;
    for (const line of chunk.toString().split('\n')) {
      const m = TOKENS_LINE.exec(line.trim());
      if (m) for (let i = 0; i < 4; i++) this.#tokens[i] = (this.#tokens[i] ?? 0) + Number(m[i + 1]);
    }
  }

  async onEnd(result: FullResult): Promise<{ status?: FullResult['status'] } | undefined> {
    const tests = [...this.#tests];
    const records = tests.map(recordOf);
    const count = (...outcomes: ReturnType<TestCase['outcome']>[]) => tests.filter((test) => outcomes.includes(test.outcome())).length;
    const counts: Counts = { passed: count('expected', 'flaky'), failed: count('unexpected'), skipped: count('skipped'), flaky: count('flaky') };
    const deviations = records.flatMap((r) => r.deviations.map((d) => `${r.title}: ${d}`));
    counts.deviations = deviations.length;
    // A run that broke before or around its tests (config error, global setup, timeout) must not read as
    // green, nor one that stopped itself (harness/run/breaker.ts: its tests were skipped, its sentence said once).
    const stopped = this.#outputDirs.map(trippedSentence).find((s) => s !== undefined);
    if ((result.status !== 'passed' || stopped !== undefined) && counts.failed === 0) counts.failed = 1;
    const rules = records.some((r) => r.declared.length > 0) ? coverage(records) : undefined;
    const { target } = this.options;
    const summaryDir = this.options.summaryDir ?? path.join('reports', 'summary');
    mkdirSync(summaryDir, { recursive: true });
    this.#summaryFile = path.join(summaryDir, `${process.env.LP_SUMMARY_NAME ?? 'last'}.json`);
    const summary = {
      ...counts,
      status: result.status,
      ...(target ? { target } : {}),
      tokens: { issued: this.#tokens[0], loggedOut: this.#tokens[1], alreadyEnded: this.#tokens[2], notLoggedOut: this.#tokens[3] },
      deviationList: deviations,
      rules: rules?.map(({ id, state, why, firstFailure }) => ({ id, state, why, ...(firstFailure === undefined ? {} : { firstFailure }) })),
    };
    writeFileSync(this.#summaryFile, `${JSON.stringify(summary, null, 1)}\n`);
    const lines: string[] = [];
    if (rules) {
      // The html reporter reads its title in its own onEnd, which comes after this one's: the verdict heads the report.
      const against = target ? ` · target: ${target}` : '';
      process.env.PLAYWRIGHT_HTML_TITLE ??= `${formatCounts(counts)}${against} · rules: ${countsLine(rules)} · per rule: rules.html beside this report`;
      lines.push(`\n${renderRunText(rules)}`);
      if (deviations.length > 0) lines.push(`\nPlatform deviations (reported; LP_STRICT=1 fails them):\n${deviations.map((d) => `  ${d}`).join('\n')}`);
      const title = 'Rules of the API document: what this run checked';
      this.#page = renderRunHtml(rules, { title, deviations: deviationsOf(records), ...(target ? { target } : {}) });
    }
    const retries = records.reduce((n, r) => n + r.retries, 0);
    const waits = records.flatMap((r) => r.waits);
    if (retries + waits.length > 0) {
      const waited = waits.reduce((ms, w) => ms + Number(/(\d+) ms/.exec(w)?.[1] ?? 0), 0);
      const tests = records.filter((r) => r.retries + r.waits.length > 0).length;
      lines.push(
        `\nRate limit: ${retries} request(s) retried after 429 (Retry-After honoured), ${waits.length} wait(s) for a window to reset (${(waited / 1000).toFixed(1)} s), in ${tests} test(s); see the "${ANNOTATIONS.retry}" and "${ANNOTATIONS.wait}" annotations`,
      );
    }
    const [issued = 0, loggedOut, ended, notLoggedOut] = this.#tokens;
    const tokens = `${issued} issued, ${loggedOut} logged out, ${ended} already ended (logged out or expired by a test), ${notLoggedOut} not logged out`;
    if (issued > 0) lines.push(`\nTokens: ${tokens}`);
    if (stopped !== undefined) lines.push(`\nThe run stopped: ${stopped}`);
    if (rules) lines.push(`\nTarget: ${target ?? 'not named (the config gives the summary reporter no target)'}`);
    this.#printed = [...lines, formatCounts(counts)];
    // Skipped tests alone would exit 0: a run that stopped itself must not.
    return stopped === undefined ? undefined : { status: 'failed' };
  }

  /** After every reporter's onEnd (the html reporter's clears its folder first): the summary is the last thing the run prints, its counts the last line. */
  async onExit(): Promise<void> {
    if (this.#page !== undefined) {
      try {
        mkdirSync(this.#htmlDir, { recursive: true });
        writeFileSync(path.join(this.#htmlDir, 'rules.html'), this.#page);
      } catch {
        // No report folder to write beside (an html reporter elsewhere): the terminal and the summary file have it all.
      }
    }
    const closing = this.#printed.pop() ?? '';
    // Whatever the run held: the reports exist for a run of unit tests too (which has no target to name).
    for (const line of [...this.#printed, `${this.#page === undefined ? '\n' : ''}${this.#reportsLine()}`, closing]) console.log(line);
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

/** A test as the run saw it, with the 429 retries and rate-limit waits of every result. */
export function recordOf(test: TestCase): TestRecord & { retries: number; waits: string[] } {
  const last = test.results.at(-1) as TestResult | undefined;
  const annotations = [...test.annotations, ...(last?.annotations ?? [])];
  const of = (type: string) => [...new Set(annotations.filter((a) => a.type === type).map((a) => a.description ?? ''))];
  const outcome = test.outcome();
  const status = last === undefined ? 'did-not-run' : outcome === 'skipped' ? 'skipped' : outcome === 'unexpected' ? 'failed' : 'passed';
  const skip = annotations.find((a) => a.type === 'skip')?.description;
  // Every result's retries and waits, each once (a test's annotations repeat its last result's).
  const spent = test.results.flatMap((r) => r.annotations);
  return {
    title: `${path.basename(test.location.file)} › ${test.titlePath().slice(3).join(' › ')}`,
    declared: of(ANNOTATIONS.rule),
    needs: of(ANNOTATIONS.needs),
    checked: of(ANNOTATIONS.checked).flatMap((d) => d.split(' ')),
    status,
    ...(skip === undefined ? {} : { skipReason: skip }),
    deviations: of(ANNOTATIONS.deviation),
    failures: (last?.errors ?? []).map((e) => e.message ?? ''),
    retries: spent.filter((a) => a.type === ANNOTATIONS.retry).length,
    waits: spent.filter((a) => a.type === ANNOTATIONS.wait).map((a) => a.description ?? ''),
  };
}
