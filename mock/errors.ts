/**
 * The mock's errors as facts (status, code, sentence, parameter), before any body is written: the
 * body's shape is the profile's choice (mock/error-bodies.ts). The `api` origin's errors carry a
 * machine-readable code; the `auth` origin's are OAuth errors (RFC 6749 §5.2).
 */

export interface ApiError {
  readonly status: number;
  /** Machine-readable code, e.g. `quota-exceeded`, `invalid-parameter`. */
  readonly code: string;
  readonly title: string;
  readonly detail: string;
  /** The query parameter (or header) the error is about, where there is one. */
  readonly parameter?: string;
}

/** The errors of one kind: their status (a profile may choose another: spread it over), code and title. */
function kind(status: number, code: string, title: string) {
  return (detail: string, parameter?: string): ApiError => ({ status, code, title, detail, ...(parameter ? { parameter } : {}) });
}

/** Shorthand for the errors of the api origin. */
export const apiErrors = {
  /** A request body that is not what the endpoint takes (control plane, logout). */
  invalidBody: kind(400, 'invalid-body', 'Invalid request body.'),
  invalidParameter: kind(400, 'invalid-parameter', 'Invalid query parameter.'),
  unauthorized: kind(401, 'unauthorized', 'Authentication required.'),
  forbidden: kind(403, 'forbidden', 'Insufficient scope.'),
  notFound: kind(404, 'not-found', 'Not found.'),
  methodNotAllowed: kind(405, 'method-not-allowed', 'Method not allowed.'),
  snapshotGone: (detail: string) => kind(410, 'snapshot-expired', 'Pagination snapshot is obsolete.')(detail, 'next'),
  quotaExceeded: (requests: number, period: string) =>
    kind(429, 'quota-exceeded', 'API calls quota exceeded.')(`Maximum ${requests} requests allowed per ${period}.`),
};

type OAuthErrorCode = 'invalid_request' | 'invalid_client' | 'invalid_grant' | 'unauthorized_client' | 'unsupported_grant_type' | 'invalid_scope';

export interface OAuthError {
  readonly status: number;
  readonly error: OAuthErrorCode;
  readonly description: string;
}
