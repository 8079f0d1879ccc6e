/**
 * Every rule the suite checks, named once, at one of two levels:
 *
 * - `contract`: the API document states it. `quote` holds the document's own words, `section` where
 *   they stand. A broken contract rule fails the run.
 * - `platform`: the document leaves the point open ("not shown"), and the rule is what the real
 *   platform's public documentation records, or a stricter choice of this project's mock. A broken
 *   platform rule is reported (a "platform deviation"); it fails the run only with LP_STRICT=1.
 *
 * Tests declare the rules they enforce by these ids (specs/fixtures), faults name the rule they break,
 * and `npm run rules` / docs/rules.md list every rule with its tests. k6-safe: load scripts name their
 * findings by these ids too. One file, longer than most, on purpose: the catalogue is read as a whole,
 * and a rule must never have a second home.
 */

export type RuleLevel = 'contract' | 'platform';

/** Groups of rules, in the order reports list them. */
export const RULE_AREAS = {
  token: 'Token issuance',
  scopes: 'Scopes',
  provider: 'Provider keys',
  bearer: 'Bearer authentication',
  logout: 'Logout',
  lifetime: 'Token lifetime',
  snapshots: 'Snapshot pagination',
  envelope: 'List envelope',
  content: 'Content items',
  users: 'Users',
  'rate-limit': 'Rate limit',
  '429': '429 and Retry-After',
  errors: 'Errors',
} as const;
export type RuleArea = keyof typeof RULE_AREAS;

interface RuleBase {
  readonly area: RuleArea;
  /** What must hold, in this project's words: a report line names the rule by this. */
  readonly statement: string;
}

export interface ContractRule extends RuleBase {
  readonly level: 'contract';
  /** Where the document states it, e.g. `Endpoints, 1. Request an access token`. */
  readonly section: string;
  /** The document's words (sentences or table cells) that state the rule. */
  readonly quote: string;
}

export interface PlatformRule extends RuleBase {
  readonly level: 'platform';
  /** `platform-docs`: the real platform's public documentation or fixtures record it; `mock`: the mock's own stricter choice. */
  readonly basis: 'platform-docs' | 'mock';
  /** What the document leaves open here, and what the basis says. */
  readonly note: string;
}

export type Rule = ContractRule | PlatformRule;

export const RULES = {
  // Token issuance ---------------------------------------------------------------------------
  'token.issued': {
    level: 'contract',
    area: 'token',
    statement: 'a token request with valid client credentials and held scopes gets a token: access_token, token_type, expires_in and refresh_token',
    section: 'States and transitions; Endpoints, 1. Request an access token',
    quote:
      'none | Token request accepted | Valid client credentials and scope | token valid | Response carries access_token, expires_in, refresh_token. — Response: JSON object with access_token, token_type, expires_in, refresh_token.',
  },
  'token.response': {
    level: 'contract',
    area: 'token',
    statement: 'the token response holds access_token (string), token_type bearer (any case), expires_in (integer seconds) and refresh_token (string)',
    section: 'Resources, Access token response',
    quote: 'access_token | string | Bearer token. token_type | string | `bearer`. expires_in | integer | Lifetime in seconds. refresh_token | string',
  },
  'token.credentials': {
    level: 'contract',
    area: 'token',
    statement: 'a token request with a wrong client secret or an unknown client_id gets no token',
    section: 'States and transitions; Authentication 1',
    quote: 'Token request accepted | Valid client credentials and scope. — An API key is the pair client_id and client_secret.',
  },
  'token.held-scopes': {
    level: 'contract',
    area: 'token',
    statement: 'a token request for a scope the key does not hold gets no token',
    section: 'States and transitions; Authentication 2',
    quote:
      'Token request accepted | Valid client credentials and scope. — Additional scopes are obtained by requesting a new key with the needed scopes, or by asking for scopes to be added to an existing key.',
  },
  'token.grant-type': {
    level: 'contract',
    area: 'token',
    statement: 'a token request whose grant_type is not client_credentials gets no access token for the client credentials',
    section: 'Endpoints, 1. Request an access token',
    quote: 'grant_type | string | yes | Must be `client_credentials`.',
  },
  'token.scope-list': {
    level: 'contract',
    area: 'token',
    statement: 'several scopes requested as a comma-delimited list are granted together',
    section: 'Endpoints, 1. Request an access token; Authentication 5',
    quote: 'scope | string | yes | Scopes requested, comma-delimited list. — The token request passes scopes as a comma-delimited list.',
  },

  // Scopes -----------------------------------------------------------------------------------
  'scopes.limit-token': {
    level: 'contract',
    area: 'scopes',
    statement: 'a token whose scopes name only another resource is refused by a resource endpoint (4xx, no data)',
    section: 'Endpoints, 1. Request an access token; Authentication 5',
    quote:
      'The token is valid only for the operations and resources named by the scopes of the request. — Scopes control the sets of operations and resources that a token permits.',
  },

  // Provider keys ----------------------------------------------------------------------------
  'provider.isolation': {
    level: 'contract',
    area: 'provider',
    statement: 'a provider key lists only content items associated with its provider',
    section: 'Authentication 3',
    quote: 'A key may be associated with a provider (provider key): it then reaches only data associated with that provider',
  },

  // Bearer authentication --------------------------------------------------------------------
  'bearer.required': {
    level: 'contract',
    area: 'bearer',
    statement: 'a resource request without a valid bearer token (none, malformed, unknown, altered) is refused with a 4xx and no data',
    section: 'Authentication 6',
    quote: 'Calls to resource endpoints carry the header `Authorization: Bearer <ACCESS_TOKEN>`.',
  },

  // Logout -------------------------------------------------------------------------------------
  'logout.expires-access': {
    level: 'contract',
    area: 'logout',
    statement: 'after logout the access token no longer authenticates, at once, on every resource endpoint',
    section: 'Endpoints, 2. Log out; Authentication 9; States and transitions',
    quote:
      'Effect: the access token (and the refresh token, if provided) expires immediately. — token valid | Logout request | Bearer token supplied | token expired | Access token expires immediately',
  },
  'logout.expires-refresh': {
    level: 'contract',
    area: 'logout',
    statement: 'a refresh token provided with the logout no longer refreshes',
    section: 'Endpoints, 2. Log out; States and transitions',
    quote: 'the access token (and the refresh token, if provided) expires immediately. — the refresh token, if provided, expires too.',
  },

  // Token lifetime -----------------------------------------------------------------------------
  'lifetime.expiry': {
    level: 'contract',
    area: 'lifetime',
    statement: 'a token authenticates until its age reaches its lifetime, and not after',
    section: 'States and transitions; Authentication 7',
    quote:
      'token valid | Time passes | Token age reaches its lifetime (default 60 days, configurable per organization) | token expired | Token no longer authenticates.',
  },
  'lifetime.expires-in': {
    level: 'contract',
    area: 'lifetime',
    statement: 'expires_in is a positive whole number of seconds, not above the configured lifetime',
    section: 'Resources, Access token response; Authentication 7',
    quote: 'expires_in | integer | Lifetime in seconds. — Default token lifetime is 60 days (`expires_in` is in seconds).',
  },

  // Snapshot pagination ------------------------------------------------------------------------
  'snapshot.isolation': {
    level: 'contract',
    area: 'snapshots',
    statement: 'a walk shows the data set as it was at its first request: items created or changed after it do not show',
    section: 'Endpoints, 3. List content items, pagination rule 1; States and transitions',
    quote:
      'The first request creates a snapshot of the data set. — none | First list request | Endpoint supports pagination | snapshot active | A snapshot of the paginated data set is taken.',
  },
  'snapshot.next': {
    level: 'contract',
    area: 'snapshots',
    statement: 'each page but the last supplies a new next value, and the same request with the newest next gives the following page',
    section: 'Endpoints, 3. List content items, pagination rules 2 and 3',
    quote:
      'To get the next page, send the same request with `next` set to the value taken from `links.next`. Each response supplies a new `next` value; use the newest one on each call.',
  },
  'snapshot.traversal': {
    level: 'contract',
    area: 'snapshots',
    statement: 'a walk yields every item of its snapshot exactly once and comes to an end',
    section: 'Endpoints, 3. List content items, pagination rules 1 and 2',
    quote: 'The first request creates a snapshot of the data set. To get the next page, send the same request with `next`…',
  },
  'snapshot.alive': {
    level: 'contract',
    area: 'snapshots',
    statement: 'a request with the newest next within 2 minutes of the previous request of the set continues the snapshot',
    section: 'States and transitions',
    quote:
      'snapshot active | Request with `next` | Within 2 minutes of the previous request of the set | snapshot active | A new `next` value is returned for the following page.',
  },
  'snapshot.expiry': {
    level: 'contract',
    area: 'snapshots',
    statement: 'after 2 minutes without a request with next the snapshot can no longer be continued (4xx); a request without next starts a new one',
    section: 'Endpoints, 3. List content items, pagination rule 4; States and transitions; Limits',
    quote:
      'If no request with `next` is made for 2 minutes, the snapshot becomes obsolete. — snapshot active | No request with `next` | 2 minutes elapse | snapshot obsolete | The snapshot can no longer be continued.',
  },

  // List envelope ------------------------------------------------------------------------------
  'envelope.shape': {
    level: 'contract',
    area: 'envelope',
    statement:
      'a list response is a JSON object with links (self, and next where there is a next page) and a data array of objects with type, id and attributes',
    section: 'What the service does; Resources, Envelope of a list response and Resource object',
    quote:
      'Request and response bodies of resource endpoints are JSON documents with the members `links` and `data`. Each item in `data` has `type`, `id` and `attributes`. — links | object | Contains `self` and `next`.',
  },
  'envelope.self': {
    level: 'contract',
    area: 'envelope',
    statement: "links.self is an absolute URL naming the target's own origin and the path of the request",
    section: 'Resources, Envelope of a list response',
    quote: 'links.self | string (URL) | Address of the current request.',
  },
  'envelope.next-link': {
    level: 'contract',
    area: 'envelope',
    statement: "links.next, where it is a non-empty string, is a URL on the target's own origin and path that carries the next query parameter",
    section: 'Resources, Envelope of a list response',
    quote: 'links.next | string (URL) | Address of the next page; carries the `next` query parameter.',
  },

  // Content items ------------------------------------------------------------------------------
  'content.type': {
    level: 'contract',
    area: 'content',
    statement: 'every item of the content list has type content',
    section: 'Resources, Resource object',
    quote: 'type | string | Kind of resource, for a content item `content`.',
  },
  'content.attributes': {
    level: 'contract',
    area: 'content',
    statement: 'every content item carries each documented attribute with its documented type (hyphenated names; more attributes allowed)',
    section: 'Resources, Content item attributes',
    quote:
      'Attribute names use hyphens. content-type | string … is-obsolete | boolean … duration | number (decimal) … publish-date | string timestamp or null | Null when not set.',
  },
  'content.timestamps': {
    level: 'contract',
    area: 'content',
    statement: 'created-at and modified-at are ISO 8601 date-times without a time zone',
    section: 'Resources, Content item attributes',
    quote: 'created-at | string, timestamp without time zone, ISO 8601 style with fractional seconds. modified-at | string, same format as created-at.',
  },
  'content.limit': {
    level: 'contract',
    area: 'content',
    statement: 'a page holds at most limit items',
    section: 'Endpoints, 3. List content items',
    quote: 'limit | integer | Number of items per page.',
  },

  // Users --------------------------------------------------------------------------------------
  'users.list': {
    level: 'contract',
    area: 'users',
    statement: 'GET /api/v2/users answers a token of a key with a users scope with a list envelope of resource objects',
    section: 'Endpoints, 4. List users; What the service does',
    quote: 'Method and path: `GET {base_url}/api/v2/users`. — Lists of resources are returned in pages.',
  },

  // Rate limit ---------------------------------------------------------------------------------
  'rate.headers': {
    level: 'contract',
    area: 'rate-limit',
    statement:
      'a resource response carries X-Rate-Limit-Limit (a period like 1m), X-Rate-Limit-Remaining (a whole number) and X-Rate-Limit-Reset (a UTC ISO 8601 time within one period)',
    section: 'Limits, Rate limit response headers',
    quote:
      'X-Rate-Limit-Limit | Rate limit period, written like `1m`, `12h` or `1d`. X-Rate-Limit-Remaining | Number of requests remaining. X-Rate-Limit-Reset | UTC date and time, ISO 8601, when the limit resets.',
  },
  'rate.remaining': {
    level: 'contract',
    area: 'rate-limit',
    statement: 'X-Rate-Limit-Remaining falls by one with each request of the client within a window',
    section: 'Limits, Rate limit response headers',
    quote: 'X-Rate-Limit-Remaining | Number of requests remaining.',
  },
  'rate.per-client': {
    level: 'contract',
    area: 'rate-limit',
    statement:
      'the budget belongs to the API client and covers all its endpoints: a new token of the same client does not renew it, another client’s requests do not spend it, and GET /api/v2/users is refused like content once it is spent',
    section: 'Limits',
    quote: 'Default request rate | 200 requests per minute | One API client, all endpoints.',
  },
  'rate.budget': {
    level: 'contract',
    area: 'rate-limit',
    statement: 'the budget of a window (first Remaining + 1) and its period (X-Rate-Limit-Limit) are the rate in force (LP_RATE when set)',
    section: 'Limits',
    quote: 'Custom rate | Set per organization on request; headers reflect the limit in force | One API client.',
  },
  'rate.period': {
    level: 'contract',
    area: 'rate-limit',
    statement:
      'X-Rate-Limit-Limit is the period of the windows the resets show: a window opened once the previous one’s X-Rate-Limit-Reset has passed resets no sooner than one period after it',
    section: 'Limits, Rate limit response headers',
    quote: 'X-Rate-Limit-Limit | Rate limit period, written like `1m`, `12h` or `1d`. X-Rate-Limit-Reset | UTC date and time, ISO 8601, when the limit resets.',
  },
  'rate.reset': {
    level: 'contract',
    area: 'rate-limit',
    statement: 'once X-Rate-Limit-Reset has passed, the budget is back: a request is served',
    section: 'Limits, Rate limit response headers',
    quote: 'X-Rate-Limit-Reset | UTC date and time, ISO 8601, when the limit resets.',
  },

  // 429 and Retry-After ------------------------------------------------------------------------
  'rate.429': {
    level: 'contract',
    area: '429',
    statement: 'the request after the budget of a window is spent gets 429, and no request within the budget does',
    section: 'Errors',
    quote: '429 Too Many Requests | The client exceeds its assigned rate limit.',
  },
  'rate.retry-after': {
    level: 'contract',
    area: '429',
    statement: 'every 429 carries Retry-After, and a request sent once it has passed (nothing sent meanwhile) is served',
    section: 'Errors',
    quote: 'The response includes the header `Retry-After`, which says how long to wait before the next request.',
  },

  // Platform expectations ----------------------------------------------------------------------
  'platform.token-refusal-status': {
    level: 'platform',
    area: 'token',
    statement: 'wrong credentials and unheld scopes are refused with 403',
    basis: 'platform-docs',
    note: 'The document shows no status for refused token requests; the platform answers 403 (RFC 6749 would say 400 or 401).',
  },
  'platform.token-type-case': {
    level: 'platform',
    area: 'token',
    statement: 'token_type is exactly the lower-case "bearer" of the document’s table',
    basis: 'platform-docs',
    note: 'RFC 6749 reads token_type case-insensitively; the platform writes "bearer".',
  },
  'platform.fresh-expires-in': {
    level: 'platform',
    area: 'lifetime',
    statement: 'a token new to this run has expires_in within a few seconds of the configured lifetime',
    basis: 'platform-docs',
    note: 'The platform counts expires_in down from the lifetime (5183999 for 60 days); a service that hands back a live token may count further down.',
  },
  'platform.refresh-grant': {
    level: 'platform',
    area: 'token',
    statement: 'the token endpoint answers grant_type=refresh_token with a new token',
    basis: 'mock',
    note: 'The document says only that a refresh token is issued and is not for API access by external parties.',
  },
  'platform.scope-required': {
    level: 'platform',
    area: 'token',
    statement: 'a token request without a scope gets no token',
    basis: 'mock',
    note: 'The document marks scope as required of the request but does not say what a request without one gets; RFC 6749 makes scope optional (a service may grant default scopes).',
  },
  'platform.token-form-only': {
    level: 'platform',
    area: 'token',
    statement: 'a token request with a JSON body instead of the form gets no token',
    basis: 'mock',
    note: 'The document names the form content type; a service may read a JSON body as well.',
  },
  'platform.endpoint-scopes': {
    level: 'platform',
    area: 'scopes',
    statement: 'content:read or content:write lists content; users:read or users:write lists users',
    basis: 'platform-docs',
    note: 'The document shows neither the scope names nor which scope each endpoint requires.',
  },
  'platform.unauthenticated-status': {
    level: 'platform',
    area: 'bearer',
    statement: 'a missing, invalid, expired or logged-out bearer token is refused with 401',
    basis: 'platform-docs',
    note: 'The document shows no status for an invalid token; the platform documents 401.',
  },
  'platform.missing-scope-status': {
    level: 'platform',
    area: 'scopes',
    statement: 'a token without the scope an endpoint needs is refused with 403',
    basis: 'platform-docs',
    note: 'The document shows no status for a missing scope; the platform documents 403.',
  },
  'platform.error-body': {
    level: 'platform',
    area: 'errors',
    statement: 'a 4xx of a resource endpoint or of logout carries {"errors":[{status, title or detail}]}',
    basis: 'platform-docs',
    note: 'The document shows no error body; the platform’s fixtures show this shape.',
  },
  'platform.logout-response': {
    level: 'platform',
    area: 'logout',
    statement: 'a logout with a valid token is answered with a 2xx; one without a token is refused',
    basis: 'mock',
    note: 'The document shows neither the request body nor the response of logout.',
  },
  'platform.logout-scoped': {
    level: 'platform',
    area: 'logout',
    statement: 'logging out one token leaves another token of the same client working',
    basis: 'mock',
    note: 'The document says the supplied token expires; a service that hands every request of a client the same live token ends them all.',
  },
  'platform.limit-bounds': {
    level: 'platform',
    area: 'content',
    statement: 'limit defaults to 100 and goes up to 1000; out of range, a 4xx or a page within the bounds',
    basis: 'platform-docs',
    note: 'The document shows neither the default nor the maximum of limit.',
  },
  'platform.filters': {
    level: 'platform',
    area: 'content',
    statement:
      'filter[start_date] / filter[end_date] keep items created from / before a yyyy-mm-dd day, filter[modified_after] / filter[modified_before] items modified after / before it',
    basis: 'platform-docs',
    note: 'The document says date filters exist but not their names or meaning.',
  },
  'platform.query-refusals': {
    level: 'platform',
    area: 'content',
    statement: 'an unknown or unreadable query parameter is refused with a 4xx naming it',
    basis: 'mock',
    note: 'The document does not say what a service does with a parameter it does not know or cannot read.',
  },
  'platform.self-query': {
    level: 'platform',
    area: 'envelope',
    statement: 'links.self carries the query of the request, or none at all',
    basis: 'platform-docs',
    note: 'The platform’s links.self drops the query string.',
  },
  'platform.obsolete-status': {
    level: 'platform',
    area: 'snapshots',
    statement: 'the next value of an obsolete snapshot is refused with 410',
    basis: 'mock',
    note: 'The document does not give the status of an obsolete snapshot.',
  },
  'platform.timestamp-fraction': {
    level: 'platform',
    area: 'content',
    statement: 'timestamps carry 1 to 7 fractional digits',
    basis: 'platform-docs',
    note: 'The platform writes 1 to 7 digits (2022-03-13T21:31:12.44); a zero fraction may be dropped by other serialisers.',
  },
  'platform.publish-date-format': {
    level: 'platform',
    area: 'content',
    statement: 'publish-date, when set, is written like created-at: no time zone, 1 to 7 fractional digits',
    basis: 'platform-docs',
    note: 'The document gives publish-date only as a "string timestamp or null"; the same format is stated for modified-at, not for publish-date. The platform writes its timestamps alike.',
  },
  'platform.content-values': {
    level: 'platform',
    area: 'content',
    statement: 'content-type and duration-type take the values the platform documents',
    basis: 'platform-docs',
    note: 'The document does not list the allowed values of content-type, format, duration-type and provider.',
  },
  'platform.users-shape': {
    level: 'platform',
    area: 'users',
    statement: 'users are resource objects of type users with the attributes the platform documents',
    basis: 'platform-docs',
    note: 'The document does not show the fields of the user resource.',
  },
  'platform.rate-headers-everywhere': {
    level: 'platform',
    area: 'rate-limit',
    statement: 'the X-Rate-Limit-* headers come on every response of the api origin, 429s and logout included',
    basis: 'mock',
    note: 'The document lists the headers without saying which responses carry them.',
  },
  'platform.default-rate': {
    level: 'platform',
    area: 'rate-limit',
    statement: 'without LP_RATE, the rate in force is the default 200 per 1m',
    basis: 'platform-docs',
    note: 'An organization may have a custom rate; set LP_RATE to it to make this a contract check.',
  },
  'platform.retry-after-reset': {
    level: 'platform',
    area: '429',
    statement: 'Retry-After names the time of X-Rate-Limit-Reset, within one second',
    basis: 'mock',
    note: 'The document says Retry-After says how long to wait; a service may ask for a longer wait than its window.',
  },
} as const satisfies Record<string, Rule>;

export type RuleId = keyof typeof RULES;

export const RULE_IDS = Object.keys(RULES) as RuleId[];

export function isRuleId(text: string): text is RuleId {
  return Object.prototype.hasOwnProperty.call(RULES, text);
}

export function ruleLevel(id: RuleId): RuleLevel {
  return RULES[id].level;
}
