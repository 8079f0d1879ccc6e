/**
 * Access and refresh tokens (document, States and transitions: none → valid → expired).
 *
 * A token is 32 random bytes in base64url: unguessable and carrying nothing, so it is only as good as its entry here. Expiry is contracts/lifecycle.ts
 * `tokenExpired`; an expired entry is dropped when next looked at, and a sweep amortised over issuing drops the rest, so memory stays bounded under churn. With
 * `indexLive` the store finds a client's live token for a scope set (tokens.reuse = live-token).
 */
import { randomBytes } from 'node:crypto';
import { tokenExpired } from '../contracts/lifecycle.ts';
import type { Client } from './clients.ts';
import type { Clock } from './clock.ts';

export interface RefreshGrant {
  readonly client: Client;
  /** Exactly the scopes requested when it was issued. */
  readonly scopes: ReadonlySet<string>;
  readonly issuedAtMs: number;
  readonly lifetimeSeconds: number;
}

/** What an access token stands for. */
export interface AccessGrant extends RefreshGrant {
  readonly token: string;
  /** The refresh token issued with it. */
  readonly refreshToken: string;
}

export type IssuedTokens = { readonly accessToken: string; readonly refreshToken: string; readonly lifetimeSeconds: number; readonly issuedAtMs: number };

/** The token store as the endpoints use it (a seam: mock/seams.ts). */
export type Tokens = Pick<TokenStore, 'issue' | 'live' | 'verify' | 'findRefresh' | 'redeemRefresh' | 'expireAccess' | 'expireRefresh'>;

/** A refresh token lives twice its access token's lifetime, so refreshing after expiry works as RFC 6749 intends (the document: not for external use). */
export const REFRESH_LIFETIME_FACTOR = 2;

/** Below this many entries no growth-triggered sweep runs; above it, one runs each time the maps double. */
const SWEEP_FLOOR = 1024;
/** Issuing also sweeps when this much virtual time has passed since the last sweep: expiry shows in the stats soon after it happens. */
const SWEEP_INTERVAL_MS = 60_000;

function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Client and scope set, order-free: the key of a live token. */
function liveKey(client: Client, scopes: readonly string[]): string {
  return `${client.id}\n${[...scopes].sort().join(' ')}`;
}

export class TokenStore {
  readonly #clock: Clock;
  readonly #access = new Map<string, AccessGrant>();
  readonly #refresh = new Map<string, RefreshGrant>();
  /** Client and scopes → the newest access token issued for them; undefined unless live tokens are handed back. */
  readonly #live: Map<string, string> | undefined;
  #sweepAt = SWEEP_FLOOR;
  #nextSweepMs = 0;

  constructor(o: { clock: Clock; indexLive?: boolean }) {
    this.#clock = o.clock;
    this.#live = o.indexLive ? new Map() : undefined;
  }

  /** A new access token and refresh token for `client`, with the client's lifetime. */
  issue(client: Client, scopes: readonly string[]): IssuedTokens {
    const now = this.#clock.now();
    const scopeSet = new Set(scopes);
    const accessToken = newToken();
    const lifetimeSeconds = client.tokenTtlSeconds;
    const refreshToken = this.#newRefresh(client, scopeSet, now, lifetimeSeconds);
    this.#access.set(accessToken, { token: accessToken, client, scopes: scopeSet, issuedAtMs: now, lifetimeSeconds, refreshToken });
    this.#live?.set(liveKey(client, scopes), accessToken);
    if (this.#access.size + this.#refresh.size >= this.#sweepAt || now >= this.#nextSweepMs) this.#sweepAt = Math.max(SWEEP_FLOOR, 2 * this.sweep());
    return { accessToken, refreshToken, lifetimeSeconds, issuedAtMs: now };
  }

  /** The client's newest valid token for exactly these scopes, with a live refresh token; undefined when there is none. */
  live(client: Client, scopes: readonly string[]): IssuedTokens | undefined {
    if (this.#live === undefined) return undefined;
    const key = liveKey(client, scopes);
    const token = this.#live.get(key);
    const grant = token === undefined ? undefined : this.verify(token);
    if (grant === undefined) return void this.#live.delete(key);
    let refreshToken = grant.refreshToken;
    if (!this.#refresh.has(refreshToken)) {
      // The one issued with it was used or logged out: the token comes back with a fresh one.
      refreshToken = this.#newRefresh(client, grant.scopes, this.#clock.now(), grant.lifetimeSeconds);
      this.#access.set(grant.token, { ...grant, refreshToken });
    }
    return { accessToken: grant.token, refreshToken, lifetimeSeconds: grant.lifetimeSeconds, issuedAtMs: grant.issuedAtMs };
  }

  /** The grant of a valid access token; undefined for unknown, expired and logged-out tokens. */
  verify(token: string): AccessGrant | undefined {
    return this.#unexpired(this.#access, token);
  }

  /** What a refresh token of `client` grants; undefined when it is unknown, expired, used, logged out, or another client's. */
  findRefresh(token: string, client: Client): RefreshGrant | undefined {
    return this.#refresh.get(token)?.client.id === client.id ? this.#unexpired(this.#refresh, token) : undefined;
  }

  /** The grant of `token`, dropped and undefined once expired. */
  #unexpired<G extends RefreshGrant>(grants: Map<string, G>, token: string): G | undefined {
    const grant = grants.get(token);
    if (grant === undefined || !tokenExpired(grant.issuedAtMs, grant.lifetimeSeconds, this.#clock.now())) return grant;
    grants.delete(token);
    return undefined;
  }

  /** Refresh rotation: a refresh token works once. */
  redeemRefresh(token: string, clientId: string): boolean {
    return this.expireRefresh(token, clientId);
  }

  /** Logout: the access token stops authenticating at once. */
  expireAccess(token: string): boolean {
    return this.#access.delete(token);
  }

  /** Logout: a refresh token of `clientId` stops refreshing at once. */
  expireRefresh(token: string, clientId: string): boolean {
    return this.#refresh.get(token)?.client.id === clientId && this.#refresh.delete(token);
  }

  /** The control plane's "expired now" for a client: its access tokens stop authenticating (its refresh tokens outlive them); returns how many were valid. */
  expireAccessOf(clientId: string): number {
    const now = this.#clock.now();
    let expired = 0;
    for (const [token, g] of this.#access) {
      if (g.client.id !== clientId) continue;
      if (!tokenExpired(g.issuedAtMs, g.lifetimeSeconds, now)) expired++;
      this.#access.delete(token);
    }
    return expired;
  }

  /** Drops every expired entry; returns how many entries are left. */
  sweep(): number {
    const now = this.#clock.now();
    this.#nextSweepMs = now + SWEEP_INTERVAL_MS;
    for (const [token, g] of this.#access) if (tokenExpired(g.issuedAtMs, g.lifetimeSeconds, now)) this.#access.delete(token);
    for (const [token, g] of this.#refresh) if (tokenExpired(g.issuedAtMs, g.lifetimeSeconds, now)) this.#refresh.delete(token);
    if (this.#live !== undefined) for (const [key, token] of this.#live) if (!this.#access.has(token)) this.#live.delete(key);
    return this.#access.size + this.#refresh.size;
  }

  clear(): void {
    this.#access.clear();
    this.#refresh.clear();
    this.#live?.clear();
    this.#sweepAt = SWEEP_FLOOR;
    this.#nextSweepMs = 0;
  }

  /** Entries stored, and tokens still valid on the virtual clock (issued, not logged out, not expired): what a run checks to prove it left none live. */
  stats(): { accessTokens: number; refreshTokens: number; validAccessTokens: number; validRefreshTokens: number } {
    const now = this.#clock.now();
    const valid = (grants: Map<string, RefreshGrant>) => [...grants.values()].filter((g) => !tokenExpired(g.issuedAtMs, g.lifetimeSeconds, now)).length;
    return {
      accessTokens: this.#access.size,
      refreshTokens: this.#refresh.size,
      validAccessTokens: valid(this.#access),
      validRefreshTokens: valid(this.#refresh),
    };
  }

  /** A refresh token issued at `issuedAtMs` with an access token of `accessLifetimeSeconds`. */
  #newRefresh(client: Client, scopes: ReadonlySet<string>, issuedAtMs: number, accessLifetimeSeconds: number): string {
    const token = newToken();
    this.#refresh.set(token, { client, scopes, issuedAtMs, lifetimeSeconds: accessLifetimeSeconds * REFRESH_LIFETIME_FACTOR });
    return token;
  }
}
