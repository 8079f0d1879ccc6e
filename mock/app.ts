/**
 * The mock's app factory: two node:http servers, the `auth` origin (token endpoint) and the `api`
 * origin (logout, /api/v2 resources, /_mock control plane), usable in-process (tests, the embedded
 * contract run) and by mock/cli.ts.
 *
 * Raw node:http on purpose (issue 6 wants ≥0.7× a bare server's throughput): routing is a few string
 * comparisons, handlers are bound once, replies go out in one writeHead with a flat header list, and
 * faults and variants are read once at construction, not per request.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse, STATUS_CODES } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Rate } from '../contracts/duration.ts';
import { ENDPOINTS } from '../contracts/endpoints.ts';
import { DEFAULT_RATE, DEFAULT_TOKEN_TTL_SECONDS, SNAPSHOT_TTL_SECONDS } from '../contracts/limits.ts';
import { BearerAuth } from './bearer.ts';
import { type ClientConfig, ClientRegistry, DEFAULT_CLIENTS, validateClients } from './clients.ts';
import { VirtualClock } from './clock.ts';
import { CONTROL_PREFIX, ControlPlane } from './control.ts';
import { type ApiError, apiErrorBody, apiErrors } from './errors.ts';
import { type FaultName, isFaultName } from './faults.ts';
import { Replies, type Reply, readBody, send } from './http.ts';
import { Logout } from './logout.ts';
import { quotaExceeded, RateLimiter } from './rate-limit.ts';
import { Resources } from './resources.ts';
import { TokenEndpoint } from './token-endpoint.ts';
import { DEFAULT_TOKEN_THROTTLE, FailureThrottle } from './token-throttle.ts';
import { TokenStore } from './tokens.ts';
import { isVariantName, type VariantName } from './variants.ts';

export type { ClientConfig } from './clients.ts';
export { DEFAULT_CLIENTS } from './clients.ts';

/**
 * How long a slow or idle client may hold a connection. The defaults let any real client through;
 * tests shorten them to see a slow client cut off within a second or two.
 */
export interface MockTimeouts {
  /** The request head must have arrived this long after the connection opened or the request began (slowloris). Default 10 000 ms. */
  headersMs?: number;
  /** The whole request, head and body, must have arrived within this; at least `headersMs`. Default 30 000 ms. */
  requestMs?: number;
  /** An idle keep-alive connection is closed after this. Default 5 000 ms. */
  keepAliveMs?: number;
  /** How often the first two are checked. Default a fifth of `headersMs`, at most 2 000 ms (node's own default, 30 s, would let a slow client hold on for that long). */
  checkIntervalMs?: number;
}

export interface MockOptions {
  /** Interface both servers listen on. Default `127.0.0.1`. */
  host?: string;
  /** Port of the `auth` origin; 0 picks a free one. Default 0. */
  authPort?: number;
  /** Port of the `api` origin; 0 picks a free one. Default 0. */
  apiPort?: number;
  /** Seeded content items. Default 250. */
  items?: number;
  /** Seeded users. Default 50. */
  users?: number;
  /** Seed of the generated data. Default 1. */
  seed?: number;
  /** Rate per client for keys without their own; null turns limiting off. Default DEFAULT_RATE (200 per 1m). */
  rate?: Rate | null;
  /** Token lifetime for keys without their own, in whole seconds. Default DEFAULT_TOKEN_TTL_SECONDS (60 days). */
  tokenTtlSeconds?: number;
  /** Snapshot lifetime without a `next` request, in whole seconds. Default SNAPSHOT_TTL_SECONDS (120). */
  snapshotTtlSeconds?: number;
  /** The API keys. Default DEFAULT_CLIENTS. */
  clients?: readonly ClientConfig[];
  /** Serve the /_mock control plane. Default true. */
  control?: boolean;
  /** Source of the virtual clock, epoch ms. Default `Date.now`. */
  timeSource?: () => number;
  /** Called with one line per request (method, path without query, status, ms). Default: no log. */
  log?: (line: string) => void;
  /** Faults to switch on (mock/faults.ts). Default none. */
  faults?: Iterable<FaultName>;
  /** Legal variants to switch on (mock/variants.ts). Default none. */
  variants?: Iterable<VariantName>;
  /**
   * Failed token requests (wrong credentials, a bad refresh token) allowed per client_id and period;
   * past them, that client_id's token requests get 429 with Retry-After until the period ends.
   * null turns throttling off. Default DEFAULT_TOKEN_THROTTLE (10 per 1m).
   */
  tokenThrottle?: Rate | null;
  /** Connection timeouts (mock/app.ts MockTimeouts). Default: the defaults listed there. */
  timeouts?: MockTimeouts;
}

export interface MockStats {
  readonly accessTokens: number;
  readonly refreshTokens: number;
  readonly rateWindows: number;
  readonly snapshots: number;
  /** Client_ids with a window of failed token requests (mock/token-throttle.ts). */
  readonly throttledClients: number;
}

export interface MockServer {
  listen(): Promise<void>;
  close(): Promise<void>;
  /** Clock, tokens, rate windows, snapshots and data back to their start (what POST /_mock/reset does). */
  reset(): void;
  /** Live entry counts: what the memory and soak checks watch. */
  stats(): MockStats;
  /** `http://host:port` of the `auth` origin; set once listening. */
  readonly authUrl: string;
  /** `http://host:port` of the `api` origin; set once listening. */
  readonly baseUrl: string;
  /** `{baseUrl}/_mock`, or undefined with `control: false`. */
  readonly controlUrl: string | undefined;
  readonly clock: VirtualClock;
}

/** Idle keep-alive sockets are closed after this; the load generators reuse connections well within it. */
const KEEP_ALIVE_TIMEOUT_MS = 5_000;
/** A client that has not sent its whole head within this is dropped (slowloris). */
const HEADERS_TIMEOUT_MS = 10_000;
/** A request (head and body) must arrive within this. */
const REQUEST_TIMEOUT_MS = 30_000;
/** Upper bound of how often node checks the two timeouts above. */
const TIMEOUT_CHECK_INTERVAL_MS = 2_000;
/** Largest request head: a long bearer token and a long query fit many times over. */
const MAX_HEADER_BYTES = 16 * 1024;
/**
 * Longest request target (414 past it). Below MAX_HEADER_BYTES, so that a long URL gets its own
 * answer; the longest links.next the mock writes is well under 1 KiB.
 */
export const MAX_URL_BYTES = 8 * 1024;

const TOKEN_PATH = ENDPOINTS.token.path;
const LOGOUT_PATH = ENDPOINTS.logout.path;
const CONTENT_PATH = ENDPOINTS.listContent.path;
const USERS_PATH = ENDPOINTS.listUsers.path;

// Constant answers of the routers, serialised once.
const AUTH_NOT_FOUND = JSON.stringify({
  error: 'invalid_request',
  error_description: `No endpoint at this path: the auth origin serves only POST ${TOKEN_PATH}.`,
});
const AUTH_NOT_ALLOWED = JSON.stringify({ error: 'invalid_request', error_description: `${TOKEN_PATH} answers POST only.` });
const API_NOT_FOUND: ApiError = apiErrors.notFound(
  `No endpoint at this path: the api origin serves GET ${CONTENT_PATH}, GET ${USERS_PATH} and POST ${LOGOUT_PATH}.`,
);
const API_GET_ONLY: ApiError = apiErrors.methodNotAllowed('This endpoint answers GET only.');
const API_POST_ONLY: ApiError = apiErrors.methodNotAllowed(`${LOGOUT_PATH} answers POST only (log out).`);
const URL_TOO_LONG = `The request target is longer than ${MAX_URL_BYTES} bytes.`;
const HOST_MISSING = 'An HTTP/1.1 request must carry a Host header (RFC 9112 §3.2).';

type BodyRoute = 'token' | 'logout' | 'control';

export function createMock(options: MockOptions = {}): MockServer {
  return new Mock(options);
}

function checkInteger(name: string, value: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (!Number.isInteger(value) || value < min || value > max) throw new RangeError(`${name} must be an integer from ${min} to ${max}, got ${value}.`);
  return value;
}

class Mock implements MockServer {
  readonly clock: VirtualClock;
  readonly #host: string;
  readonly #ports: { auth: number; api: number };
  readonly #control: ControlPlane | undefined;
  readonly #replies: Replies;
  /** The control plane is the mock's own interface: its errors keep their bodies under every variant. */
  readonly #controlReplies = new Replies(true);
  readonly #tokens: TokenStore;
  readonly #limiter: RateLimiter;
  readonly #bearer: BearerAuth;
  readonly #tokenEndpoint: TokenEndpoint;
  readonly #logout: Logout;
  readonly #resources: Resources;
  readonly #throttle: FailureThrottle | undefined;
  readonly #timeouts: Required<MockTimeouts>;
  readonly #authServer: Server;
  readonly #apiServer: Server;
  #urls: { auth: string; api: string } | undefined;

  constructor(options: MockOptions) {
    this.#host = options.host ?? '127.0.0.1';
    this.#ports = { auth: checkInteger('authPort', options.authPort ?? 0, 0, 65_535), api: checkInteger('apiPort', options.apiPort ?? 0, 0, 65_535) };
    const faults = new Set<FaultName>();
    for (const name of options.faults ?? []) {
      if (!isFaultName(name)) throw new RangeError(`unknown fault "${name}" (see mock/faults.ts).`);
      faults.add(name);
    }
    const variants = new Set<VariantName>();
    for (const name of options.variants ?? []) {
      if (!isVariantName(name)) throw new RangeError(`unknown variant "${name}" (see mock/variants.ts).`);
      variants.add(name);
    }
    const clients = new ClientRegistry(validateClients(options.clients ?? DEFAULT_CLIENTS, 'clients'), {
      rate: options.rate === undefined ? DEFAULT_RATE : options.rate,
      tokenTtlSeconds: checkInteger('tokenTtlSeconds', options.tokenTtlSeconds ?? DEFAULT_TOKEN_TTL_SECONDS, 1),
    });

    this.clock = new VirtualClock(options.timeSource ?? Date.now);
    this.#replies = new Replies(!variants.has('errors-without-body'));
    this.#tokens = new TokenStore({ clock: this.clock, faults });
    this.#limiter = new RateLimiter({ clock: this.clock, faults, variants });
    this.#bearer = new BearerAuth({ tokens: this.#tokens, clients, faults, variants });
    const throttleRate = options.tokenThrottle === undefined ? DEFAULT_TOKEN_THROTTLE : options.tokenThrottle;
    this.#throttle =
      throttleRate === null
        ? undefined
        : new FailureThrottle({ clock: this.clock, rate: throttleRate, replies: this.#replies, isKnown: (id) => clients.get(id) !== undefined });
    this.#tokenEndpoint = new TokenEndpoint({ clients, tokens: this.#tokens, replies: this.#replies, faults, variants, throttle: this.#throttle });
    this.#timeouts = checkTimeouts(options.timeouts ?? {});
    this.#logout = new Logout({ bearer: this.#bearer, tokens: this.#tokens, limiter: this.#limiter, replies: this.#replies, faults, variants });
    this.#resources = new Resources({
      clock: this.clock,
      seed: checkInteger('seed', options.seed ?? 1, 0),
      items: checkInteger('items', options.items ?? 250, 0),
      users: checkInteger('users', options.users ?? 50, 0),
      snapshotTtlSeconds: checkInteger('snapshotTtlSeconds', options.snapshotTtlSeconds ?? SNAPSHOT_TTL_SECONDS, 1),
      faults,
      variants,
    });
    this.#control =
      options.control === false
        ? undefined
        : new ControlPlane({
            clock: this.clock,
            content: this.#resources,
            reset: () => this.reset(),
            stats: () => this.stats(),
            replies: this.#controlReplies,
          });

    const log = options.log;
    this.#authServer = this.#server(log ? logged('auth', this.#onAuth, log) : this.#onAuth, 'auth');
    this.#apiServer = this.#server(log ? logged('api', this.#onApi, log) : this.#onApi, 'api');
  }

  get authUrl(): string {
    return this.#listening().auth;
  }

  get baseUrl(): string {
    return this.#listening().api;
  }

  get controlUrl(): string | undefined {
    return this.#control ? `${this.#listening().api}${CONTROL_PREFIX}` : undefined;
  }

  async listen(): Promise<void> {
    if (this.#urls) return;
    const authPort = await listenOn(this.#authServer, this.#ports.auth, this.#host);
    let apiPort: number;
    try {
      apiPort = await listenOn(this.#apiServer, this.#ports.api, this.#host);
    } catch (error) {
      await closeServer(this.#authServer);
      throw error;
    }
    const host = this.#host.includes(':') ? `[${this.#host}]` : this.#host;
    this.#urls = { auth: `http://${host}:${authPort}`, api: `http://${host}:${apiPort}` };
  }

  async close(): Promise<void> {
    await Promise.all([closeServer(this.#authServer), closeServer(this.#apiServer)]);
  }

  reset(): void {
    this.clock.reset();
    this.#tokens.clear();
    this.#limiter.clear();
    this.#resources.reset();
    this.#throttle?.reset();
  }

  stats(): MockStats {
    const tokens = this.#tokens.stats();
    return {
      ...tokens,
      rateWindows: this.#limiter.stats().windows,
      snapshots: this.#resources.stats().snapshots,
      throttledClients: this.#throttle?.size ?? 0,
    };
  }

  #listening(): { auth: string; api: string } {
    if (!this.#urls) throw new Error('The mock is not listening yet: await listen() first.');
    return this.#urls;
  }

  #server(handler: (req: IncomingMessage, res: ServerResponse) => void, origin: 'auth' | 'api'): Server {
    const t = this.#timeouts;
    const options = {
      maxHeaderSize: MAX_HEADER_BYTES,
      requestTimeout: t.requestMs,
      headersTimeout: t.headersMs,
      connectionsCheckingInterval: t.checkIntervalMs,
      // node would answer a missing Host with an empty 400; the handlers answer it with a body.
      requireHostHeader: false,
    };
    const server = createServer(options, (req, res) => {
      try {
        handler(req, res);
      } catch (error) {
        this.#internalError(res, error);
      }
    });
    server.keepAliveTimeout = t.keepAliveMs;
    server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => clientError(origin, error, socket));
    // Without these listeners node destroys the socket of a CONNECT without a word, and answers an
    // unknown Expect with an empty 417: both get a JSON body naming the problem instead.
    server.on('connect', (_req: IncomingMessage, socket: Duplex) =>
      writeRawError(socket, origin, 405, 'method-not-allowed', 'CONNECT is not supported: this is not a proxy.'),
    );
    server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
      const detail = `The expectation "${String(req.headers.expect).slice(0, 60)}" cannot be met; only 100-continue is supported.`;
      send(res, this.#refusal(origin, 417, 'expectation-failed', detail, ['Connection', 'close']));
    });
    return server;
  }

  readonly #onAuth = (req: IncomingMessage, res: ServerResponse): void => {
    const url = req.url ?? '/';
    const malformed = malformedRequest(req, url);
    const path = pathOf(url);
    if (malformed !== undefined) send(res, this.#refusal('auth', malformed.status, malformed.code, malformed.detail));
    else if (path === TOKEN_PATH && req.method === 'POST') this.#withBody(req, res, 'token', path);
    else if (path === TOKEN_PATH) send(res, this.#replies.errorText(405, AUTH_NOT_ALLOWED, ['Allow', 'POST']));
    else send(res, this.#replies.errorText(404, AUTH_NOT_FOUND));
  };

  readonly #onApi = (req: IncomingMessage, res: ServerResponse): void => {
    const reply = this.#routeApi(req, res);
    if (reply !== undefined) send(res, reply);
  };

  /** The reply, or undefined when a body must be read first (the reply then goes out from #withBody). */
  #routeApi(req: IncomingMessage, res: ServerResponse): Reply | undefined {
    const url = req.url ?? '/';
    const malformed = malformedRequest(req, url);
    if (malformed !== undefined) return this.#refusal('api', malformed.status, malformed.code, malformed.detail);
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    const method = req.method ?? '';
    if (path === CONTENT_PATH || path === USERS_PATH) {
      if (method !== 'GET') return this.#replies.api(API_GET_ONLY, ['Allow', 'GET']);
      return this.#list(req, path === CONTENT_PATH ? 'listContent' : 'listUsers', q < 0 ? '' : url.slice(q + 1));
    }
    if (path === LOGOUT_PATH) {
      if (method !== 'POST') return this.#replies.api(API_POST_ONLY, ['Allow', 'POST']);
      this.#withBody(req, res, 'logout', path);
      return undefined;
    }
    if (this.#control !== undefined && (path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`))) {
      if (!ControlPlane.takesBody(method)) return this.#control.respond({ method, path, body: Buffer.alloc(0) });
      this.#withBody(req, res, 'control', path);
      return undefined;
    }
    return this.#replies.api(API_NOT_FOUND);
  }

  /** Bearer → rate limit → scope → resources. A 401 is not counted (no client is known); everything after is. */
  #list(req: IncomingMessage, endpoint: 'listContent' | 'listUsers', search: string): Reply {
    const auth = this.#bearer.authenticate(req.headers.authorization);
    if (!auth.ok) return this.#replies.api(auth.error, auth.headers);
    const grant = auth.grant;
    const rate = this.#limiter.take(grant);
    if (rate.refused) return this.#replies.api(quotaExceeded(grant.client), rate.headers);
    const refusal = this.#bearer.checkScope(grant, endpoint);
    if (refusal !== undefined) {
      for (const h of rate.headers) refusal.headers.push(h);
      return this.#replies.api(refusal.error, refusal.headers);
    }
    const result = this.#resources.list({ endpoint, clientId: grant.client.id, provider: grant.client.provider, search, baseUrl: this.baseUrl });
    return 'error' in result ? this.#replies.api(result.error, rate.headers) : this.#replies.json(200, result.body, rate.headers);
  }

  #withBody(req: IncomingMessage, res: ServerResponse, route: BodyRoute, path: string): void {
    readBody(req)
      .then((read) => send(res, read.ok ? this.#respondWithBody(req, route, path, read.body) : this.#bodyRefusal(route, read.status, read.reason)))
      .catch((error: unknown) => this.#internalError(res, error));
  }

  #respondWithBody(req: IncomingMessage, route: BodyRoute, path: string, body: Buffer): Reply {
    const authorization = req.headers.authorization;
    switch (route) {
      case 'token':
        return this.#tokenEndpoint.respond({ contentType: req.headers['content-type'], authorization, body });
      case 'logout':
        return this.#logout.respond({ authorization, body });
      case 'control':
        return (this.#control as ControlPlane).respond({ method: req.method ?? '', path, body });
    }
  }

  #bodyRefusal(route: BodyRoute, status: 400 | 413, reason: string): Reply {
    // The rest of an oversized body is never read: close the connection after answering.
    const headers = ['Connection', 'close'];
    const description = `${reason[0]?.toUpperCase()}${reason.slice(1)}.`;
    if (route === 'token') return this.#replies.oauth({ status, error: 'invalid_request', description }, headers);
    const error: ApiError = { status, code: status === 413 ? 'payload-too-large' : 'invalid-body', title: 'Invalid request body.', detail: description };
    return (route === 'control' ? this.#controlReplies : this.#replies).api(error, headers);
  }

  /** A refusal before routing, in the error shape of the origin. */
  #refusal(origin: 'auth' | 'api', status: 400 | 414 | 417, code: string, detail: string, headers: string[] = []): Reply {
    if (origin === 'auth') return this.#replies.oauth({ status, error: 'invalid_request', description: detail }, headers);
    return this.#replies.api({ status, code, title: STATUS_CODES[status] ?? 'Error', detail }, headers);
  }

  #internalError(res: ServerResponse, error: unknown): void {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const detail = `The mock failed on this request (${error instanceof Error ? error.name : 'error'}); this is a bug of the mock.`;
    send(res, this.#controlReplies.api({ status: 500, code: 'internal-error', title: 'Internal error.', detail }));
  }
}

function checkTimeouts(t: MockTimeouts): Required<MockTimeouts> {
  const headersMs = checkInteger('timeouts.headersMs', t.headersMs ?? HEADERS_TIMEOUT_MS, 1);
  const requestMs = checkInteger('timeouts.requestMs', t.requestMs ?? Math.max(REQUEST_TIMEOUT_MS, headersMs), headersMs);
  const keepAliveMs = checkInteger('timeouts.keepAliveMs', t.keepAliveMs ?? KEEP_ALIVE_TIMEOUT_MS, 1);
  const checkIntervalMs = checkInteger(
    'timeouts.checkIntervalMs',
    t.checkIntervalMs ?? Math.max(1, Math.min(TIMEOUT_CHECK_INTERVAL_MS, Math.floor(headersMs / 5))),
    1,
  );
  return { headersMs, requestMs, keepAliveMs, checkIntervalMs };
}

/** What is wrong with a request before its route is looked at: two comparisons on the hot path when nothing is. */
function malformedRequest(req: IncomingMessage, url: string): { status: 400 | 414; code: string; detail: string } | undefined {
  if (url.length > MAX_URL_BYTES) return { status: 414, code: 'uri-too-long', detail: URL_TOO_LONG };
  if (req.headers.host === undefined && req.httpVersionMajor === 1 && req.httpVersionMinor >= 1)
    return { status: 400, code: 'host-missing', detail: HOST_MISSING };
  return undefined;
}

function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
}

function listenOn(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      const why = error.code === 'EADDRINUSE' ? 'the port is in use' : error.code === 'EADDRNOTAVAIL' ? 'the address is not available here' : error.message;
      reject(new Error(`Cannot listen on ${host}:${port}: ${why}.`, { cause: error }));
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) return resolve();
    server.close(() => resolve());
    // Keep-alive sockets would hold close() open until they idle out.
    server.closeAllConnections();
  });
}

/** Requests node:http refuses before they reach a handler still get a JSON error body naming the problem. */
function clientError(origin: 'auth' | 'api', error: NodeJS.ErrnoException, socket: Duplex): void {
  // node sets _httpMessage while a response is being written on this socket: then nothing may be added.
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
  if (error.code === 'ECONNRESET' || !socket.writable || inFlight) {
    socket.destroy();
    return;
  }
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    if (requestLineOverflows((error as NodeJS.ErrnoException & { rawPacket?: Buffer }).rawPacket)) {
      writeRawError(socket, origin, 414, 'uri-too-long', URL_TOO_LONG);
    } else writeRawError(socket, origin, 431, 'header-too-large', `The request head is larger than ${MAX_HEADER_BYTES} bytes.`);
  } else if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    writeRawError(socket, origin, 408, 'request-timeout', 'The request did not arrive in time.');
  } else writeRawError(socket, origin, 400, 'bad-request', `The request is not valid HTTP/1.1 (${error.code ?? 'parse error'}).`);
}

/**
 * Whether a head that overflowed did so in its request line: node hands over the packet it was
 * parsing; when that packet starts the request and holds no end of line within MAX_URL_BYTES,
 * the target is what is too long (a head that came in many packets falls back to 431).
 */
function requestLineOverflows(packet: Buffer | undefined): boolean {
  if (packet === undefined || !/^[!-~]+ /.test(packet.subarray(0, 32).toString('latin1'))) return false;
  const eol = packet.indexOf('\r\n');
  return eol < 0 || eol > MAX_URL_BYTES;
}

/** An error answer written straight to the socket (no request object exists), then the connection closes. */
function writeRawError(socket: Duplex, origin: 'auth' | 'api', status: number, code: string, detail: string): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = JSON.stringify(
    origin === 'api' ? apiErrorBody({ status, code, title: STATUS_CODES[status] ?? 'Error', detail }) : { error: 'invalid_request', error_description: detail },
  );
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** Printable, bounded, without the query (cursors live there): a log line never carries a cursor or a token. */
function logPath(url: string | undefined): string {
  const path = pathOf(url ?? '/');
  const clipped = path.length > 200 ? `${path.slice(0, 200)}…` : path;
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is replaced
  return clipped.replace(/[\u0000-\u001f\u007f\s]/g, '?');
}

function logged(origin: string, handler: (req: IncomingMessage, res: ServerResponse) => void, log: (line: string) => void) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    // A monotonic duration, not the time of day: the virtual clock is not involved.
    const start = performance.now();
    res.once('finish', () => log(`${origin} ${req.method} ${logPath(req.url)} ${res.statusCode} ${(performance.now() - start).toFixed(1)}ms`));
    handler(req, res);
  };
}
