/**
 * Steps of the report, so that a failure is located at the spec line that asked for the response and a test's report shows each request with the rules judged
 * on it.
 *
 * `boxed(title, body)` makes the function a spec calls (`api.list`, `tokens.issue`, a walk, a budget spend): it opens a boxed step (Playwright's `{ box: true
 * }`), which records the stack minus the frame that opened it. That frame is the wrapper made here, so the stack starts at whoever called the wrapper: the
 * spec, when a spec called it. Steps and expectations nested inside, however deep, take the outermost boxed step's stack, so every failure inside is reported
 * at that spec line. The wrapper must call `test.step` itself and be async and await it: a helper between them would be the caller recorded, and a bare `return
 * test.step(…)` from a non-async function loses the async stack.
 *
 * The harness also runs outside any test (a worker fixture's teardown, harness/profile/cli.ts, the preflight): there `test.step` throws, so the body is called
 * directly.
 */
import path from 'node:path';
import { test } from '@playwright/test';

const HARNESS_DIR = path.resolve(__dirname, '..');
const NODE_MODULES = `${path.sep}node_modules${path.sep}`;

const frames = (stack: string | undefined): string[] => (stack ?? '').split('\n').filter((line) => line.trimStart().startsWith('at '));

/**
 * `stack`'s frames outside the harness and node_modules (async frames included), so that a rule broken inside the harness is located where the test called in;
 * the whole stack when none is (the harness run from a script, a chain of promises that lost its async frames).
 */
export function testFrames(stack: string | undefined): string {
  const all = frames(stack);
  const own = all.filter((f) => !f.includes(HARNESS_DIR) && !f.includes(NODE_MODULES) && !f.includes('(node:') && !f.includes(' node:'));
  return (own.length > 0 ? own : all).join('\n');
}

/** Whether a test is running in this process now (`test.info()` throws otherwise). */
function inTest(): boolean {
  try {
    test.info();
    return true;
  } catch {
    return false;
  }
}

/** A function opening a boxed step titled `title(...args)` around `body(...args)`: call it from a spec. */
export function boxed<A extends unknown[], R>(title: (...args: A) => string, body: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  return async (...args: A): Promise<R> => {
    if (!inTest()) return await body(...args);
    // Called by other harness code outside any box (a walk, a budget spend): a box would locate failures
    // at that harness line; unboxed, a broken rule is located by its own stack (broken-rule.ts).
    const caller = frames(new Error().stack)[1]; // [0] is this wrapper
    return await test.step(title(...args), () => body(...args), { box: !caller?.includes(HARNESS_DIR) });
  };
}

/** A step inside a boxed one (it reports at the box's line anyway), or the body alone outside a test. */
export async function step<R>(title: string, body: () => R | Promise<R>): Promise<R> {
  return inTest() ? await test.step(title, async () => await body()) : await body();
}
