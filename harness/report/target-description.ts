/**
 * What a run was pointed at, in one line every artifact of a contract run carries, so that a betatest run never reads
 * as a mock run. Built from the settings alone: what the run was told, not what the target answered. It never holds
 * a secret: origins are cut to scheme, host and port, only client ids are named, a configured secret is withheld.
 */
import { DATA_CENTERS, ENVIRONMENTS, HOSTS, hostOf, isProductionUrl } from '../../contracts/environments.ts';
import { DEFAULT_CLIENTS } from '../../mock/clients.ts';
import type { SuiteConfig } from '../run/config.ts';

/** What the description reads in place of a configured secret. */
export const WITHHELD = '[withheld: it contains a secret]';

/** One line naming the target and the run's switches. */
export function describeTarget(config: SuiteConfig): string {
  const { target } = config;
  const switches = ` · LP_QUOTA=${Number(config.quota)} LP_FULL=${Number(config.full)} LP_STRICT=${Number(config.strict)}`;
  if (target.kind === 'mock') {
    const clients = target.clients ?? DEFAULT_CLIENTS;
    const org = clients.find((c) => c.provider === undefined);
    const parts = [
      `profile ${target.profile?.name ?? 'strict'}`,
      target.faults.length > 0 ? `faults ${target.faults.join(', ')}` : 'no faults',
      target.blind ? 'control plane hidden' : 'control plane',
    ];
    const line = `embedded mock (${parts.join(', ')})${org ? `, client id ${org.id}` : ''}${switches}`;
    return withheld(
      line,
      clients.map((c) => c.secret),
    );
  }
  const place = placeOf(target);
  const where = [place.environment, place.dataCenter ? `data center ${place.dataCenter}` : undefined].filter((p) => p !== undefined).join(', ');
  const line =
    `remote ${originOf(target.baseUrl)} (auth ${originOf(target.authUrl)}${where ? `; ${where}` : ''}), client id ${target.client.clientId}, ` +
    `${target.provider ? `provider client id ${target.provider.clientId}, ` : ''}${target.controlUrl === undefined ? 'no control plane' : 'control plane'}${switches}`;
  return withheld(line, [target.client.clientSecret, target.provider?.clientSecret]);
}

/**
 * The environment and data center of a remote target where its hosts tell them: the hosts table (contracts/environments.ts) names both; another production host
 * (an organization's) names the environment only, as does a betatest host; any other host (a mock, a proxy) names neither.
 */
function placeOf(urls: { readonly authUrl: string; readonly baseUrl: string }): { environment?: string; dataCenter?: string } {
  const api = hostOf(urls.baseUrl);
  const auth = hostOf(urls.authUrl);
  const places = ENVIRONMENTS.flatMap((environment) => DATA_CENTERS.map((dataCenter) => ({ environment, dataCenter, hosts: HOSTS[environment][dataCenter] })));
  const known = places.find(({ hosts }) => hostOf(hosts.baseUrl) === api && hostOf(hosts.authUrl) === auth);
  if (known) return { environment: known.environment, dataCenter: known.dataCenter };
  if (isProductionUrl(urls.baseUrl) || isProductionUrl(urls.authUrl)) return { environment: 'production' };
  if ([api, auth].some((host) => host?.split('.').includes('betatest'))) return { environment: 'betatest' };
  return {};
}

/** Scheme, host and port of an http(s) URL: no user information, path, query or fragment. */
function originOf(url: string): string {
  const match = /^(https?):\/\/(?:[^@/?#]*@)?([^/?#]*)/i.exec(url.trim());
  return match ? `${match[1]?.toLowerCase()}://${match[2]?.toLowerCase()}` : '(not an http URL)';
}

/** The last guard: a configured secret that found its way into the line (a client id set to it, say) is withheld. */
function withheld(line: string, secrets: readonly (string | undefined)[]): string {
  return secrets.reduce<string>((text, secret) => (secret === undefined || secret === '' ? text : text.split(secret).join(WITHHELD)), line);
}
