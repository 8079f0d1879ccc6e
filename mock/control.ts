/**
 * The control plane under /_mock on the `api` origin: the mock's own interface for tests and SDK
 * developers (not part of the API document), JSON in and out, never rate limited. `--no-control`
 * (control: false) removes it: its paths then answer 404 like any unknown path.
 *
 *   GET   /_mock/clock          → {"now": ISO}
 *   POST  /_mock/clock          {"advanceSeconds": n} → {"now": ISO}
 *   POST  /_mock/reset          → 204: clock, tokens, rate windows, snapshots and data as at start
 *   POST  /_mock/content        {attributes} → 201 the new item
 *   PATCH /_mock/content/{id}   {attributes} → 200 the item, modified-at set to now
 *   GET   /_mock/stats          → live entry counts (tokens stored and still valid, rate windows, snapshots): memory checks
 *   GET   /_mock/profile        → the behaviour profile in force (schemas/profile.schema.json), complete
 *   GET   /_mock/findings       → client findings (mock/client-findings.ts); ?format=junit or /_mock/findings.xml: JUnit XML
 *
 * and the calls of other modules, each a ControlRoute of its own: the SDK scenarios of mock/sdk-control.ts
 * (GET /_mock/openapi.json, POST /_mock/rate-limit, POST /_mock/tokens/expire, POST /_mock/snapshots/expire).
 *
 * Nothing here carries a token or a secret: the stats are counts, the profile is behaviour only.
 */
import type { VirtualClock } from './clock.ts';
import { type ApiError, apiErrors } from './errors.ts';
import { isPlainObject, parseJsonBody, type Replies, type Reply } from './http.ts';
import { type SdkControl, shown } from './sdk-control.ts';

export const CONTROL_PREFIX = '/_mock';

type ChangeResult = { ok: true; item: object } | { ok: false; error: ApiError };

/** The part of mock/resources.ts the control plane drives. */
interface ContentControl {
  createContent(attributes: unknown): ChangeResult;
  modifyContent(id: string, attributes: unknown): ChangeResult;
}

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
export interface ControlRoute {
  readonly methods: readonly string[];
  respond(request: ControlRequest): Reply;
}

const CONTENT_ITEM_PREFIX = `${CONTROL_PREFIX}/content/`;

interface ControlParts {
  readonly clock: VirtualClock;
  readonly content: ContentControl;
  readonly reset: () => void;
  readonly stats: () => object;
  readonly profile: object;
  readonly replies: Replies;
  /** The SDK scenario calls; without it their paths are unknown. */
  readonly sdk?: SdkControl;
  /** Calls served by other modules (the client findings). */
  readonly routes?: Readonly<Record<string, ControlRoute>>;
}

export class ControlPlane {
  readonly #o: ControlParts;
  readonly #routes: Readonly<Record<string, ControlRoute>>;

  constructor(parts: ControlParts) {
    this.#o = parts;
    const profile = JSON.stringify(parts.profile);
    const { replies } = parts;
    this.#routes = {
      [`${CONTROL_PREFIX}/clock`]: { methods: ['GET', 'POST'], respond: (r) => (r.method === 'GET' ? this.#now() : this.#advance(r.body)) },
      [`${CONTROL_PREFIX}/reset`]: {
        methods: ['POST'],
        respond: () => {
          parts.reset();
          return replies.empty(204);
        },
      },
      [`${CONTROL_PREFIX}/content`]: { methods: ['POST'], respond: (r) => this.#change(r.body, (attributes) => parts.content.createContent(attributes), 201) },
      [`${CONTROL_PREFIX}/stats`]: { methods: ['GET'], respond: () => replies.json(200, JSON.stringify(parts.stats())) },
      [`${CONTROL_PREFIX}/profile`]: { methods: ['GET'], respond: () => replies.json(200, profile) },
      ...parts.sdk?.routes,
      ...parts.routes,
    };
  }

  /** Whether a request for `method path` reads a body (so the router reads it first). */
  takesBody(method: string): boolean {
    return method === 'POST' || method === 'PATCH';
  }

  respond(request: ControlRequest): Reply {
    const { method, path } = request;
    const isItem = path.startsWith(CONTENT_ITEM_PREFIX) && path.length > CONTENT_ITEM_PREFIX.length && !path.includes('/', CONTENT_ITEM_PREFIX.length);
    const route: ControlRoute | undefined = isItem
      ? {
          methods: ['PATCH'],
          respond: (r) => this.#change(r.body, (a) => this.#o.content.modifyContent(decodePathSegment(path.slice(CONTENT_ITEM_PREFIX.length)), a), 200),
        }
      : Object.hasOwn(this.#routes, path)
        ? this.#routes[path]
        : undefined;
    if (route === undefined) {
      const known = Object.entries(this.#routes).map(([known, r]) => `${r.methods[0]} ${known}`);
      return this.#o.replies.api(apiErrors.notFound(`No control endpoint at ${path.slice(0, 100)}; see ${known.join(', ')}.`));
    }
    if (route.methods.includes(method)) return route.respond(request);
    const allowed = route.methods.join(', ');
    return this.#o.replies.api(apiErrors.methodNotAllowed(`${path.slice(0, 100)} answers ${allowed}.`), ['Allow', allowed]);
  }

  #now(): Reply {
    return this.#o.replies.json(200, JSON.stringify({ now: new Date(this.#o.clock.now()).toISOString() }));
  }

  #advance(body: Buffer): Reply {
    const parsed = parseJsonBody(body);
    if (!parsed.ok) return this.#o.replies.api(apiErrors.invalidBody(`Expected {"advanceSeconds": n}: ${parsed.error}.`));
    const seconds = isPlainObject(parsed.value) ? parsed.value.advanceSeconds : undefined;
    if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0) {
      return this.#o.replies.api(
        apiErrors.invalidBody(`advanceSeconds must be a non-negative finite number of seconds, got ${shown(seconds)}.`, 'advanceSeconds'),
      );
    }
    const max = this.#o.clock.maxAdvanceSeconds();
    if (seconds > max) {
      return this.#o.replies.api(
        apiErrors.invalidBody(
          `advanceSeconds ${shown(seconds)} would take the clock past 9999-12-31; at most ${Math.floor(max)} s are left.`,
          'advanceSeconds',
        ),
      );
    }
    this.#o.clock.advance(seconds);
    return this.#now();
  }

  #change(body: Buffer, apply: (attributes: unknown) => ChangeResult, status: 200 | 201): Reply {
    const parsed = parseJsonBody(body);
    if (!parsed.ok) return this.#o.replies.api(apiErrors.invalidBody(`Expected a JSON object of content attributes: ${parsed.error}.`));
    // Both the bare attributes and a JSON:API-like {"attributes": {...}} are accepted.
    const value = parsed.value;
    const attributes = isPlainObject(value) && Object.keys(value).length === 1 && isPlainObject(value.attributes) ? value.attributes : value;
    const result = apply(attributes);
    return result.ok ? this.#o.replies.json(status, JSON.stringify(result.item)) : this.#o.replies.api(result.error);
  }
}

function decodePathSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
