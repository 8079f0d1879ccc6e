/** `npm run profile` as a user runs it, for the tests: a child process with an environment of the test's own. */
import { spawn } from 'node:child_process';
import { ROOT, tsNodeArgs } from '../root.ts';

/** LP_* a developer's .env might set, emptied: dotenv never overrides a variable that exists. */
const NEUTRAL_ENV: Record<string, string> = Object.fromEntries(
  [
    'LP_ENVIRONMENT',
    'LP_DATA_CENTER',
    'LP_ORG_HOST',
    'LP_CONTROL_URL',
    'LP_PROVIDER_CLIENT_ID',
    'LP_PROVIDER_CLIENT_SECRET',
    'LP_PROVIDER_NAME',
    'LP_REFRESH_GRANT',
    'LP_FULL',
    'LP_ALLOW_PRODUCTION',
    'LP_MOCK_PROFILE',
    'LP_MOCK_FAULTS',
  ].map((name) => [name, '']),
);

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
