/**
 * The preflight of every Playwright run that includes a contract project. Its first lines (the target, warnings) are printed by playwright.config.ts as it
 * loads (`--list` shows them too); this globalSetup probes a remote target before any worker starts. A failure ends the run with its one sentence, no stack:
 * the runner prints it (and CI logs show it), the summary reporter closes the run red.
 */
import type { FullConfig } from '@playwright/test';
import { refuseRun, resetBreaker } from '../run/breaker.ts';
import { readConfig } from '../run/config.ts';
import { urlSettings } from './index.ts';
import { probeRemote } from './probe.ts';
import { rateWaitBoundMs } from '../client/throttle.ts';

/** Whether the command line runs a contract project: no --project at all runs every project. Playwright sets TEST_WORKER_INDEX in workers, which load the config too: they print nothing. */
export function selectsContract(argv: readonly string[]): boolean {
  // Only `playwright test` runs a project: another tool reading the config (knip) is told nothing.
  if (process.env.TEST_WORKER_INDEX !== undefined || argv[2] !== 'test') return false;
  const projects = argv.flatMap((arg, i) => (arg.startsWith('--project=') ? [arg.slice('--project='.length)] : arg === '--project' ? [argv[i + 1] ?? ''] : []));
  return projects.length === 0 || projects.some((name) => name.startsWith('contract') || name.includes('*'));
}

export default async function globalSetup(config: FullConfig): Promise<void> {
  if (!selectsContract(process.argv)) return;
  for (const project of config.projects) resetBreaker(project.outputDir);
  // The runner read the config already (playwright.config.ts): a bad setting never gets here. The embedded mock needs no probe.
  const t = readConfig().target;
  if (t.kind === 'mock') return;
  const probed = await probeRemote({ ...t, ...t.client, ...urlSettings(process.env) }, { maxWaitMs: rateWaitBoundMs(t.rate) });
  const { issued, loggedOut, notLoggedOut } = probed.tokens;
  // Beside the workers' `[tokens] worker N: …` lines.
  console.log(`[tokens] preflight: ${issued} issued, ${loggedOut} logged out, ${notLoggedOut} not logged out`);
  if (probed.ok) return console.log('preflight: the base URL answered, the key got a token and its logout was accepted.');
  for (const project of config.projects) refuseRun(project.outputDir, probed.sentence);
  // The sentence is the whole story: a stack under it would bury it.
  throw Object.assign(new Error(probed.sentence), { stack: probed.sentence });
}
