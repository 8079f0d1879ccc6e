/**
 * The two paginated collections, content and users, as a page reads them: what exists at a revision, what filters and provider isolation see, each item
 * rendered as the profile says (pagination.extraMembers, timestamps.*, users.*) and cached, a seeded item once, a changed one once per version.
 */
import { CONTENT_FILTERS, type ContentFilterName, ENDPOINTS } from '../contracts/endpoints.ts';
import type { Profile } from '../schemas/types.ts';
import type { ContentMeta, ContentVersion } from './data/content.ts';
import type { ContentStore } from './data/content-store.ts';
import type { TimestampFormat } from './data/timestamps.ts';
import { seededUser } from './data/users.ts';

/** Whether an item belongs in a walk (filters, provider). */
export type Keep = (meta: ContentMeta) => boolean;

/** How a page is read out of one collection: existence at a revision, the filter test, the rendering. */
export interface Collection {
  readonly path: string;
  revision(): number;
  count(): number;
  /** Rendered item `index` as of `rev` if it exists then and passes `keep`, else undefined. */
  fragment(index: number, rev: number, keep: Keep): string | undefined;
}

/** Rendered seeded items are cached by index up to this many (the first pages are what load hits hardest). */
const FRAGMENT_CACHE_LIMIT = 50_000;

const FILTER_TESTS: Readonly<Record<ContentFilterName, { field: 'createdMs' | 'modifiedMs'; from: boolean }>> = Object.fromEntries(
  CONTENT_FILTERS.map((f) => [f.name, { field: f.attribute === 'created-at' ? 'createdMs' : 'modifiedMs', from: f.bound === 'from' }]),
) as Record<ContentFilterName, { field: 'createdMs' | 'modifiedMs'; from: boolean }>;

const KEEP_ALL: Keep = () => true;

/** The test of a page: its filter bounds (lower inclusive, upper exclusive) and a provider key's provider. */
export function keepOf(filters: ReadonlyMap<ContentFilterName, number>, provider: string | undefined): Keep {
  const tests: Keep[] = [];
  if (provider !== undefined) tests.push((m) => m.provider === provider);
  for (const [name, bound] of filters) {
    const { field, from } = FILTER_TESTS[name];
    tests.push(from ? (m) => m[field] >= bound : (m) => m[field] < bound);
  }
  if (tests.length === 0) return KEEP_ALL;
  if (tests.length === 1) return tests[0] as Keep;
  return (meta) => tests.every((t) => t(meta));
}

export class ContentCollection implements Collection {
  readonly path = ENDPOINTS.listContent.path;
  readonly #seeded: Array<string | undefined> = [];
  readonly #versions = new WeakMap<ContentVersion, string>();

  constructor(
    private readonly store: ContentStore,
    private readonly profile: Profile,
  ) {}

  revision(): number {
    return this.store.revision;
  }

  count(): number {
    return this.store.count();
  }

  fragment(index: number, rev: number, keep: Keep): string | undefined {
    const meta = this.store.metaAt(index, rev);
    if (!meta || !keep(meta)) return undefined;
    const cached = this.store.changed(index) ? undefined : this.#seeded[index];
    if (cached !== undefined) return cached;
    const version = this.store.at(index, rev) as ContentVersion;
    let fragment = this.#versions.get(version);
    if (fragment === undefined) {
      fragment = this.#render(version);
      if (version.rev !== 0) this.#versions.set(version, fragment);
      else if (index < FRAGMENT_CACHE_LIMIT) this.#seeded[index] = fragment;
    }
    return fragment;
  }

  #render(version: ContentVersion): string {
    // Attributes the real service sends beyond the document (platform docs, Content listing).
    const extra = this.profile.pagination.extraMembers ? { 'degreed-url': `https://degreed.example.com/content/${version.id}`, visibility: 'Public' } : {};
    return JSON.stringify({ type: 'content', id: version.id, attributes: { ...version.attributes, ...extra } });
  }
}

export class UsersCollection implements Collection {
  readonly path = ENDPOINTS.listUsers.path;
  readonly #cache: Array<string | undefined> = [];

  constructor(private readonly o: { seed: number; count: number; timestamp: TimestampFormat; profile: Profile }) {}

  revision(): number {
    return 0;
  }

  count(): number {
    return this.o.count;
  }

  /** Users have no filters and no provider, and never change. */
  fragment(index: number): string {
    let cached = this.#cache[index];
    if (cached === undefined) {
      const user = seededUser(this.o.seed, index, this.o.timestamp);
      const attributes =
        this.o.profile.users.attributes === 'minimal' ? { name: user.attributes['full-name'], email: user.attributes['organization-email'] } : user.attributes;
      cached = JSON.stringify({ type: this.o.profile.users.type, id: user.id, attributes });
      if (index < FRAGMENT_CACHE_LIMIT) this.#cache[index] = cached;
    }
    return cached;
  }
}
