/**
 * One page of a walk: its plan (the snapshot's revision and count, start, size, filters, provider), made by mock/resources.ts and open to the `pages` seam,
 * read forward and cached by plan: a page is a pure function of its plan, so never stale, and load tests ask for the same first pages over and over.
 */
import type { ContentFilterName, ListEndpointId } from '../contracts/endpoints.ts';
import { type Collection, keepOf } from './collections.ts';
import type { CursorChoice } from './pagination.ts';

/** What a page reads. */
export interface PagePlan {
  readonly endpoint: ListEndpointId;
  /** Store revision and item count the page reads: the snapshot's. */
  readonly revision: number;
  readonly end: number;
  /** Index where the page starts scanning. */
  readonly start: number;
  /** Most items on the page. */
  readonly size: number;
  /** Filter bounds, epoch ms: lower bounds inclusive, upper bounds exclusive. */
  readonly filters: ReadonlyMap<ContentFilterName, number>;
  /** The provider a provider key reaches, or undefined (an organization key). */
  readonly provider: string | undefined;
  /** 0-based page of the walk. */
  readonly page: number;
}

/** A page read, and where the walk goes on after it. */
export interface Page {
  /** The page's items, comma-separated, and the envelope's end after them (mock/envelope.ts), UTF-8: the reply's last chunk. */
  readonly data: Buffer;
  readonly count: number;
  /** Index of the last item on the page (-1: none). */
  readonly lastTaken: number;
  /** Where the next page starts: the next item that belongs in the walk, or `end`. */
  readonly position: number;
}

/** The data as it is now, beside the snapshot's view of it. */
type LiveData = { readonly revision: number; readonly count: number };

/** Where a layer beside the core may change how a walk goes (mock/seams.ts). */
export interface PageSeam {
  /** The plan of a page about to be read (the core's plan, or another). */
  readonly plan?: (plan: PagePlan, live: LiveData) => PagePlan;
  /** Where the walk goes on after a page (the core's choice is `page.position`). */
  readonly advance?: (plan: PagePlan, page: Page) => number;
  /** The next value handed out: the fresh one the core drew, or another. */
  readonly cursor?: CursorChoice;
}

/** Rendered pages are cached up to this many bytes, oldest dropped first. */
const PAGE_CACHE_BYTES = 16 * 1024 * 1024;

export class PageReader {
  readonly #pages = new Map<string, Page>();
  #bytes = 0;
  /**
   * The last page read and its plan: the same page asked again (a load test's first page) is found by comparing a few fields, without writing its cache key.
   */
  #last: { readonly plan: PagePlan; readonly collection: Collection; readonly page: Page } | undefined;

  /** `end`: the text after a page's items (the envelope's). */
  constructor(private readonly end: string) {}

  read(collection: Collection, plan: PagePlan): Page {
    const last = this.#last;
    if (last !== undefined && samePlan(last.plan, plan) && last.collection === collection) return last.page;
    const page = this.#read(collection, plan);
    this.#last = { plan, collection, page };
    return page;
  }

  #read(collection: Collection, plan: PagePlan): Page {
    let key = `${plan.endpoint}|${plan.revision}|${plan.end}|${plan.start}|${plan.size}|${plan.provider ?? ''}`;
    for (const [name, bound] of plan.filters) key += `|${name}=${bound}`;
    const cached = this.#pages.get(key);
    if (cached !== undefined) return cached;
    const keep = keepOf(plan.filters, plan.provider);
    const data: string[] = [];
    let position = plan.start;
    let lastTaken = -1;
    for (; position < plan.end && data.length < plan.size; position++) {
      const fragment = collection.fragment(position, plan.revision, keep);
      if (fragment !== undefined) {
        data.push(fragment);
        lastTaken = position;
      }
    }
    // Look ahead to the walk's next item: it decides whether there is a next page, which starts there, so a whole walk scans the data once.
    while (position < plan.end && collection.fragment(position, plan.revision, keep) === undefined) position++;
    const page: Page = { data: Buffer.from(data.join(',') + this.end), count: data.length, lastTaken, position };
    this.#pages.set(key, page);
    this.#bytes += page.data.length;
    for (const [oldKey, old] of this.#pages) {
      if (this.#bytes <= PAGE_CACHE_BYTES) break;
      this.#pages.delete(oldKey);
      this.#bytes -= old.data.length;
    }
    return page;
  }

  clear(): void {
    this.#last = undefined;
    this.#pages.clear();
    this.#bytes = 0;
  }
}

/** Whether two plans read the same page (filters compared as the same Map: a query read once shares its own). */
function samePlan(a: PagePlan, b: PagePlan): boolean {
  return (
    a.endpoint === b.endpoint &&
    a.revision === b.revision &&
    a.end === b.end &&
    a.start === b.start &&
    a.size === b.size &&
    a.provider === b.provider &&
    a.filters === b.filters
  );
}
