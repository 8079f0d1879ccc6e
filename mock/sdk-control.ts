/**
 * The control calls an SDK's test suite needs, one call per scenario, on the /_mock control plane
 * (mock/control.ts serves their `routes`):
 *
 *   GET  /_mock/openapi.json      → the OpenAPI 3.1 document (contracts/openapi.ts) with this mock's origins as servers
 *   POST /_mock/rate-limit        {"clientId", "remaining"?: n (default 0)} → the client has n requests left;
 *                                 at 0 its next counted request is a 429 with Retry-After
 *   POST /_mock/tokens/expire     {"clientId"} (all its access tokens) or {"token"} (one) → they answer 401 from now on
 *   POST /_mock/snapshots/expire  {} (every active snapshot) or {"next": cursor} (its snapshot) → its next request
 *                                 gets the obsolete-snapshot error
 *
 * Each one sets the state the core would reach by itself (spending the budget, waiting out the token
 * lifetime or the 2 minutes), without moving the clock, so the rest of the state stays as it is.
 * Answers carry counts and client ids only, never a token or a cursor.
 */
import { buildOpenApiDocument } from '../contracts/openapi.ts';
import type { ClientDirectory } from './clients.ts';
import type { ControlRoute } from './control.ts';
import { type ApiError, apiErrors } from './errors.ts';
import { isPlainObject, parseJsonBody, type Replies, type Reply } from './http.ts';
import type { RateLimiter } from './rate-limit.ts';
import type { Resources } from './resources.ts';
import type { TokenStore } from './tokens.ts';

/**
 * A sliding window remembers each spent request: spending more than this many at once would cost
 * memory for nothing an SDK test needs (a budget of a million is not reached by a test anyway).
 */
const MAX_SPENT_REQUESTS = 1_000_000;

type Body = { ok: true; value: Record<string, unknown> } | { ok: false; error: ApiError };

interface SdkControlParts {
  readonly clients: ClientDirectory;
  readonly tokens: TokenStore;
  readonly limiter: RateLimiter;
  readonly resources: Resources;
  readonly origins: () => { authUrl: string; baseUrl: string };
  readonly replies: Replies;
}

export class SdkControl {
  readonly #o: SdkControlParts;
  /** Built on first request: the origins are known once the mock listens, and never change after. */
  #openapi: string | undefined;
  /** The calls, for the control plane (mock/control.ts) to serve. */
  readonly routes: Readonly<Record<string, ControlRoute>> = {
    '/_mock/openapi.json': {
      methods: ['GET'],
      respond: () => this.#o.replies.json(200, (this.#openapi ??= JSON.stringify(buildOpenApiDocument(this.#o.origins())))),
    },
    '/_mock/rate-limit': { methods: ['POST'], respond: (r) => this.#spend(r.body) },
    '/_mock/tokens/expire': { methods: ['POST'], respond: (r) => this.#expireTokens(r.body) },
    '/_mock/snapshots/expire': { methods: ['POST'], respond: (r) => this.#expireSnapshots(r.body) },
  };

  constructor(parts: SdkControlParts) {
    this.#o = parts;
  }

  #spend(raw: Buffer): Reply {
    const body = objectBody(raw, '{"clientId": "…", "remaining": n}');
    if (!body.ok) return this.#o.replies.api(body.error);
    const { clientId, remaining = 0 } = body.value;
    if (typeof clientId !== 'string')
      return this.#o.replies.api(apiErrors.invalidBody(`clientId must be a client_id string, got ${shown(clientId)}.`, 'clientId'));
    if (typeof remaining !== 'number' || !Number.isSafeInteger(remaining) || remaining < 0) {
      return this.#o.replies.api(apiErrors.invalidBody(`remaining must be a non-negative integer, got ${shown(remaining)}.`, 'remaining'));
    }
    const client = this.#o.clients.get(clientId);
    if (client === undefined) return this.#o.replies.api(apiErrors.notFound(`No client has the client_id ${shown(clientId)}.`));
    if (client.rate === null)
      return this.#o.replies.api(apiErrors.invalidBody(`${shown(clientId)} has no rate limit (rate 0): there is no budget to spend.`, 'clientId'));
    if (client.rate.requests - remaining > MAX_SPENT_REQUESTS) {
      return this.#o.replies.api(
        apiErrors.invalidBody(`At most ${MAX_SPENT_REQUESTS} requests can be spent at once; ask for a larger remaining.`, 'remaining'),
      );
    }
    const resetMs = this.#o.limiter.spend(client, remaining) as number;
    const left = Math.min(remaining, client.rate.requests);
    return this.#o.replies.json(200, JSON.stringify({ clientId, remaining: left, resetAt: new Date(resetMs).toISOString() }));
  }

  #expireTokens(raw: Buffer): Reply {
    const body = objectBody(raw, '{"clientId": "…"} or {"token": "…"}');
    if (!body.ok) return this.#o.replies.api(body.error);
    const { clientId, token } = body.value;
    if ((clientId === undefined) === (token === undefined)) {
      return this.#o.replies.api(apiErrors.invalidBody('Give exactly one of clientId (all its access tokens) and token (one access token).'));
    }
    if (token !== undefined) {
      // The token itself is never repeated back: answers and logs carry no token.
      if (typeof token !== 'string') return this.#o.replies.api(apiErrors.invalidBody('token must be an access token string.', 'token'));
      const owner = this.#o.tokens.clientOf(token);
      if (owner !== undefined) this.#o.tokens.expireAccess(token);
      return this.#o.replies.json(200, JSON.stringify({ expired: owner === undefined ? 0 : 1 }));
    }
    if (typeof clientId !== 'string')
      return this.#o.replies.api(apiErrors.invalidBody(`clientId must be a client_id string, got ${shown(clientId)}.`, 'clientId'));
    if (this.#o.clients.get(clientId) === undefined) return this.#o.replies.api(apiErrors.notFound(`No client has the client_id ${shown(clientId)}.`));
    return this.#o.replies.json(200, JSON.stringify({ clientId, expired: this.#o.tokens.expireAccessOf(clientId) }));
  }

  #expireSnapshots(raw: Buffer): Reply {
    const body = objectBody(raw, '{} or {"next": "…"}');
    if (!body.ok) return this.#o.replies.api(body.error);
    const { next } = body.value;
    if (next !== undefined && (typeof next !== 'string' || next === '')) {
      return this.#o.replies.api(apiErrors.invalidBody('next must be a next value (cursor) the mock issued.', 'next'));
    }
    return this.#o.replies.json(200, JSON.stringify({ expired: this.#o.resources.expireSnapshots(next) }));
  }
}

/** A JSON object body; an empty body is `{}`. */
function objectBody(raw: Buffer, expected: string): Body {
  const parsed = parseJsonBody(raw);
  if (!parsed.ok) return { ok: false, error: apiErrors.invalidBody(`Expected ${expected}: ${parsed.error}.`) };
  if (parsed.value === undefined) return { ok: true, value: {} };
  if (!isPlainObject(parsed.value)) return { ok: false, error: apiErrors.invalidBody(`Expected a JSON object, ${expected}.`) };
  return { ok: true, value: parsed.value };
}

export function shown(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
