/**
 * Bearer authentication of the `api` origin (document, Authentication 6; RFC 6750): a missing,
 * malformed, unknown, expired or logged-out token gets 401 with `WWW-Authenticate: Bearer` (and
 * `error="invalid_token"` when a token was given); a token without an accepted scope gets 403.
 */
import { ENDPOINTS } from '../contracts/endpoints.ts';
import type { ClientRegistry } from './clients.ts';
import { type ApiError, apiErrors } from './errors.ts';
import type { Faults } from './faults.ts';
import type { AccessGrant, TokenStore } from './tokens.ts';
import type { Variants } from './variants.ts';

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

/** What a scoped endpoint refuses with, or undefined when the token may call it. */
export interface ScopeRefusal {
  readonly error: ApiError;
  /** The WWW-Authenticate header pair; the caller appends the rate-limit headers. */
  readonly headers: string[];
}

type ScopedEndpoint = 'listContent' | 'listUsers';

export class BearerAuth {
  readonly #tokens: TokenStore;
  readonly #clients: ClientRegistry;
  readonly #unchecked: boolean;
  readonly #scopeStatus401: boolean;
  /** Accepted scopes per endpoint after faults; null: any token passes. */
  readonly #accepted: Record<ScopedEndpoint, readonly string[] | null>;
  /** Pre-serialised `WWW-Authenticate` values for a refused scope. */
  readonly #insufficient: Record<ScopedEndpoint, string>;

  constructor(o: { tokens: TokenStore; clients: ClientRegistry; faults: Faults; variants: Variants }) {
    this.#tokens = o.tokens;
    this.#clients = o.clients;
    this.#unchecked = o.faults.has('bearer-not-checked');
    this.#scopeStatus401 = o.variants.has('missing-scope-401');
    const content = o.faults.has('scope-not-enforced-content')
      ? null
      : o.faults.has('content-write-refused')
        ? ENDPOINTS.listContent.acceptedScopes.filter((s) => s !== 'content:write')
        : ENDPOINTS.listContent.acceptedScopes;
    const users = o.faults.has('scope-not-enforced-users') ? null : ENDPOINTS.listUsers.acceptedScopes;
    this.#accepted = { listContent: content, listUsers: users };
    this.#insufficient = {
      listContent: `Bearer error="insufficient_scope", scope="${(content ?? []).join(' ')}"`,
      listUsers: `Bearer error="insufficient_scope", scope="${(users ?? []).join(' ')}"`,
    };
  }

  /** The grant of the request's bearer token, or the 401 to answer with. */
  authenticate(authorization: string | undefined): AuthResult {
    const header = parseBearer(authorization);
    if (header.kind === 'token') {
      const grant = this.#tokens.verify(header.token);
      if (grant !== undefined) return { ok: true, grant };
    }
    if (this.#unchecked) {
      const client = this.#clients.first();
      return { ok: true, grant: { token: '', client, scopes: client.scopes, issuedAtMs: 0, lifetimeSeconds: client.tokenTtlSeconds } };
    }
    if (header.kind === 'missing') {
      return {
        ok: false,
        error: apiErrors.unauthorized('The request has no Authorization header; send Authorization: Bearer <access token>.'),
        headers: ['WWW-Authenticate', 'Bearer'],
      };
    }
    if (header.kind === 'other-scheme') {
      return {
        ok: false,
        error: apiErrors.unauthorized('The Authorization header is not of the form "Bearer <access token>".'),
        headers: ['WWW-Authenticate', 'Bearer'],
      };
    }
    if (header.kind === 'malformed') {
      return {
        ok: false,
        error: apiErrors.unauthorized('The bearer token is malformed: expected one token of letters, digits and -._~+/ after "Bearer ".'),
        headers: ['WWW-Authenticate', 'Bearer error="invalid_token"'],
      };
    }
    return {
      ok: false,
      error: apiErrors.unauthorized('The access token is unknown, expired or logged out.'),
      headers: ['WWW-Authenticate', 'Bearer error="invalid_token"'],
    };
  }

  /** Whether the grant holds one of the endpoint's accepted scopes (reference notes, Token endpoint). */
  checkScope(grant: AccessGrant, endpoint: ScopedEndpoint): ScopeRefusal | undefined {
    const accepted = this.#accepted[endpoint];
    if (accepted === null) return undefined;
    for (const scope of accepted) if (grant.scopes.has(scope)) return undefined;
    const detail = `${ENDPOINTS[endpoint].method} ${ENDPOINTS[endpoint].path} needs one of the scopes ${accepted.join(', ')}; the token holds ${
      grant.scopes.size === 0 ? 'none' : [...grant.scopes].join(', ')
    }.`;
    const error = this.#scopeStatus401 ? apiErrors.unauthorized(detail) : apiErrors.forbidden(detail);
    return { error, headers: ['WWW-Authenticate', this.#insufficient[endpoint]] };
  }
}
