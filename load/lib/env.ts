/**
 * The load scripts' configuration, read from an `__ENV`-style record (k6's `__ENV`, or `process.env` in the runner) through the project's one reader of
 * settings (common/settings.ts): a value, its default and its refusal mean here what they mean to the suite. Every problem is an EnvError (the suite's
 * SettingError), one sentence naming the variable; secrets are never echoed.
 */
import type { Rate } from '../../contracts/duration.ts';
import { DEFAULT_RATE } from '../../contracts/limits.ts';
import { readDefaulted, readSetting, requireSetting } from '../../common/settings.ts';
import { readTargetHosts, refuseProduction, type TargetHosts } from '../../common/target-settings.ts';

export type EnvRecord = Readonly<Record<string, string | undefined>>;

export { SettingError as EnvError } from '../../common/settings.ts';

export interface LoadEnv extends TargetHosts {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly scopes: readonly string[];
  /** LP_RATE; null when the target does not limit (`0`). */
  readonly rate: Rate | null;
  /** LP_REPORT_DIR, where handleSummary writes the reports (relative to where k6 runs; it must exist). */
  readonly reportDir: string;
}

/** LP_RATE like `20/10s`; DEFAULT_RATE when unset; null for `0` (the target does not limit). */
export function readRate(env: EnvRecord): Rate | null {
  const rate = readSetting(env, 'LP_RATE');
  return rate === undefined ? DEFAULT_RATE : rate;
}

/** Everything a load script needs from LP_*; throws an EnvError naming the first variable that is missing or wrong. */
export function readLoadEnv(env: EnvRecord): LoadEnv {
  const target = readTargetHosts(env, (name) => `${name} is not set (set LP_AUTH_URL and LP_BASE_URL, or LP_ENVIRONMENT with LP_DATA_CENTER, or LP_ORG_HOST).`);
  refuseProduction(target, readSetting(env, 'LP_ALLOW_PRODUCTION') === true);
  const clientId = requireSetting(env, 'LP_CLIENT_ID', 'the client id of the API key');
  const clientSecret = requireSetting(env, 'LP_CLIENT_SECRET', 'the client secret of the API key');
  return { ...target, clientId, clientSecret, scopes: readDefaulted(env, 'LP_SCOPES'), rate: readRate(env), reportDir: readDefaulted(env, 'LP_REPORT_DIR') };
}
