/**
 * The preflight of every contract run, `npm run profile` and `npm run load`: the target on the first line, a warning
 * for each unknown `LP_*` name, and for a remote target the probe, so a wrong setting ends the run at once.
 */
import { type Env, settingText, unknownSettingWarnings } from '../../contracts/settings.ts';
import type { SuiteConfig } from '../target/config.ts';
import { describeTarget } from '../report/target-description.ts';
import { probeRemote } from './probe.ts';

export interface PreflightOutcome {
  /** The lines to print, in order: the target first, then warnings, then the probe's result. */
  readonly lines: readonly string[];
  /** The one sentence that stops the run; undefined when it may go on. */
  readonly failure: string | undefined;
}

/** The settings a sentence names for each URL: the explicit one, else the host table's. */
export function urlSettings(env: Env): { authSetting: string; baseSetting: string } {
  const table = settingText(env, 'LP_ORG_HOST') !== undefined ? 'LP_ORG_HOST' : 'LP_ENVIRONMENT/LP_DATA_CENTER';
  return {
    authSetting: settingText(env, 'LP_AUTH_URL') !== undefined ? 'LP_AUTH_URL' : table,
    baseSetting: settingText(env, 'LP_BASE_URL') !== undefined ? 'LP_BASE_URL' : table,
  };
}

/**
 * What the preflight says before any request: the target as every report of the run names it
 * (harness/report/target-description.ts) and, for a remote one, the scopes the key is asked for; then a warning per
 * unknown `LP_*` name.
 */
export function preflightLines(config: SuiteConfig, env: Env): string[] {
  const t = config.target;
  const line = `target: ${describeTarget(config)}`;
  return [t.kind === 'mock' ? line : `${line}, scopes ${t.client.scopes.join(',') || '(none)'}`, ...unknownSettingWarnings(env)];
}

/**
 * The probe of a remote target (nothing for the embedded mock): the lines to print after
 * preflightLines, and the sentence that stops the run, if any.
 */
export async function preflight(config: SuiteConfig, env: Env): Promise<PreflightOutcome> {
  const lines: string[] = [];
  const t = config.target;
  if (t.kind === 'mock') return { lines, failure: undefined };
  const probed = await probeRemote({ ...t, ...t.client, ...urlSettings(env) });
  const { tokens } = probed;
  // Beside the workers' `[tokens] worker N: …` lines.
  lines.push(`[tokens] preflight: ${tokens.issued} issued, ${tokens.loggedOut} logged out, ${tokens.notLoggedOut} not logged out`);
  if (probed.ok) lines.push('preflight: the base URL answered, the key got a token and its logout was accepted.');
  return { lines, failure: probed.ok ? undefined : probed.sentence };
}
