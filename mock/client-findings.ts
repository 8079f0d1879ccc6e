/**
 * Client findings: the mock judges its CALLERS by what the API document asks of a client
 * (contracts/client-rules.ts) and keeps what it finds, per client_id, for SDK developers
 * (GET /_mock/findings, its JUnit form, and one `--log` line each). A finding never changes an answer.
 *
 * It sits outside each endpoint's handler (the outermost `exchange` wrapper, so it sees what the
 * client saw) and beside the cursor choice (to learn which `next` is the newest of its snapshot).
 * Per request it does a few Map lookups and a scan of the reply's header list; parsing happens only
 * where it cannot be avoided (a token reply, a request carrying `next`, the first page of a walk).
 * Every table is bounded: findings are capped (the rest are only counted), tokens, cursors and
 * clients are forgotten oldest first.
 *
 * Nothing it keeps or prints carries a token, a secret, a refresh token or a cursor: a finding names
 * the request by method, path and query, with `next` and every credential-looking value redacted.
 */
import { CLIENT_RULE_IDS, CLIENT_RULES, type ClientRuleId } from '../contracts/client-rules.ts';
import { ENDPOINTS, type EndpointId } from '../contracts/endpoints.ts';
import { findingLine, junitXml } from '../contracts/report.ts';
import { parseRetryAfter } from '../contracts/rate-limit.ts';
import { REDACTED, Redactor } from '../contracts/redact.ts';
import { type BearerHeader, parseBearer } from './bearer.ts';
import type { Clock } from './clock.ts';
import { CONTROL_PREFIX, type ControlRoute } from './control.ts';
import { mediaType, type Replies, type Reply } from './http.ts';
import type { PageSeam } from './pages.ts';
import type { Exchange, RouteHandler } from './routes.ts';

/** Findings kept in full; past this only the counts grow. */
const MAX_FINDINGS = 1000;
/** Tokens, refresh tokens and cursors remembered, each; the oldest are forgotten first. */
export const MAX_TRACKED = 20_000;
/** Client_ids judged separately; further ones (any text can be sent as a client_id) share one entry. */
const MAX_CLIENTS = 1000;

/**
 * `token-reuse`: a client that asks for a new token more than NEEDLESS_TOKEN_LIMIT times within its
 * first REUSE_SPAN_REQUESTS resource requests, although it still held a token for the same scopes
 * that had not been refused, not logged out, and had more than a tenth of its lifetime left.
 * The document gives no number: a token lasts 60 days, so even two needless ones are a sign; three
 * leave room for a restart or two.
 */
const TOKEN_REUSE = { NEEDLESS_TOKEN_LIMIT: 2, REUSE_SPAN_REQUESTS: 50, RENEW_WINDOW: 0.1 } as const;
/**
 * `backoff-grows`: from the third 429 in a row on, each wait (429 answered → next request) must be
 * at least BACKOFF_FACTOR times the one before and BACKOFF_MIN_GROWTH_MS longer; a doubling backoff
 * passes with room for jitter, a fixed or immediate retry does not.
 */
const BACKOFF = { FACTOR: 1.5, MIN_GROWTH_MS: 100 } as const;
/** A client's sleep of exactly Retry-After may land this much early on timers and clock reads. */
const RETRY_AFTER_SLACK_MS = 10;

const UNKNOWN_CLIENT = '(unknown)';
const OTHER_CLIENTS = '(other clients)';
const FORM = 'application/x-www-form-urlencoded';
/** Query parameters whose values are never shown (beyond `next`, which is a cursor). */
const SECRET_NAME = /token|secret|password|code|key|assertion/i;

export interface ClientFinding {
  readonly rule: ClientRuleId;
  readonly clientId: string;
  /** The virtual clock's time of the request, ISO 8601. */
  readonly at: string;
  /** Method, path and query, redacted. */
  readonly request: string;
  readonly expected: string;
  /** What this request did. */
  readonly detail: string;
}

export interface FindingsReport {
  readonly findings: readonly ClientFinding[];
  /** Every finding, kept or not, by rule. */
  readonly counts: Readonly<Record<ClientRuleId, number>>;
  readonly total: number;
  /** Findings counted but not kept (past MAX_FINDINGS). */
  readonly dropped: number;
  /** Client_ids the mock has judged. */
  readonly clients: readonly string[];
}

interface TokenInfo {
  readonly clientId: string;
  readonly scopes: string;
  readonly issuedAtMs: number;
  readonly lifetimeMs: number;
  /** Refused as invalid (expired, logged out) once: sending it again is `new-token-after-401`. */
  refused: boolean;
  loggedOut: boolean;
  /** Until when a response to this token said the window is spent (ms); 0 when none did. */
  spentUntilMs: number;
}

interface ClientState {
  readonly id: string;
  /** Until when the last 429's Retry-After asks for silence (ms); 0 when none. */
  retryAfterUntilMs: number;
  /** The time of the last 429 and how long its Retry-After was, for the finding's words. */
  lastRefusalMs: number;
  lastRetryAfterMs: number;
  /** 429s in a row, and the wait before the last of them. */
  streak: number;
  lastWaitMs: number;
  /** Token-endpoint counterpart of TokenInfo.spentUntilMs (token requests may spend the budget). */
  tokenSpentUntilMs: number;
  resourceRequests: number;
  needlessTokens: number;
  reuseReported: boolean;
  /** The newest token per scope set. */
  readonly latest: Map<string, TokenInfo>;
  readonly counts: Map<ClientRuleId, number>;
}

interface Walk {
  readonly clientId: string;
  readonly endpoint: EndpointId;
  /** The query string of the request that started it: what each request of the walk repeats. */
  readonly search: string;
  /** Its canonicalQuery, made when a request of the walk first needs it. */
  query: string | undefined;
  newest: string;
}

type Log = (line: string) => void;

/**
 * The request being judged, named in a finding's words only when there is a finding: an object, not
 * a closure, as a closure made per request costs more than the judging.
 */
interface Asked {
  readonly endpoint: EndpointId;
  readonly search: string;
}

function zeroCounts(): Record<ClientRuleId, number> {
  return Object.fromEntries(CLIENT_RULE_IDS.map((id) => [id, 0])) as Record<ClientRuleId, number>;
}

/** A header's value from a reply's flat list, by its name as the mock writes it, or in any case. */
function header(reply: Reply, name: string, lower = name.toLowerCase()): string | undefined {
  const headers = reply.headers;
  for (let i = 0; i < headers.length - 1; i += 2) {
    const key = headers[i] as string;
    // The mock's own spelling matches at once; lengths rule out most others before anything is lowered.
    if (key === name || (key.length === name.length && key.toLowerCase() === lower)) return headers[i + 1];
  }
  return undefined;
}

/** Printable and bounded: client-chosen text (a client_id) never breaks a log line. */
function printable(text: string, max = 80): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is replaced
  const clean = text.replace(/[\u0000-\u001f\u007f]/g, '?');
  return clean.length > max ? `${clean.slice(0, max)}…` : clean;
}

/** The query without `next`, sorted: two requests with the same one are "the same request". */
function canonicalQuery(endpoint: EndpointId, search: string): string {
  const pairs: string[] = [];
  for (const [name, value] of new URLSearchParams(search)) if (name !== 'next') pairs.push(`${name}=${value}`);
  return `${endpoint}?${pairs.sort().join('&')}`;
}

/**
 * Whether a request with `next` repeats the query that started its walk (the same canonicalQuery).
 * A client following links.next sends that query and `&next=<value>`, which is so without parsing.
 */
function repeatsQuery(endpoint: EndpointId, search: string, walk: Walk): boolean {
  const start = walk.search.length;
  if (endpoint === walk.endpoint && search.startsWith(walk.search) && search.startsWith('&next=', start) && !search.includes('&', start + 1)) return true;
  walk.query ??= canonicalQuery(walk.endpoint, walk.search);
  return canonicalQuery(endpoint, search) === walk.query;
}

function nextOf(search: string): string | undefined {
  if (!search.includes('next=')) return undefined;
  const value = new URLSearchParams(search).get('next');
  return value === null || value === '' ? undefined : value;
}

function days(ms: number): string {
  return ms >= 86_400_000 ? `${(ms / 86_400_000).toFixed(1)} days` : seconds(ms);
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(ms < 100_000 ? 2 : 0)} s`;
}

/**
 * A Map that holds at most `max` entries and forgets the oldest first. The order is kept in a ring of
 * keys beside the map: taking the oldest from the Map itself (`keys().next()`) walks over every slot
 * deleted since the table was last compacted, which made each remembered cursor cost as much as the
 * page it was handed out with.
 */
class Recent<K, V> {
  readonly #map = new Map<K, V>();
  /** Keys in the order they were first set, from `#oldest` on, wrapping round once `max` are held. */
  readonly #order: K[] = [];
  #oldest = 0;
  readonly #max: number;

  constructor(max: number) {
    this.#max = max;
  }

  get(key: K): V | undefined {
    return this.#map.get(key);
  }

  has(key: K): boolean {
    return this.#map.has(key);
  }

  set(key: K, value: V): void {
    if (!this.#map.has(key)) {
      if (this.#map.size < this.#max) this.#order.push(key);
      else {
        this.#map.delete(this.#order[this.#oldest] as K);
        this.#order[this.#oldest] = key;
        this.#oldest = (this.#oldest + 1) % this.#max;
      }
    }
    this.#map.set(key, value);
  }
}

export class ClientFindings {
  readonly #clock: Clock;
  readonly #log: Log | undefined;
  readonly #unauthenticatedStatus: number;
  readonly #max: number;
  readonly #redactor = new Redactor();
  #findings: ClientFinding[] = [];
  #counts = zeroCounts();
  #total = 0;
  #clients = new Map<string, ClientState>();
  #tokens = new Recent<string, TokenInfo>(MAX_TRACKED);
  /** Refresh token → its client_id: a refresh token sent as a bearer is `refresh-not-bearer`. */
  #refresh = new Recent<string, string>(MAX_TRACKED);
  #walks = new Recent<string, Walk>(MAX_TRACKED);
  /** The list request being answered (endpoint undefined between requests): the cursor seam runs inside it and needs its query. */
  #currentEndpoint: EndpointId | undefined;
  #currentSearch = '';
  #currentClient = UNKNOWN_CLIENT;

  constructor(o: { clock: Clock; unauthenticatedStatus: number; log?: Log | undefined; maxFindings?: number }) {
    this.#clock = o.clock;
    this.#log = o.log;
    this.#unauthenticatedStatus = o.unauthenticatedStatus;
    this.#max = o.maxFindings ?? MAX_FINDINGS;
  }

  /** `inner` with this endpoint's requests and replies judged; the reply is returned unchanged. */
  observe(endpoint: EndpointId, inner: RouteHandler): RouteHandler {
    return endpoint === 'token' ? (exchange) => this.#token(exchange, inner) : (exchange) => this.#api(endpoint, exchange, inner);
  }

  /** The page seam with the cursor choice observed: each `next` handed out becomes the newest of its walk. */
  pages(inner: PageSeam | undefined): PageSeam {
    const choose = inner?.cursor;
    return {
      ...inner,
      cursor: (fresh, previous) => {
        const cursor = choose === undefined ? fresh : choose(fresh, previous);
        this.#handedOut(cursor, previous);
        return cursor;
      },
    };
  }

  report(): FindingsReport {
    const clients = [...this.#clients.keys()];
    return { findings: this.#findings.slice(), counts: { ...this.#counts }, total: this.#total, dropped: this.#total - this.#findings.length, clients };
  }

  /**
   * JUnit XML: one testsuite per client_id judged, one testcase per client rule, one failure per
   * finding kept (and one saying how many more were only counted).
   */
  junit(): string {
    const suites = [...this.#clients.values()].map((state) => ({
      name: `client ${state.id}`,
      cases: CLIENT_RULE_IDS.map((rule) => {
        const count = state.counts.get(rule) ?? 0;
        const kept = count === 0 ? [] : this.#findings.filter((f) => f.rule === rule && f.clientId === state.id);
        const failures = kept.map((f) => ({ type: rule, message: f.detail, text: `${f.at} ${findingLine({ ...f, level: 'client', got: f.detail })}` }));
        if (count > kept.length) failures.push({ type: rule, message: `${count - kept.length} more findings were counted but not kept`, text: '' });
        return { classname: `client.${state.id}`, name: rule, failures };
      }),
    }));
    return junitXml('client findings', suites);
  }

  clear(): void {
    this.#findings = [];
    this.#counts = zeroCounts();
    this.#total = 0;
    this.#clients = new Map();
    this.#tokens = new Recent(MAX_TRACKED);
    this.#refresh = new Recent(MAX_TRACKED);
    this.#walks = new Recent(MAX_TRACKED);
    this.#currentEndpoint = undefined;
  }

  #token(exchange: Exchange, inner: RouteHandler): Reply {
    const now = this.#clock.now();
    const form = mediaType(exchange.contentType) === FORM;
    const fields = tokenFields(exchange, form);
    const state = this.#client(fields.clientId ?? UNKNOWN_CLIENT);
    const asked: Asked = { endpoint: 'token', search: exchange.search };
    if (!form) {
      const type = mediaType(exchange.contentType);
      this.#find('token-form-body', state, now, asked, `Content-Type was ${type === '' ? 'missing' : printable(type, 60)}.`);
    }
    // A request naming no client shares one entry: its rate is nobody's, so it is not judged.
    const known = state.id !== UNKNOWN_CLIENT;
    const early = known && this.#retryAfter(state, now, asked);
    const reply = inner(exchange);
    if (known) this.#rate(state, reply, now, early, asked, undefined);
    if (reply.status === 200 && fields.grantType !== undefined) this.#issued(state, reply, fields, now, asked);
    return reply;
  }

  #api(endpoint: EndpointId, exchange: Exchange, inner: RouteHandler): Reply {
    const now = this.#clock.now();
    const asked: Asked = { endpoint, search: exchange.search };
    // The common case first: `Bearer <a token issued here>` is one slice and one lookup, no regex.
    const authorization = exchange.authorization;
    let info = authorization !== undefined && authorization.startsWith('Bearer ') ? this.#tokens.get(authorization.slice(7)) : undefined;
    const bearer: BearerHeader = info !== undefined ? { kind: 'token', token: '' } : parseBearer(authorization);
    const token = bearer.kind === 'token' ? bearer.token : undefined;
    if (info === undefined && token !== undefined) info = this.#tokens.get(token);
    const refreshOwner = token === undefined || info !== undefined ? undefined : this.#refresh.get(token);
    const state = this.#client(info?.clientId ?? refreshOwner ?? UNKNOWN_CLIENT);
    if (bearer.kind !== 'token') {
      const sent = bearer.kind === 'missing' ? 'no Authorization header' : 'an Authorization header that is not "Bearer <access token>"';
      this.#find('bearer-header', state, now, asked, `The request carried ${sent}.`);
    }
    if (refreshOwner !== undefined) this.#find('refresh-not-bearer', state, now, asked, 'The bearer token was a refresh token this mock issued.');
    if (info?.refused === true) {
      this.#find('new-token-after-401', state, now, asked, 'The access token was sent again after a response refused it as invalid (expired or logged out).');
    }
    const early = state.id === UNKNOWN_CLIENT ? false : this.#retryAfter(state, now, asked);
    const list = endpoint !== 'logout';
    if (list) {
      if (info !== undefined) state.resourceRequests++;
      const next = nextOf(exchange.search);
      if (next !== undefined) this.#judgeNext(endpoint, exchange.search, next, state, now, asked);
      this.#currentEndpoint = endpoint;
      this.#currentSearch = exchange.search;
      this.#currentClient = state.id;
    }
    let reply: Reply;
    try {
      reply = inner(exchange);
    } finally {
      this.#currentEndpoint = undefined;
    }
    if (state.id !== UNKNOWN_CLIENT) this.#rate(state, reply, now, early, asked, info);
    if (info !== undefined) {
      const status = reply.status;
      if ((status === 401 || status === this.#unauthenticatedStatus) && header(reply, 'WWW-Authenticate')?.includes('invalid_token') === true)
        info.refused = true;
      else if (endpoint === 'logout' && status >= 200 && status < 300) info.loggedOut = true;
    }
    return reply;
  }

  /** `retry-after-honoured`: whether this request came before the last 429's Retry-After passed. */
  #retryAfter(state: ClientState, now: number, asked: Asked): boolean {
    if (now >= state.retryAfterUntilMs - RETRY_AFTER_SLACK_MS) return false;
    const detail = `Sent ${seconds(now - state.lastRefusalMs)} after a 429 whose Retry-After asked to wait ${seconds(state.lastRetryAfterMs)}.`;
    this.#find('retry-after-honoured', state, now, asked, detail);
    return true;
  }

  /** Reads a counted reply: a 429 (`within-rate`, `backoff-grows`) and what the headers told the client. */
  #rate(state: ClientState, reply: Reply, now: number, early: boolean, asked: Asked, info: TokenInfo | undefined): void {
    const remaining = header(reply, 'X-Rate-Limit-Remaining', 'x-rate-limit-remaining');
    if (reply.status !== 429) {
      state.streak = 0;
      if (remaining === '0') {
        const reset = Date.parse(header(reply, 'X-Rate-Limit-Reset') ?? '');
        const until = Number.isNaN(reset) ? now : reset;
        if (info !== undefined) info.spentUntilMs = until;
        else state.tokenSpentUntilMs = until;
      }
      return;
    }
    const told = info !== undefined ? info.spentUntilMs : state.tokenSpentUntilMs;
    // A request already found too early after a 429 is not counted twice; the first 429 without
    // warning is news to the client (another process of it may have spent the budget).
    if (!early && now < told)
      this.#find('within-rate', state, now, asked, `Answered 429: an earlier response had said the window was spent until ${iso(told)}.`);
    if (state.streak >= 1) {
      const wait = now - state.lastRefusalMs;
      if (state.streak >= 2 && !(wait >= state.lastWaitMs * BACKOFF.FACTOR && wait >= state.lastWaitMs + BACKOFF.MIN_GROWTH_MS)) {
        const detail = `429 number ${state.streak + 1} in a row came after a wait of ${seconds(wait)}; the wait before was ${seconds(state.lastWaitMs)}.`;
        this.#find('backoff-grows', state, now, asked, detail);
      }
      state.lastWaitMs = wait;
    }
    state.streak++;
    const retry = parseRetryAfter(header(reply, 'Retry-After'), now);
    const waitMs = retry.ok ? retry.value * 1000 : 0;
    state.lastRefusalMs = now;
    state.lastRetryAfterMs = waitMs;
    state.retryAfterUntilMs = now + waitMs;
    const reset = Date.parse(header(reply, 'X-Rate-Limit-Reset') ?? '');
    const until = Math.max(now + waitMs, Number.isNaN(reset) ? 0 : reset);
    if (info !== undefined) info.spentUntilMs = until;
    else state.tokenSpentUntilMs = until;
  }

  /** A token was handed out: remember whose it is, and judge `token-reuse`. */
  #issued(state: ClientState, reply: Reply, fields: TokenFieldsSeen, now: number, asked: Asked): void {
    if (typeof reply.body !== 'string') return;
    let body: { access_token?: unknown; refresh_token?: unknown; expires_in?: unknown };
    try {
      body = JSON.parse(reply.body) as typeof body;
    } catch {
      return;
    }
    const access = body.access_token;
    if (typeof access !== 'string' || this.#tokens.has(access)) return; // the client's live token again: nothing new was issued
    const scopes = (fields.scope ?? '').split(/[ ,]+/).filter(Boolean).sort().join(',');
    const lifetimeMs = typeof body.expires_in === 'number' ? body.expires_in * 1000 : 0;
    const info: TokenInfo = { clientId: state.id, scopes, issuedAtMs: now, lifetimeMs, refused: false, loggedOut: false, spentUntilMs: 0 };
    this.#tokens.set(access, info);
    if (typeof body.refresh_token === 'string') this.#refresh.set(body.refresh_token, state.id);
    if (fields.grantType !== 'client_credentials' || state.id === UNKNOWN_CLIENT) return;
    const before = state.latest.get(scopes);
    state.latest.set(scopes, info);
    if (before === undefined || before.refused || before.loggedOut) return;
    const left = before.issuedAtMs + before.lifetimeMs - now;
    if (left <= before.lifetimeMs * TOKEN_REUSE.RENEW_WINDOW) return;
    if (state.resourceRequests > TOKEN_REUSE.REUSE_SPAN_REQUESTS) return;
    state.needlessTokens++;
    if (state.needlessTokens > TOKEN_REUSE.NEEDLESS_TOKEN_LIMIT && !state.reuseReported) {
      state.reuseReported = true;
      const detail = `${state.needlessTokens} new tokens for the same scopes within ${state.resourceRequests} resource requests while the one before was still good; the last time, it had ${days(left)} left.`;
      this.#find('token-reuse', state, now, asked, detail);
    }
  }

  /** A request with `next`: is it the newest of its walk, and the same request that started it? */
  #judgeNext(endpoint: EndpointId, search: string, next: string, state: ClientState, now: number, asked: Asked): void {
    const walk = this.#walks.get(next);
    // A `next` this mock did not hand out (or has forgotten) is the service's to refuse, not ours to judge.
    if (walk === undefined) return;
    if (walk.newest !== next)
      this.#find('newest-next', state, now, asked, 'The next value was an earlier one of its snapshot; a newer response had supplied another.');
    if (!repeatsQuery(endpoint, search, walk)) {
      const detail = `The query without next was "${this.#shownQuery(search)}"; the snapshot was started by "${this.#shownQuery(walk.search)}".`;
      this.#find('same-request-with-next', state, now, asked, detail);
    }
  }

  #handedOut(cursor: string, previous: string | undefined): void {
    const endpoint = this.#currentEndpoint;
    if (endpoint === undefined) return;
    const known = previous === undefined ? undefined : this.#walks.get(previous);
    if (known !== undefined) {
      known.newest = cursor;
      this.#walks.set(cursor, known);
      return;
    }
    const walk: Walk = { clientId: this.#currentClient, endpoint, search: this.#currentSearch, query: undefined, newest: cursor };
    this.#walks.set(cursor, walk);
  }

  #client(id: string): ClientState {
    const known = this.#clients.get(id);
    if (known !== undefined) return known;
    const key = this.#clients.size >= MAX_CLIENTS ? OTHER_CLIENTS : id;
    const existing = this.#clients.get(key);
    if (existing !== undefined) return existing;
    const state: ClientState = {
      id: key,
      retryAfterUntilMs: 0,
      lastRefusalMs: 0,
      lastRetryAfterMs: 0,
      streak: 0,
      lastWaitMs: 0,
      tokenSpentUntilMs: 0,
      resourceRequests: 0,
      needlessTokens: 0,
      reuseReported: false,
      latest: new Map(),
      counts: new Map(),
    };
    this.#clients.set(key, state);
    return state;
  }

  /** Method, path and query of a request, with `next` and every credential-looking value redacted. */
  #request(endpoint: EndpointId, search: string): string {
    const { method, path } = ENDPOINTS[endpoint];
    return search === '' ? `${method} ${path}` : `${method} ${path}?${this.#shownQuery(search, true)}`;
  }

  /**
   * A query as a finding shows it: a value is redacted when it is `next`, when its name sounds like a
   * credential, or when it is a token or cursor this mock handed out (wherever a client put it).
   */
  #shownQuery(search: string, withNext = false): string {
    const shown: string[] = [];
    for (const [name, value] of new URLSearchParams(search)) {
      if (name === 'next' && !withNext) continue;
      const secret = name === 'next' || SECRET_NAME.test(name) || this.#tokens.has(value) || this.#refresh.has(value) || this.#walks.has(value);
      shown.push(`${encodeURIComponent(name)}=${secret ? REDACTED : encodeURIComponent(value)}`);
    }
    return printable(this.#redactor.redact(shown.join('&')), 300);
  }

  #find(rule: ClientRuleId, state: ClientState, now: number, asked: Asked, detail: string): void {
    const request = this.#request(asked.endpoint, asked.search);
    this.#total++;
    this.#counts[rule]++;
    state.counts.set(rule, (state.counts.get(rule) ?? 0) + 1);
    const finding: ClientFinding = { rule, clientId: state.id, at: iso(now), request, expected: CLIENT_RULES[rule].expected, detail };
    if (this.#findings.length < this.#max) this.#findings.push(finding);
    this.#log?.(`client-finding ${rule} client=${printable(state.id)} at=${finding.at} ${request}: ${detail}`);
  }
}

interface TokenFieldsSeen {
  readonly clientId: string | undefined;
  readonly grantType: string | undefined;
  readonly scope: string | undefined;
}

/** Who asks and for what: from HTTP Basic, the form, or a JSON body (read only to name the client). */
function tokenFields(exchange: Exchange, form: boolean): TokenFieldsSeen {
  let fields: Record<string, unknown> = {};
  const text = exchange.body.toString('utf8');
  if (form) fields = Object.fromEntries(new URLSearchParams(text));
  else {
    try {
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) fields = parsed as Record<string, unknown>;
    } catch {
      fields = Object.fromEntries(new URLSearchParams(text));
    }
  }
  const str = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
  let clientId = str(fields.client_id);
  const basic = /^basic +([A-Za-z0-9+/]+=*) *$/i.exec(exchange.authorization ?? '');
  if (basic) {
    const decoded = Buffer.from(basic[1] as string, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon > 0) clientId = safeDecode(decoded.slice(0, colon));
  }
  return { clientId: clientId === undefined ? undefined : printable(clientId, 64), grantType: str(fields.grant_type), scope: str(fields.scope) };
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/** The control calls of the findings: GET /_mock/findings (JSON, or JUnit with ?format=junit) and GET /_mock/findings.xml. */
export function findingsRoutes(findings: ClientFindings, replies: Replies): Record<string, ControlRoute> {
  const junit = (): Reply => {
    const text = findings.junit();
    return { status: 200, headers: ['Content-Type', 'application/xml; charset=utf-8', 'Content-Length', String(Buffer.byteLength(text))], body: text };
  };
  return {
    [`${CONTROL_PREFIX}/findings`]: {
      methods: ['GET'],
      respond: (request) =>
        new URLSearchParams(request.search ?? '').get('format') === 'junit' ? junit() : replies.json(200, JSON.stringify(findings.report())),
    },
    [`${CONTROL_PREFIX}/findings.xml`]: { methods: ['GET'], respond: junit },
  };
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
