/** `npm run profile` as a user runs it, for the tests: a child run with an environment of the test's own. */
import { SETTINGS } from '../../common/settings.ts';
import { type ChildRun, runNode } from '../self-check/child-run.ts';
import { ROOT, tsNodeArgs } from '../../common/root.ts';

/** Every LP_* setting emptied, so that a developer's .env does not reach the child: dotenv never overrides a variable that exists. */
const NEUTRAL_ENV: Record<string, string> = Object.fromEntries(Object.keys(SETTINGS).map((name) => [name, '']));

export function runProfile(args: readonly string[], env: Record<string, string>): Promise<ChildRun> {
  return runNode(tsNodeArgs('harness/profile/cli.ts', args), { cwd: ROOT, env: { ...NEUTRAL_ENV, ...env } });
}
