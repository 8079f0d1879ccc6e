/**
 * Which frames of a stack are the test's own: a failure is reported at the first frame Playwright
 * finds outside node_modules, and a rule broken inside the harness must be reported at the spec line
 * that asked for the response, not at the harness line that judged it.
 */
import path from 'node:path';

/** The harness's own directory. */
const HARNESS_DIR = path.resolve(__dirname, '..');
const NODE_MODULES = `${path.sep}node_modules${path.sep}`;

function frames(stack: string | undefined): string[] {
  return (stack ?? '').split('\n').filter((line) => line.trimStart().startsWith('at '));
}

function isOwn(frame: string): boolean {
  return !frame.includes(HARNESS_DIR) && !frame.includes(NODE_MODULES) && !frame.includes('(node:') && !frame.includes(' node:');
}

/**
 * `stack`'s frames outside the harness and node_modules (async frames included), so that the
 * failure is located where the test called in; the whole stack when none is (the harness run from a
 * script, a chain of promises that lost its async frames).
 */
export function testFrames(stack: string | undefined): string {
  const all = frames(stack);
  const own = all.filter(isOwn);
  return (own.length > 0 ? own : all).join('\n');
}

/** Whether the function calling the caller of this one is the harness's own code. */
export function calledFromHarness(): boolean {
  // [0] this function, [1] its caller (a wrapper of step.ts), [2] whoever called that wrapper.
  const caller = frames(new Error().stack)[2];
  return caller !== undefined && caller.includes(HARNESS_DIR);
}
