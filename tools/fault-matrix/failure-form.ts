/**
 * The form of every failure behind a fault: a failing rule is reported at the line of the spec that
 * asked for the response, in the rule's own words. Each error of a test of a fault project (soft
 * failures too, and those of a test that then ended skipped)
 * must be located in a spec file (specs/*.spec.ts, not the harness or a fixture) and read
 * `<rule id> (<level>): <expected, got, the request>`, never Playwright's bare `Expected: true`. Pure:
 * the matrix (matrix.ts) lists what breaks it, by test, and counts each as a failure of the run.
 */
import { isRuleId } from '../../contracts/rules/index.ts';
import { FAULT_NAMES } from '../../mock/faults/index.ts';
import { COLUMNS, faultProject, inColumn } from './areas.ts';
import type { FailureSite, RunOutcome } from './outcome.ts';
import { testName } from './outcome.ts';

export interface Misreport {
  readonly project: string;
  /** `file › describe › title`. */
  readonly test: string;
  /** What is wrong with the failure's form, and its first line. */
  readonly problem: string;
}

/** A failure's first line names a rule and its level: `rate.headers (contract): …`. */
const RULE_HEAD = /^(\S+) \((contract|platform)\): /;

/** What is wrong with one failure's form, or undefined when it reads as the rule at the spec's line. */
export function formProblem(site: FailureSite): string | undefined {
  const problems: string[] = [];
  if (!/^[^/]+\.spec\.ts$/.test(site.file)) problems.push(site.file === '' ? 'has no location' : `is located in ${site.file}:${site.line}, not a spec file`);
  const head = RULE_HEAD.exec(site.message);
  if (head === null || !isRuleId(head[1] ?? '')) problems.push('does not start with a rule id and level');
  if (site.message.includes('Expected: true')) problems.push('says "Expected: true"');
  if (problems.length === 0) return undefined;
  return `${problems.join(', ')}: ${site.message.split('\n')[0] ?? ''}`;
}

/** The projects of the child run that run a fault, in either column. */
const FAULT_PROJECTS = new Set(FAULT_NAMES.flatMap((name) => COLUMNS.map((column) => inColumn(faultProject(name), column))));

/** Every failure of a fault project not in the rule's form, in the run's order. */
export function misreports(run: RunOutcome): Misreport[] {
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
