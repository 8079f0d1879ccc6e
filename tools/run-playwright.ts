/**
 * `playwright test <args>` for `npm test`'s phases and the fault matrix's child run, with the terminal as its output, stopped past `limitMs` (a hang must not
 * hold a CI runner): SIGINT, so that Playwright still writes its outcome, then SIGKILL after a grace. Ctrl-C reaches the child from the terminal already (a
 * second SIGINT would make it quit without its outcome); SIGTERM, sent to this process alone, is passed on. Resolves with the exit code, null when stopped.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ROOT } from '../common/root.ts';

const PLAYWRIGHT = path.join(ROOT, 'node_modules', '@playwright', 'test', 'cli.js');
const STOP_GRACE_MS = 20_000;

export function runPlaywright(name: string, args: readonly string[], env: NodeJS.ProcessEnv, limitMs: number): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [PLAYWRIGHT, 'test', ...args], { cwd: ROOT, env, stdio: 'inherit' });
    let killer: NodeJS.Timeout | undefined;
    const stopper = setTimeout(() => {
      process.stdout.write(`\n${name} passed its limit of ${limitMs / 60_000} minutes; stopping it (something hangs).\n`);
      child.kill('SIGINT');
      killer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
    }, limitMs);
    const wait = () => undefined;
    const forward = () => child.kill('SIGINT');
    process.on('SIGINT', wait);
    process.once('SIGTERM', forward);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(stopper);
      clearTimeout(killer);
      process.off('SIGINT', wait);
      process.off('SIGTERM', forward);
      resolve(code);
    });
  });
}
