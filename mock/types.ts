/** The mock's public interface: createMock's options (each with its default, read once at construction), the running mock and its stats. */
import type { Rate } from '../contracts/duration.ts';
import type { Profile } from '../schemas/types.ts';
import type { ClientConfig } from './clients.ts';
import type { VirtualClock } from './clock.ts';
import type { MockSeams } from './seams.ts';
import type { HostNames } from './routes.ts';
import type { MockTimeouts, TlsFiles } from './server.ts';

export interface MockOptions {
  /** Interface both servers listen on. Default `127.0.0.1`. */
  host?: string;
  /** Port of the `auth` origin; 0 picks a free one. Default 0. */
  authPort?: number;
  /** Port of the `api` origin; 0 picks a free one. Default 0. */
  apiPort?: number;
  /** One port for both origins told apart by Host (`{ auth: 'mock.test', api: 'api.mock.test' }`, names resolving to `host`), not two ports. Default none. */
  hostNames?: HostNames;
  /** The one port of `hostNames`; 0 picks a free one. Default 0. */
  port?: number;
  /** Serve HTTPS with this certificate chain and key (PEM), both origins. Default: none, plain HTTP. */
  tls?: TlsFiles;
  /** Seeded content items. Default 250. */
  items?: number;
  /** Seeded users. Default 50. */
  users?: number;
  /** Seed of the generated data. Default 1. */
  seed?: number;
  /** The behaviour profile: a value for every choice the document leaves open, complete (loadProfile, resolveProfile). Default BUILT_IN_PROFILES.strict. */
  profile?: Profile;
  /** Rate per client for keys without their own; null turns limiting off. Default: the profile's rateLimit.rate (200/1m in every built-in). */
  rate?: Rate | null;
  /** Token lifetime for keys without their own, in whole seconds. Default: the profile's tokens.lifetime (60d in every built-in). */
  tokenTtlSeconds?: number;
  /** Snapshot lifetime without a `next` request, in whole seconds. Default SNAPSHOT_TTL_SECONDS (120). */
  snapshotTtlSeconds?: number;
  /** The API keys. Default DEFAULT_CLIENTS. */
  clients?: readonly ClientConfig[];
  /** Serve the /_mock control plane. Default true. */
  control?: boolean;
  /** Source of the virtual clock, epoch ms. Default `Date.now`. */
  timeSource?: () => number;
  /** Called with one line per request (method, path without query, status, ms), and one per client finding. Default: no log. */
  log?: (line: string) => void;
  /** Judge callers by what the document asks of a client (mock/client-findings.ts), listed at GET /_mock/findings; never changes an answer. Default true. */
  findings?: boolean;
  /** Failed token requests allowed per client_id and period, then 429 and Retry-After until it ends; null: none. Default DEFAULT_TOKEN_THROTTLE (10/1m). */
  tokenThrottle?: Rate | null;
  /** Connection timeouts (mock/server.ts MockTimeouts). Default: the defaults listed there. */
  timeouts?: MockTimeouts;
  /** Wrappers of the core's components at their interfaces (mock/seams.ts). Default none. */
  seams?: MockSeams;
}

export interface MockStats {
  /** Access tokens stored (expired ones until they are swept). */
  readonly accessTokens: number;
  /** Access tokens still valid: issued, not logged out, not expired on the virtual clock. */
  readonly validAccessTokens: number;
  readonly refreshTokens: number;
  /** Refresh tokens still redeemable: a refresh grant is answered, and they are not logged out or expired. */
  readonly validRefreshTokens: number;
  readonly rateWindows: number;
  readonly snapshots: number;
  /** Client_ids with a window of failed token requests (mock/token-throttle.ts). */
  readonly throttledClients: number;
}

export interface MockServer {
  listen(): Promise<void>;
  close(): Promise<void>;
  /** Clock, tokens, rate windows, snapshots and data back to their start (what POST /_mock/reset does). */
  reset(): void;
  /** Live entry counts: what the memory and soak checks watch. */
  stats(): MockStats;
  /** `http://host:port` of the `auth` origin (`https://` with tls, its name with hostNames); set once listening. */
  readonly authUrl: string;
  /** `http://host:port` of the `api` origin (`https://` with tls, its name with hostNames); set once listening. */
  readonly baseUrl: string;
  /** Where the names of hostNames must lead, `host:port`; with two ports, the host they listen on. Set once listening. */
  readonly address: string;
  /** `{baseUrl}/_mock`, or undefined with `control: false`. */
  readonly controlUrl: string | undefined;
  readonly clock: VirtualClock;
  /** The profile in force (its rateLimit.rate is the `rate` option's where that is a rate). */
  readonly profile: Profile;
}
