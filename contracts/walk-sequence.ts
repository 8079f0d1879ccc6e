/**
 * A walk of a paginated list (document, List content items, pagination rules 1–3), kept for the rules that observe its steps (PaginationWalk in
 * contracts/rules/walk.ts drives them): fed the answer to each of its requests in order, it turns each into one step of facts and says which URL to request
 * next, "the same request with `next` set to the value taken from `links.next`" (rule 2): the first request's URL, byte for byte, with `&next=…` appended,
 * never `links.next` followed as is. The final page is not shown by the document: `next` absent, null or "" ends a walk, and so does an empty page (reference
 * notes). Pure and k6-safe.
 */
import { isFinalNext } from './open-behaviours.ts';
import { nextValue, withNext } from './pagination.ts';
import type { Exchange } from './rules/exchange.ts';
import type { Sequence } from './rules/observe.ts';

/** A resource object as a walk collects it; `attributes` unchecked beyond the page's own rules. */
export type ListItem = { readonly type?: unknown; readonly id: string; readonly attributes?: Readonly<Record<string, unknown>> };

export interface WalkOptions {
  /**
   * The `limit` the first request carries. Undefined when the request's limit is left out or open (out of range, not an integer, given twice): the document
   * then bounds the walk's length by maxPages alone.
   */
  readonly limit: number | undefined;
  /** Pages after which the walk stops as endless (a snapshot.traversal finding). Default 1000. */
  readonly maxPages?: number;
  /** Pages after which the walk stops early without a finding: a sample of a data set too large to walk. Default: none. */
  readonly stopAfter?: number;
  /** Items the walk must yield, when the data set is known (the mock's `items`); unchecked when absent. */
  readonly expectedCount?: number;
}

type PageStep = ReturnType<WalkSequence['step']>;
/** One page of a walk, or (`whole`) what only the whole walk shows once it reached its final page. */
export type WalkStep = PageStep | ReturnType<WalkSequence['whole']>[number];

export class WalkSequence implements Sequence<WalkStep> {
  /** Every item, by id, in the order the pages gave them (the first time an id came). */
  readonly items = new Map<string, ListItem>();
  /** The `data` of the page taken last (empty before the first, or when it was not a list). */
  lastData: readonly unknown[] = [];
  pages = 0;
  /** The walk reached its final page (not stopped by a finding or by `stopAfter`). */
  complete = false;
  /** The request to send now; undefined once the walk is over. */
  next: string | undefined;
  /** Every next value followed, with the page that handed it out: a cursor handed out again is a loop. */
  readonly #followed = new Map<string, number>();
  #lastCursor: string | undefined;

  constructor(
    readonly firstUrl: string,
    private readonly options: WalkOptions,
  ) {
    if (nextValue(firstUrl) !== undefined) throw new Error(`the first request of a walk carries no next: ${firstUrl}`);
    this.next = firstUrl;
  }

  step({ status, body, text }: Exchange) {
    const data = status === 200 && isRecord(body) && Array.isArray(body.data) ? (body.data as readonly unknown[]) : undefined;
    const fresh = new Map<string, ListItem>();
    const duplicates: string[] = [];
    for (const item of data ?? []) {
      if (!isRecord(item) || typeof item.id !== 'string') continue; // the page's own rules name it
      if (this.items.has(item.id) || fresh.has(item.id)) duplicates.push(item.id);
      else fresh.set(item.id, item as unknown as ListItem);
    }
    const next = isRecord(body) && isRecord(body.links) ? body.links.next : undefined;
    const listed = data !== undefined && duplicates.length === 0;
    const complete = listed && (isFinalNext(next) || data.length === 0);
    // On a list of new items that is not the final page: the next value links.next carries ('' where none).
    const cursor = listed && !complete ? (typeof next === 'string' && nextValue(next)) || '' : undefined;
    const { limit, maxPages = 1000, stopAfter } = this.options;
    const page = this.pages + 1;
    const handedOutOn = cursor ? this.#followed.get(cursor) : undefined;
    // `data`: the list of a 200 whose body is a list envelope; `sampled`: the walk stops here as a sample (stopAfter).
    const sampled = stopAfter !== undefined && page >= stopAfter;
    return { page, status, text, data, fresh, duplicates, complete, next, cursor, lastCursor: this.#lastCursor, handedOutOn, sampled, maxPages, limit };
  }

  commit({ page, data, fresh, complete, cursor, sampled }: PageStep): void {
    this.pages = page;
    this.lastData = data ?? [];
    for (const [id, item] of fresh) this.items.set(id, item);
    this.complete = complete;
    // The same request with the newest next value; a broken rule ends the walk before it is sent (rules/walk.ts).
    this.next = cursor && !sampled ? withNext(this.firstUrl, cursor) : undefined;
    if (!cursor) return;
    this.#lastCursor = cursor;
    this.#followed.set(cursor, page);
  }

  /** Its length and its item count, once the walk reached its final page. */
  whole() {
    const { limit, expectedCount } = this.options;
    return this.complete ? (['length', 'count'] as const).map((whole) => ({ whole, pages: this.pages, items: this.items.size, limit, expectedCount })) : [];
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
