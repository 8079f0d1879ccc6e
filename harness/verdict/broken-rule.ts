/**
 * A broken rule as an Error: named `<rule id> (<level>)`, so that Playwright reports it as
 * `<rule id> (<level>): <expected, got, the request>`, the first line the fault matrix and
 * harness/report/coverage.ts read a rule from. Thrown by the `toHoldRule` matcher (matchers.ts) and by
 * the harness where a broken rule stops the test (a token the target does not hand out).
 */
import { RULES, type RuleId } from '../../contracts/rules/index.ts';
import { testFrames } from './frames.ts';

export class BrokenRule extends Error {
  readonly rule: RuleId;

  constructor(rule: RuleId, message: string) {
    super(message);
    this.rule = rule;
    this.name = `${rule} (${RULES[rule].level})`;
    // Located at the test's line even outside a boxed step (a spec judging a rule itself); inside one,
    // Playwright puts the box's stack in its place.
    this.stack = `${this.name}: ${message}\n${testFrames(this.stack)}`;
  }
}
