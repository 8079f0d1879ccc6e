/**
 * The preflight's first lines, of every contract run and `npm run profile`: the target, a warning for each unknown
 * `LP_*` name. A contract run then probes a remote target (global-setup.ts), so a wrong setting ends the run at once.
 */
import { type Env, settingText, unknownSettingWarnings } from '../../common/settings.ts';
import type { SuiteConfig } from '../run/config.ts';
import { describeTarget } from '../report/target-description.ts';

/** The settings a sentence names for each URL: the explicit one, else the host table's. */
export function urlSettings(env: Env): { authSetting: string; baseSetting: string } {
  const table = settingText(env, 'LP_ORG_HOST') !== undefined ? 'LP_ORG_HOST' : 'LP_ENVIRONMENT/LP_DATA_CENTER';
  return {
    authSetting: settingText(env, 'LP_AUTH_URL') !== undefined ? 'LP_AUTH_URL' : table,
    baseSetting: settingText(env, 'LP_BASE_URL') !== undefined ? 'LP_BASE_URL' : table,
  };
}

/**
 * What the preflight says before any request: the target as every report of the run names it (harness/report/target-description.ts) and, for a remote one, the
 * scopes the key is asked for; then a warning per unknown `LP_*` name.
 */
export function preflightLines(config: SuiteConfig, env: Env): string[] {
  const t = config.target;
  const line = `target: ${describeTarget(config)}`;
  return [t.kind === 'mock' ? line : `${line}, scopes ${t.client.scopes.join(',') || '(none)'}`, ...unknownSettingWarnings(env)];
}
