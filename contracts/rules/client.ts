/**
 * What the API document asks of a CLIENT (not of the service), and the one judge of it: ClientConduct,
 * fed every exchange a service (the mock) answered, in order, says which of these rules each broke and
 * of which client. The numbers the document does not give (how many token requests are too many, how
 * much a backoff must grow) are the judge's choices, below. No verdict on a service rests on these rules.
 *
 * The judge reads the request's Authorization and Content-Type, a token request's body and a list
 * page's links.next; every table it keeps is bounded (tokens, refresh tokens and cursors are forgotten
 * oldest first, clients past MAX_CLIENTS share one entry). A finding names the request by method, path
 * and query, with `next` and every credential-looking value redacted. k6-safe.
 */
import { BoundedMap } from '../../util/bounded-map.ts';
import { nextValue } from '../pagination.ts';
import { parseIsoUtc, parseRetryAfter } from '../rate-limit.ts';
import { REDACTED, Redactor } from '../../util/redact.ts';
import { decodeComponent, parseQuery, splitUrl } from '../url.ts';
import type { Exchange } from './exchange.ts';
import type { Finding, Observer } from './finding.ts';
import type { Rule } from './rule.ts';

/** A rule of this file: level and area `client`, what every entry shares. */
function clientRule<const R extends Omit<Extract<Rule, { level: 'client' }>, 'level' | 'area'>>(rule: R) {
  return { level: 'client' as const, area: 'client' as const, ...rule };
}

export const CLIENT_RULES = {
  'client.retry-after-honoured': clientRule({
    statement: 'After a 429, send the next request of the same client only once its Retry-After has passed.',
    section: 'Errors',
    quote: 'Client behaviour expected after 429: honor `Retry-After`; do not retry at once (immediate retries can extend the limiting)',
    basis: 'stated',
  }),
  'client.backoff-grows': clientRule({
    statement: 'After repeated 429s in a row, wait longer before each new attempt (exponential backoff).',
    section: 'Errors',
    quote: 'use exponential backoff in automated integrations',
    basis: 'stated',
  }),
  'client.within-rate': clientRule({
    statement: 'Do not send requests once a response said the window is spent (X-Rate-Limit-Remaining 0, or a 429) until X-Rate-Limit-Reset or Retry-After.',
    section: 'Errors; Limits',
    quote: '429 Too Many Requests: The client exceeds its assigned rate limit. / Default request rate: 200 requests per minute, one API client, all endpoints.',
    basis: 'stated',
  }),
  'client.newest-next': clientRule({
    statement: 'Continue a walk with the `next` value of the latest response of that snapshot, never an earlier one.',
    section: 'Endpoints, 3. List content items, pagination rule 3',
    quote: 'Each response supplies a new `next` value; use the newest one on each call.',
    basis: 'stated',
  }),
  'client.same-request-with-next': clientRule({
    statement: 'A request with `next` repeats the query that started the snapshot (same limit, same filters), adding only `next`.',
    section: 'Endpoints, 3. List content items, pagination rule 2',
    quote: 'To get the next page, send the same request with `next` set to the value taken from `links.next`.',
    basis: 'stated',
  }),
  'client.bearer-header': clientRule({
    statement: 'Every call to /api/v2 and every logout carries Authorization: Bearer with an access token.',
    section: 'Authentication 6',
    quote: 'Calls to resource endpoints carry the header `Authorization: Bearer <ACCESS_TOKEN>`.',
    basis: 'stated',
  }),
  'client.refresh-not-bearer': clientRule({
    statement: 'Send the access token as the bearer, never the refresh token.',
    section: 'Authentication 8',
    quote: 'The refresh token is not used for API access by external parties.',
    basis: 'stated',
  }),
  'client.new-token-after-401': clientRule({
    statement: 'Once a token was refused as invalid (expired or logged out), request a new token instead of sending the old one again.',
    section: 'States and transitions; Authentication 9',
    quote: 'token expired: Token no longer authenticates. / Logout (endpoint 2) expires the token immediately.',
    basis: 'implied',
  }),
  'client.token-reuse': clientRule({
    statement: 'Keep using an access token for its lifetime; request a new one when it expires or was refused, not for every few calls.',
    section: 'Authentication 7',
    quote: 'Default token lifetime is 60 days (`expires_in` is in seconds).',
    basis: 'implied',
  }),
  'client.token-form-body': clientRule({
    statement: 'Send the token request as a form: Content-Type application/x-www-form-urlencoded with the fields in the body.',
    section: 'Endpoints, 1. Request an access token',
    quote: 'Header: `Content-Type: application/x-www-form-urlencoded`',
    basis: 'stated',
  }),
} as const satisfies Record<string, Rule>;

export type ClientRuleId = keyof typeof CLIENT_RULES;

export const CLIENT_RULE_IDS = Object.keys(CLIENT_RULES) as ClientRuleId[];

/** Tokens, refresh tokens and cursors remembered, each; the oldest are forgotten first. */
export const MAX_TRACKED = 20_000;
/** Client_ids judged separately; further ones (any text can be sent as a client_id) share one entry. */
const MAX_CLIENTS = 1000;
/**
 * `client.token-reuse`: a client that asks for a new token more than NEEDLESS_TOKEN_LIMIT times within
 * its first REUSE_SPAN_REQUESTS resource requests, although it still held a token for the same scopes
 * that had not been refused, not logged out, and had more than a tenth of its lifetime left. A token
 * lasts 60 days, so even two needless ones are a sign; three leave room for a restart or two.
 */
const TOKEN_REUSE = { NEEDLESS_TOKEN_LIMIT: 2, REUSE_SPAN_REQUESTS: 50, RENEW_WINDOW: 0.1 } as const;
/**
 * `client.backoff-grows`: from the third 429 in a row on, each wait (429 answered → next request) must
 * be at least FACTOR times the one before and MIN_GROWTH_MS longer; a doubling backoff passes with room
 * for jitter, a fixed or immediate retry does not.
 */
const BACKOFF = { FACTOR: 1.5, MIN_GROWTH_MS: 100 } as const;
/** A client's sleep of exactly Retry-After may land this much early on timers and clock reads. */
const RETRY_AFTER_SLACK_MS = 10;

const UNKNOWN_CLIENT = '(unknown)';
const OTHER_CLIENTS = '(other clients)';
const FORM = 'application/x-www-form-urlencoded';
/** Query parameters whose values are never shown (beyond `next`, which is a cursor). */
const SECRET_NAME = /token|secret|password|code|key|assertion/i;
/** RFC 6750 §2.1: `Bearer` (any case), one or more spaces, a b64token. */
const BEARER = /^bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;
const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const NONE: readonly Finding[] = [];

interface TokenInfo {
  readonly clientId: string;
  readonly issuedAtMs: number;
  readonly lifetimeMs: number;
  /** Refused as invalid (expired, logged out) once: sending it again is `client.new-token-after-401`. */
  refused: boolean;
  loggedOut: boolean;
  /** Until when an answer to this token said the window is spent (ms). */
  spentUntilMs: number;
}

class ClientState {
  /** The last 429: when it came, and how long its Retry-After asked to wait. */
  refusedAtMs = 0;
  retryAfterMs = 0;
  /** 429s in a row, and the wait before the last of them. */
  streak = 0;
  lastWaitMs = 0;
  /** TokenInfo.spentUntilMs of its token requests (they may spend the budget too). */
  spentUntilMs = 0;
  resourceRequests = 0;
  needlessTokens = 0;
  /** The newest token per scope set. */
  readonly latest = new Map<string, TokenInfo>();
  constructor(readonly id: string) {}
}

interface Walk {
  readonly list: string | undefined;
  /** The query string of the request that started it: what each request of the walk repeats. */
  readonly search: string;
  /** Undefined while the walk has handed out only its first cursor: then the walks that start alike share one Walk. */
  newest?: string;
}

export class ClientConduct implements Observer {
  /** The client the last exchange was judged as: its client_id, `(unknown)`, or `(other clients)`. */
  clientId = UNKNOWN_CLIENT;
  readonly #redactor = new Redactor();
  readonly #clients = new Map<string, ClientState>();
  readonly #tokens = new BoundedMap<string, TokenInfo>(MAX_TRACKED);
  /** Refresh token → its client_id: a refresh token sent as a bearer is `client.refresh-not-bearer`. */
  readonly #refresh = new BoundedMap<string, string>(MAX_TRACKED);
  readonly #walks = new BoundedMap<string, Walk>(MAX_TRACKED);
  /** The exchange being judged: its request's path and query, when it was sent and answered, what it broke. */
  #exchange: Exchange | undefined;
  #path = '';
  #search = '';
  #sentMs = 0;
  #atMs = 0;
  #found: Finding[] | undefined;
  #lastStart: Walk | undefined;

  observe(exchange: Exchange): readonly Finding[] {
    const url = exchange.request.url;
    const parts = url.startsWith('/') ? undefined : splitUrl(url);
    const query = url.indexOf('?');
    this.#exchange = exchange;
    this.#path = parts?.path ?? (query < 0 ? url : url.slice(0, query));
    this.#search = parts?.query ?? (query < 0 ? '' : url.slice(query + 1));
    this.#atMs = exchange.receivedMs ?? exchange.sentMs ?? 0;
    this.#sentMs = exchange.sentMs ?? this.#atMs;
    this.#found = undefined;
    if (exchange.origin === 'auth') this.#token(exchange);
    else this.#api(exchange);
    return this.#found ?? NONE;
  }

  /** Every client judged, in the order first seen. */
  clients(): string[] {
    return [...this.#clients.keys()];
  }

  #token(exchange: Exchange): void {
    const request = exchange.request;
    const type = (request.header?.('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
    const fields = tokenFields(request.header?.('authorization'), request.body ?? '', type === FORM);
    const state = this.#client(fields.clientId ?? UNKNOWN_CLIENT);
    if (type !== FORM) this.#find('client.token-form-body', `Content-Type was ${type === '' ? 'missing' : printable(type, 60)}.`);
    // A request naming no client shares one entry: its rate is nobody's, so it is not judged.
    if (state.id !== UNKNOWN_CLIENT) this.#rate(state, this.#retryAfter(state), undefined);
    if (exchange.status === 200 && fields.grantType !== undefined) this.#issued(state, fields.grantType, fields.scope);
  }

  #api(exchange: Exchange): void {
    // The common case first: `Bearer <a token it saw issued>` is one slice and one lookup, no regex.
    const authorization = exchange.request.header?.('authorization');
    const fast = authorization !== undefined && authorization.startsWith('Bearer ') ? authorization.slice(7) : undefined;
    let info = fast === undefined ? undefined : this.#tokens.get(fast);
    const token = info !== undefined ? fast : authorization === undefined ? undefined : BEARER.exec(authorization)?.[1];
    info ??= token === undefined ? undefined : this.#tokens.get(token);
    const refreshOwner = token === undefined || info !== undefined ? undefined : this.#refresh.get(token);
    const state = this.#client(info?.clientId ?? refreshOwner ?? UNKNOWN_CLIENT);
    if (token === undefined) {
      const sent = (authorization ?? '') === '' ? 'no Authorization header' : 'an Authorization header that is not "Bearer <access token>"';
      this.#find('client.bearer-header', `The request carried ${sent}.`);
    }
    if (refreshOwner !== undefined) this.#find('client.refresh-not-bearer', 'The bearer token was a refresh token this mock issued.');
    if (info?.refused === true)
      this.#find('client.new-token-after-401', 'The access token was sent again after a response refused it as invalid (expired or logged out).');
    const early = state.id !== UNKNOWN_CLIENT && this.#retryAfter(state);
    const served = exchange.status >= 200 && exchange.status <= 299;
    if (exchange.list !== undefined) {
      if (info !== undefined) state.resourceRequests++;
      const next = nextValue(`?${this.#search}`) || undefined;
      if (next !== undefined) this.#judgeNext(next);
      if (served) this.#handedOut(next);
    }
    if (state.id !== UNKNOWN_CLIENT) this.#rate(state, early, info);
    if (info === undefined) return;
    if (exchange.header('www-authenticate')?.includes('invalid_token') === true) info.refused = true;
    else if (exchange.list === undefined && served) info.loggedOut = true;
  }

  /** `client.retry-after-honoured`: whether this request came before the last 429's Retry-After passed. */
  #retryAfter(state: ClientState): boolean {
    if (this.#sentMs >= state.refusedAtMs + state.retryAfterMs - RETRY_AFTER_SLACK_MS) return false;
    const got = `Sent ${seconds(this.#sentMs - state.refusedAtMs)} after a 429 whose Retry-After asked to wait ${seconds(state.retryAfterMs)}.`;
    this.#find('client.retry-after-honoured', got);
    return true;
  }

  /** Reads a counted answer: a 429 (`client.within-rate`, `client.backoff-grows`) and what the headers told the client. */
  #rate(state: ClientState, early: boolean, info: TokenInfo | undefined): void {
    const exchange = this.#exchange as Exchange;
    const now = this.#atMs;
    const told = info ?? state;
    if (exchange.status !== 429) {
      state.streak = 0;
      if (exchange.header('x-rate-limit-remaining') === '0') told.spentUntilMs = resetOf(exchange) || now;
      return;
    }
    // A request already found too early after a 429 is not counted twice; the first 429 without
    // warning is news to the client (another process of it may have spent the budget).
    if (!early && this.#sentMs < told.spentUntilMs)
      this.#find('client.within-rate', `Answered 429: an earlier response had said the window was spent until ${iso(told.spentUntilMs)}.`);
    if (state.streak >= 1) {
      const wait = this.#sentMs - state.refusedAtMs;
      if (state.streak >= 2 && !(wait >= state.lastWaitMs * BACKOFF.FACTOR && wait >= state.lastWaitMs + BACKOFF.MIN_GROWTH_MS)) {
        const got = `429 number ${state.streak + 1} in a row came after a wait of ${seconds(wait)}; the wait before was ${seconds(state.lastWaitMs)}.`;
        this.#find('client.backoff-grows', got);
      }
      state.lastWaitMs = wait;
    }
    state.streak++;
    const retryAfter = parseRetryAfter(exchange.header('retry-after'), now);
    state.refusedAtMs = now;
    state.retryAfterMs = retryAfter.ok ? retryAfter.value * 1000 : 0;
    told.spentUntilMs = Math.max(now + state.retryAfterMs, resetOf(exchange) || 0);
  }

  /** A token was handed out: remember whose it is, and judge `client.token-reuse`. */
  #issued(state: ClientState, grantType: string, scope: string | undefined): void {
    const body = this.#exchange?.body as { access_token?: unknown; refresh_token?: unknown; expires_in?: unknown } | null | undefined;
    const access = body?.access_token;
    if (typeof access !== 'string' || this.#tokens.has(access)) return; // the client's live token again: nothing new was issued
    const now = this.#atMs;
    const lifetimeMs = typeof body?.expires_in === 'number' ? body.expires_in * 1000 : 0;
    const info: TokenInfo = { clientId: state.id, issuedAtMs: now, lifetimeMs, refused: false, loggedOut: false, spentUntilMs: 0 };
    this.#tokens.set(access, info);
    if (typeof body?.refresh_token === 'string') this.#refresh.set(body.refresh_token, state.id);
    if (grantType !== 'client_credentials' || state.id === UNKNOWN_CLIENT) return;
    const scopes = (scope ?? '').split(/[ ,]+/).filter(Boolean).sort().join(',');
    const before = state.latest.get(scopes);
    state.latest.set(scopes, info);
    if (before === undefined || before.refused || before.loggedOut) return;
    const left = before.issuedAtMs + before.lifetimeMs - now;
    if (left <= before.lifetimeMs * TOKEN_REUSE.RENEW_WINDOW || state.resourceRequests > TOKEN_REUSE.REUSE_SPAN_REQUESTS) return;
    // Found once per client: when the needless tokens first pass the limit.
    if (++state.needlessTokens !== TOKEN_REUSE.NEEDLESS_TOKEN_LIMIT + 1) return;
    const got = `${state.needlessTokens} new tokens for the same scopes within ${state.resourceRequests} resource requests while the one before was still good; the last time, it had ${days(left)} left.`;
    this.#find('client.token-reuse', got);
  }

  /** A request with `next`: is it the newest of its walk, and the same request that started it? */
  #judgeNext(next: string): void {
    const walk = this.#walks.get(next);
    // A `next` the service did not hand out (or one forgotten) is the service's to refuse, not ours to judge.
    if (walk === undefined) return;
    if ((walk.newest ?? next) !== next)
      this.#find('client.newest-next', 'The next value was an earlier one of its snapshot; a newer response had supplied another.');
    const search = this.#search;
    const start = walk.search.length;
    const list = this.#exchange?.list;
    // A client following links.next sends the walk's first query and `&next=<value>`: so without parsing.
    const same = list === walk.list && search.startsWith(walk.search) && search.startsWith('&next=', start) && !search.includes('&', start + 1);
    if (same || canonicalQuery(list, search) === canonicalQuery(walk.list, walk.search)) return;
    const got = `The query without next was "${this.#shownQuery(search)}"; the snapshot was started by "${this.#shownQuery(walk.search)}".`;
    this.#find('client.same-request-with-next', got);
  }

  /** A served page: the `next` of its links.next becomes the newest of the walk it continues, or starts one. */
  #handedOut(previous: string | undefined): void {
    const links = (this.#exchange?.body as { links?: { next?: unknown } } | null | undefined)?.links;
    const next = typeof links?.next === 'string' ? links.next : '';
    const cursor = nextValue(next) || undefined;
    if (cursor === undefined) return;
    let walk = previous === undefined ? undefined : this.#walks.get(previous);
    // Its first cursor shared a Walk with the walks that started alike: it has one of its own from now on.
    if (walk !== undefined && walk.newest === undefined) this.#walks.set(previous as string, (walk = { ...walk }));
    if (walk !== undefined) walk.newest = cursor;
    this.#walks.set(cursor, walk ?? this.#start());
  }

  /** The walk a first page starts: one object while the list and query repeat, as a load test's first pages do thousands of times a second. */
  #start(): Walk {
    const list = this.#exchange?.list;
    const last = this.#lastStart;
    if (last !== undefined && last.list === list && last.search === this.#search) return last;
    return (this.#lastStart = { list, search: this.#search });
  }

  /** The state of a client, made on its first exchange; the client of this exchange. */
  #client(id: string): ClientState {
    const known = this.#clients.get(id);
    if (known !== undefined) {
      this.clientId = id;
      return known;
    }
    const key = this.#clients.size < MAX_CLIENTS ? id : OTHER_CLIENTS;
    this.clientId = key;
    const state = this.#clients.get(key) ?? new ClientState(key);
    this.#clients.set(key, state);
    return state;
  }

  /**
   * A query as a finding shows it: a value is redacted when it is `next`, when its name sounds like a
   * credential, or when it is a token or cursor the service handed out (wherever a client put it).
   */
  #shownQuery(search: string, withNext = false): string {
    const shown: string[] = [];
    for (const [name, value] of parseQuery(search)) {
      if (name === 'next' && !withNext) continue;
      const secret = name === 'next' || SECRET_NAME.test(name) || this.#tokens.has(value) || this.#refresh.has(value) || this.#walks.has(value);
      shown.push(`${encodeURIComponent(name)}=${secret ? REDACTED : encodeURIComponent(value)}`);
    }
    return printable(this.#redactor.redact(shown.join('&')), 300);
  }

  #find(rule: ClientRuleId, got: string): void {
    const method = this.#exchange?.request.method ?? '';
    const request = this.#search === '' ? `${method} ${this.#path}` : `${method} ${this.#path}?${this.#shownQuery(this.#search, true)}`;
    (this.#found ??= []).push({ rule, level: 'client', expected: CLIENT_RULES[rule].statement, got, request, atMs: this.#atMs });
  }
}

/** X-Rate-Limit-Reset in epoch ms; NaN when absent or unreadable. */
function resetOf(exchange: Exchange): number {
  return parseIsoUtc(exchange.header('x-rate-limit-reset')?.trim() ?? '');
}

/** Who asks for a token and for what: from HTTP Basic, the form, or a JSON body (read only to name the client). */
function tokenFields(authorization: string | undefined, text: string, form: boolean) {
  let fields: Record<string, unknown> | undefined;
  try {
    const parsed: unknown = form ? undefined : JSON.parse(text);
    if (!form) fields = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    // Not JSON: read as a form under another label.
  }
  fields ??= Object.fromEntries(parseQuery(text));
  const str = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
  const clientId = basicUser(authorization) ?? str(fields.client_id);
  return { clientId: clientId === undefined ? undefined : printable(clientId, 64), grantType: str(fields.grant_type), scope: str(fields.scope) };
}

/** The user of an HTTP Basic header (RFC 6749 §2.3.1: form-encoded, then base64), without Buffer or atob, which k6 lacks. */
function basicUser(authorization: string | undefined): string | undefined {
  const basic = /^basic +([A-Za-z0-9+/]+)=* *$/i.exec(authorization ?? '');
  let bits = 0;
  let value = 0;
  let bytes = '';
  for (const char of basic?.[1] ?? '') {
    value = ((value << 6) | BASE64.indexOf(char)) & 0xfff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes += `%${(((value >> bits) & 255) + 256).toString(16).slice(1)}`;
    }
  }
  const colon = bytes.indexOf('%3a');
  return colon > 0 ? decodeComponent(decodeComponent(bytes.slice(0, colon))) : undefined;
}

/** Printable and bounded: client-chosen text (a client_id) never breaks a log line. */
function printable(text: string, max: number): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is replaced
  const clean = text.replace(/[\u0000-\u001f\u007f]/g, '?');
  return clean.length > max ? `${clean.slice(0, max)}…` : clean;
}

/** The query without `next`, sorted: two requests with the same one are "the same request". */
function canonicalQuery(list: string | undefined, search: string): string {
  const pairs = parseQuery(search).filter(([name]) => name !== 'next');
  return `${list}?${pairs
    .map(([name, value]) => `${name}=${value}`)
    .sort()
    .join('&')}`;
}

function days(ms: number): string {
  return ms >= 86_400_000 ? `${(ms / 86_400_000).toFixed(1)} days` : seconds(ms);
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(ms < 100_000 ? 2 : 0)} s`;
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
