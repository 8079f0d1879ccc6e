/**
 * The list endpoints' data side, and the control plane's content changes; authentication, scopes and rate limit come first (mock/list-endpoint.ts).
 *
 * A request is read (query.ts), its snapshot opened or continued (pagination.ts), its page planned and read (pages.ts), the envelope written (envelope.ts).
 */
import { ENDPOINTS, type ListEndpointId } from '../contracts/endpoints.ts';
import type { Profile } from '../schemas/types.ts';
import { CONTENT_ATTRIBUTE_VALIDATORS, formatErrors } from '../schemas/index.ts';
import type { Clock } from './clock.ts';
import { type Collection, ContentCollection, UsersCollection } from './collections.ts';
import type { ContentAttributes, ContentVersion } from './data/content.ts';
import { ContentStore } from './data/content-store.ts';
import { publishDateFormat, timestampFormat } from './data/timestamps.ts';
import { Envelope, type NextLink } from './envelope.ts';
import { type ApiError, apiErrors } from './error-bodies.ts';
import { PageReader, type PagePlan, type PageSeam } from './pages.ts';
import { type Continuation, Snapshots } from './pagination.ts';
import { knownParameters, type ListQuery, parseListQuery, type QueryRules } from './query.ts';

export interface ListRequest {
  readonly endpoint: ListEndpointId;
  readonly clientId: string;
  /** The provider of a provider key: it reaches only that provider's content. */
  readonly provider: string | undefined;
  /** Raw query string, without `?`. */
  readonly search: string;
  /** Origin of the api, for links (e.g. http://127.0.0.1:4011). */
  readonly baseUrl: string;
}

export type ListResult = { status: 200; body: readonly [string, Buffer] } | { status: number; error: ApiError };
export type ChangeResult = { ok: true; item: { type: 'content'; id: string; attributes: ContentAttributes } } | { ok: false; error: ApiError };

export interface ResourceOptions {
  readonly clock: Clock;
  readonly seed: number;
  /** Seeded content items. */
  readonly items: number;
  /** Seeded users. */
  readonly users: number;
  readonly snapshotTtlSeconds: number;
  readonly profile: Profile;
  /** Where a layer beside the core may change how walks go (mock/seams.ts). */
  readonly pages?: PageSeam | undefined;
}

export class Resources {
  readonly #content: ContentStore;
  readonly #snapshots: Snapshots;
  readonly #reader: PageReader;
  readonly #envelope: Envelope;
  readonly #collections: Readonly<Record<ListEndpointId, Collection>>;
  readonly #known: Readonly<Record<ListEndpointId, ReadonlySet<string>>>;
  readonly #rules: QueryRules;
  readonly #seam: PageSeam;
  /** The last query read, kept whole (never changed once read): a load test sends the same query again and again, and reading it was a tenth of a page. */
  #lastQuery: (ListQuery & { readonly search: string; readonly endpoint: ListEndpointId }) | undefined;

  constructor(private readonly options: ResourceOptions) {
    const profile = options.profile;
    const timestamp = timestampFormat(profile.timestamps);
    this.#content = new ContentStore({ seed: options.seed, items: options.items, timestamp, publishDate: publishDateFormat(profile.timestamps) });
    this.#rules = { query: profile.query, filters: profile.filters };
    this.#seam = options.pages ?? {};
    this.#snapshots = new Snapshots({
      clock: options.clock,
      ttlSeconds: options.snapshotTtlSeconds,
      profile: profile.pagination,
      errors: {
        invalid: (parameter, detail) => ({ ...apiErrors.invalidParameter(detail, parameter), status: profile.query.invalidStatus }),
        obsolete: (detail) => ({ ...apiErrors.snapshotGone(detail), status: profile.pagination.obsoleteStatus }),
      },
      cursor: this.#seam.cursor,
    });
    this.#envelope = new Envelope(profile.pagination);
    this.#reader = new PageReader(this.#envelope.end);
    this.#collections = {
      listContent: new ContentCollection(this.#content, profile),
      listUsers: new UsersCollection({ seed: options.seed, count: options.users, timestamp, profile }),
    };
    const usersKnown = knownParameters(ENDPOINTS.listUsers, this.#rules);
    // users.limit `unknown`: the users list knows only next (the document shows no query of its own).
    const users = profile.users.limit === 'unknown' ? new Set([...usersKnown].filter((name) => name !== 'limit')) : usersKnown;
    this.#known = { listContent: knownParameters(ENDPOINTS.listContent, this.#rules), listUsers: users };
  }

  /** Open snapshots (for benchmarks and the memory tests). */
  stats(): { snapshots: number } {
    return { snapshots: this.#snapshots.size };
  }

  list(request: ListRequest): ListResult {
    const endpoint = ENDPOINTS[request.endpoint];
    let query = this.#lastQuery;
    if (query === undefined || query.search !== request.search || query.endpoint !== request.endpoint) {
      const parsed = parseListQuery(request.search, endpoint, this.#known[request.endpoint], this.#rules);
      if (!parsed.ok) return { status: parsed.error.status, error: parsed.error };
      query = { search: request.search, endpoint: request.endpoint, ...parsed.value };
      this.#lastQuery = query;
    }
    const collection = this.#collections[request.endpoint];
    let at: Continuation;
    if (query.next === undefined) {
      const snapshot = this.#snapshots.open(endpoint.path, request.clientId, query, collection.revision(), collection.count());
      at = { snapshot, position: 0, drained: false, page: 0 };
    } else {
      // A request with next is refused unless it repeats the first request's query.
      const sameQuery = this.options.profile.pagination.nextWithoutQuery === 'refuse';
      const continued = this.#snapshots.continue(query.next, endpoint.path, request.clientId, query.key, sameQuery);
      if (!continued.ok) return { status: continued.error.status, error: continued.error };
      at = continued.value;
    }
    // The pages of a walk are read with the query that started it.
    const snapshot = at.snapshot;
    let plan: PagePlan = {
      endpoint: request.endpoint,
      revision: snapshot.revision,
      end: snapshot.end,
      start: at.drained ? snapshot.end : at.position,
      size: snapshot.limit,
      filters: snapshot.filters,
      provider: request.provider,
      page: at.page,
    };
    if (this.#seam.plan) plan = this.#seam.plan(plan, { revision: collection.revision(), count: collection.count() });
    const page = this.#reader.read(collection, plan);
    const position = this.#seam.advance ? this.#seam.advance(plan, page) : page.position;
    const drained = position >= plan.end;
    const more = !drained || (this.options.profile.pagination.finalPage === 'trailing-empty-page' && page.count > 0);
    const next: NextLink = more ? { cursor: this.#snapshots.issue({ snapshot, position, drained, page: plan.page + 1 }, query.next) } : 'final';
    if (!more) this.#snapshots.touch(snapshot);
    const pairs = snapshot.pairs ?? query.pairs;
    return {
      status: 200,
      body: this.#envelope.render({ baseUrl: request.baseUrl, path: collection.path, search: request.search, pairs, next, data: page.data }),
    };
  }

  createContent(attributes: unknown): ChangeResult {
    const checked = checkAttributes(attributes);
    return checked.ok ? changed(this.#content.create(checked.value, this.options.clock.now()), '') : checked;
  }

  modifyContent(id: string, attributes: unknown): ChangeResult {
    const index = this.#content.indexOf(id);
    if (index === undefined) return changed(undefined, id);
    const checked = checkAttributes(attributes);
    return checked.ok ? changed(this.#content.modify(index, checked.value, this.options.clock.now()), id) : checked;
  }

  /** Every active snapshot, or the one of `cursor`, obsolete now (control plane); returns how many. */
  expireSnapshots(cursor?: string): number {
    return this.#snapshots.expire(cursor);
  }

  /** Data back to the seed, every snapshot and cursor forgotten. */
  reset(): void {
    this.#reader.clear();
    this.#content.reset();
    this.#snapshots.reset();
  }
}

/** The item as changed, or the 404 of an id no item has. */
function changed(version: ContentVersion | undefined, id: string): ChangeResult {
  if (!version) return { ok: false, error: apiErrors.notFound(`no content item has the id "${id.slice(0, 60)}"`) };
  return { ok: true, item: { type: 'content', id: version.id, attributes: version.attributes } };
}

/** Control-plane bodies: documented attributes only, each valid against its schema (schemas/content-attributes.schema.json). */
function checkAttributes(body: unknown): { ok: true; value: Partial<ContentAttributes> } | { ok: false; error: ApiError } {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return { ok: false, error: apiErrors.invalidParameter('the body must be a JSON object of content attributes', 'body') };
  for (const [name, value] of Object.entries(body)) {
    const validate = CONTENT_ATTRIBUTE_VALIDATORS.get(name);
    // An empty member name would make an error without a parameter: name the body instead.
    if (!validate)
      return { ok: false, error: apiErrors.invalidParameter(`"${name.slice(0, 60)}" is not a content attribute of the API document`, name || 'body') };
    if (!validate(value)) {
      // formatErrors names the validated value "(root)": here it is the attribute.
      const detail = formatErrors(validate.errors, value).replaceAll('(root)', name).split('\n').join('; ');
      return { ok: false, error: apiErrors.invalidParameter(detail, name) };
    }
  }
  return { ok: true, value: body as Partial<ContentAttributes> };
}
