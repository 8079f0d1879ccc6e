/**
 * Bearer authentication and scopes of the `api` origin (document, Authentication 5 and 6; RFC 6750): a missing, malformed, unknown, expired or logged-out token
 * is refused with `WWW-Authenticate: Bearer` (`error="invalid_token"` when one was given), a token without an accepted scope with `error="insufficient_scope"`;
 * statuses and accepted scopes are the profile's (auth.*).
 */
import { ENDPOINTS, type ListEndpointId } from '../contracts/endpoints.ts';
import type { Profile } from '../schemas/types.ts';
import { type ApiError, apiErrors } from './error-bodies.ts';
import type { AccessGrant, Tokens } from './tokens.ts';

/** RFC 6750 §2.1: `Bearer` (any case), one or more spaces, a b64token. */
const BEARER = /^bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;
const BEARER_SCHEME = /^bearer(?: |$)/i;

/** `other-scheme`: Basic and the like; `malformed`: Bearer, but not followed by one b64token. */
export type BearerHeader = { kind: 'missing' } | { kind: 'other-scheme' } | { kind: 'malformed' } | { kind: 'token'; token: string };

export function parseBearer(header: string | undefined): BearerHeader {
  if (header === undefined || header === '') return { kind: 'missing' };
  const match = BEARER.exec(header);
  if (match) return { kind: 'token', token: match[1] as string };
  return BEARER_SCHEME.test(header) ? { kind: 'malformed' } : { kind: 'other-scheme' };
}

export type AuthResult = { ok: true; grant: AccessGrant } | { ok: false; error: ApiError; headers: string[] };

/** Who a bearer token is, and whether it may call an endpoint (a seam: mock/seams.ts). */
export type AccessControl = Pick<BearerAuth, 'authenticate' | 'authorize'>;

export class BearerAuth {
  constructor(private readonly o: { tokens: Tokens; profile: Profile['auth'] }) {}

  /** The grant of the request's bearer token, or the refusal to answer with. */
  authenticate(authorization: string | undefined): AuthResult {
    // The usual request, `Bearer <a token issued here>`, is known without the pattern: an issued token is a b64token.
    const issued = authorization?.startsWith('Bearer ') === true ? this.o.tokens.verify(authorization.slice(7)) : undefined;
    if (issued !== undefined) return { ok: true, grant: issued };
    const header = parseBearer(authorization);
    const grant = header.kind === 'token' ? this.o.tokens.verify(header.token) : undefined;
    if (grant !== undefined) return { ok: true, grant };
    if (header.kind === 'missing') return this.#refuse('The request has no Authorization header; send Authorization: Bearer <access token>.', 'Bearer');
    if (header.kind === 'other-scheme') return this.#refuse('The Authorization header is not of the form "Bearer <access token>".', 'Bearer');
    if (header.kind === 'malformed')
      return this.#refuse('The bearer token is malformed: expected one token of letters, digits and -._~+/ after "Bearer ".', 'Bearer error="invalid_token"');
    return this.#refuse('The access token is unknown, expired or logged out.', 'Bearer error="invalid_token"');
  }

  /** Undefined when the grant holds an accepted scope of the endpoint, else the refusal: its error and WWW-Authenticate pair (the caller adds rate headers). */
  authorize(grant: AccessGrant, endpoint: ListEndpointId): { error: ApiError; headers: string[] } | undefined {
    const accepted = endpoint === 'listContent' ? this.o.profile.contentScopes : this.o.profile.usersScopes;
    for (const scope of accepted) if (grant.scopes.has(scope)) return undefined;
    const held = grant.scopes.size === 0 ? 'none' : [...grant.scopes].join(', ');
    const detail = `${ENDPOINTS[endpoint].method} ${ENDPOINTS[endpoint].path} needs one of the scopes ${accepted.join(', ')}; the token holds ${held}.`;
    const error = { ...apiErrors.forbidden(detail), status: this.o.profile.missingScopeStatus };
    return { error, headers: ['WWW-Authenticate', `Bearer error="insufficient_scope", scope="${accepted.join(' ')}"`] };
  }

  #refuse(detail: string, challenge: string): AuthResult {
    return { ok: false, error: { ...apiErrors.unauthorized(detail), status: this.o.profile.unauthenticatedStatus }, headers: ['WWW-Authenticate', challenge] };
  }
}
