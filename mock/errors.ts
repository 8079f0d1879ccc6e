/**
 * Error bodies. The `api` origin answers every error in the shape seen in the real service's
 * fixtures (reference notes, Errors); the `auth` origin answers OAuth errors (RFC 6749 §5.2).
 */
import { randomUUID } from 'node:crypto';

export interface ApiError {
  readonly status: number;
  /** Machine-readable code, e.g. `quota-exceeded`, `invalid-parameter`. */
  readonly code: string;
  readonly title: string;
  readonly detail: string;
  /** The query parameter (or header) the error is about, where there is one. */
  readonly parameter?: string;
}

export interface ApiErrorBody {
  errors: Array<{
    id: string;
    code: string;
    status: number;
    title: string;
    detail: string;
    source?: { parameter: string };
  }>;
}

export function apiErrorBody(error: ApiError): ApiErrorBody {
  return {
    errors: [
      {
        id: randomUUID(),
        code: error.code,
        status: error.status,
        title: error.title,
        detail: error.detail,
        ...(error.parameter ? { source: { parameter: error.parameter } } : {}),
      },
    ],
  };
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
  invalidParameter: (parameter: string, detail: string): ApiError => ({
    status: 400,
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

export type OAuthErrorCode = 'invalid_request' | 'invalid_client' | 'invalid_grant' | 'unauthorized_client' | 'unsupported_grant_type' | 'invalid_scope';

export interface OAuthError {
  readonly status: 400 | 401 | 403 | 413 | 414 | 415 | 417 | 429;
  readonly error: OAuthErrorCode;
  readonly description: string;
}

export function oauthErrorBody(error: OAuthError): { error: OAuthErrorCode; error_description: string } {
  return { error: error.error, error_description: error.description };
}
