/**
 * The routing table of both origins, from contracts/endpoints.ts: a request goes to its endpoint's handler as one Exchange (the facts a handler reads, a POST's
 * body read), or is answered here: malformed, an unknown path (404), a method the path does not answer (405 with Allow), and /_mock on the api origin.
 *
 * Routing is a Map lookup and a few string operations: the list endpoints are the hot path.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { STATUS_CODES } from 'node:http';
import { ENDPOINTS, type Endpoint, type EndpointId, type Origin } from '../contracts/endpoints.ts';
import { CONTROL_PREFIX, type ControlPlane } from './control.ts';
import { type ApiError, apiErrors } from './error-bodies.ts';
import { MAX_URL_BYTES, readBody, type Replies, type Reply, type RequestHandler, send, URL_TOO_LONG } from './http.ts';

/** What a handler reads of a request. */
export interface Exchange {
  readonly authorization: string | undefined;
  readonly contentType: string | undefined;
  /** The query string without `?` ('' when there is none). */
  readonly search: string;
  /** The request body (empty for GET). */
  readonly body: Buffer;
}

export type RouteHandler = (exchange: Exchange) => Reply;
export type RouteHandlers = Readonly<Record<EndpointId, RouteHandler>>;

export interface RouterOptions {
  readonly handlers: RouteHandlers;
  /** Replies in the profile's error shapes. */
  readonly replies: Replies;
  /** Replies of the mock's own interface: the control plane keeps its error bodies under every profile. */
  readonly controlReplies: Replies;
  /** Undefined without a control plane: its paths are then unknown like any other. */
  readonly control: ControlPlane | undefined;
  /** The Date header's value now, from the mock's clock (mock/clock.ts httpDate). */
  readonly date: () => string;
}

/** The names of the two origins when one port serves both (lower case, without port). */
export type HostNames = { readonly auth: string; readonly api: string };

/** A host name (RFC 1123: letters, digits and hyphens in dot-separated labels), lower-cased; otherwise a RangeError naming `what`. */
function checkHostName(what: string, name: string): string {
  const lower = name.toLowerCase();
  const label = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
  if (lower.length > 253 || !new RegExp(`^${label}(?:\\.${label})*$`).test(lower))
    throw new RangeError(`${what} must be a host name (letters, digits and hyphens in dot-separated labels), got "${name}".`);
  return lower;
}

/** Both names checked by checkHostName, and told apart: `what` says how the RangeError names each. */
export function checkHostNames(names: HostNames, what: HostNames): HostNames {
  const checked = { auth: checkHostName(what.auth, names.auth), api: checkHostName(what.api, names.api) };
  if (checked.auth === checked.api) throw new RangeError(`${what.auth} and ${what.api} must differ: both are "${checked.auth}".`);
  return checked;
}

type Table = ReadonlyMap<string, ReadonlyMap<string, Endpoint>>;

const EMPTY = Buffer.alloc(0);
const HOST_MISSING = 'An HTTP/1.1 request must carry a Host header (RFC 9112 §3.2).';

function tableOf(origin: Origin): Table {
  const table = new Map<string, Map<string, Endpoint>>();
  for (const endpoint of (Object.values(ENDPOINTS) as Endpoint[]).filter((e) => e.origin === origin))
    table.set(endpoint.path, (table.get(endpoint.path) ?? new Map<string, Endpoint>()).set(endpoint.method, endpoint));
  return table;
}

/** `GET /a, GET /b and POST /c`: what an origin serves, for its 404. */
function served(table: Table): string {
  const routes = [...table].flatMap(([path, methods]) => [...methods.keys()].map((method) => `${method} ${path}`));
  return routes.length <= 1 ? (routes[0] ?? 'nothing') : `${routes.slice(0, -1).join(', ')} and ${routes.at(-1)}`;
}

export class Router {
  readonly #tables: Readonly<Record<Origin, Table>> = { auth: tableOf('auth'), api: tableOf('api') };
  readonly #notFound: Readonly<Record<Origin, string>>;

  constructor(private readonly o: RouterOptions) {
    this.#notFound = {
      auth: `No endpoint at this path: the auth origin serves only ${served(this.#tables.auth)}.`,
      api: `No endpoint at this path: the api origin serves ${served(this.#tables.api)}.`,
    };
  }

  readonly onAuth: RequestHandler = (req, res) => this.#route('auth', req, res);
  readonly onApi: RequestHandler = (req, res) => this.#route('api', req, res);

  /** Both origins on one port, told apart by the Host header's name as a virtual host does (port and case aside); anything else goes to `other`. */
  static byHost(names: HostNames, handlers: Readonly<Record<Origin | 'other', RequestHandler>>): RequestHandler {
    return (req, res) => {
      const name = hostName(req.headers.host);
      (name === names.api ? handlers.api : name === names.auth ? handlers.auth : handlers.other)(req, res);
    };
  }

  /** The answer to a request for neither name of a port serving both: 421 naming the two, or 400 without Host. */
  misdirected(names: HostNames): RequestHandler {
    const served = `This port serves the auth origin as ${names.auth} and the api origin as ${names.api}`;
    return (req, res) => {
      const name = hostName(req.headers.host);
      if (name === undefined) {
        const detail = `${served}: a request must name one in its Host header.`;
        return this.#send(res, this.o.replies.api({ status: 400, code: 'host-missing', title: 'Bad Request', detail }));
      }
      const detail = `${served}, not ${JSON.stringify(name.slice(0, 100))} (the Host header's name).`;
      this.#send(res, this.o.replies.api({ status: 421, code: 'misdirected-request', title: 'Misdirected Request', detail }));
    };
  }

  /** The answer to an `Expect` other than 100-continue, in the origin's error shape. */
  expectationFailed(origin: Origin): (req: IncomingMessage, res: ServerResponse) => void {
    return (req, res) => {
      const detail = `The expectation "${String(req.headers.expect).slice(0, 60)}" cannot be met; only 100-continue is supported.`;
      this.#send(res, this.refusal(origin, 417, 'expectation-failed', detail, ['Connection', 'close']));
    };
  }

  /** A handler threw: a bug of the mock, answered as one. */
  internalError(res: ServerResponse, error: unknown): void {
    if (res.headersSent) return void res.destroy();
    const detail = `The mock failed on this request (${error instanceof Error ? error.name : 'error'}); this is a bug of the mock.`;
    this.#send(res, this.o.controlReplies.api({ status: 500, code: 'internal-error', title: 'Internal error.', detail }));
  }

  /** The Date header's value now (the mock's clock, not node's). */
  date(): string {
    return this.o.date();
  }

  #send(res: ServerResponse, reply: Reply): void {
    send(res, reply, this.o.date());
  }

  #route(origin: Origin, req: IncomingMessage, res: ServerResponse): void {
    const url = req.url ?? '/';
    if (url.length > MAX_URL_BYTES) return this.#send(res, this.refusal(origin, 414, 'uri-too-long', URL_TOO_LONG));
    if (req.headers.host === undefined && req.httpVersionMajor === 1 && req.httpVersionMinor >= 1)
      return this.#send(res, this.refusal(origin, 400, 'host-missing', HOST_MISSING));
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    const search = q < 0 ? '' : url.slice(q + 1);
    const method = req.method ?? '';
    const methods = this.#tables[origin].get(path);
    if (methods !== undefined) {
      const endpoint = methods.get(method);
      if (endpoint === undefined) {
        const allowed = [...methods.keys()].join(', ');
        return this.#send(res, this.#error(origin, apiErrors.methodNotAllowed(`${path} answers ${allowed} only.`), ['Allow', allowed]));
      }
      const handler = this.o.handlers[endpoint.id];
      const exchange = (body: Buffer) => handler({ authorization: req.headers.authorization, contentType: req.headers['content-type'], search, body });
      return endpoint.method === 'GET' ? this.#send(res, exchange(EMPTY)) : this.#withBody(req, res, origin, exchange);
    }
    const control = this.o.control;
    if (origin === 'api' && control !== undefined && (path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`))) {
      if (method !== 'POST' && method !== 'PATCH') return this.#send(res, control.respond({ method, path, body: EMPTY, search }));
      return this.#withBody(req, res, 'control', (body) => control.respond({ method, path, body, search }));
    }
    this.#send(res, this.#error(origin, apiErrors.notFound(this.#notFound[origin])));
  }

  #withBody(req: IncomingMessage, res: ServerResponse, who: Origin | 'control', respond: (body: Buffer) => Reply): void {
    readBody(req)
      .then((read) => this.#send(res, read.ok ? respond(read.body) : this.#bodyRefusal(who, read.status, read.reason)))
      .catch((error: unknown) => this.internalError(res, error));
  }

  #bodyRefusal(who: Origin | 'control', status: 400 | 413, reason: string): Reply {
    // The rest of an oversized body is never read: close the connection after answering.
    const headers = ['Connection', 'close'];
    const detail = `${reason[0]?.toUpperCase()}${reason.slice(1)}.`;
    const error: ApiError = { status, code: status === 413 ? 'payload-too-large' : 'invalid-body', title: 'Invalid request body.', detail };
    return who === 'control' ? this.o.controlReplies.api(error, headers) : this.#error(who, error, headers);
  }

  /** A refusal before routing (or before a request is read), in the error shape of the origin. */
  refusal(origin: Origin, status: number, code: string, detail: string, headers: string[] = []): Reply {
    return this.#error(origin, { status, code, title: STATUS_CODES[status] ?? 'Error', detail }, headers);
  }

  /** An error of the api origin as it is, or of the auth origin as an OAuth invalid_request. */
  #error(origin: Origin, error: ApiError, headers: string[] = []): Reply {
    if (origin === 'api') return this.o.replies.api(error, headers);
    return this.o.replies.oauth({ status: error.status, error: 'invalid_request', description: error.detail }, headers);
  }
}

/** The name of a Host header (`Api.Mock.test:4443` → `api.mock.test`, `[::1]:80` → `::1`); undefined when absent or empty. */
function hostName(host: string | undefined): string | undefined {
  if (host === undefined || host === '') return undefined;
  const name = host.startsWith('[') ? host.slice(1, host.indexOf(']') < 0 ? undefined : host.indexOf(']')) : host.replace(/:\d*$/, '');
  return name.toLowerCase().replace(/\.$/, '');
}
