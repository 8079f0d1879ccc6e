/**
 * The control plane under /_mock on the `api` origin: the mock's own interface for tests and SDK developers (not in the API document), JSON in and out, never
 * rate limited, listed in docs/mock.md; `--no-control` removes it (404 then). Its SDK scenario calls set the state the core would reach by itself (budget
 * spent, token lifetime or 2 minutes waited out) without moving the clock. Answers carry counts and client ids, never a token, cursor or secret.
 */
import { buildOpenApiDocument } from '../schemas/openapi.ts';
import type { ClientDirectory } from './clients.ts';
import type { VirtualClock } from './clock.ts';
import { type ApiError, apiErrors } from './error-bodies.ts';
import { isPlainObject, parseJsonBody, type Replies, type Reply } from './http.ts';
import type { RateLimiter } from './rate-limit.ts';
import type { ChangeResult, Resources } from './resources.ts';
import type { TokenStore } from './tokens.ts';

export const CONTROL_PREFIX = '/_mock';

export interface ControlRequest {
  readonly method: string;
  /** Path without the query. */
  readonly path: string;
  /** Body bytes; empty for methods that take none. */
  readonly body: Buffer;
  /** The query string without `?` ('' or absent when there is none). */
  readonly search?: string;
}

/** A control call: the methods it answers (405 with Allow for the others) and its answer. */
export type ControlRoute = { readonly methods: readonly string[]; respond(request: ControlRequest): Reply };

const CONTENT_ITEM_PREFIX = `${CONTROL_PREFIX}/content/`;

/** Most requests spent at once: a sliding window remembers each, and no SDK test needs a budget of more (nor reaches a million). */
const MAX_SPENT_REQUESTS = 1_000_000;

interface ControlParts {
  readonly clock: VirtualClock;
  readonly resources: Resources;
  readonly clients: ClientDirectory;
  readonly tokens: TokenStore;
  readonly limiter: RateLimiter;
  readonly origins: () => { authUrl: string; baseUrl: string };
  readonly reset: () => void;
  readonly stats: () => object;
  readonly profile: object;
  readonly replies: Replies;
  /** Calls served by other modules (the client findings). */
  readonly routes?: Readonly<Record<string, ControlRoute>>;
}

export class ControlPlane {
  readonly #routes: Readonly<Record<string, ControlRoute>>;
  /** Built on first request: the origins are known once the mock listens, and never change after. */
  #openapi: string | undefined;

  constructor(private readonly o: ControlParts) {
    const profile = JSON.stringify(o.profile);
    const { replies } = o;
    const route = (methods: string[], respond: ControlRoute['respond']): ControlRoute => ({ methods, respond });
    this.#routes = {
      [`${CONTROL_PREFIX}/clock`]: route(['GET', 'POST'], (r) => (r.method === 'GET' ? this.#now() : this.#advance(r.body))),
      [`${CONTROL_PREFIX}/reset`]: route(['POST'], () => {
        o.reset();
        return replies.empty(204);
      }),
      [`${CONTROL_PREFIX}/content`]: route(['POST'], (r) => this.#change(r.body, (attributes) => o.resources.createContent(attributes), 201)),
      [`${CONTROL_PREFIX}/stats`]: route(['GET'], () => replies.json(200, JSON.stringify(o.stats()))),
      [`${CONTROL_PREFIX}/profile`]: route(['GET'], () => replies.json(200, profile)),
      [`${CONTROL_PREFIX}/openapi.json`]: route(['GET'], () => replies.json(200, (this.#openapi ??= JSON.stringify(buildOpenApiDocument(o.origins()))))),
      [`${CONTROL_PREFIX}/rate-limit`]: route(['POST'], (r) => this.#spend(r.body)),
      [`${CONTROL_PREFIX}/tokens/expire`]: route(['POST'], (r) => this.#expireTokens(r.body)),
      [`${CONTROL_PREFIX}/snapshots/expire`]: route(['POST'], (r) => this.#expireSnapshots(r.body)),
      ...o.routes,
    };
  }

  respond(request: ControlRequest): Reply {
    const { method, path } = request;
    const id = path.slice(CONTENT_ITEM_PREFIX.length);
    const modify = (r: ControlRequest) => this.#change(r.body, (a) => this.o.resources.modifyContent(decodePathSegment(id), a), 200);
    const isItem = path.startsWith(CONTENT_ITEM_PREFIX) && id !== '' && !id.includes('/');
    const route = isItem ? { methods: ['PATCH'], respond: modify } : Object.hasOwn(this.#routes, path) ? this.#routes[path] : undefined;
    if (route === undefined) {
      const known = Object.entries(this.#routes).map(([known, r]) => `${r.methods[0]} ${known}`);
      return this.o.replies.api(apiErrors.notFound(`No control endpoint at ${path.slice(0, 100)}; see ${known.join(', ')}.`));
    }
    if (route.methods.includes(method)) return route.respond(request);
    const allowed = route.methods.join(', ');
    return this.o.replies.api(apiErrors.methodNotAllowed(`${path.slice(0, 100)} answers ${allowed}.`), ['Allow', allowed]);
  }

  #now(): Reply {
    return this.o.replies.json(200, JSON.stringify({ now: new Date(this.o.clock.now()).toISOString() }));
  }

  #advance(body: Buffer): Reply {
    const parsed = parseJsonBody(body);
    if (!parsed.ok) return this.#refuse(`Expected {"advanceSeconds": n}: ${parsed.error}.`);
    const seconds = isPlainObject(parsed.value) ? parsed.value.advanceSeconds : undefined;
    if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0)
      return this.#refuse(`advanceSeconds must be a non-negative finite number of seconds, got ${shown(seconds)}.`, 'advanceSeconds');
    const max = this.o.clock.maxAdvanceSeconds();
    if (seconds > max)
      return this.#refuse(`advanceSeconds ${shown(seconds)} would take the clock past 9999-12-31; at most ${Math.floor(max)} s are left.`, 'advanceSeconds');
    this.o.clock.advance(seconds);
    return this.#now();
  }

  #change(body: Buffer, apply: (attributes: unknown) => ChangeResult, status: 200 | 201): Reply {
    const parsed = parseJsonBody(body);
    if (!parsed.ok) return this.#refuse(`Expected a JSON object of content attributes: ${parsed.error}.`);
    // Both the bare attributes and a JSON:API-like {"attributes": {...}} are accepted.
    const { value } = parsed;
    const result = apply(isPlainObject(value) && Object.keys(value).length === 1 && isPlainObject(value.attributes) ? value.attributes : value);
    return result.ok ? this.o.replies.json(status, JSON.stringify(result.item)) : this.o.replies.api(result.error);
  }

  #spend(raw: Buffer): Reply {
    const body = objectBody(raw, '{"clientId": "…", "remaining": n}');
    if (!body.ok) return this.o.replies.api(body.error);
    const { clientId, remaining = 0 } = body.value;
    if (typeof clientId !== 'string') return this.#badClientId(clientId);
    if (typeof remaining !== 'number' || !Number.isSafeInteger(remaining) || remaining < 0)
      return this.#refuse(`remaining must be a non-negative integer, got ${shown(remaining)}.`, 'remaining');
    const client = this.o.clients.get(clientId);
    if (client === undefined) return this.#unknownClient(clientId);
    if (client.rate === null) return this.#refuse(`${shown(clientId)} has no rate limit (rate 0): there is no budget to spend.`, 'clientId');
    if (client.rate.requests - remaining > MAX_SPENT_REQUESTS)
      return this.#refuse(`At most ${MAX_SPENT_REQUESTS} requests can be spent at once; ask for a larger remaining.`, 'remaining');
    const resetMs = this.o.limiter.spend(client, remaining) as number;
    const left = Math.min(remaining, client.rate.requests);
    return this.o.replies.json(200, JSON.stringify({ clientId, remaining: left, resetAt: new Date(resetMs).toISOString() }));
  }

  #expireTokens(raw: Buffer): Reply {
    const body = objectBody(raw, '{"clientId": "…"} or {"token": "…"}');
    if (!body.ok) return this.o.replies.api(body.error);
    const { clientId, token } = body.value;
    if ((clientId === undefined) === (token === undefined))
      return this.#refuse('Give exactly one of clientId (all its access tokens) and token (one access token).');
    if (token !== undefined) {
      // The token itself is never repeated back: answers and logs carry no token.
      if (typeof token !== 'string') return this.#refuse('token must be an access token string.', 'token');
      const valid = this.o.tokens.verify(token) !== undefined;
      if (valid) this.o.tokens.expireAccess(token);
      return this.o.replies.json(200, JSON.stringify({ expired: valid ? 1 : 0 }));
    }
    if (typeof clientId !== 'string') return this.#badClientId(clientId);
    if (this.o.clients.get(clientId) === undefined) return this.#unknownClient(clientId);
    return this.o.replies.json(200, JSON.stringify({ clientId, expired: this.o.tokens.expireAccessOf(clientId) }));
  }

  #expireSnapshots(raw: Buffer): Reply {
    const body = objectBody(raw, '{} or {"next": "…"}');
    if (!body.ok) return this.o.replies.api(body.error);
    const { next } = body.value;
    if (next !== undefined && (typeof next !== 'string' || next === '')) return this.#refuse('next must be a next value (cursor) the mock issued.', 'next');
    return this.o.replies.json(200, JSON.stringify({ expired: this.o.resources.expireSnapshots(next) }));
  }

  #badClientId(clientId: unknown): Reply {
    return this.#refuse(`clientId must be a client_id string, got ${shown(clientId)}.`, 'clientId');
  }

  #unknownClient(clientId: string): Reply {
    return this.o.replies.api(apiErrors.notFound(`No client has the client_id ${shown(clientId)}.`));
  }

  #refuse(detail: string, parameter?: string): Reply {
    return this.o.replies.api(apiErrors.invalidBody(detail, parameter));
  }
}

/** A JSON object body; an empty body is `{}`. */
function objectBody(raw: Buffer, expected: string): { ok: true; value: Record<string, unknown> } | { ok: false; error: ApiError } {
  const parsed = parseJsonBody(raw);
  if (!parsed.ok) return { ok: false, error: apiErrors.invalidBody(`Expected ${expected}: ${parsed.error}.`) };
  if (parsed.value === undefined) return { ok: true, value: {} };
  if (!isPlainObject(parsed.value)) return { ok: false, error: apiErrors.invalidBody(`Expected a JSON object, ${expected}.`) };
  return { ok: true, value: parsed.value };
}

function shown(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

function decodePathSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
