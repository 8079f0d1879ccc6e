/**
 * What the fuzz spec (mock/test/fuzz.test.ts) and `npm run fuzz` (tools/fuzz.ts) share: the generated request and its bytes, the fuzz mock's keys, the session
 * that fills in live values, the oracle.
 *
 * Requests hold markers (`{{token:org}}`, `{{next:org:flip:7}}`) where a live value goes: generators stay pure (replayable from a seed), the session fills them
 * in just before sending. They attack only `fuzz-target`, `mock-org-client` and invented ids: the failure throttle never locks out the session's keys.
 */
import type { ClientConfig } from '../clients.ts';
import { type RawOutcome, rawExchange } from './raw-http.ts';

/** How the body is delimited: Content-Length right, absent, wrong, garbled, or chunked; the head lines of each. */
const FRAMING_LINES = {
  length: (n: number) => [`Content-Length: ${n}`],
  none: () => [],
  chunked: () => ['Transfer-Encoding: chunked'],
  'bad-chunk': () => ['Transfer-Encoding: chunked'],
  short: (n: number) => [`Content-Length: ${n + 10}`],
  long: (n: number) => [`Content-Length: ${Math.max(0, n - 3)}`],
  'not-a-number': () => ['Content-Length: 12abc'],
  conflicting: (n: number) => [`Content-Length: ${n}`, `Content-Length: ${n + 1}`],
  'chunked-and-length': (n: number) => ['Transfer-Encoding: chunked', `Content-Length: ${n}`],
} satisfies Record<string, (bodyLength: number) => string[]>;
export const FRAMINGS = Object.keys(FRAMING_LINES) as Array<keyof typeof FRAMING_LINES>;

const HOST_LINES = { ok: ['Host: 127.0.0.1'], missing: [], twice: ['Host: 127.0.0.1', 'Host: example.com'], empty: ['Host:'] };

/** One generated request, before its markers are filled in. */
export interface FuzzRequest {
  readonly origin: 'auth' | 'api';
  readonly method: string;
  /** The request-target as sent: path and query, raw. */
  readonly target: string;
  readonly version: string;
  readonly host: keyof typeof HOST_LINES;
  /** Headers other than Host and the body framing, in order, repeats allowed. */
  readonly headers: ReadonlyArray<readonly [string, string]>;
  readonly body: string;
  /** true: `body` is bytes (one char, one byte); false: UTF-8 text. */
  readonly binary: boolean;
  readonly framing: keyof typeof FRAMING_LINES;
}

const ALL_SCOPES = ['content:read', 'content:write', 'users:read', 'users:write'];
const LONG_TTL = '3650d';

/** The fuzz mock's keys: the session's (never sent a wrong secret) fuzz-org, -provider, -limited, -check; attacked, fuzz-target and mock-org-client. */
export const FUZZ_CLIENTS: readonly ClientConfig[] = [
  { id: 'fuzz-org', secret: 'fuzz-org-secret', scopes: ALL_SCOPES, rate: '0', tokenTtl: LONG_TTL },
  { id: 'fuzz-provider', secret: 'fuzz-provider-secret', scopes: ['content:read'], provider: 'Mock Academy', rate: '0', tokenTtl: LONG_TTL },
  { id: 'fuzz-limited', secret: 'fuzz-limited-secret', scopes: ['content:read'], rate: '3/1m', tokenTtl: LONG_TTL },
  { id: 'fuzz-check', secret: 'fuzz-check-secret', scopes: ['content:read'], rate: '0', tokenTtl: LONG_TTL },
  { id: 'fuzz-target', secret: 'fuzz-target-secret', scopes: ['content:read', 'users:read'], tokenTtl: LONG_TTL },
  { id: 'mock-org-client', secret: 'mock-org-secret', scopes: ALL_SCOPES },
];

/** Client_ids and secrets the generators may use, right or wrong. */
export const ATTACKED = { id: 'fuzz-target', secret: 'fuzz-target-secret', otherId: 'mock-org-client', otherSecret: 'mock-org-secret' } as const;

/** The session's keys by role: a client_id of FUZZ_CLIENTS (its secret is `<id>-secret`) and the scope its tokens ask for. */
const SESSION_KEYS = {
  org: { id: 'fuzz-org', scope: ALL_SCOPES.join(',') },
  provider: { id: 'fuzz-provider', scope: 'content:read' },
  limited: { id: 'fuzz-limited', scope: 'content:read' },
  narrow: { id: 'fuzz-org', scope: 'users:read' },
  check: { id: 'fuzz-check', scope: 'content:read' },
  target: { id: 'fuzz-target', scope: 'content:read,users:read' },
} as const;

const POOL_KEYS = ['org', 'provider', 'limited', 'narrow'] as const;
type PoolKey = (typeof POOL_KEYS)[number];
export type CursorOwner = 'org' | 'provider';
export type CursorOp = 'latest' | 'stale' | 'flip' | 'cut' | 'extend';

/** Marker writers for the generators. */
export const marker = {
  token: (who: PoolKey | 'victim' | 'target') => `{{token:${who}}}`,
  tamperedToken: (who: PoolKey, at: number) => `{{token:${who}:flip:${at}}}`,
  refresh: (who: 'target' | 'org') => `{{refresh:${who}}}`,
  next: (owner: CursorOwner, op: CursorOp, n = 0) => `{{next:${owner}:${op}:${n}}}`,
};

type RequestParts = Pick<FuzzRequest, 'origin' | 'method' | 'target' | 'body' | 'framing'> &
  Partial<FuzzRequest> & { readonly authorization?: string | readonly string[]; readonly contentType?: string };

/** A request, HTTP/1.1 with a right Host and a UTF-8 body unless given; Authorization (none when undefined or empty) and Content-Type headers go first. */
export function fuzzRequestOf({ authorization = [], contentType, headers = [], ...rest }: RequestParts): FuzzRequest {
  const named = [
    ...[authorization].flat().map((value) => ['Authorization', value] as const),
    ...(contentType === undefined ? [] : [['Content-Type', contentType] as const]),
  ];
  return { version: 'HTTP/1.1', host: 'ok', binary: false, ...rest, headers: [...named, ...headers] };
}

const MARKER = /\{\{(token|refresh|next):([a-z]+)(?::([a-z]+))?(?::(\d+))?\}\}/g;
const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** The request's bytes, markers already filled in. */
function serialize(request: FuzzRequest): Buffer {
  const body = Buffer.from(request.body, request.binary ? 'latin1' : 'utf8');
  const lines = [`${request.method} ${request.target}${request.version === '' ? '' : ` ${request.version}`}`];
  lines.push(...HOST_LINES[request.host], ...request.headers.map(([name, value]) => `${name}: ${value}`), ...FRAMING_LINES[request.framing](body.length));
  const chunked = request.framing === 'chunked' || request.framing === 'bad-chunk';
  const payload = !chunked
    ? body
    : Buffer.concat([
        Buffer.from(request.framing === 'chunked' ? `${body.length.toString(16)}\r\n` : 'zz\r\n'),
        body,
        Buffer.from(body.length > 0 ? '\r\n0\r\n\r\n' : '\r\n'),
      ]);
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), payload]);
}

/** Live values for the markers, kept current from the mock's answers; `timeoutMs` bounds each exchange, its own included. */
export class FuzzSession {
  #pool: Record<PoolKey, string> | undefined;
  readonly #cursors: Record<CursorOwner, { latest: string | undefined; stale: string[] }> = {
    org: { latest: undefined, stale: [] },
    provider: { latest: undefined, stale: [] },
  };

  constructor(
    private readonly urls: { authUrl: string; baseUrl: string },
    private readonly timeoutMs: number,
  ) {}

  /** Sends `request` with its markers filled in (fetching the tokens and cursors they need); learns from the answer (new cursors, a pool that stopped working). */
  async send(request: FuzzRequest): Promise<RawOutcome> {
    const found = [request.target, request.body, ...request.headers.map(([, v]) => v)].flatMap((text) => [...text.matchAll(MARKER)]);
    const values = new Map<string, string>();
    for (const m of found) if (!values.has(m[0])) values.set(m[0], await this.#value(m[1] as string, m[2] as string, m[3], Number(m[4] ?? 0)));
    const fill = (text: string) => text.replace(MARKER, (whole) => values.get(whole) ?? whole);
    const resolved = { ...request, target: fill(request.target), body: fill(request.body), headers: request.headers.map(([n, v]) => [n, fill(v)] as const) };
    const origin = request.origin === 'auth' ? this.urls.authUrl : this.urls.baseUrl;
    const outcome = await rawExchange(origin, serialize(resolved), { timeoutMs: this.timeoutMs, head: request.method === 'HEAD' });
    const auth = request.headers.find(([n]) => n.toLowerCase() === 'authorization')?.[1] ?? '';
    const pooled = /^Bearer \{\{token:(org|provider|limited|narrow)\}\}$/.exec(auth)?.[1] as PoolKey | undefined;
    if (outcome.kind !== 'response' || pooled === undefined) return outcome;
    // A pool token that stopped authenticating (logged out by a generated request): fetch new ones next time.
    if (outcome.status === 401) this.#pool = undefined;
    if (outcome.status === 200 && (pooled === 'org' || pooled === 'provider') && request.target.startsWith('/api/v2/content'))
      this.#learnCursor(pooled, outcome.body.toString('utf8'));
    return outcome;
  }

  /** A problem with the mock right now, or undefined: a token request and a listing must both succeed. */
  async alive(): Promise<string | undefined> {
    try {
      const page = await this.#get('/api/v2/content?limit=1', await this.#issue('check'));
      return page.status === 200 ? undefined : `a valid listing was answered ${page.status}: ${page.text.slice(0, 200)}`;
    } catch (error) {
      return `${(error as Error).message} (${String((error as Error).cause ?? '')})`;
    }
  }

  async #value(kind: string, who: string, op: string | undefined, n: number): Promise<string> {
    if (kind === 'token') {
      if (who === 'victim') return this.#issueOr('org');
      if (who === 'target') return this.#issueOr('target');
      const token = (await this.#pooled())[who as PoolKey] ?? 'unknown-pool';
      return op === 'flip' ? flip(token, n) : token;
    }
    if (kind === 'refresh') return this.#issueOr(who === 'org' ? 'org' : 'target', 'refresh_token');
    const owner = who as CursorOwner;
    const cursors = this.#cursors[owner];
    if (cursors.latest === undefined) this.#learnCursor(owner, (await this.#get('/api/v2/content?limit=1', (await this.#pooled())[owner])).text);
    const latest = cursors.latest ?? 'no-cursor';
    const tampered: Record<CursorOp, () => string> = {
      latest: () => latest,
      stale: () => cursors.stale[n % Math.max(1, cursors.stale.length)] ?? flip(latest, n),
      flip: () => flip(latest, n),
      cut: () => latest.slice(0, n % Math.max(1, latest.length)),
      extend: () => `${latest}${B64URL[n % B64URL.length]}`,
    };
    return tampered[op as CursorOp]();
  }

  async #pooled(): Promise<Record<PoolKey, string>> {
    this.#pool ??= Object.fromEntries(await Promise.all(POOL_KEYS.map(async (key) => [key, await this.#issueOr(key)]))) as Record<PoolKey, string>;
    return this.#pool;
  }

  #learnCursor(owner: CursorOwner, body: string): void {
    let next: string | null = null;
    try {
      const link = (JSON.parse(body) as { links?: { next?: unknown } }).links?.next;
      if (typeof link === 'string') next = new URL(link).searchParams.get('next');
    } catch {
      // Not a page: nothing to learn.
    }
    const cursors = this.#cursors[owner];
    if (cursors.latest !== undefined && cursors.latest !== next) {
      cursors.stale.push(cursors.latest);
      if (cursors.stale.length > 16) cursors.stale.shift();
    }
    cursors.latest = next ?? undefined;
  }

  /** A fresh token of a session key, or a placeholder when the mock refuses one (the request still goes out). */
  #issueOr(key: keyof typeof SESSION_KEYS, field: 'access_token' | 'refresh_token' = 'access_token'): Promise<string> {
    return this.#issue(key, field).catch(() => `unavailable-${key}`);
  }

  /** A token of a session key; the mock's answer in the error when it refuses. */
  async #issue(key: keyof typeof SESSION_KEYS, field: 'access_token' | 'refresh_token' = 'access_token'): Promise<string> {
    const { id, scope } = SESSION_KEYS[key];
    const body = new URLSearchParams({ grant_type: 'client_credentials', client_id: id, client_secret: `${id}-secret`, scope });
    const { status, text } = await this.#fetch(`${this.urls.authUrl}/oauth/token`, { method: 'POST', body });
    const value = status === 200 ? (JSON.parse(text) as Record<string, unknown>)[field] : undefined;
    if (typeof value !== 'string') throw new Error(`a valid token request was answered ${status} without ${field}: ${text.slice(0, 200)}`);
    return value;
  }

  #get(path: string, token: string): Promise<{ status: number; text: string }> {
    return this.#fetch(`${this.urls.baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
  }

  async #fetch(url: string, init: RequestInit): Promise<{ status: number; text: string }> {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(this.timeoutMs) });
    return { status: res.status, text: await res.text() };
  }
}

/** `text` with the character at `at` (modulo its length) replaced by another of the base64url alphabet. */
function flip(text: string, at: number): string {
  if (text.length === 0) return 'A';
  const i = at % text.length;
  const c = text[i] as string;
  const replacement = B64URL[(B64URL.indexOf(c) + 1 + (at % 7)) % B64URL.length] as string;
  return `${text.slice(0, i)}${replacement === c ? '_' : replacement}${text.slice(i + 1)}`;
}

const OAUTH_CODES = new Set(['invalid_request', 'invalid_client', 'invalid_grant', 'unauthorized_client', 'unsupported_grant_type', 'invalid_scope']);

/** What is wrong with the answer to `request`, if anything: it must come (no hang, no bare close), never 5xx, every 4xx a JSON error of its origin. */
export function problemWith(request: FuzzRequest, outcome: RawOutcome): string | undefined {
  if (outcome.kind === 'closed' && abandoned(request)) return undefined;
  if (outcome.kind !== 'response') return `${outcome.kind}: ${outcome.detail}`;
  const { status, headers, body } = outcome;
  if (status >= 500) return `a ${status} (${body.toString('utf8').slice(0, 300)})`;
  if (status < 200 || (status >= 300 && status < 400)) return `an unexpected ${status}`;
  if (status < 400) return undefined;
  if (!/^application\/json\b/.test(headers['content-type'] ?? '')) return `a ${status} with Content-Type ${headers['content-type'] ?? 'none'}, not JSON`;
  if (request.method === 'HEAD') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch {
    return `a ${status} whose body is not JSON: ${JSON.stringify(body.toString('utf8').slice(0, 200))}`;
  }
  return request.origin === 'api' ? apiShapeProblem(status, value) : oauthShapeProblem(status, value);
}

/** Whether the client broke off its request, so node closes first: a body short of its Content-Length, or a bad chunk after an Upgrade head. */
function abandoned(request: FuzzRequest): boolean {
  const header = (name: string) => request.headers.find(([n]) => n.toLowerCase() === name)?.[1];
  return request.framing === 'short' || (request.framing === 'bad-chunk' && header('upgrade') !== undefined && /upgrade/i.test(header('connection') ?? ''));
}

function apiShapeProblem(status: number, value: unknown): string | undefined {
  const error = (value as { errors?: unknown[] } | null)?.errors?.[0] as Record<string, unknown> | undefined;
  const shown = JSON.stringify(value).slice(0, 300);
  if (typeof error !== 'object' || error === null) return `a ${status} without errors[0]: ${shown}`;
  if (error.status !== status) return `a ${status} whose errors[0].status is ${String(error.status)}`;
  for (const member of ['id', 'code', 'title', 'detail'] as const)
    if (typeof error[member] !== 'string' || error[member] === '') return `a ${status} without errors[0].${member}: ${shown}`;
  const parameter = (error.source as { parameter?: unknown } | undefined)?.parameter;
  if (error.code === 'invalid-parameter' && (typeof parameter !== 'string' || parameter === ''))
    return `a ${status} invalid-parameter naming no parameter: ${shown}`;
  return undefined;
}

function oauthShapeProblem(status: number, value: unknown): string | undefined {
  const body = value as { error?: unknown; error_description?: unknown } | null;
  const shown = JSON.stringify(value).slice(0, 300);
  if (typeof body?.error !== 'string' || !OAUTH_CODES.has(body.error)) return `a ${status} without an OAuth error code: ${shown}`;
  if (typeof body.error_description !== 'string' || body.error_description === '') return `a ${status} without error_description: ${shown}`;
  return undefined;
}

const SECRETS = FUZZ_CLIENTS.map((c) => c.secret);

/** One line for a report: the generated request with its markers, bounded, the fuzz keys' secrets redacted. */
export function showRequest(request: FuzzRequest): string {
  let text = serialize(request).toString('latin1');
  for (const secret of SECRETS) text = text.split(secret).join('<secret>');
  // The fuzz secrets are all unreserved characters: form encoding inside a Basic header leaves them as they are.
  text = text.replace(/(Basic +)([A-Za-z0-9+/=]+)/gi, (whole, scheme: string, encoded: string) => {
    const decoded = Buffer.from(encoded, 'base64').toString('latin1');
    return SECRETS.some((secret) => decoded.includes(secret)) ? `${scheme}<secret>` : whole;
  });
  return JSON.stringify(text.length > 400 ? `${text.slice(0, 400)}… (${text.length} bytes)` : text);
}
