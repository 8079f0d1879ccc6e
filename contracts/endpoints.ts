/**
 * Every endpoint of the API document: method, origin, path, what authenticates it and which scopes it accepts. The mock routes from this table, the specs build
 * their matrices from it, the OpenAPI document is generated from it.
 */
import type { Scope } from './scopes.ts';

/** `auth` is {auth_url} (token endpoint), `api` is {base_url} (logout and resources). */
export type Origin = 'auth' | 'api';

export interface QueryParameter {
  readonly name: string;
  readonly description: string;
  readonly schema: { readonly type: 'integer' | 'string'; readonly format?: 'date' };
}

export interface Endpoint {
  readonly id: 'token' | 'logout' | 'listContent' | 'listUsers';
  readonly method: 'GET' | 'POST';
  readonly origin: Origin;
  readonly path: string;
  readonly summary: string;
  /** How a request proves who it is: form credentials or a bearer token. */
  readonly authentication: 'client-credentials' | 'bearer';
  /** Any one of these scopes lets a token call the endpoint; empty: any valid token. */
  readonly acceptedScopes: readonly Scope[];
  /** Where acceptedScopes comes from: the document itself or the platform docs. */
  readonly scopesSource: 'document' | 'platform-docs' | 'none';
  readonly requestContentType?: 'application/x-www-form-urlencoded' | 'application/json';
  /** Snapshot pagination with `limit` and `next` (document, List content items). */
  readonly paginated: boolean;
  /** `type` of the resource objects in `data`. */
  readonly resourceType?: 'content' | 'users';
  readonly query: readonly QueryParameter[];
}

const LIMIT: QueryParameter = { name: 'limit', description: 'Number of items per page (default 100, maximum 1000).', schema: { type: 'integer' } };
const NEXT = { name: 'next', description: 'Cursor from links.next of the previous response; selects the following page.', schema: { type: 'string' } } as const;

/** Date filters of the content listing (platform docs); values are `yyyy-mm-dd`. */
export const CONTENT_FILTERS = [
  { name: 'filter[start_date]', attribute: 'created-at', bound: 'from', description: 'Created on or after this date.' },
  { name: 'filter[end_date]', attribute: 'created-at', bound: 'before', description: 'Created before this date.' },
  { name: 'filter[modified_after]', attribute: 'modified-at', bound: 'from', description: 'Modified after this date.' },
  { name: 'filter[modified_before]', attribute: 'modified-at', bound: 'before', description: 'Modified before this date.' },
] as const;
export type ContentFilterName = (typeof CONTENT_FILTERS)[number]['name'];

/** What the two OAuth endpoints share: no scope, no pagination, no query. */
const OAUTH = { acceptedScopes: [], scopesSource: 'none', paginated: false, query: [] } as const;
/** What the two resource endpoints share: scoped per the platform docs, paginated. */
const LIST = { method: 'GET', origin: 'api', authentication: 'bearer', scopesSource: 'platform-docs', paginated: true } as const;

export const ENDPOINTS = {
  token: {
    id: 'token',
    method: 'POST',
    origin: 'auth',
    path: '/oauth/token',
    summary: 'Request an access token (OAuth 2.0 client credentials)',
    authentication: 'client-credentials',
    requestContentType: 'application/x-www-form-urlencoded',
    ...OAUTH,
  },
  logout: {
    id: 'logout',
    method: 'POST',
    origin: 'api',
    path: '/oauth/token',
    summary: 'Log out: the access token (and the refresh token, if provided) expires immediately',
    authentication: 'bearer',
    requestContentType: 'application/json',
    ...OAUTH,
  },
  listContent: {
    ...LIST,
    id: 'listContent',
    path: '/api/v2/content',
    summary: 'List content items',
    acceptedScopes: ['content:read', 'content:write'],
    resourceType: 'content',
    query: [LIMIT, NEXT, ...CONTENT_FILTERS.map((f) => ({ name: f.name, description: f.description, schema: { type: 'string', format: 'date' } }) as const)],
  },
  listUsers: {
    ...LIST,
    id: 'listUsers',
    path: '/api/v2/users',
    summary: 'List users',
    acceptedScopes: ['users:read', 'users:write'],
    resourceType: 'users',
    query: [LIMIT, NEXT],
  },
} as const satisfies Record<string, Endpoint>;

export type EndpointId = keyof typeof ENDPOINTS;

/** The resource endpoints, by id: the ones a page, a snapshot and a list request belong to. */
export type ListEndpointId = 'listContent' | 'listUsers';

/** The endpoints that answer with resource objects (bearer, scoped, paginated, rate-limited). */
export const RESOURCE_ENDPOINTS: readonly Endpoint[] = [ENDPOINTS.listContent, ENDPOINTS.listUsers];

/** Path prefix of every resource endpoint; the version is part of the path (document, Versioning). */
export const API_PREFIX = '/api/v2';
