/**
 * The preflight of every Playwright run that includes a contract project. Its first lines (the target,
 * warnings) are printed by playwright.config.ts as it loads (`--list` shows them too); this
 * globalSetup probes a remote target before any worker starts. A failure ends the run with its one sentence, no stack: the
 * runner prints it (and CI logs show it), the summary reporter closes the run red.
 */
import type { FullConfig } from '@playwright/test';
import { resetBreaker } from '../target/breaker.ts';
import { readConfig } from '../target/config.ts';
import { preflight } from './index.ts';

/** Whether the command line runs a contract project: no --project at all runs every project. Playwright sets TEST_WORKER_INDEX in workers, which load the config too: they print nothing. */
export function selectsContract(argv: readonly string[]): boolean {
  // Only `playwright test` runs a project: another tool reading the config (knip) is told nothing.
  if (process.env.TEST_WORKER_INDEX !== undefined || argv[2] !== 'test') return false;
  const projects: string[] = [];
  argv.forEach((arg, i) => {
    if (arg.startsWith('--project=')) projects.push(arg.slice('--project='.length));
    else if (arg === '--project') projects.push(argv[i + 1] ?? '');
  });
  return projects.length === 0 || projects.some((name) => name.startsWith('contract') || name.includes('*'));
}

export default async function globalSetup(config: FullConfig): Promise<void> {
  if (!selectsContract(process.argv)) return;
  for (const project of config.projects) resetBreaker(project.outputDir);
  // The runner read the config already (playwright.config.ts): a bad setting never gets here.
  const outcome = await preflight(readConfig(), process.env);
  for (const line of outcome.lines) console.log(line);
  if (outcome.failure === undefined) return;
  const error = new Error(outcome.failure);
  // The sentence is the whole story: a stack under it would bury it.
  error.stack = outcome.failure;
  throw error;
}
