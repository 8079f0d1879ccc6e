/**
 * The fault matrix's child run reporter: a progress line as each project finishes, and at the end every test's outcome as JSON (matrix.ts: RunOutcome) for
 * cli.ts. Messages are redacted: this is the last place to catch a credential before a CI log does.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestError, TestResult } from '@playwright/test/reporter';
import { DEFAULT_CLIENTS } from '../../mock/clients.ts';
import { ANNOTATIONS } from '../../harness/report/annotations.ts';
import { Redactor } from '../../harness/client/redact.ts';
import type { RunOutcome, TestOutcome, TestStatus } from './matrix.ts';
import type { FaultName } from '../../mock/faults/index.ts';
import { faultStated } from '../../harness/run/target.ts';
import { type Column, faultProject, inColumn } from './areas.ts';

/** Characters of a failure message kept: enough for the expectation and the request, not a whole body. */
const MESSAGE_LIMIT = 600;

export default class FaultMatrixReporter implements Reporter {
  readonly #outputFile: string;
  readonly #redactor = new Redactor();
  /** The tests of each project, a fault group's under each fault's own project name. */
  readonly #projects = new Map<string, TestCase[]>();
  readonly #projectOf = new Map<TestCase, string>();
  readonly #outcomes = new Map<TestCase, TestOutcome>();
  readonly #errors: string[] = [];
  /** Worker processes the run started: one per project at least, and another after each failing test. */
  readonly #workers = new Set<number>();
  #finished = 0;
  readonly #startMs = Date.now();
  #specsDir = '';

  constructor(options: { outputFile: string }) {
    if (!options?.outputFile) throw new Error('The fault matrix reporter needs an outputFile option (where tools/fault-matrix/cli.ts reads the outcome).');
    this.#outputFile = options.outputFile;
    // The mock's keys are public, but a message quoting one still reads as a leak to whoever scans the logs.
    for (const client of DEFAULT_CLIENTS) this.#redactor.add(client.secret);
  }

  onBegin(config: FullConfig, suite: Suite): void {
    this.#specsDir = config.projects[0]?.testDir ?? config.rootDir;
    for (const project of suite.suites) {
      const { faults = [], column = 'control' } = (project.project()?.metadata ?? {}) as { faults?: FaultName[]; column?: Column };
      // A group's project: each test under its fault's own name, the one whose rule it states, as the matrix reads them.
      for (const test of project.allTests()) {
        const fault = faultStated(faults, test.annotations);
        const name = fault === undefined ? project.title : inColumn(faultProject(fault), column);
        this.#projectOf.set(test, name);
        this.#projects.set(name, [...(this.#projects.get(name) ?? []), test]);
      }
    }
    this.#print(`${this.#projects.size} projects, ${suite.allTests().length} tests, ${config.workers} workers`);
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    if (result.workerIndex >= 0) this.#workers.add(result.workerIndex);
    this.#outcomes.set(test, this.#outcome(test, result));
    // Retries are 0: each test ends once, and the project's last one finishes it.
    const project = this.#projectOf.get(test) ?? '';
    const outcomes = (this.#projects.get(project) ?? []).map((t) => this.#outcomes.get(t)?.status);
    if (outcomes.length === 0 || outcomes.includes(undefined)) return;
    const done = `${String(++this.#finished).padStart(String(this.#projects.size).length)}/${this.#projects.size}`;
    const failed = outcomes.filter((s) => s === 'failed').length;
    this.#print(`[${done}] ${project}: ${failed} of ${outcomes.filter((s) => s !== 'skipped').length} tests failed`);
  }

  onError(error: TestError): void {
    this.#errors.push(this.#message([error]) || 'an error without a message');
  }

  onEnd(result: FullResult): void {
    const projects = [...this.#projects].map(([project, tests]) => ({ project, tests: tests.map((t) => this.#outcomes.get(t) ?? this.#outcome(t)) }));
    const outcome: RunOutcome = { status: result.status, projects, errors: this.#errors };
    mkdirSync(path.dirname(this.#outputFile), { recursive: true });
    writeFileSync(this.#outputFile, `${JSON.stringify(outcome, null, 1)}\n`);
    this.#print(`child run ${result.status} after ${this.#elapsed()}, in ${this.#workers.size} worker processes`);
  }

  printsToStdio(): boolean {
    return true;
  }

  /** What the test did (notRun without a result), not whether it was expected: a fault project expects its rule's tests to fail (_brokenRule). */
  #outcome(test: TestCase, result?: TestResult): TestOutcome {
    const status: TestStatus = result === undefined ? 'notRun' : result.status === 'skipped' || result.status === 'passed' ? result.status : 'failed';
    return {
      file: this.#relative(test.location.file),
      // The describe blocks and the title: titlePath is [root, project, file, …describes, title].
      title: test.titlePath().slice(3).join(' › '),
      status,
      rules: test.annotations.filter((a) => a.type === ANNOTATIONS.rule).map((a) => a.description ?? ''),
      // The verdict writes "<rule>: <what was seen>"; the rule id is all the matrix reads.
      deviations: [
        ...new Set((result?.annotations ?? []).filter((a) => a.type === ANNOTATIONS.deviation).map((a) => (a.description ?? '').split(':')[0]?.trim() ?? '')),
      ].filter((rule) => rule !== ''),
      // Every error, whatever the outcome: a soft failure is one even in a test then skipped ("not checked"), and must be located at a spec line too.
      failures: (result?.errors ?? []).map((e) => ({
        file: e.location ? this.#relative(e.location.file) : '',
        line: e.location?.line ?? 0,
        message: this.#message([e]).slice(0, MESSAGE_LIMIT),
      })),
    };
  }

  #relative(file: string): string {
    return path.relative(this.#specsDir, file).split(path.sep).join('/');
  }

  #message(errors: readonly TestError[]): string {
    const text = errors.map((e) => e.message ?? e.value ?? '').join('\n');
    // eslint-disable-next-line no-control-regex -- the colour codes Playwright puts in messages
    return this.#redactor.redact(text.replace(/\u001b\[[0-9;]*m/g, '')).trim();
  }

  #elapsed(): string {
    const seconds = Math.round((Date.now() - this.#startMs) / 1000);
    return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
  }

  #print(line: string): void {
    process.stdout.write(`  ${this.#elapsed()} ${line}\n`);
  }
}
