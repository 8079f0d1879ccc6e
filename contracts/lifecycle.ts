/** The two time rules of the document's state table (States and transitions): the mock decides a state with them, the specs probe the boundaries they name. */

/** A token expires when its age *reaches* its lifetime: valid at lifetime − 1 ms, expired at lifetime. */
export function tokenExpired(issuedAtMs: number, lifetimeSeconds: number, nowMs: number): boolean {
  return nowMs - issuedAtMs >= lifetimeSeconds * 1000;
}

/** A snapshot is obsolete once `ttl` has elapsed since the previous request of the set (119 s: alive, 120 s: gone). */
export function snapshotObsolete(lastRequestMs: number, ttlSeconds: number, nowMs: number): boolean {
  return nowMs - lastRequestMs >= ttlSeconds * 1000;
}
