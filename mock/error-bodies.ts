/**
 * Error bodies in every shape a profile may choose (profile.schema.json `$defs/apiErrorBody`, `$defs/tokenErrorBody`): the platform's errors array, RFC
 * 6749/6750 OAuth, RFC 9457 problem details, ASP.NET's validation problem, none, plain text, a gateway's HTML page. The document shows none, so any is legal;
 * each carries the same facts (status, code, sentence, parameter): the api origin's a machine-readable code, the auth origin's an OAuth error (RFC 6749 §5.2).
 */
import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { ApiErrorBodyShape, TokenErrorBodyShape } from '../schemas/types.ts';

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

/** The error codes of RFC 6749 §5.2, and the title each has in the shapes of the api origin. */
const OAUTH_TITLES = {
  invalid_request: 'Invalid token request.',
  invalid_client: 'Client authentication failed.',
  invalid_grant: 'Invalid grant.',
  unauthorized_client: 'Client not authorized.',
  unsupported_grant_type: 'Unsupported grant type.',
  invalid_scope: 'Invalid scope.',
} as const;

export type OAuthError = { readonly status: number; readonly error: keyof typeof OAUTH_TITLES; readonly description: string };

/** A rendered error body: its Content-Type and text (an empty text: the reply has no body). */
export type ErrorBody = { readonly contentType: string; readonly text: string };

export const JSON_TYPE = 'application/json; charset=utf-8';
const PROBLEM_TYPE = 'application/problem+json; charset=utf-8';
const TEXT_TYPE = 'text/plain; charset=utf-8';
const HTML_TYPE = 'text/html; charset=utf-8';
const NO_BODY: ErrorBody = { contentType: '', text: '' };

/** RFC 9110 (and RFC 6585) sections per status, as ASP.NET writes them in `type`. */
const STATUS_SECTIONS: Readonly<Record<number, string>> = {
  400: 'rfc9110#section-15.5.1',
  401: 'rfc9110#section-15.5.2',
  403: 'rfc9110#section-15.5.4',
  404: 'rfc9110#section-15.5.5',
  405: 'rfc9110#section-15.5.6',
  408: 'rfc9110#section-15.5.9',
  410: 'rfc9110#section-15.5.11',
  413: 'rfc9110#section-15.5.14',
  414: 'rfc9110#section-15.5.15',
  417: 'rfc9110#section-15.5.18',
  422: 'rfc9110#section-15.5.21',
  429: 'rfc6585#section-4',
  431: 'rfc6585#section-5',
  500: 'rfc9110#section-15.6.1',
};

function statusType(status: number): string {
  const section = STATUS_SECTIONS[status];
  return section === undefined ? 'about:blank' : `https://tools.ietf.org/html/${section}`;
}

function phrase(status: number): string {
  return STATUS_CODES[status] ?? 'Error';
}

/** RFC 6750 §3.1 has three codes: a bad token, a missing scope, and everything else. */
function bearerCode(error: ApiError): 'invalid_token' | 'insufficient_scope' | 'invalid_request' {
  if (error.code === 'unauthorized') return 'invalid_token';
  if (error.code === 'forbidden') return 'insufficient_scope';
  return 'invalid_request';
}

/** The page a gateway (nginx here) writes in front of a service: the status and nothing else. */
function gatewayPage(status: number): string {
  const head = `${status} ${phrase(status)}`;
  return `<html>\r\n<head><title>${head}</title></head>\r\n<body>\r\n<center><h1>${head}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`;
}

function json(value: unknown, contentType = JSON_TYPE): ErrorBody {
  return { contentType, text: JSON.stringify(value) };
}

/** `{"errors":[{id, code, status, title, detail, source?}]}`: the real platform's fixtures (platform docs, Errors). */
export function errorsArray(error: { status: number; code: string; title: string; detail: string; parameter?: string | undefined }): ErrorBody {
  const { status, code, title, detail, parameter } = error;
  return json({ errors: [{ id: randomUUID(), code, status, title, detail, ...(parameter ? { source: { parameter } } : {}) }] });
}

/** An error of the api origin (resource endpoints, logout, its router) in `shape`. */
export function apiErrorBody(shape: ApiErrorBodyShape, error: ApiError): ErrorBody {
  switch (shape) {
    case 'errors-array':
      return errorsArray(error);
    case 'rfc6750':
      return json({ error: bearerCode(error), error_description: error.detail });
    case 'problem-json':
      return json({ type: 'about:blank', title: phrase(error.status), status: error.status, detail: error.detail }, PROBLEM_TYPE);
    case 'aspnet-validation': {
      // ASP.NET answers a refused model with its validation problem, anything else with plain problem details.
      if (error.status !== 400 && error.status !== 422)
        return json({ type: statusType(error.status), title: phrase(error.status), status: error.status, detail: error.detail }, PROBLEM_TYPE);
      const errors = { [error.parameter ?? '$']: [error.detail] };
      return json({ type: statusType(error.status), title: 'One or more validation errors occurred.', status: error.status, errors }, PROBLEM_TYPE);
    }
    case 'empty':
      return NO_BODY;
    case 'text':
      return { contentType: TEXT_TYPE, text: error.detail };
    case 'html':
      return { contentType: HTML_TYPE, text: gatewayPage(error.status) };
  }
}

/** An error of the auth origin (the token endpoint and its router) in `shape`: the api origin's body but for `oauth`. */
export function tokenErrorBody(shape: TokenErrorBodyShape, error: OAuthError): ErrorBody {
  if (shape === 'oauth') return json({ error: error.error, error_description: error.description });
  return apiErrorBody(shape, { status: error.status, code: error.error, title: OAUTH_TITLES[error.error], detail: error.description });
}
