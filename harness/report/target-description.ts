/**
 * What a run was pointed at, in words: the one description every artifact of a contract run carries
 * (the terminal's summary, the HTML report's title, rules.html, JUnit properties, the
 * summary JSON, reports/index.html of `npm test`), so that a betatest run never reads as a mock run.
 * Built from the settings alone (harness/target/config.ts), before any request: it states what the
 * run was told, not what the target answered.
 *
 * It never holds a secret: origins are cut to scheme, host and port (a URL's user information, path
 * and query are dropped), only client ids are named, and any value that still contains a configured
 * secret is replaced whole.
 */
import { DATA_CENTERS, ENVIRONMENTS, HOSTS, hostOf, isProductionUrl } from '../../contracts/environments.ts';
import { DEFAULT_CLIENTS } from '../../mock/clients.ts';
import type { MockTargetSettings, RemoteTargetSettings, SuiteConfig } from '../target/config.ts';

/** What a fact reads when it would have held a configured secret. */
export const WITHHELD = '[withheld: it contains a secret]';

export interface TargetDescription {
  readonly kind: 'embedded mock' | 'remote';
  /** One line naming the target and the run's switches, e.g. for the terminal and report titles. */
  readonly line: string;
  /**
   * Every fact, in reading order, keyed by a short name (JUnit property names `lp.<key>`, rules.html,
   * the summary JSON): kind, profile, faults, apiOrigin, authOrigin, environment,
   * dataCenter, clientId, providerClientId, controlPlane, LP_QUOTA, LP_FULL, LP_STRICT. Facts the
   * settings do not give (a remote target's environment on an unknown host) are left out.
   */
  readonly facts: Readonly<Record<string, string>>;
}

export function describeTarget(config: SuiteConfig): TargetDescription {
  const { target } = config;
  const switches = `LP_QUOTA=${flag(config.quota)} LP_FULL=${flag(config.full)} LP_STRICT=${flag(config.strict)}`;
  const flags = { LP_QUOTA: flag(config.quota), LP_FULL: flag(config.full), LP_STRICT: flag(config.strict) };
  if (target.kind === 'mock') {
    const { facts, line } = describeMock(target);
    return withoutSecrets({ kind: 'embedded mock', line: `${line} · ${switches}`, facts: { ...facts, ...flags } }, secretsOfMock(target));
  }
  const { facts, line } = describeRemote(target);
  return withoutSecrets({ kind: 'remote', line: `${line} · ${switches}`, facts: { ...facts, ...flags } }, [
    target.client.clientSecret,
    target.provider?.clientSecret,
  ]);
}

function describeMock(target: MockTargetSettings): { facts: Record<string, string>; line: string } {
  const clients = target.clients ?? DEFAULT_CLIENTS;
  const org = clients.find((c) => c.provider === undefined);
  const provider = clients.find((c) => c.provider !== undefined);
  const profile = target.profile?.name ?? 'strict';
  const faults = target.faults.length > 0 ? target.faults.join(', ') : 'none';
  // Each worker starts its own mock on a free port: no one origin names them all.
  const origin = 'http://127.0.0.1 (a free port per worker)';
  const controlPlane = target.blind ? 'hidden (blind)' : 'yes';
  const facts: Record<string, string> = {
    kind: 'embedded mock',
    profile,
    faults,
    apiOrigin: origin,
    authOrigin: origin,
    ...(org ? { clientId: org.id } : {}),
    ...(provider ? { providerClientId: provider.id } : {}),
    controlPlane,
  };
  const parts = [`profile ${profile}`, target.faults.length > 0 ? `faults ${faults}` : 'no faults', target.blind ? 'control plane hidden' : 'control plane'];
  return { facts, line: `embedded mock (${parts.join(', ')})${org ? `, client id ${org.id}` : ''}` };
}

function describeRemote(target: RemoteTargetSettings): { facts: Record<string, string>; line: string } {
  const apiOrigin = originOf(target.baseUrl);
  const authOrigin = originOf(target.authUrl);
  const place = placeOf(target);
  const facts: Record<string, string> = {
    kind: 'remote',
    apiOrigin,
    authOrigin,
    ...(place.environment ? { environment: place.environment } : {}),
    ...(place.dataCenter ? { dataCenter: place.dataCenter } : {}),
    clientId: target.client.clientId,
    ...(target.provider ? { providerClientId: target.provider.clientId } : {}),
    controlPlane: target.controlUrl === undefined ? 'no' : `yes (${originOf(target.controlUrl)})`,
  };
  const where = [place.environment, place.dataCenter ? `data center ${place.dataCenter}` : undefined].filter((p) => p !== undefined).join(', ');
  const line =
    `remote ${apiOrigin} (auth ${authOrigin}${where ? `; ${where}` : ''}), client id ${target.client.clientId}, ` +
    (target.controlUrl === undefined ? 'no control plane' : 'control plane');
  return { facts, line };
}

/**
 * The environment and data center of a remote target where its hosts tell them: the hosts table
 * (contracts/environments.ts) names both; another production host (an organization's) names the
 * environment only, as does a betatest host; any other host (a mock, a proxy) names neither.
 */
function placeOf(urls: { readonly authUrl: string; readonly baseUrl: string }): { environment?: string; dataCenter?: string } {
  const api = hostOf(urls.baseUrl);
  const auth = hostOf(urls.authUrl);
  for (const environment of ENVIRONMENTS) {
    for (const dataCenter of DATA_CENTERS) {
      const hosts = HOSTS[environment][dataCenter];
      if (hostOf(hosts.baseUrl) === api && hostOf(hosts.authUrl) === auth) return { environment, dataCenter };
    }
  }
  if (isProductionUrl(urls.baseUrl) || isProductionUrl(urls.authUrl)) return { environment: 'production' };
  if ([api, auth].some((host) => host?.split('.').includes('betatest'))) return { environment: 'betatest' };
  return {};
}

/** Scheme, host and port of an http(s) URL: no user information, path, query or fragment. */
function originOf(url: string): string {
  const match = /^(https?):\/\/(?:[^@/?#]*@)?([^/?#]*)/i.exec(url.trim());
  return match ? `${match[1]?.toLowerCase()}://${match[2]?.toLowerCase()}` : '(not an http URL)';
}

function flag(on: boolean): string {
  return on ? '1' : '0';
}

function secretsOfMock(target: MockTargetSettings): string[] {
  return (target.clients ?? DEFAULT_CLIENTS).map((c) => c.secret);
}

/** The last guard: a value that contains a configured secret (a client id set to it, say) is withheld whole. */
function withoutSecrets(description: TargetDescription, secrets: readonly (string | undefined)[]): TargetDescription {
  const known = secrets.filter((s): s is string => s !== undefined && s !== '');
  const holds = (text: string) => known.some((secret) => text.includes(secret));
  const facts = Object.fromEntries(Object.entries(description.facts).map(([key, value]) => [key, holds(value) ? WITHHELD : value]));
  let line = description.line;
  for (const secret of known) line = line.split(secret).join(WITHHELD);
  return { ...description, line, facts };
}
