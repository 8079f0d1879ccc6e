/**
 * The resource endpoints' data side: GET /api/v2/content and /api/v2/users with snapshot pagination,
 * and the control plane's content changes. Authentication, scopes and rate limiting happen before
 * (mock/app.ts); this module gets the client and its provider, and answers a status with JSON text.
 */
import { CONTENT_FILTERS, type ContentFilterName, ENDPOINTS } from '../contracts/endpoints.ts';
import { PAGE_LIMIT } from '../contracts/limits.ts';
import { CONTENT_ATTRIBUTE_VALIDATORS, formatErrors } from '../schemas/index.ts';
import type { Clock } from './clock.ts';
import type { ContentAttributes, ContentMeta, ContentVersion } from './data/content.ts';
import { ContentStore } from './data/content-store.ts';
import { seededUser } from './data/users.ts';
import { type ApiError, apiErrors } from './errors.ts';
import type { Faults } from './faults.ts';
import { type Snapshot, Snapshots } from './pagination.ts';
import { formatQuery, type ListQuery, parseListQuery } from './query.ts';
import type { Variants } from './variants.ts';

export interface ListRequest {
  readonly endpoint: 'listContent' | 'listUsers';
  readonly clientId: string;
  /** The provider of a provider key: it reaches only that provider's content. */
  readonly provider: string | undefined;
  /** Raw query string, without `?`. */
  readonly search: string;
  /** Origin of the api, for links (e.g. http://127.0.0.1:4011). */
  readonly baseUrl: string;
}

export type ListResult = { status: 200; body: readonly Buffer[] } | { status: number; error: ApiError };
export type ChangeResult = { ok: true; item: { type: 'content'; id: string; attributes: ContentAttributes } } | { ok: false; error: ApiError };

export interface ResourceOptions {
  readonly clock: Clock;
  readonly seed: number;
  /** Seeded content items. */
  readonly items: number;
  /** Seeded users. */
  readonly users: number;
  readonly snapshotTtlSeconds: number;
  readonly faults: Faults;
  readonly variants: Variants;
}

/** Rendered seeded items are cached by index up to this many (the first pages are what load hits hardest). */
const FRAGMENT_CACHE_LIMIT = 50_000;
/**
 * Rendered pages (the items between `[` and `]`) are cached up to this many bytes, oldest dropped first.
 * A page is a pure function of (collection, revision, snapshot end, start, size, provider, query), so a
 * cached one is never stale; load tests ask for the same first pages over and over.
 */
const PAGE_CACHE_BYTES = 16 * 1024 * 1024;
const CLOSE = Buffer.from(']}');

/** A rendered page and where the walk goes on after it. */
interface Page {
  /** The page's items, comma-separated, UTF-8. */
  readonly data: Buffer;
  readonly count: number;
  /** Index of the last item on the page (-1: none), for the faults that act across pages. */
  readonly lastTaken: number;
  /** Where the next page starts (after the look-ahead). */
  readonly position: number;
}

const FILTER_TESTS: Record<ContentFilterName, { field: 'createdMs' | 'modifiedMs'; from: boolean }> = Object.fromEntries(
  CONTENT_FILTERS.map((f) => [f.name, { field: f.attribute === 'created-at' ? 'createdMs' : 'modifiedMs', from: f.bound === 'from' }]),
) as Record<ContentFilterName, { field: 'createdMs' | 'modifiedMs'; from: boolean }>;

const IGNORED_FILTER_FAULT = {
  'filter[start_date]': 'filter-start-date-ignored',
  'filter[end_date]': 'filter-end-date-ignored',
  'filter[modified_after]': 'filter-modified-after-ignored',
  'filter[modified_before]': 'filter-modified-before-ignored',
} as const satisfies Record<ContentFilterName, string>;

/** How a page is read out of one collection: existence at a revision, the filter test, the rendering. */
interface Collection {
  readonly path: string;
  revision(): number;
  count(): number;
  /** Rendered item `index` as of `rev` if it exists then and passes `keep`, else undefined. */
  fragment(index: number, rev: number, keep: (meta: ContentMeta) => boolean): string | undefined;
}

export class Resources {
  readonly #options: ResourceOptions;
  readonly #content: ContentStore;
  readonly #snapshots: Snapshots;
  readonly #seededFragments: Array<string | undefined> = [];
  readonly #versionFragments = new WeakMap<ContentVersion, string>();
  readonly #userFragments: Array<string | undefined> = [];
  readonly #collections: Record<ListRequest['endpoint'], Collection>;
  readonly #pages = new Map<string, Page>();
  #pageBytes = 0;

  constructor(options: ResourceOptions) {
    this.#options = options;
    const sevenDigits = options.variants.has('seven-digit-fractions');
    this.#content = new ContentStore({ seed: options.seed, items: options.items, sevenDigits });
    this.#snapshots = new Snapshots({ clock: options.clock, ttlSeconds: options.snapshotTtlSeconds, faults: options.faults, variants: options.variants });
    const content = this.#content;
    this.#collections = {
      listContent: {
        path: ENDPOINTS.listContent.path,
        revision: () => content.revision,
        count: () => content.count(),
        fragment: (index, rev, keep) => {
          const meta = content.metaAt(index, rev);
          if (!meta || !keep(meta)) return undefined;
          return this.#contentFragment(index, rev);
        },
      },
      listUsers: {
        path: ENDPOINTS.listUsers.path,
        revision: () => 0,
        count: () => options.users,
        // Users have no filters and no provider, and never change.
        fragment: (index) => {
          let cached = this.#userFragments[index];
          if (cached === undefined) {
            const user = seededUser(options.seed, index, sevenDigits);
            cached = JSON.stringify({ type: 'users', id: user.id, attributes: user.attributes });
            if (index < FRAGMENT_CACHE_LIMIT) this.#userFragments[index] = cached;
          }
          return cached;
        },
      },
    };
  }

  /** Open snapshots (for benchmarks and the memory tests). */
  stats(): { snapshots: number } {
    return { snapshots: this.#snapshots.size };
  }

  list(request: ListRequest): ListResult {
    const endpoint = ENDPOINTS[request.endpoint];
    const parsed = parseListQuery(request.search, endpoint);
    if (!parsed.ok) return { status: parsed.error.status, error: parsed.error };
    const query = parsed.value;
    const collection = this.#collections[request.endpoint];
    const faults = this.#options.faults;

    let snapshot: Snapshot;
    if (query.next === undefined) {
      this.#snapshots.sweep();
      snapshot = this.#snapshots.open(endpoint.path, request.clientId, query.key, collection.revision(), collection.count());
    } else {
      const continued = this.#snapshots.continue(query.next, endpoint.path, request.clientId, query.key);
      if (!continued.ok) return { status: continued.error.status, error: continued.error };
      snapshot = continued.snapshot;
    }

    // Fault snapshot-sees-changes: read the live data instead of the snapshot's revision.
    const revision = faults.has('snapshot-sees-changes') ? collection.revision() : snapshot.revision;
    const end = faults.has('snapshot-sees-changes') ? collection.count() : snapshot.end;
    const keep = this.#keep(query, request.provider);
    const pageSize = faults.has('limit-ignored') ? PAGE_LIMIT.default : faults.has('limit-off-by-one') ? query.limit + 1 : query.limit;

    const start = snapshot.drained ? end : snapshot.position;
    const key = `${request.endpoint}|${revision}|${end}|${start}|${pageSize}|${request.provider ?? ''}|${query.key}`;
    const page = this.#page(collection, key, start, end, revision, pageSize, keep);
    let position = page.position;
    const lastTaken = page.lastTaken;
    if (snapshot.pagesServed === 0 && lastTaken >= 0) {
      if (faults.has('item-repeated-across-pages')) position = lastTaken;
      else if (faults.has('item-dropped-across-pages') && position < end) position = nextKept(collection, position + 1, end, revision, keep);
    }
    snapshot.position = position;
    snapshot.pagesServed++;

    let next: string | null | undefined;
    if (position < end) {
      next = this.#snapshots.issue(snapshot, query.next);
    } else if (this.#options.variants.has('final-empty-page') && page.count > 0) {
      snapshot.drained = true;
      next = this.#snapshots.issue(snapshot, query.next);
    } else {
      this.#snapshots.touch(snapshot);
      next = this.#options.variants.has('final-next-null') ? null : this.#options.variants.has('final-next-empty') ? '' : undefined;
    }
    return { status: 200, body: this.#envelope(request, collection, query, next, page.data) };
  }

  createContent(attributes: unknown): ChangeResult {
    const checked = checkAttributes(attributes);
    if (!checked.ok) return checked;
    const version = this.#content.create(checked.value, this.#options.clock.now());
    return { ok: true, item: { type: 'content', id: version.id, attributes: version.attributes } };
  }

  modifyContent(id: string, attributes: unknown): ChangeResult {
    const index = this.#content.indexOf(id);
    if (index === undefined) return { ok: false, error: apiErrors.notFound(`no content item has the id "${id.slice(0, 60)}"`) };
    const checked = checkAttributes(attributes);
    if (!checked.ok) return checked;
    const version = this.#content.modify(index, checked.value, this.#options.clock.now());
    if (!version) return { ok: false, error: apiErrors.notFound(`no content item has the id "${id.slice(0, 60)}"`) };
    return { ok: true, item: { type: 'content', id: version.id, attributes: version.attributes } };
  }

  /** The page of `size` items from `start`, rendered once per key. */
  #page(collection: Collection, key: string, start: number, end: number, rev: number, size: number, keep: (meta: ContentMeta) => boolean): Page {
    const cached = this.#pages.get(key);
    if (cached !== undefined) return cached;
    const data: string[] = [];
    let position = start;
    let lastTaken = -1;
    for (; position < end && data.length < size; position++) {
      const fragment = collection.fragment(position, rev, keep);
      if (fragment !== undefined) {
        data.push(fragment);
        lastTaken = position;
      }
    }
    // Look ahead to the next item that belongs in the walk: it decides whether there is a next page,
    // and the next page starts there, so the walk as a whole scans the data set once.
    while (position < end && collection.fragment(position, rev, keep) === undefined) position++;
    const page: Page = { data: Buffer.from(data.join(',')), count: data.length, lastTaken, position };
    this.#pages.set(key, page);
    this.#pageBytes += page.data.length;
    for (const [oldKey, old] of this.#pages) {
      if (this.#pageBytes <= PAGE_CACHE_BYTES) break;
      this.#pages.delete(oldKey);
      this.#pageBytes -= old.data.length;
    }
    return page;
  }

  /** Data back to the seed, every snapshot and cursor forgotten. */
  reset(): void {
    this.#pages.clear();
    this.#pageBytes = 0;
    this.#content.reset();
    this.#snapshots.reset();
  }

  #keep(query: ListQuery, provider: string | undefined): (meta: ContentMeta) => boolean {
    const tests: Array<(meta: ContentMeta) => boolean> = [];
    if (provider !== undefined && !this.#options.faults.has('provider-isolation-broken')) tests.push((m) => m.provider === provider);
    for (const [name, bound] of query.filters) {
      if (this.#options.faults.has(IGNORED_FILTER_FAULT[name])) continue;
      const { field, from } = FILTER_TESTS[name];
      tests.push(from ? (m) => m[field] >= bound : (m) => m[field] < bound);
    }
    if (tests.length === 0) return () => true;
    return (meta) => tests.every((t) => t(meta));
  }

  #contentFragment(index: number, rev: number): string {
    if (!this.#content.changed(index)) {
      const cached = this.#seededFragments[index];
      if (cached !== undefined) return cached;
    }
    const version = this.#content.at(index, rev) as ContentVersion;
    let fragment = this.#versionFragments.get(version);
    if (fragment === undefined) {
      fragment = this.#renderContent(version);
      if (version.rev === 0) {
        if (index < FRAGMENT_CACHE_LIMIT) this.#seededFragments[index] = fragment;
      } else this.#versionFragments.set(version, fragment);
    }
    return fragment;
  }

  #renderContent(version: ContentVersion): string {
    const faults = this.#options.faults;
    const attributes: Record<string, unknown> = { ...version.attributes };
    if (faults.has('attribute-wrong-type')) attributes['is-obsolete'] = String(attributes['is-obsolete']);
    if (faults.has('attribute-missing')) delete attributes.summary;
    if (faults.has('timestamp-with-zone')) attributes['created-at'] = `${attributes['created-at']}Z`;
    if (this.#options.variants.has('extra-members')) {
      attributes['degreed-url'] = `https://degreed.example.com/content/${version.id}`;
      attributes.visibility = 'Public';
    }
    return JSON.stringify({ type: faults.has('type-wrong') ? 'contents' : 'content', id: version.id, attributes });
  }

  #envelope(request: ListRequest, collection: Collection, query: ListQuery, next: string | null | undefined, data: Buffer): readonly Buffer[] {
    const base = `${request.baseUrl}${collection.path}`;
    const self = request.search !== '' && !this.#options.variants.has('self-without-query') ? `${base}?${request.search}` : base;
    const links: Record<string, string | null> = {};
    if (!this.#options.faults.has('links-self-missing')) links.self = self;
    if (typeof next === 'string' && next !== '') {
      const rest = formatQuery(query.pairs);
      links.next = `${base}?${rest}${rest ? '&' : ''}next=${encodeURIComponent(next)}`;
    } else if (next !== undefined) links.next = next;
    const meta = this.#options.variants.has('extra-members') ? ',"meta":{"mock":true}' : '';
    // Three chunks, not one string: the page's bytes are written as cached, never copied or re-encoded.
    return [Buffer.from(`{"links":${JSON.stringify(links)},"data":[`), data, meta === '' ? CLOSE : Buffer.from(`]${meta}}`)];
  }
}

function nextKept(collection: Collection, from: number, end: number, rev: number, keep: (meta: ContentMeta) => boolean): number {
  let position = from;
  while (position < end && collection.fragment(position, rev, keep) === undefined) position++;
  return position;
}

/** Control-plane bodies: documented attributes only, each valid against its schema (schemas/content-attributes.schema.json). */
function checkAttributes(body: unknown): { ok: true; value: Partial<ContentAttributes> } | { ok: false; error: ApiError } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, error: apiErrors.invalidParameter('body', 'the body must be a JSON object of content attributes') };
  }
  for (const [name, value] of Object.entries(body)) {
    const validate = CONTENT_ATTRIBUTE_VALIDATORS.get(name);
    if (!validate) {
      // An empty member name would make an error without a parameter: name the body instead.
      return { ok: false, error: apiErrors.invalidParameter(name || 'body', `"${name.slice(0, 60)}" is not a content attribute of the API document`) };
    }
    if (!validate(value)) {
      // formatErrors names the validated value "(root)": here it is the attribute.
      const detail = formatErrors(validate.errors, value).replaceAll('(root)', name).split('\n').join('; ');
      return { ok: false, error: apiErrors.invalidParameter(name, detail) };
    }
  }
  return { ok: true, value: body as Partial<ContentAttributes> };
}
