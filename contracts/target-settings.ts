/**
 * The remote target as the settings name it, read once for the contract suite, `npm run profile` and
 * the load scripts: its two hosts (LP_AUTH_URL / LP_BASE_URL, or the host table through
 * LP_ENVIRONMENT with LP_DATA_CENTER, or LP_ORG_HOST), and the production guard every run passes
 * before it sends anything. k6-safe: no `URL`, no Node modules.
 */
import { type DataCenter, type Environment, isProductionUrl, productionRefusal, resolveHosts } from './environments.ts';
import { type Env, readSetting, SettingError } from './settings.ts';

export interface TargetHosts {
  /** {auth_url}, without a trailing slash. */
  readonly authUrl: string;
  /** {base_url}, without a trailing slash. */
  readonly baseUrl: string;
  /** Whether either origin is a production host (isProductionUrl) or LP_ENVIRONMENT=production. */
  readonly production: boolean;
}

/**
 * {auth_url} and {base_url}: explicit URLs win one by one over the host table. Without either, a
 * SettingError with the caller's sentence `notSet` for the one missing (LP_BASE_URL when both are):
 * the suite and the load scripts say what else would do in their own words.
 */
export function readTargetHosts(env: Env, notSet: (name: 'LP_AUTH_URL' | 'LP_BASE_URL') => string): TargetHosts {
  const environment = readSetting(env, 'LP_ENVIRONMENT') as Environment | undefined;
  const dataCenter = readSetting(env, 'LP_DATA_CENTER') as DataCenter | undefined;
  const orgHost = readSetting(env, 'LP_ORG_HOST');
  const authUrl = readSetting(env, 'LP_AUTH_URL');
  const baseUrl = readSetting(env, 'LP_BASE_URL');
  const hosts = resolveHosts({ environment, dataCenter, orgHost, authUrl, baseUrl });
  if (!hosts) throw new SettingError(notSet(baseUrl === undefined ? 'LP_BASE_URL' : 'LP_AUTH_URL'));
  return { ...hosts, production: environment === 'production' || isProductionUrl(hosts.authUrl) || isProductionUrl(hosts.baseUrl) };
}

/**
 * The production guard: throws productionRefusal's sentence as a SettingError unless the target is
 * not production or LP_ALLOW_PRODUCTION=1 says so on purpose.
 */
export function refuseProduction(urls: { readonly authUrl: string; readonly baseUrl: string }, allowProduction: boolean): void {
  const refusal = productionRefusal(urls, allowProduction);
  if (refusal !== undefined) throw new SettingError(refusal);
}
