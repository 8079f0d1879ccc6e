/**
 * The load scripts' configuration, read from an `__ENV`-style record (k6's `__ENV`, or `process.env`
 * in the runner) with the suite's LP_* names. Every problem is an EnvError whose message is one
 * sentence naming the variable; secrets are never echoed.
 */
import { parseRate, type Rate } from '../../contracts/duration.ts';
import { DATA_CENTERS, type DataCenter, ENVIRONMENTS, type Environment, isProductionUrl, resolveHosts } from '../../contracts/environments.ts';
import { DEFAULT_RATE } from '../../contracts/limits.ts';
import { parseScopeList } from '../../contracts/scopes.ts';
import { isAbsoluteUrl } from './url.ts';

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

/** An integer variable within [min, max], or `fallback` when unset. */
export function envInt(env: EnvRecord, name: string, fallback: number, range: { min: number; max: number }): number {
  const text = envString(env, name);
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text)) throw new EnvError(`${name} "${text}" is not a whole number.`);
  const value = Number(text);
  if (value < range.min || value > range.max) throw new EnvError(`${name} ${value} is outside ${range.min} to ${range.max}.`);
  return value;
}

/** A decimal variable within [min, max], or `fallback` when unset. */
export function envNumber(env: EnvRecord, name: string, fallback: number, range: { min: number; max: number }): number {
  const text = envString(env, name);
  if (text === undefined) return fallback;
  if (!/^\d+(?:\.\d+)?$/.test(text)) throw new EnvError(`${name} "${text}" is not a number.`);
  const value = Number(text);
  if (value < range.min || value > range.max) throw new EnvError(`${name} ${value} is outside ${range.min} to ${range.max}.`);
  return value;
}

/** Where handleSummary writes the reports: LP_REPORT_DIR, default `reports/load` (relative to where k6 runs; it must exist). */
export function reportDir(env: EnvRecord): string {
  return envString(env, 'LP_REPORT_DIR') ?? 'reports/load';
}

/** `1` is yes; unset, blank or `0` is no; anything else is refused rather than guessed. */
export function envFlag(env: EnvRecord, name: string): boolean {
  const text = envString(env, name);
  if (text === undefined || text === '0') return false;
  if (text === '1') return true;
  throw new EnvError(`${name} "${text}" must be 1 (yes) or 0 (no).`);
}

/** LP_RATE like `20/10s`; DEFAULT_RATE when unset; null for `0` (the target does not limit). */
export function readRate(env: EnvRecord): Rate | null {
  const text = envString(env, 'LP_RATE');
  if (text === undefined) return DEFAULT_RATE;
  const rate = parseRate(text);
  if (rate === undefined) throw new EnvError(`LP_RATE "${text}" is not a rate like 200/1m or 20/10s (or 0 for no limit).`);
  return rate;
}

function oneOf<T extends string>(env: EnvRecord, name: string, allowed: readonly T[]): T | undefined {
  const text = envString(env, name);
  if (text === undefined) return undefined;
  const lower = text.toLowerCase();
  const found = allowed.find((value) => value === lower);
  if (found === undefined) throw new EnvError(`${name} "${text}" is not one of ${allowed.join(', ')}.`);
  return found;
}

/**
 * {auth_url} and {base_url}: LP_AUTH_URL / LP_BASE_URL, or the host table (LP_ENVIRONMENT with
 * LP_DATA_CENTER, or LP_ORG_HOST) through contracts resolveHosts; explicit URLs win one by one.
 */
export function readTarget(env: EnvRecord): Target {
  const environment: Environment | undefined = oneOf(env, 'LP_ENVIRONMENT', ENVIRONMENTS);
  const dataCenter: DataCenter | undefined = oneOf(env, 'LP_DATA_CENTER', DATA_CENTERS);
  const orgHost = envString(env, 'LP_ORG_HOST');
  const authUrl = envString(env, 'LP_AUTH_URL');
  const baseUrl = envString(env, 'LP_BASE_URL');
  if (orgHost !== undefined && !/^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i.test(orgHost)) {
    throw new EnvError(`LP_ORG_HOST "${orgHost}" is not a host label (letters, digits and hyphens).`);
  }
  for (const [name, value] of [
    ['LP_AUTH_URL', authUrl],
    ['LP_BASE_URL', baseUrl],
  ] as const) {
    if (value !== undefined && !isAbsoluteUrl(value)) throw new EnvError(`${name} "${value}" is not an absolute http(s) URL.`);
  }
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

/** Throws unless the target is not production or LP_ALLOW_PRODUCTION=1 says so on purpose. */
export function guardProduction(target: Target, allowProduction: boolean): void {
  if (target.production && !allowProduction) {
    throw new EnvError(
      `The target ${target.baseUrl} is production: load runs spend the real API key's rate budget there, so they are refused unless LP_ALLOW_PRODUCTION=1.`,
    );
  }
}

/** Everything a load script needs from LP_*; throws an EnvError naming the first variable that is missing or wrong. */
export function readLoadEnv(env: EnvRecord): LoadEnv {
  const target = readTarget(env);
  const allowProduction = envFlag(env, 'LP_ALLOW_PRODUCTION');
  guardProduction(target, allowProduction);
  const clientId = requireEnv(env, 'LP_CLIENT_ID', 'the client id of the API key');
  const clientSecret = requireEnv(env, 'LP_CLIENT_SECRET', 'the client secret of the API key');
  const scopes = parseScopeList(envString(env, 'LP_SCOPES') ?? DEFAULT_SCOPES);
  if (scopes.length === 0) throw new EnvError('LP_SCOPES is empty: name at least one scope, e.g. content:read,users:read.');
  return { ...target, clientId, clientSecret, scopes, allowProduction, rate: readRate(env) };
}
