/**
 * The document's state table (States and transitions) as data, and the two time rules that decide
 * a state. The mock decides with these functions; the specs probe the boundaries they name.
 */

export interface Transition<S extends string> {
  readonly from: S;
  readonly trigger: string;
  readonly condition: string;
  readonly to: S;
  readonly effects: string;
}

export type TokenState = 'none' | 'valid' | 'expired';
export const TOKEN_LIFECYCLE: readonly Transition<TokenState>[] = [
  {
    from: 'none',
    trigger: 'token request accepted',
    condition: 'valid client credentials and scope',
    to: 'valid',
    effects: 'response carries access_token, expires_in, refresh_token',
  },
  { from: 'valid', trigger: 'time passes', condition: 'token age reaches its lifetime', to: 'expired', effects: 'token no longer authenticates' },
  {
    from: 'valid',
    trigger: 'logout request',
    condition: 'bearer token supplied',
    to: 'expired',
    effects: 'access token expires immediately; the refresh token, if provided, expires too',
  },
];

export type SnapshotState = 'none' | 'active' | 'obsolete';
export const SNAPSHOT_LIFECYCLE: readonly Transition<SnapshotState>[] = [
  {
    from: 'none',
    trigger: 'first list request',
    condition: 'endpoint supports pagination',
    to: 'active',
    effects: 'a snapshot of the paginated data set is taken',
  },
  {
    from: 'active',
    trigger: 'request with next',
    condition: 'within 2 minutes of the previous request of the set',
    to: 'active',
    effects: 'a new next value is returned for the following page',
  },
  { from: 'active', trigger: 'no request with next', condition: '2 minutes elapse', to: 'obsolete', effects: 'the snapshot can no longer be continued' },
];

/** A token expires when its age *reaches* its lifetime: valid at lifetime − 1 ms, expired at lifetime. */
export function tokenExpired(issuedAtMs: number, lifetimeSeconds: number, nowMs: number): boolean {
  return nowMs - issuedAtMs >= lifetimeSeconds * 1000;
}

/** A snapshot is obsolete once `ttl` has elapsed since the previous request of the set (119 s: alive, 120 s: gone). */
export function snapshotObsolete(lastRequestMs: number, ttlSeconds: number, nowMs: number): boolean {
  return nowMs - lastRequestMs >= ttlSeconds * 1000;
}
