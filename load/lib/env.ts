/**
 * The load scripts' configuration, read from an `__ENV`-style record (k6's `__ENV`, or `process.env`
 * in the runner) through the project's one reader of settings (contracts/settings.ts, and
 * contracts/target-settings.ts for the hosts and the production guard): a value, its default and its
 * refusal mean here what they mean to the suite. Every problem is an EnvError (the suite's
 * SettingError) whose message is one sentence naming the variable; secrets are never echoed.
 */
import type { Rate } from '../../contracts/duration.ts';
import { DEFAULT_RATE } from '../../contracts/limits.ts';
import { type DefaultedSetting, readDefaulted, readSetting, SettingError, type SettingName, type SettingValue } from '../../contracts/settings.ts';
import { readTargetHosts, refuseProduction, type TargetHosts } from '../../contracts/target-settings.ts';

export type EnvRecord = Readonly<Record<string, string | undefined>>;

/** A setting that is missing or malformed, or a plan the settings make impossible: one sentence. */
export { SettingError as EnvError };

export interface LoadEnv extends TargetHosts {
  readonly clientId: string;
  readonly clientSecret: string;
  /** LP_SCOPES as a list; default the table's (`content:read,users:read`). */
  readonly scopes: readonly string[];
  /** LP_ALLOW_PRODUCTION=1; default false. */
  readonly allowProduction: boolean;
  /** LP_RATE (`20/10s`); default contracts DEFAULT_RATE (200/1m); `0` (null) when the target does not limit. */
  readonly rate: Rate | null;
}

/** A variable's value, trimmed; `undefined` when unset or blank. */
export function envString(env: EnvRecord, name: SettingName): string | undefined {
  const value = env[name];
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

/** A setting that must be set, read by the table; unset: "X is not set (hint)." */
function requireEnv<N extends SettingName>(env: EnvRecord, name: N, hint: string): SettingValue<N> {
  const value = readSetting(env, name);
  if (value === undefined) throw new SettingError(`${name} is not set (${hint}).`);
  return value;
}

/**
 * A number setting: its form, bounds and default are the table's; `range`, when a script allows
 * less than the table, narrows the bounds with a sentence of its own.
 */
export function envNumber(env: EnvRecord, name: DefaultedSetting, range?: { min: number; max: number }): number {
  return within(name, readDefaulted(env, name), range);
}

/** A number setting without a default: undefined when unset. */
export function envOptionalNumber(env: EnvRecord, name: SettingName): number | undefined {
  const value = readSetting(env, name);
  return value === undefined ? undefined : within(name, value);
}

function within(name: string, value: unknown, range?: { min: number; max: number }): number {
  if (typeof value !== 'number') throw new SettingError(`${name} is not a number setting.`);
  if (range !== undefined && (value < range.min || value > range.max)) throw new SettingError(`${name} ${value} is outside ${range.min} to ${range.max}.`);
  return value;
}

/** Where handleSummary writes the reports: LP_REPORT_DIR (relative to where k6 runs; it must exist). */
export function reportDir(env: EnvRecord): string {
  return readDefaulted(env, 'LP_REPORT_DIR');
}

/** A flag setting: `1`/`true` yes, `0`/`false` or unset no (the table's reading); anything else refused. */
export function envFlag(env: EnvRecord, name: SettingName): boolean {
  return readSetting(env, name) === true;
}

/** LP_RATE like `20/10s`; DEFAULT_RATE when unset; null for `0` (the target does not limit). */
export function readRate(env: EnvRecord): Rate | null {
  const rate = readSetting(env, 'LP_RATE');
  return rate === undefined ? DEFAULT_RATE : rate;
}

/** Everything a load script needs from LP_*; throws an EnvError naming the first variable that is missing or wrong. */
export function readLoadEnv(env: EnvRecord): LoadEnv {
  const target = readTargetHosts(env, (name) => `${name} is not set (set LP_AUTH_URL and LP_BASE_URL, or LP_ENVIRONMENT with LP_DATA_CENTER, or LP_ORG_HOST).`);
  const allowProduction = envFlag(env, 'LP_ALLOW_PRODUCTION');
  refuseProduction(target, allowProduction);
  const clientId = requireEnv(env, 'LP_CLIENT_ID', 'the client id of the API key');
  const clientSecret = requireEnv(env, 'LP_CLIENT_SECRET', 'the client secret of the API key');
  return { ...target, clientId, clientSecret, scopes: readDefaulted(env, 'LP_SCOPES'), allowProduction, rate: readRate(env) };
}
