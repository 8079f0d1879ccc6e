/** The node:http side: a server per origin with a public service's limits (head size, slow clients, keep-alive), answers to what node refuses first. */
import { createServer, type IncomingMessage, type Server, type ServerResponse, STATUS_CODES } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Origin } from '../contracts/endpoints.ts';
import { MAX_URL_BYTES, type RequestHandler, URL_TOO_LONG } from './http.ts';
import type { Router } from './routes.ts';

/** How long a slow or idle client may hold a connection: the defaults let any real client through; tests shorten them to see one cut off. */
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

/** Largest request head: a long bearer token and a long query fit many times over. */
const MAX_HEADER_BYTES = 16 * 1024;

/** A certificate chain and its private key, PEM: the server speaks HTTPS with them. */
export type TlsFiles = { readonly cert: string; readonly key: string };

export function checkInteger(name: string, value: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (!Number.isInteger(value) || value < min || value > max) throw new RangeError(`${name} must be an integer from ${min} to ${max}, got ${value}.`);
  return value;
}

/** The timeouts with their defaults (MockTimeouts), checked. */
export function checkTimeouts(t: MockTimeouts): Required<MockTimeouts> {
  const headersMs = checkInteger('timeouts.headersMs', t.headersMs ?? 10_000, 1);
  const requestMs = checkInteger('timeouts.requestMs', t.requestMs ?? Math.max(30_000, headersMs), headersMs);
  // The load generators reuse keep-alive connections well within 5 s.
  const keepAliveMs = checkInteger('timeouts.keepAliveMs', t.keepAliveMs ?? 5_000, 1);
  const checkIntervalMs = checkInteger('timeouts.checkIntervalMs', t.checkIntervalMs ?? Math.max(1, Math.min(2_000, Math.floor(headersMs / 5))), 1);
  return { headersMs, requestMs, keepAliveMs, checkIntervalMs };
}

/** The sockets each server of createOriginServer holds open, for closeServer. */
const OPEN_SOCKETS = new WeakMap<Server, Set<Socket>>();

/** A node:http(s) server per origin, or for both told apart by Host (`origin` shapes errors before a request is read); the router answers the rest. */
export function createOriginServer(origin: Origin, handler: RequestHandler, timeouts: Required<MockTimeouts>, router: Router, tls?: TlsFiles): Server {
  const options = {
    maxHeaderSize: MAX_HEADER_BYTES,
    requestTimeout: timeouts.requestMs,
    headersTimeout: timeouts.headersMs,
    connectionsCheckingInterval: timeouts.checkIntervalMs,
    // node would answer a missing Host with an empty 400; the handlers answer it with a body.
    requireHostHeader: false,
  };
  const listener = (req: IncomingMessage, res: ServerResponse) => {
    try {
      handler(req, res);
    } catch (error) {
      router.internalError(res, error);
    }
  };
  // An https.Server is an http.Server over TLS: the same options, events and limits.
  const server: Server = tls ? createTlsServer({ ...options, cert: tls.cert, key: tls.key }, listener) : createServer(options, listener);
  server.keepAliveTimeout = timeouts.keepAliveMs;
  const open = new Set<Socket>();
  OPEN_SOCKETS.set(server, open);
  server.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => clientError(origin, error, socket, router));
  // Without these node destroys a CONNECT's socket without a word and answers an unknown Expect with an empty 417: both get a body instead.
  server.on('connect', (_req: IncomingMessage, socket: Duplex) =>
    writeRawError(socket, origin, 405, 'method-not-allowed', 'CONNECT is not supported: this is not a proxy.', router),
  );
  server.on('checkExpectation', router.expectationFailed(origin));
  return server;
}

export function listenOn(server: Server, port: number, host: string): Promise<number> {
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

export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) return resolve();
    server.close(() => resolve());
    // Every socket the server accepted, not only those node still counts as its connections (what closeAllConnections ends): a CONNECT's socket, or one ended
    // after a raw error and waiting for its peer, would hold close() open as a keep-alive socket would, until a timeout.
    for (const socket of OPEN_SOCKETS.get(server) ?? []) socket.destroy();
  });
}

/** Requests node:http refuses before they reach a handler still get an error body naming the problem. */
function clientError(origin: Origin, error: NodeJS.ErrnoException, socket: Duplex, router: Router): void {
  // node sets _httpMessage while a response is being written on this socket: then nothing may be added.
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
  if (error.code === 'ECONNRESET' || !socket.writable || inFlight) return void socket.destroy();
  const raw = (status: number, code: string, detail: string) => writeRawError(socket, origin, status, code, detail, router);
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    if (requestLineOverflows((error as NodeJS.ErrnoException & { rawPacket?: Buffer }).rawPacket)) raw(414, 'uri-too-long', URL_TOO_LONG);
    else raw(431, 'header-too-large', `The request head is larger than ${MAX_HEADER_BYTES} bytes.`);
  } else if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') raw(408, 'request-timeout', 'The request did not arrive in time.');
  else raw(400, 'bad-request', `The request is not valid HTTP/1.1 (${error.code ?? 'parse error'}).`);
}

/** Whether a head overflowed in its request line: the packet node hands over starts the request and has no line end within MAX_URL_BYTES (else 431). */
function requestLineOverflows(packet: Buffer | undefined): boolean {
  if (packet === undefined || !/^[!-~]+ /.test(packet.subarray(0, 32).toString('latin1'))) return false;
  const eol = packet.indexOf('\r\n');
  return eol < 0 || eol > MAX_URL_BYTES;
}

/** An error answer written straight to the socket (no request object exists), then the connection closes. */
function writeRawError(socket: Duplex, origin: Origin, status: number, code: string, detail: string, router: Router): void {
  if (!socket.writable) return void socket.destroy();
  const { headers, body } = router.refusal(origin, status, code, detail);
  let head = `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nDate: ${router.date()}\r\n`;
  for (let i = 0; i < headers.length; i += 2) head += `${headers[i]}: ${headers[i + 1]}\r\n`;
  socket.end(`${head}Connection: close\r\n\r\n${body as string}`);
}

/** Printable, bounded, without the query (cursors live there): a log line never carries a cursor or a token. */
function logPath(url: string | undefined): string {
  const path = (url ?? '/').split('?', 1)[0] ?? '';
  const clipped = path.length > 200 ? `${path.slice(0, 200)}…` : path;
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is replaced
  return clipped.replace(/[\u0000-\u001f\u007f\s]/g, '?');
}

/** `handler` with one log line per request (origin, method, path without query, status, ms). */
export function logged(origin: Origin, handler: RequestHandler, log: (line: string) => void): RequestHandler {
  return (req, res) => {
    // A monotonic duration, not the time of day: the virtual clock is not involved.
    const start = performance.now();
    res.once('finish', () => log(`${origin} ${req.method} ${logPath(req.url)} ${res.statusCode} ${(performance.now() - start).toFixed(1)}ms`));
    handler(req, res);
  };
}
