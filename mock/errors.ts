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

/** Shorthand for the errors the resource endpoints give. */
export const apiErrors = {
  /** A request body that is not what the endpoint takes (control plane, logout). */
  invalidBody: (detail: string, parameter?: string): ApiError => ({
    status: 400,
    code: 'invalid-body',
    title: 'Invalid request body.',
    detail,
    ...(parameter ? { parameter } : {}),
  }),
  /** A query parameter (or control-plane attribute) refused; `status` is the profile's query.invalidStatus where it applies. */
  invalidParameter: (parameter: string, detail: string, status = 400): ApiError => ({
    status,
    code: 'invalid-parameter',
    title: 'Invalid query parameter.',
    detail,
    parameter,
  }),
  unauthorized: (detail: string): ApiError => ({ status: 401, code: 'unauthorized', title: 'Authentication required.', detail }),
  forbidden: (detail: string): ApiError => ({ status: 403, code: 'forbidden', title: 'Insufficient scope.', detail }),
  notFound: (detail: string): ApiError => ({ status: 404, code: 'not-found', title: 'Not found.', detail }),
  methodNotAllowed: (detail: string): ApiError => ({ status: 405, code: 'method-not-allowed', title: 'Method not allowed.', detail }),
  snapshotGone: (detail: string): ApiError => ({ status: 410, code: 'snapshot-expired', title: 'Pagination snapshot is obsolete.', detail, parameter: 'next' }),
  quotaExceeded: (requests: number, period: string): ApiError => ({
    status: 429,
    code: 'quota-exceeded',
    title: 'API calls quota exceeded.',
    detail: `Maximum ${requests} requests allowed per ${period}.`,
  }),
} as const;

type OAuthErrorCode = 'invalid_request' | 'invalid_client' | 'invalid_grant' | 'unauthorized_client' | 'unsupported_grant_type' | 'invalid_scope';

export interface OAuthError {
  readonly status: number;
  readonly error: OAuthErrorCode;
  readonly description: string;
}
