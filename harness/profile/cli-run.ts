/** `npm run profile` as a user runs it, for the tests: a child process with an environment of the test's own. */
import { spawn } from 'node:child_process';
import { SETTINGS } from '../../contracts/settings.ts';
import { ROOT, tsNodeArgs } from '../root.ts';

/** Every LP_* setting emptied, so that neither this run's nor a developer's .env reaches the child: dotenv never overrides a variable that exists. */
const NEUTRAL_ENV: Record<string, string> = Object.fromEntries(Object.keys(SETTINGS).map((name) => [name, '']));

export interface Run {
  readonly code: number | null;
  readonly output: string;
}

export function runProfile(args: readonly string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, tsNodeArgs('harness/profile/cli.ts', args), { cwd: ROOT, env: { ...process.env, ...NEUTRAL_ENV, ...env } });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk));
    child.on('exit', (code) => resolve({ code, output }));
  });
}
