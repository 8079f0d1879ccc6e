/**
 * A broken rule as an Error: named `<rule id> (<level>)`, so that Playwright reports it as `<rule id> (<level>): <expected, got, the request>`, the first line
 * the fault matrix and harness/report/coverage.ts read a rule from. Thrown by the `toHoldRule` matcher (matchers.ts) and by the harness where a broken rule
 * stops the test (a token the target does not hand out).
 */
import { RULES, type RuleId } from '../../contracts/rules/index.ts';
import { testFrames } from './step.ts';

/**
 * A line Playwright reads as a stack frame wherever it stands, the message included: one that ends like
 * `name:12:34` (a path of fast-check, a time). Taken for the failure's location, it would hide the spec line.
 */
const FRAME_LIKE = /:\d+:\d+\)?$/;

/** `message` with a full stop after each line that would read as a stack frame. */
function unlikeFrames(message: string): string {
  return message
    .split('\n')
    .map((line) => (FRAME_LIKE.test(line) ? `${line}.` : line))
    .join('\n');
}

export class BrokenRule extends Error {
  readonly rule: RuleId;

  constructor(rule: RuleId, message: string) {
    super(unlikeFrames(message));
    this.rule = rule;
    this.name = `${rule} (${RULES[rule].level})`;
    // Located at the test's line even outside a boxed step (a spec judging a rule itself); inside one, Playwright puts the box's stack in its place.
    this.stack = `${this.name}: ${this.message}\n${testFrames(this.stack)}`;
  }
}
