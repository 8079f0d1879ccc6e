/**
 * Access and refresh tokens (document, States and transitions: none → valid → expired).
 *
 * Tokens are 32 random bytes in base64url: unguessable, and they carry nothing, so a token is only
 * as good as its entry here. Expiry follows contracts/lifecycle.ts `tokenExpired`; an expired entry
 * is dropped when it is next looked at, and a sweep (amortised over issuing) drops the ones nobody
 * looks at again, so memory stays bounded under token churn.
 */
import { randomBytes } from 'node:crypto';
import { tokenExpired } from '../contracts/lifecycle.ts';
import type { Client } from './clients.ts';
import type { Clock } from './clock.ts';
import type { Faults } from './faults.ts';

/** What an access token stands for. */
export interface AccessGrant {
  readonly token: string;
  readonly client: Client;
  /** Exactly the scopes requested when it was issued. */
  readonly scopes: ReadonlySet<string>;
  readonly issuedAtMs: number;
  readonly lifetimeSeconds: number;
}

export interface RefreshGrant {
  readonly client: Client;
  readonly scopes: ReadonlySet<string>;
  readonly issuedAtMs: number;
  readonly lifetimeSeconds: number;
}

export interface IssuedTokens {
  readonly accessToken: string;
  readonly refreshToken: string;
  readonly lifetimeSeconds: number;
}

/**
 * A refresh token outlives its access token (twice the lifetime), so that refreshing after the access
 * token expired works, as RFC 6749 intends; the document only says it is not for external use.
 */
export const REFRESH_LIFETIME_FACTOR = 2;

/** Below this many entries no growth-triggered sweep runs; above it, one runs each time the maps double. */
const SWEEP_FLOOR = 1024;
/** Issuing also sweeps when this much virtual time has passed since the last sweep: expiry shows in the stats soon after it happens. */
const SWEEP_INTERVAL_MS = 60_000;

export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export class TokenStore {
  readonly #clock: Clock;
  readonly #neverExpires: boolean;
  readonly #access = new Map<string, AccessGrant>();
  readonly #refresh = new Map<string, RefreshGrant>();
  #sweepAt = SWEEP_FLOOR;
  #nextSweepMs = 0;

  constructor(o: { clock: Clock; faults: Faults }) {
    this.#clock = o.clock;
    this.#neverExpires = o.faults.has('token-never-expires');
  }

  /** A new access token and refresh token for `client`, with the client's lifetime. */
  issue(client: Client, scopes: Iterable<string>): IssuedTokens {
    const now = this.#clock.now();
    const scopeSet = new Set(scopes);
    const accessToken = newToken();
    const refreshToken = newToken();
    const lifetimeSeconds = client.tokenTtlSeconds;
    this.#access.set(accessToken, { token: accessToken, client, scopes: scopeSet, issuedAtMs: now, lifetimeSeconds });
    this.#refresh.set(refreshToken, { client, scopes: scopeSet, issuedAtMs: now, lifetimeSeconds: lifetimeSeconds * REFRESH_LIFETIME_FACTOR });
    if (this.#access.size + this.#refresh.size >= this.#sweepAt || now >= this.#nextSweepMs) this.#sweepAt = Math.max(SWEEP_FLOOR, 2 * this.sweep());
    return { accessToken, refreshToken, lifetimeSeconds };
  }

  /** The grant of a valid access token; undefined for unknown, expired and logged-out tokens. */
  verify(token: string): AccessGrant | undefined {
    const grant = this.#access.get(token);
    if (grant === undefined) return undefined;
    if (!this.#neverExpires && tokenExpired(grant.issuedAtMs, grant.lifetimeSeconds, this.#clock.now())) {
      this.#access.delete(token);
      return undefined;
    }
    return grant;
  }

  /**
   * What a refresh token of `client` grants; undefined when it is unknown, expired, used, logged out,
   * or another client's. Redeeming it is a separate step (`expireRefresh`), after the request is checked.
   */
  findRefresh(token: string, client: Client): RefreshGrant | undefined {
    const grant = this.#refresh.get(token);
    if (grant === undefined || grant.client.id !== client.id) return undefined;
    if (!this.#neverExpires && tokenExpired(grant.issuedAtMs, grant.lifetimeSeconds, this.#clock.now())) {
      this.#refresh.delete(token);
      return undefined;
    }
    return grant;
  }

  /** Logout: the access token stops authenticating at once. */
  expireAccess(token: string): boolean {
    return this.#access.delete(token);
  }

  /** Expires a refresh token when it belongs to `clientId` (logout, and rotation on refresh). */
  expireRefresh(token: string, clientId: string): boolean {
    const grant = this.#refresh.get(token);
    if (grant === undefined || grant.client.id !== clientId) return false;
    return this.#refresh.delete(token);
  }

  /** Drops every expired entry; returns how many entries are left. */
  sweep(): number {
    const now = this.#clock.now();
    this.#nextSweepMs = now + SWEEP_INTERVAL_MS;
    if (!this.#neverExpires) {
      for (const [token, g] of this.#access) if (tokenExpired(g.issuedAtMs, g.lifetimeSeconds, now)) this.#access.delete(token);
      for (const [token, g] of this.#refresh) if (tokenExpired(g.issuedAtMs, g.lifetimeSeconds, now)) this.#refresh.delete(token);
    }
    return this.#access.size + this.#refresh.size;
  }

  clear(): void {
    this.#access.clear();
    this.#refresh.clear();
    this.#sweepAt = SWEEP_FLOOR;
    this.#nextSweepMs = 0;
  }

  stats(): { accessTokens: number; refreshTokens: number } {
    return { accessTokens: this.#access.size, refreshTokens: this.#refresh.size };
  }
}
