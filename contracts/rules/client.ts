/**
 * What the API document asks of a CLIENT (not of the service), each rule with its observer of one step of a service's callers (contracts/client-sequence.ts),
 * and ClientConduct, the driver (observe.ts) over them: fed every exchange a service (the mock) answered, in order, it says which of these rules each broke and
 * of which client. The numbers the document does not give (how many token requests are too many, how much a backoff must grow) are the judge's choices, below
 * and in the sequence. No verdict on a service rests on these rules. k6-safe.
 */
import { ClientSequence, type ClientStep, FORM, printable } from '../client-sequence.ts';
import { parseQuery } from '../url.ts';
import type { Judgement } from './exchange.ts';
import { SequenceDriver } from './observe.ts';
import type { Rule } from './rule.ts';

export { MAX_TRACKED } from '../client-sequence.ts';

type Said = (step: ClientStep) => string | false | undefined;

/**
 * A rule of this file: level and area `client`, and its observer from `said`: what the client did instead, in a sentence (the finding expects the statement);
 * false where the rule held, undefined where it does not apply.
 */
function clientRule<const R extends Omit<Extract<Rule, { level: 'client' }>, 'level' | 'area' | 'observe'>>({ said, ...rule }: R & { said: Said }) {
  const observe = (step: ClientStep): Judgement => {
    const got = said(step);
    return got === undefined ? undefined : got === false ? null : { expected: rule.statement, got };
  };
  return { level: 'client' as const, area: 'client' as const, ...rule, observe };
}

/** `client.token-reuse`: more needless new tokens than this (a token lasts 60 days: even two are a sign; three leave room for a restart or two). */
const NEEDLESS_TOKEN_LIMIT = 2;
/**
 * `client.backoff-grows`: from the third 429 in a row on, each wait (429 answered → next request) must be at least FACTOR times the one before and
 * MIN_GROWTH_MS longer; a doubling backoff passes with room for jitter, a fixed or immediate retry does not.
 */
const BACKOFF = { FACTOR: 1.5, MIN_GROWTH_MS: 100 } as const;

export const CLIENT_RULES = {
  'client.retry-after-honoured': clientRule({
    statement: 'After a 429, send the next request of the same client only once its Retry-After has passed.',
    section: 'Errors',
    quote: 'Client behaviour expected after 429: honor `Retry-After`; do not retry at once (immediate retries can extend the limiting)',
    basis: 'stated',
    said: ({ early, client, sentMs }) =>
      early && `Sent ${seconds(sentMs - client.refusedAtMs)} after a 429 whose Retry-After asked to wait ${seconds(client.retryAfterMs)}.`,
  }),
  'client.backoff-grows': clientRule({
    statement: 'After repeated 429s in a row, wait longer before each new attempt (exponential backoff).',
    section: 'Errors',
    quote: 'use exponential backoff in automated integrations',
    basis: 'stated',
    said: ({ rated, exchange, client, sentMs }) => {
      if (!rated || exchange.status !== 429 || client.streak < 2) return undefined;
      const wait = sentMs - client.refusedAtMs;
      if (wait >= client.lastWaitMs * BACKOFF.FACTOR && wait >= client.lastWaitMs + BACKOFF.MIN_GROWTH_MS) return false;
      return `429 number ${client.streak + 1} in a row came after a wait of ${seconds(wait)}; the wait before was ${seconds(client.lastWaitMs)}.`;
    },
  }),
  'client.within-rate': clientRule({
    statement: 'Do not send requests once a response said the window is spent (X-Rate-Limit-Remaining 0, or a 429) until X-Rate-Limit-Reset or Retry-After.',
    section: 'Errors; Limits',
    quote: '429 Too Many Requests: The client exceeds its assigned rate limit. / Default request rate: 200 requests per minute, one API client, all endpoints.',
    basis: 'stated',
    // A request found too early after a 429 is not counted twice; a first 429 without warning is news (another process of the client may have spent it).
    said: ({ rated, exchange, early, sentMs, spentUntilMs }) =>
      !rated || exchange.status !== 429
        ? undefined
        : !early && sentMs < spentUntilMs && `Answered 429: an earlier response had said the window was spent until ${iso(spentUntilMs)}.`,
  }),
  'client.newest-next': clientRule({
    statement: 'Continue a walk with the `next` value of the latest response of that snapshot, never an earlier one.',
    section: 'Endpoints, 3. List content items, pagination rule 3',
    quote: 'Each response supplies a new `next` value; use the newest one on each call.',
    basis: 'stated',
    // A `next` the service did not hand out (or one forgotten) is the service's to refuse, not ours to judge.
    said: ({ next, walk }) =>
      walk && (walk.newest ?? next) !== next && 'The next value was an earlier one of its snapshot; a newer response had supplied another.',
  }),
  'client.same-request-with-next': clientRule({
    statement: 'A request with `next` repeats the query that started the snapshot (same limit, same filters), adding only `next`.',
    section: 'Endpoints, 3. List content items, pagination rule 2',
    quote: 'To get the next page, send the same request with `next` set to the value taken from `links.next`.',
    basis: 'stated',
    said: ({ walk, search, exchange, conduct: of }) => {
      if (walk === undefined) return undefined;
      const start = walk.search.length;
      const list = exchange.list;
      // A client following links.next sends the walk's first query and `&next=<value>`: so without parsing.
      const same = list === walk.list && search.startsWith(walk.search) && search.startsWith('&next=', start) && !search.includes('&', start + 1);
      if (same || canonicalQuery(list, search) === canonicalQuery(walk.list, walk.search)) return false;
      return `The query without next was "${of.shownQuery(search)}"; the snapshot was started by "${of.shownQuery(walk.search)}".`;
    },
  }),
  'client.bearer-header': clientRule({
    statement: 'Every call to /api/v2 and every logout carries Authorization: Bearer with an access token.',
    section: 'Authentication 6',
    quote: 'Calls to resource endpoints carry the header `Authorization: Bearer <ACCESS_TOKEN>`.',
    basis: 'stated',
    said: ({ exchange, token }) => {
      if (exchange.origin === 'auth' || token !== undefined) return exchange.origin === 'auth' ? undefined : false;
      const authorization = exchange.request.header?.('authorization') ?? '';
      return `The request carried ${authorization === '' ? 'no Authorization header' : 'an Authorization header that is not "Bearer <access token>"'}.`;
    },
  }),
  'client.refresh-not-bearer': clientRule({
    statement: 'Send the access token as the bearer, never the refresh token.',
    section: 'Authentication 8',
    quote: 'The refresh token is not used for API access by external parties.',
    basis: 'stated',
    said: ({ token, refreshOwner }) => token && refreshOwner !== undefined && 'The bearer token was a refresh token this mock issued.',
  }),
  'client.new-token-after-401': clientRule({
    statement: 'Once a token was refused as invalid (expired or logged out), request a new token instead of sending the old one again.',
    section: 'States and transitions; Authentication 9',
    quote: 'token expired: Token no longer authenticates. / Logout (endpoint 2) expires the token immediately.',
    basis: 'implied',
    said: ({ token }) => token?.info && token.info.refused && 'The access token was sent again after a response refused it as invalid (expired or logged out).',
  }),
  'client.token-reuse': clientRule({
    statement: 'Keep using an access token for its lifetime; request a new one when it expires or was refused, not for every few calls.',
    section: 'Authentication 7',
    quote: 'Default token lifetime is 60 days (`expires_in` is in seconds).',
    basis: 'implied',
    // Found once per client: when the needless tokens first pass the limit.
    said: ({ auth, reuse }) =>
      auth?.issued &&
      reuse?.needless === NEEDLESS_TOKEN_LIMIT + 1 &&
      `${reuse.needless} new tokens for the same scopes within ${reuse.resourceRequests} resource requests while the one before was still good; the last time, it had ${days(reuse.left)} left.`,
  }),
  'client.token-form-body': clientRule({
    statement: 'Send the token request as a form: Content-Type application/x-www-form-urlencoded with the fields in the body.',
    section: 'Endpoints, 1. Request an access token',
    quote: 'Header: `Content-Type: application/x-www-form-urlencoded`',
    basis: 'stated',
    said: ({ auth }) => auth && auth.contentType !== FORM && `Content-Type was ${auth.contentType === '' ? 'missing' : printable(auth.contentType, 60)}.`,
  }),
} as const satisfies Record<string, Rule>;

export type ClientRuleId = keyof typeof CLIENT_RULES;

export const CLIENT_RULE_IDS = Object.keys(CLIENT_RULES) as ClientRuleId[];

/** The judge of the client rules over every exchange a service answered. */
export class ClientConduct extends SequenceDriver<ClientRuleId, ClientStep, ClientSequence> {
  constructor() {
    super(CLIENT_RULES, new ClientSequence());
  }

  /** The client the last exchange was judged as: its client_id, `(unknown)`, or `(other clients)`. */
  get clientId(): string {
    return this.sequence.clientId;
  }

  clients(): string[] {
    return this.sequence.clients();
  }
}

/** The query without `next`, sorted: two requests with the same one are "the same request". */
function canonicalQuery(list: string | undefined, search: string): string {
  const pairs = parseQuery(search).flatMap(([name, value]) => (name === 'next' ? [] : [`${name}=${value}`]));
  return `${list}?${pairs.sort().join('&')}`;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(ms < 100_000 ? 2 : 0)} s`;
const days = (ms: number) => (ms >= 86_400_000 ? `${(ms / 86_400_000).toFixed(1)} days` : seconds(ms));
const iso = (ms: number) => new Date(ms).toISOString();
