/**
 * What the API document asks of a CLIENT (not of the service): the rules the mock judges its callers
 * by (mock/client-findings.ts) and reports as client findings to SDK developers. Each rule names the
 * document's words it rests on; `stated` rules are the document's sentences, `implied` ones follow
 * from them (a 60-day token is meant to be reused). The thresholds the judging needs where the
 * document gives no number (how many token requests are "too many", how much a backoff must grow)
 * are the mock's choices and live with the judging, not here.
 *
 * These rules never decide a verdict about the service: they judge the client that calls the mock.
 * k6-safe: no Node APIs.
 */

export interface ClientRule {
  /** Where the document says it. */
  readonly section: string;
  /** The document's words. */
  readonly quote: string;
  /** `stated`: the words ask it of the client; `implied`: it follows from them. */
  readonly basis: 'stated' | 'implied';
  /** What a client is expected to do, in this project's words: every finding repeats it. */
  readonly expected: string;
}

export const CLIENT_RULES = {
  'retry-after-honoured': {
    section: 'Errors',
    quote: 'Client behaviour expected after 429: honor `Retry-After`; do not retry at once (immediate retries can extend the limiting)',
    basis: 'stated',
    expected: 'After a 429, send the next request of the same client only once its Retry-After has passed.',
  },
  'backoff-grows': {
    section: 'Errors',
    quote: 'use exponential backoff in automated integrations',
    basis: 'stated',
    expected: 'After repeated 429s in a row, wait longer before each new attempt (exponential backoff).',
  },
  'within-rate': {
    section: 'Errors; Limits',
    quote: '429 Too Many Requests: The client exceeds its assigned rate limit. / Default request rate: 200 requests per minute, one API client, all endpoints.',
    basis: 'stated',
    expected: 'Do not send requests once a response said the window is spent (X-Rate-Limit-Remaining 0, or a 429) until X-Rate-Limit-Reset or Retry-After.',
  },
  'newest-next': {
    section: 'Endpoints, 3. List content items, pagination rule 3',
    quote: 'Each response supplies a new `next` value; use the newest one on each call.',
    basis: 'stated',
    expected: 'Continue a walk with the `next` value of the latest response of that snapshot, never an earlier one.',
  },
  'same-request-with-next': {
    section: 'Endpoints, 3. List content items, pagination rule 2',
    quote: 'To get the next page, send the same request with `next` set to the value taken from `links.next`.',
    basis: 'stated',
    expected: 'A request with `next` repeats the query that started the snapshot (same limit, same filters), adding only `next`.',
  },
  'bearer-header': {
    section: 'Authentication 6',
    quote: 'Calls to resource endpoints carry the header `Authorization: Bearer <ACCESS_TOKEN>`.',
    basis: 'stated',
    expected: 'Every call to /api/v2 and every logout carries Authorization: Bearer with an access token.',
  },
  'refresh-not-bearer': {
    section: 'Authentication 8',
    quote: 'The refresh token is not used for API access by external parties.',
    basis: 'stated',
    expected: 'Send the access token as the bearer, never the refresh token.',
  },
  'new-token-after-401': {
    section: 'States and transitions; Authentication 9',
    quote: 'token expired: Token no longer authenticates. / Logout (endpoint 2) expires the token immediately.',
    basis: 'implied',
    expected: 'Once a token was refused as invalid (expired or logged out), request a new token instead of sending the old one again.',
  },
  'token-reuse': {
    section: 'Authentication 7',
    quote: 'Default token lifetime is 60 days (`expires_in` is in seconds).',
    basis: 'implied',
    expected: 'Keep using an access token for its lifetime; request a new one when it expires or was refused, not for every few calls.',
  },
  'token-form-body': {
    section: 'Endpoints, 1. Request an access token',
    quote: 'Header: `Content-Type: application/x-www-form-urlencoded`',
    basis: 'stated',
    expected: 'Send the token request as a form: Content-Type application/x-www-form-urlencoded with the fields in the body.',
  },
} as const satisfies Record<string, ClientRule>;

export type ClientRuleId = keyof typeof CLIENT_RULES;

export const CLIENT_RULE_IDS = Object.keys(CLIENT_RULES) as ClientRuleId[];
