/**
 * The load scripts' configuration, read from an `__ENV`-style record (k6's `__ENV`, or `process.env`
 * in the runner) through the project's one table of settings (contracts/settings.ts): a value means
 * here what it means to the suite and the scripts. Every problem is an EnvError whose message is one
 * sentence naming the variable; secrets are never echoed.
 */
import type { Rate } from '../../contracts/duration.ts';
import { type DataCenter, type Environment, isProductionUrl, productionRefusal, resolveHosts } from '../../contracts/environments.ts';
import { DEFAULT_RATE } from '../../contracts/limits.ts';
import { readSetting, SettingError, type SettingName, type SettingValue } from '../../contracts/settings.ts';

export type EnvRecord = Readonly<Record<string, string | undefined>>;

export class EnvError extends Error {
  override name = 'EnvError';
}

/** Scopes a load script asks for when LP_SCOPES is not set: read access to both resources. */
export const DEFAULT_SCOPES = 'content:read,users:read';

export interface Target {
  /** {auth_url}, without a trailing slash. */
  readonly authUrl: string;
  /** {base_url}, without a trailing slash. */
  readonly baseUrl: string;
  /** Whether either origin is a production host (contracts isProductionUrl) or LP_ENVIRONMENT=production. */
  readonly production: boolean;
}

export interface LoadEnv extends Target {
  readonly clientId: string;
  readonly clientSecret: string;
  /** LP_SCOPES as a list; default `content:read,users:read`. */
  readonly scopes: readonly string[];
  /** LP_ALLOW_PRODUCTION=1; default false. */
  readonly allowProduction: boolean;
  /** LP_RATE (`20/10s`); default contracts DEFAULT_RATE (200/1m); `0` (null) when the target does not limit. */
  readonly rate: Rate | null;
}

/** A setting of the table, parsed and checked there; its problems as EnvErrors. */
export function setting<N extends SettingName>(env: EnvRecord, name: N): SettingValue<N> | undefined {
  try {
    return readSetting(env, name);
  } catch (error) {
    if (error instanceof SettingError) throw new EnvError(error.message);
    throw error;
  }
}

/** A variable's value, trimmed; `undefined` when unset or blank. */
export function envString(env: EnvRecord, name: string): string | undefined {
  const value = env[name];
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

export function requireEnv(env: EnvRecord, name: string, hint?: string): string {
  const value = envString(env, name);
  if (value === undefined) throw new EnvError(`${name} is not set${hint ? ` (${hint})` : ''}.`);
  return value;
}

/** An integer setting (the table checks its form and bounds) within a script's own [min, max], or `fallback` when unset. */
export function envInt(env: EnvRecord, name: SettingName, fallback: number, range: { min: number; max: number }): number {
  return within(name, setting(env, name), fallback, range);
}

/** A decimal setting within a script's own [min, max], or `fallback` when unset. */
export function envNumber(env: EnvRecord, name: SettingName, fallback: number, range: { min: number; max: number }): number {
  return within(name, setting(env, name), fallback, range);
}

function within(name: string, value: unknown, fallback: number, range: { min: number; max: number }): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number') throw new EnvError(`${name} is not a number setting.`);
  if (value < range.min || value > range.max) throw new EnvError(`${name} ${value} is outside ${range.min} to ${range.max}.`);
  return value;
}

/** Where handleSummary writes the reports: LP_REPORT_DIR, default `reports/load` (relative to where k6 runs; it must exist). */
export function reportDir(env: EnvRecord): string {
  return envString(env, 'LP_REPORT_DIR') ?? 'reports/load';
}

/** A flag setting: `1`/`true` yes, `0`/`false` or unset no (the table's reading); anything else refused. */
export function envFlag(env: EnvRecord, name: SettingName): boolean {
  return setting(env, name) === true;
}

/** LP_RATE like `20/10s`; DEFAULT_RATE when unset; null for `0` (the target does not limit). */
export function readRate(env: EnvRecord): Rate | null {
  const rate = setting(env, 'LP_RATE');
  return rate === undefined ? DEFAULT_RATE : rate;
}

/**
 * {auth_url} and {base_url}: LP_AUTH_URL / LP_BASE_URL, or the host table (LP_ENVIRONMENT with
 * LP_DATA_CENTER, or LP_ORG_HOST) through contracts resolveHosts; explicit URLs win one by one.
 */
export function readTarget(env: EnvRecord): Target {
  const environment = setting(env, 'LP_ENVIRONMENT') as Environment | undefined;
  const dataCenter = setting(env, 'LP_DATA_CENTER') as DataCenter | undefined;
  const orgHost = setting(env, 'LP_ORG_HOST');
  const authUrl = setting(env, 'LP_AUTH_URL');
  const baseUrl = setting(env, 'LP_BASE_URL');
  const hosts = resolveHosts({
    ...(environment ? { environment } : {}),
    ...(dataCenter ? { dataCenter } : {}),
    ...(orgHost ? { orgHost } : {}),
    ...(authUrl ? { authUrl } : {}),
    ...(baseUrl ? { baseUrl } : {}),
  });
  if (!hosts) {
    const missing = baseUrl === undefined ? 'LP_BASE_URL' : 'LP_AUTH_URL';
    throw new EnvError(`${missing} is not set (set LP_AUTH_URL and LP_BASE_URL, or LP_ENVIRONMENT with LP_DATA_CENTER, or LP_ORG_HOST).`);
  }
  return { ...hosts, production: environment === 'production' || isProductionUrl(hosts.authUrl) || isProductionUrl(hosts.baseUrl) };
}

/** Throws unless the target is not production or LP_ALLOW_PRODUCTION=1 says so on purpose (the suite's guard, same sentence). */
export function guardProduction(target: Target, allowProduction: boolean): void {
  const refusal = productionRefusal(target, allowProduction);
  if (refusal !== undefined) throw new EnvError(refusal);
}

/** Everything a load script needs from LP_*; throws an EnvError naming the first variable that is missing or wrong. */
export function readLoadEnv(env: EnvRecord): LoadEnv {
  const target = readTarget(env);
  const allowProduction = envFlag(env, 'LP_ALLOW_PRODUCTION');
  guardProduction(target, allowProduction);
  const clientId = requireEnv(env, 'LP_CLIENT_ID', 'the client id of the API key');
  const clientSecret = requireEnv(env, 'LP_CLIENT_SECRET', 'the client secret of the API key');
  const scopes = setting(env, 'LP_SCOPES') ?? DEFAULT_SCOPES.split(',');
  return { ...target, clientId, clientSecret, scopes, allowProduction, rate: readRate(env) };
}
