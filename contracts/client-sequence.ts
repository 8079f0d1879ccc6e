/**
 * A service's callers, kept for the client rules (contracts/rules/client.ts): each exchange a service answered becomes one step of facts (its client, the token
 * sent and what is known of it, its client's 429s, the walk of its `next`). Every table is bounded (tokens, refresh tokens and cursors are forgotten oldest
 * first, clients past MAX_CLIENTS share one entry). A finding names the request by method, path and query, `next` and credential-like values redacted. k6-safe.
 */
import { BoundedMap } from '../util/bounded-map.ts';
import { REDACTED, Redactor } from '../util/redact.ts';
import { nextValue } from './pagination.ts';
import { parseIsoUtc, retryAfterSeconds } from './rate-limit.ts';
import type { Exchange } from './rules/exchange.ts';
import type { Sequence } from './rules/observe.ts';
import { decodeComponent, parseQuery, splitUrl } from './url.ts';

/** Tokens, refresh tokens and cursors remembered, each; the oldest are forgotten first. */
export const MAX_TRACKED = 20_000;
/** Client_ids judged separately; further ones (any text can be sent as a client_id) share one entry. */
const MAX_CLIENTS = 1000;
/**
 * A needless token: a new one for the same scopes while the one before had not been refused, not logged out, had more than RENEW_WINDOW of its lifetime left,
 * within its client's first REUSE_SPAN_REQUESTS resource requests.
 */
const TOKEN_REUSE = { REUSE_SPAN_REQUESTS: 50, RENEW_WINDOW: 0.1 } as const;
/** A client's sleep of exactly Retry-After may land this much early on timers and clock reads. */
const RETRY_AFTER_SLACK_MS = 10;

const UNKNOWN_CLIENT = '(unknown)';
const OTHER_CLIENTS = '(other clients)';
export const FORM = 'application/x-www-form-urlencoded';
/** Query parameters whose values are never shown (beyond `next`, which is a cursor). */
const SECRET_NAME = /token|secret|password|code|key|assertion/i;
/** RFC 6750 §2.1: `Bearer` (any case), one or more spaces, a b64token. */
const BEARER = /^bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;
const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

interface TokenInfo {
  readonly clientId: string;
  readonly issuedAtMs: number;
  readonly lifetimeMs: number;
  /** Refused as invalid (expired, logged out) once. */
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

export type ClientStep = ReturnType<ClientSequence['step']>;

export class ClientSequence implements Sequence<ClientStep> {
  /** The client the last exchange was judged as: its client_id, `(unknown)`, or `(other clients)`. */
  clientId = UNKNOWN_CLIENT;
  readonly #redactor = new Redactor();
  readonly #clients = new Map<string, ClientState>();
  readonly #tokens = new BoundedMap<string, TokenInfo>(MAX_TRACKED);
  /** Refresh token → its client_id. */
  readonly #refresh = new BoundedMap<string, string>(MAX_TRACKED);
  readonly #walks = new BoundedMap<string, Walk>(MAX_TRACKED);
  #lastStart: Walk | undefined;

  step(exchange: Exchange) {
    const url = exchange.request.url;
    const parts = url.startsWith('/') ? undefined : splitUrl(url);
    const query = url.indexOf('?');
    const search = parts?.query ?? (query < 0 ? '' : url.slice(query + 1));
    const atMs = exchange.receivedMs ?? exchange.sentMs ?? 0;
    const sentMs = exchange.sentMs ?? atMs;
    const token = exchange.origin === 'auth' ? undefined : this.#bearer(exchange.request.header?.('authorization'));
    const auth = exchange.origin === 'auth' ? this.#tokenRequest(exchange) : undefined;
    const refreshOwner = token === undefined || token.info !== undefined ? undefined : this.#refresh.get(token.value);
    const client = this.#client(auth?.clientId ?? token?.info?.clientId ?? refreshOwner ?? UNKNOWN_CLIENT);
    const next = exchange.list === undefined ? undefined : nextValue(`?${search}`) || undefined;
    return {
      exchange,
      conduct: this,
      path: parts?.path ?? (query < 0 ? url : url.slice(0, query)),
      search,
      sentMs,
      atMs,
      /** The client's state before this exchange; rated: a client that named itself, whose rate is judged. */
      client,
      rated: client.id !== UNKNOWN_CLIENT,
      /** The answer before said the window is spent until then: to the token's client, or to the token requests of its client. */
      spentUntilMs: (token?.info ?? client).spentUntilMs,
      /** Sent before the last 429's Retry-After passed. */
      early: client.id !== UNKNOWN_CLIENT && sentMs < client.refusedAtMs + client.retryAfterMs - RETRY_AFTER_SLACK_MS,
      /** The bearer of a resource request or logout, and the refresh token's client where a refresh token was sent as one. */
      token,
      refreshOwner,
      /** A token request: its Content-Type and what it asked for. */
      auth,
      /** The `next` a list request was sent with, and the walk the service handed it out in (undefined: not handed out, or forgotten). */
      next,
      walk: next === undefined ? undefined : this.#walks.get(next),
      /** A token request that was handed a new token: the needless tokens of its client counting this one, and how long the one before had left. */
      reuse: auth?.issued === undefined ? undefined : this.#reuse(client, auth.issued, atMs),
    } as const;
  }

  commit(step: ClientStep): void {
    const { exchange, client, token, auth, atMs, reuse } = step;
    const served = exchange.status >= 200 && exchange.status <= 299;
    const info = token?.info;
    if (exchange.list !== undefined) {
      if (info !== undefined) client.resourceRequests++;
      if (served) this.#handedOut(exchange, step.next, step.search);
    }
    if (step.rated) this.#rate(exchange, client, info ?? client, atMs);
    if (reuse !== undefined) client.needlessTokens = reuse.needless;
    if (auth?.issued !== undefined) this.#issued(client, auth.issued, atMs);
    if (info === undefined) return;
    if (exchange.header('www-authenticate')?.includes('invalid_token') === true) info.refused = true;
    else if (exchange.list === undefined && served) info.loggedOut = true;
  }

  /** A finding names the request by method, path and query, its secrets redacted. */
  request(step: ClientStep): string {
    const method = step.exchange.request.method;
    return step.search === '' ? `${method} ${step.path}` : `${method} ${step.path}?${this.shownQuery(step.search, true)}`;
  }

  /** Every client judged, in the order first seen. */
  clients(): string[] {
    return [...this.#clients.keys()];
  }

  /** A query as a finding shows it: `next`, credential-like names, and tokens or cursors the service handed out (wherever a client put them) redacted. */
  shownQuery(search: string, withNext = false): string {
    const shown: string[] = [];
    for (const [name, value] of parseQuery(search)) {
      if (name === 'next' && !withNext) continue;
      const secret = name === 'next' || SECRET_NAME.test(name) || this.#tokens.has(value) || this.#refresh.has(value) || this.#walks.has(value);
      shown.push(`${encodeURIComponent(name)}=${secret ? REDACTED : encodeURIComponent(value)}`);
    }
    return printable(this.#redactor.redact(shown.join('&')), 300);
  }

  /** The bearer token sent, and what is known of it. The common case first: `Bearer <a token it saw issued>` is one slice and one lookup, no regex. */
  #bearer(authorization: string | undefined): { readonly value: string; readonly info: TokenInfo | undefined } | undefined {
    const fast = authorization !== undefined && authorization.startsWith('Bearer ') ? authorization.slice(7) : undefined;
    const known = fast === undefined ? undefined : this.#tokens.get(fast);
    if (fast !== undefined && known !== undefined) return { value: fast, info: known };
    const value = authorization === undefined ? undefined : BEARER.exec(authorization)?.[1];
    return value === undefined ? undefined : { value, info: this.#tokens.get(value) };
  }

  /** Who asks for a token, how, and what was issued. */
  #tokenRequest(exchange: Exchange) {
    const request = exchange.request;
    const contentType = (request.header?.('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
    const fields = tokenFields(request.header?.('authorization'), request.body ?? '', contentType === FORM);
    const body = exchange.body as { access_token?: unknown; refresh_token?: unknown; expires_in?: unknown } | null | undefined;
    const access = body?.access_token;
    // The client's live token again: nothing new was issued.
    const fresh = exchange.status === 200 && fields.grantType !== undefined && typeof access === 'string' && !this.#tokens.has(access);
    const issued = fresh
      ? {
          access,
          refresh: typeof body?.refresh_token === 'string' ? body.refresh_token : undefined,
          lifetimeMs: typeof body?.expires_in === 'number' ? body.expires_in * 1000 : 0,
          // Only a client's own credentials name the scopes whose token it could have kept.
          scopes: fields.grantType === 'client_credentials' ? (fields.scope ?? '').split(/[ ,]+/).filter(Boolean).sort().join(',') : undefined,
        }
      : undefined;
    return { contentType, clientId: fields.clientId ?? UNKNOWN_CLIENT, issued };
  }

  /** A new token for the same scopes while the one before was still good: the needless ones so far, and what the one before had left. */
  #reuse(client: ClientState, issued: { readonly scopes: string | undefined }, atMs: number) {
    const before = issued.scopes === undefined || client.id === UNKNOWN_CLIENT ? undefined : client.latest.get(issued.scopes);
    if (before === undefined || before.refused || before.loggedOut) return undefined;
    const left = before.issuedAtMs + before.lifetimeMs - atMs;
    if (left <= before.lifetimeMs * TOKEN_REUSE.RENEW_WINDOW || client.resourceRequests > TOKEN_REUSE.REUSE_SPAN_REQUESTS) return undefined;
    return { needless: client.needlessTokens + 1, left, resourceRequests: client.resourceRequests };
  }

  /** What a counted answer told the client: a 429's wait, a window spent. */
  #rate(exchange: Exchange, client: ClientState, told: { spentUntilMs: number }, now: number): void {
    if (exchange.status !== 429) {
      client.streak = 0;
      if (exchange.header('x-rate-limit-remaining') === '0') told.spentUntilMs = resetOf(exchange) || now;
      return;
    }
    if (client.streak >= 1) client.lastWaitMs = (exchange.sentMs ?? now) - client.refusedAtMs;
    client.streak++;
    client.refusedAtMs = now;
    client.retryAfterMs = (retryAfterSeconds(exchange.header('retry-after'), now) ?? 0) * 1000;
    told.spentUntilMs = Math.max(now + client.retryAfterMs, resetOf(exchange) || 0);
  }

  #issued(client: ClientState, issued: NonNullable<NonNullable<ClientStep['auth']>['issued']>, now: number): void {
    const info: TokenInfo = { clientId: client.id, issuedAtMs: now, lifetimeMs: issued.lifetimeMs, refused: false, loggedOut: false, spentUntilMs: 0 };
    this.#tokens.set(issued.access, info);
    if (issued.refresh !== undefined) this.#refresh.set(issued.refresh, client.id);
    if (issued.scopes !== undefined && client.id !== UNKNOWN_CLIENT) client.latest.set(issued.scopes, info);
  }

  /** A served page: the `next` of its links.next becomes the newest of the walk it continues, or starts one. */
  #handedOut(exchange: Exchange, previous: string | undefined, search: string): void {
    const links = (exchange.body as { links?: { next?: unknown } } | null | undefined)?.links;
    const cursor = nextValue(typeof links?.next === 'string' ? links.next : '') || undefined;
    if (cursor === undefined) return;
    let walk = previous === undefined ? undefined : this.#walks.get(previous);
    // Its first cursor shared a Walk with the walks that started alike: it has one of its own from now on.
    if (walk !== undefined && walk.newest === undefined) this.#walks.set(previous as string, (walk = { ...walk }));
    if (walk !== undefined) walk.newest = cursor;
    this.#walks.set(cursor, walk ?? this.#start(exchange.list, search));
  }

  /** The walk a first page starts: one object while the list and query repeat, as a load test's first pages do thousands of times a second. */
  #start(list: string | undefined, search: string): Walk {
    const last = this.#lastStart;
    if (last !== undefined && last.list === list && last.search === search) return last;
    return (this.#lastStart = { list, search });
  }

  /** The state of a client, made on its first exchange; the client of this exchange. */
  #client(id: string): ClientState {
    const known = this.#clients.get(id);
    const key = known !== undefined || this.#clients.size < MAX_CLIENTS ? id : OTHER_CLIENTS;
    this.clientId = key;
    const state = known ?? this.#clients.get(key) ?? new ClientState(key);
    this.#clients.set(key, state);
    return state;
  }
}

/** X-Rate-Limit-Reset in epoch ms; NaN when absent or unreadable. */
const resetOf = (exchange: Exchange) => parseIsoUtc(exchange.header('x-rate-limit-reset')?.trim() ?? '');

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
export function printable(text: string, max: number): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is replaced
  const clean = text.replace(/[\u0000-\u001f\u007f]/g, '?');
  return clean.length > max ? `${clean.slice(0, max)}…` : clean;
}
