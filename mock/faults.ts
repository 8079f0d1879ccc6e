/**
 * Faults: each breaks exactly one rule of the API document, so the suite can prove it catches it
 * (`--fault <name>`, repeatable; `faults` in the app factory). The module named in `where` implements it.
 * Adding a rule to the document means adding its fault here and a spec that catches it.
 */

export interface FaultInfo {
  readonly area: 'token' | 'scopes' | 'provider' | 'logout' | 'lifetime' | 'bearer' | 'schema' | 'limit' | 'filters' | 'snapshots' | 'rate-limit';
  /** The rule of the API document that the fault breaks. */
  readonly breaks: string;
  readonly where: string;
}

export const FAULTS = {
  'token-wrong-secret-accepted': { area: 'token', breaks: 'a token needs valid client credentials', where: 'mock/token-endpoint.ts' },
  'token-unheld-scope-granted': { area: 'token', breaks: 'a token is issued only for scopes the key holds', where: 'mock/token-endpoint.ts' },
  'token-unsupported-grant-accepted': { area: 'token', breaks: 'grant_type must be client_credentials', where: 'mock/token-endpoint.ts' },
  'token-json-body-accepted': { area: 'token', breaks: 'the token request is form-encoded', where: 'mock/token-endpoint.ts' },
  'token-expires-in-string': { area: 'token', breaks: 'expires_in is an integer', where: 'mock/token-endpoint.ts' },
  'token-type-not-bearer': { area: 'token', breaks: 'token_type is bearer', where: 'mock/token-endpoint.ts' },
  'scope-not-enforced-content': { area: 'scopes', breaks: 'listing content needs content:read or content:write', where: 'mock/bearer.ts' },
  'scope-not-enforced-users': { area: 'scopes', breaks: 'listing users needs users:read or users:write', where: 'mock/bearer.ts' },
  'content-write-refused': { area: 'scopes', breaks: 'content:write alone lists content', where: 'mock/bearer.ts' },
  'provider-isolation-broken': { area: 'provider', breaks: 'a provider key reaches only its provider’s data', where: 'mock/resources.ts' },
  'logout-keeps-access-token': { area: 'logout', breaks: 'logout expires the access token immediately', where: 'mock/logout.ts' },
  'logout-keeps-refresh-token': { area: 'logout', breaks: 'logout expires the provided refresh token', where: 'mock/logout.ts' },
  'logout-without-token-accepted': { area: 'logout', breaks: 'logout needs the bearer token', where: 'mock/logout.ts' },
  'token-never-expires': { area: 'lifetime', breaks: 'a token stops authenticating when its age reaches its lifetime', where: 'mock/tokens.ts' },
  'bearer-not-checked': { area: 'bearer', breaks: 'resource calls need a valid bearer token', where: 'mock/bearer.ts' },
  'attribute-wrong-type': { area: 'schema', breaks: 'is-obsolete is a boolean', where: 'mock/resources.ts' },
  'attribute-missing': { area: 'schema', breaks: 'content items carry every documented attribute (summary)', where: 'mock/resources.ts' },
  'timestamp-with-zone': { area: 'schema', breaks: 'created-at is a timestamp without time zone', where: 'mock/resources.ts' },
  'type-wrong': { area: 'schema', breaks: 'type of a content item is content', where: 'mock/resources.ts' },
  'links-self-missing': { area: 'schema', breaks: 'links contains self', where: 'mock/resources.ts' },
  'limit-ignored': { area: 'limit', breaks: 'a page holds at most limit items', where: 'mock/resources.ts' },
  'limit-off-by-one': { area: 'limit', breaks: 'a page holds at most limit items (one too many)', where: 'mock/resources.ts' },
  'filter-start-date-ignored': { area: 'filters', breaks: 'filter[start_date] keeps items created from that date', where: 'mock/resources.ts' },
  'filter-end-date-ignored': { area: 'filters', breaks: 'filter[end_date] keeps items created before that date', where: 'mock/resources.ts' },
  'filter-modified-after-ignored': { area: 'filters', breaks: 'filter[modified_after] keeps items modified after that date', where: 'mock/resources.ts' },
  'filter-modified-before-ignored': { area: 'filters', breaks: 'filter[modified_before] keeps items modified before that date', where: 'mock/resources.ts' },
  'snapshot-sees-changes': { area: 'snapshots', breaks: 'the first request takes a snapshot of the data set', where: 'mock/resources.ts' },
  'item-repeated-across-pages': { area: 'snapshots', breaks: 'a walk yields every item once', where: 'mock/resources.ts' },
  'item-dropped-across-pages': { area: 'snapshots', breaks: 'a walk yields every item of the snapshot', where: 'mock/resources.ts' },
  'next-unchanged': { area: 'snapshots', breaks: 'each response supplies a new next value', where: 'mock/resources.ts' },
  'snapshot-never-expires': { area: 'snapshots', breaks: 'a snapshot is obsolete after 2 minutes without a next request', where: 'mock/resources.ts' },
  'snapshot-expires-early': { area: 'snapshots', breaks: 'a snapshot lives 2 minutes after the previous request', where: 'mock/resources.ts' },
  'rate-header-limit-missing': { area: 'rate-limit', breaks: 'responses carry X-Rate-Limit-Limit', where: 'mock/rate-limit.ts' },
  'rate-header-remaining-missing': { area: 'rate-limit', breaks: 'responses carry X-Rate-Limit-Remaining', where: 'mock/rate-limit.ts' },
  'rate-header-reset-missing': { area: 'rate-limit', breaks: 'responses carry X-Rate-Limit-Reset', where: 'mock/rate-limit.ts' },
  'rate-header-reset-malformed': { area: 'rate-limit', breaks: 'X-Rate-Limit-Reset is an ISO 8601 UTC date and time', where: 'mock/rate-limit.ts' },
  'rate-remaining-constant': { area: 'rate-limit', breaks: 'X-Rate-Limit-Remaining counts the requests remaining', where: 'mock/rate-limit.ts' },
  'rate-no-429': { area: 'rate-limit', breaks: 'a client past its rate limit gets 429', where: 'mock/rate-limit.ts' },
  'rate-429-early': { area: 'rate-limit', breaks: 'no 429 before the budget is spent', where: 'mock/rate-limit.ts' },
  'retry-after-missing': { area: 'rate-limit', breaks: '429 includes Retry-After', where: 'mock/rate-limit.ts' },
  'retry-after-short': { area: 'rate-limit', breaks: 'Retry-After says how long to wait (until the reset)', where: 'mock/rate-limit.ts' },
  'rate-budget-per-token': { area: 'rate-limit', breaks: 'the rate limit applies per API client, not per token', where: 'mock/rate-limit.ts' },
} as const satisfies Record<string, FaultInfo>;

export type FaultName = keyof typeof FAULTS;
export type Faults = ReadonlySet<FaultName>;
export const NO_FAULTS: Faults = new Set();

export function isFaultName(name: string): name is FaultName {
  return Object.hasOwn(FAULTS, name);
}
