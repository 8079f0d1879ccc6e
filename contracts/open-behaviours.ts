/** What the API document leaves open, with every behaviour the suite must accept (the platform's public docs and fixtures): failing on one is a false alarm. */

/** Wrong credentials, unknown client, a scope the key does not hold: the real platform says 403, RFC 6749 400/401. */
export const TOKEN_REFUSAL_STATUSES = [400, 401, 403] as const;

/** Missing, malformed, unknown, expired or logged-out token: 401 per the notes, 403 accepted. */
export const UNAUTHENTICATED_STATUSES = [401, 403] as const;

/** A token without an accepted scope: 403 per the notes, 401 accepted. */
export const MISSING_SCOPE_STATUSES = [401, 403] as const;

/** The final page's `links.next`: absent, null or empty (or a following empty page, checked by the walker). */
export function isFinalNext(next: unknown): boolean {
  return next === undefined || next === null || next === '';
}
