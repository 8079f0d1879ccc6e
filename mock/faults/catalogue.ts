/**
 * The fault catalogue: each fault breaks one rule of contracts/rules/, so that the fault matrix
 * (`npm run test:faults`) can prove the suite catches it, at the rule's level (a contract rule fails
 * a run; a platform rule only with LP_STRICT=1). The rule's area picks the spec files that state it
 * (specs/faults/areas.ts). The implementations are in the modules of this folder, by the seam they
 * use (mock/seams.ts); a few need no seam, only other options (configuration.ts).
 */
import type { RuleId } from '../../contracts/rules/index.ts';

export interface FaultInfo {
  /** The rule the fault breaks. */
  readonly rule: RuleId;
  /** What the mock does wrong, in a few words. */
  readonly breaks: string;
}

export const FAULTS = {
  // Token issuance
  'token-wrong-secret-accepted': { rule: 'token.credentials', breaks: 'a wrong client secret gets a token' },
  'token-unheld-scope-granted': {
    rule: 'token.held-scopes',
    breaks: 'a scope the key does not hold is granted (the key’s scopes widened behind the suite’s back)',
  },
  'token-unsupported-grant-accepted': { rule: 'token.grant-type', breaks: 'a grant_type other than client_credentials gets a token' },
  'token-expires-in-string': { rule: 'token.response', breaks: 'expires_in is a string, not an integer' },
  'token-type-not-bearer': { rule: 'token.response', breaks: 'token_type is not bearer' },
  'token-refresh-token-missing': { rule: 'token.issued', breaks: 'the token response carries no refresh_token' },
  'scope-list-refused': { rule: 'token.scope-list', breaks: 'several scopes requested as a comma-delimited list are refused' },
  // Scopes and provider keys
  'scope-not-enforced-content': { rule: 'scopes.limit-token', breaks: 'a token without a content scope lists content' },
  'scope-not-enforced-users': { rule: 'scopes.limit-token', breaks: 'a token without a users scope lists users' },
  'provider-isolation-broken': {
    rule: 'provider.isolation',
    breaks: 'a provider key lists every provider’s content (registered without its provider)',
  },
  // Logout
  'logout-keeps-access-token': { rule: 'logout.expires-access', breaks: 'a logged-out access token still authenticates' },
  'logout-keeps-refresh-token': { rule: 'logout.expires-refresh', breaks: 'a refresh token given with the logout still refreshes' },
  'logout-without-token-accepted': { rule: 'platform.logout-response', breaks: 'a logout without a bearer token is answered 204' },
  // Token lifetime
  'token-never-expires': { rule: 'lifetime.expiry', breaks: 'a token still authenticates after its lifetime' },
  'expires-in-above-lifetime': { rule: 'lifetime.expires-in', breaks: 'expires_in is a day longer than the configured lifetime' },
  // Bearer authentication
  'bearer-not-checked': { rule: 'bearer.required', breaks: 'a resource request without a valid bearer token is served' },
  // Envelope, content items, users
  'attribute-wrong-type': { rule: 'content.attributes', breaks: 'is-obsolete is a string, not a boolean' },
  'attribute-missing': { rule: 'content.attributes', breaks: 'content items lack summary' },
  'timestamp-with-zone': { rule: 'content.timestamps', breaks: 'created-at carries a time zone' },
  'type-wrong': { rule: 'content.type', breaks: 'content items have type contents' },
  'links-self-missing': { rule: 'envelope.shape', breaks: 'links has no self' },
  'links-self-other-path': { rule: 'envelope.self', breaks: 'links.self names another path (/api/v1/…)' },
  'next-link-other-origin': { rule: 'envelope.next-link', breaks: 'links.next points at another origin' },
  'users-item-id-missing': { rule: 'users.list', breaks: 'users are resource objects without an id' },
  // limit
  'limit-ignored': { rule: 'content.limit', breaks: 'limit is ignored: pages hold the default count' },
  'limit-off-by-one': { rule: 'content.limit', breaks: 'a page holds limit + 1 items' },
  // Date filters (named by the platform's documentation, not the document)
  'filter-start-date-ignored': { rule: 'platform.filters', breaks: 'filter[start_date] is ignored' },
  'filter-end-date-ignored': { rule: 'platform.filters', breaks: 'filter[end_date] is ignored' },
  'filter-modified-after-ignored': { rule: 'platform.filters', breaks: 'filter[modified_after] is ignored' },
  'filter-modified-before-ignored': { rule: 'platform.filters', breaks: 'filter[modified_before] is ignored' },
  // Snapshot pagination
  'snapshot-sees-changes': { rule: 'snapshot.isolation', breaks: 'a walk shows items created or changed after its first request' },
  'item-repeated-across-pages': { rule: 'snapshot.traversal', breaks: 'the last item of the first page comes again on the second' },
  'item-dropped-across-pages': { rule: 'snapshot.traversal', breaks: 'one item between the first and second page is never served' },
  'next-loops': { rule: 'snapshot.traversal', breaks: 'the next value of the second page leads back to the first page, and so on forever' },
  'next-unchanged': { rule: 'snapshot.next', breaks: 'each page hands out the next value it was asked with' },
  'snapshot-never-expires': { rule: 'snapshot.expiry', breaks: 'a snapshot never becomes obsolete' },
  'snapshot-expires-early': { rule: 'snapshot.alive', breaks: 'a snapshot becomes obsolete after 1 minute instead of 2' },
  'snapshot-expires-from-first-request': {
    rule: 'snapshot.alive',
    breaks: 'a snapshot becomes obsolete 2 minutes after its first request, however recent the previous one',
  },
  // Rate limit
  'rate-header-limit-missing': { rule: 'rate.headers', breaks: 'responses lack X-Rate-Limit-Limit' },
  'rate-header-remaining-missing': { rule: 'rate.headers', breaks: 'responses lack X-Rate-Limit-Remaining' },
  'rate-header-reset-missing': { rule: 'rate.headers', breaks: 'responses lack X-Rate-Limit-Reset' },
  'rate-header-reset-malformed': { rule: 'rate.headers', breaks: 'X-Rate-Limit-Reset is not ISO 8601 UTC' },
  'rate-headers-missing-users': { rule: 'rate.headers', breaks: 'responses of the users endpoint lack the X-Rate-Limit-* headers' },
  'rate-remaining-constant': { rule: 'rate.remaining', breaks: 'X-Rate-Limit-Remaining stays at the budget' },
  'rate-budget-per-token': { rule: 'rate.per-client', breaks: 'each token has a budget of its own' },
  'rate-budget-wrong': { rule: 'rate.budget', breaks: 'the budget in force is half the configured rate' },
  'rate-reset-header-early': { rule: 'rate.reset', breaks: 'X-Rate-Limit-Reset names half a period before the window really ends' },
  'rate-no-429': { rule: 'rate.429', breaks: 'a client past its budget is served' },
  'rate-429-early': { rule: 'rate.429', breaks: 'the last request of the budget gets 429' },
  'retry-after-missing': { rule: 'rate.retry-after', breaks: '429 without Retry-After' },
  'retry-after-short': { rule: 'rate.retry-after', breaks: 'Retry-After asks for half the wait to the reset' },
  'rate-budget-shared-across-clients': {
    rule: 'rate.per-client',
    breaks: 'every client spends one budget: the provider key’s requests count against the organization’s',
  },
  'rate-users-never-429': { rule: 'rate.per-client', breaks: 'GET /api/v2/users is served past the budget (never answers 429)' },
  'rate-remaining-negative': { rule: 'rate.headers', breaks: 'a 429 says X-Rate-Limit-Remaining: -1' },
  'rate-period-longer': {
    rule: 'rate.period',
    breaks: 'X-Rate-Limit-Limit names sixty times the period the windows really last (1h for windows of a minute)',
  },
  'rate-reset-hours-late': { rule: 'rate.headers', breaks: 'X-Rate-Limit-Reset names two hours after the window really ends' },
  'retry-after-hours': { rule: 'platform.retry-after-reset', breaks: 'a 429 asks for a Retry-After of 30,000 s, far past its window' },
} as const satisfies Record<string, FaultInfo>;

export type FaultName = keyof typeof FAULTS;

export const FAULT_NAMES = Object.keys(FAULTS) as FaultName[];

export function isFaultName(name: string): name is FaultName {
  return Object.hasOwn(FAULTS, name);
}
