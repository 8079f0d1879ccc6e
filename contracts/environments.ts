/**
 * Where the real service lives: environment × data center (platform docs, Hosts), the organization-specific scheme, and the production guard of every run
 * (suite, profile, load). Every entry can be overridden by explicit URLs. k6-safe (no `URL`).
 */

export const ENVIRONMENTS = ['betatest', 'production'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];
export const DATA_CENTERS = ['us', 'eu', 'ca'] as const;
export type DataCenter = (typeof DATA_CENTERS)[number];

export interface Hosts {
  readonly authUrl: string;
  readonly baseUrl: string;
  /** [V] stated in public docs, [I] inferred from client code. */
  readonly confidence: 'V' | 'I';
}

export const HOSTS: Readonly<Record<Environment, Readonly<Record<DataCenter, Hosts>>>> = {
  betatest: {
    us: { authUrl: 'https://betatest.degreed.com', baseUrl: 'https://api.betatest.degreed.com', confidence: 'V' },
    eu: { authUrl: 'https://eu.betatest.degreed.com', baseUrl: 'https://api.eu.betatest.degreed.com', confidence: 'I' },
    ca: { authUrl: 'https://ca.betatest.degreed.com', baseUrl: 'https://api.ca.betatest.degreed.com', confidence: 'I' },
  },
  production: {
    us: { authUrl: 'https://degreed.com', baseUrl: 'https://api.degreed.com', confidence: 'V' },
    eu: { authUrl: 'https://eu.degreed.com', baseUrl: 'https://api.eu.degreed.com', confidence: 'V' },
    ca: { authUrl: 'https://ca.degreed.com', baseUrl: 'https://api.ca.degreed.com', confidence: 'V' },
  },
};

/** Organization-specific scheme [V]: `https://{org}.degreed.com` and `https://api.{org}.degreed.com`. */
export function organizationHosts(org: string): Hosts {
  return { authUrl: `https://${org}.degreed.com`, baseUrl: `https://api.${org}.degreed.com`, confidence: 'V' };
}

/** The host name of an absolute http(s) URL, lower-cased; `undefined` for anything else. */
export function hostOf(url: string): string | undefined {
  const match = /^https?:\/\/(?:[^@/?#]*@)?(\[[^\]]*\]|[^:/?#]*)/i.exec(url.trim());
  return match?.[1] ? match[1].toLowerCase() : undefined;
}

/** Whether a URL names a production host: any host under degreed.com but a betatest one (the table and the organization scheme); unknown hosts are not. */
export function isProductionUrl(url: string): boolean {
  const host = hostOf(url);
  if (!host) return false;
  return (host === 'degreed.com' || host.endsWith('.degreed.com')) && !host.split('.').includes('betatest');
}

/**
 * The production guard, one sentence for the suite, `npm run profile` and the load scripts: the sentence refusing a target with a production host, or undefined
 * when it may be used. Every run spends the key's rate budget a little (tokens, reads), and a production key's budget is shared with the organization's real
 * integrations: a target that resolves there by mistake must send nothing.
 */
export function productionRefusal(urls: { readonly authUrl: string; readonly baseUrl: string }, allowProduction: boolean): string | undefined {
  if (allowProduction) return undefined;
  const production = [urls.baseUrl, urls.authUrl].find(isProductionUrl);
  return production === undefined
    ? undefined
    : `The target ${production} is production: every run spends the key's rate budget, which real integrations share there, so it is refused unless LP_ALLOW_PRODUCTION=1.`;
}
