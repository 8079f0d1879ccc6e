/**
 * The remote target the settings name, read once for the suite, `npm run profile` and the load scripts: its hosts (LP_AUTH_URL / LP_BASE_URL, or the host table
 * by LP_ENVIRONMENT and LP_DATA_CENTER, or LP_ORG_HOST) and the production guard every run passes before sending anything. k6-safe: no `URL`, no Node modules.
 */
import { type DataCenter, type Environment, HOSTS, isProductionUrl, organizationHosts, productionRefusal } from '../contracts/environments.ts';
import { type Env, readDefaulted, readSetting, SettingError } from './settings.ts';

export interface TargetHosts {
  /** {auth_url}, without a trailing slash. */
  readonly authUrl: string;
  /** {base_url}, without a trailing slash. */
  readonly baseUrl: string;
  /** Whether either origin is a production host (isProductionUrl) or LP_ENVIRONMENT=production. */
  readonly production: boolean;
}

/**
 * {auth_url} and {base_url}: explicit URLs win one by one over the host table (LP_ORG_HOST's hosts, else LP_ENVIRONMENT's in LP_DATA_CENTER). Without either, a
 * SettingError with the caller's sentence `notSet` for the one missing (LP_BASE_URL when both are): the suite and the load scripts say what else would do.
 */
export function readTargetHosts(env: Env, notSet: (name: 'LP_AUTH_URL' | 'LP_BASE_URL') => string): TargetHosts {
  const environment = readSetting(env, 'LP_ENVIRONMENT') as Environment | undefined;
  const dataCenter = readDefaulted(env, 'LP_DATA_CENTER') as DataCenter;
  const orgHost = readSetting(env, 'LP_ORG_HOST');
  const table = orgHost ? organizationHosts(orgHost) : environment && HOSTS[environment][dataCenter];
  // URL settings come without a trailing slash, and so do the table's.
  const authUrl = readSetting(env, 'LP_AUTH_URL') ?? table?.authUrl;
  const baseUrl = readSetting(env, 'LP_BASE_URL') ?? table?.baseUrl;
  if (authUrl === undefined || baseUrl === undefined) throw new SettingError(notSet(baseUrl === undefined ? 'LP_BASE_URL' : 'LP_AUTH_URL'));
  return { authUrl, baseUrl, production: environment === 'production' || isProductionUrl(authUrl) || isProductionUrl(baseUrl) };
}

/** The production guard: throws productionRefusal's sentence as a SettingError unless the target is not production or LP_ALLOW_PRODUCTION=1 allows it. */
export function refuseProduction(urls: { readonly authUrl: string; readonly baseUrl: string }, allowProduction: boolean): void {
  const refusal = productionRefusal(urls, allowProduction);
  if (refusal !== undefined) throw new SettingError(refusal);
}
