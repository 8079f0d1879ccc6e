/**
 * A walk of a paginated list (document, List content items, pagination rules 1–3): the observer of the
 * snapshot rules, fed the answer to each of its requests in order. It says which URL to request next,
 * "the same request with `next` set to the value taken from `links.next`" (rule 2): the first
 * request's URL, byte for byte, with `&next=…` appended, never `links.next` followed as is. The final
 * page is not shown by the document: `next` absent, null or "" ends a walk, and so does an empty page
 * (reference notes). What one page shows of itself (its shape, its items, its limit) is judged by the
 * per-response rules, which every driver applies beside the walk. Pure and k6-safe: the suite's walks
 * (harness/walks) and load/pagination.ts run this one observer.
 */
import { isFinalNext } from '../open-behaviours.ts';
import { nextValue, walkPageBound, withNext } from '../pagination.ts';
import type { Broken, Exchange } from './exchange.ts';
import { type Finding, finding } from './finding.ts';
import type { RuleId } from './index.ts';

/** A resource object as a walk collects it; `attributes` unchecked beyond the page's own rules. */
export interface ListItem {
  readonly type?: unknown;
  readonly id: string;
  readonly attributes?: Readonly<Record<string, unknown>>;
}

export interface WalkOptions {
  /**
   * The `limit` the first request carries. Undefined when the request's limit is left out or open (out
   * of range, not an integer, given twice): the document then bounds the walk's length by maxPages alone.
   */
  readonly limit: number | undefined;
  /** Pages after which the walk stops as endless (a snapshot.traversal finding). Default 1000. */
  readonly maxPages?: number;
  /** Pages after which the walk stops early without a finding: a sample of a data set too large to walk. Default: none. */
  readonly stopAfter?: number;
  /** Items the walk must yield, when the data set is known (the mock's `items`); unchecked when absent. */
  readonly expectedCount?: number;
}

/** The rules a walk judges, beside the per-response ones. */
export const WALK_RULE_IDS: readonly RuleId[] = ['snapshot.next', 'snapshot.traversal', 'envelope.shape', 'envelope.next-link'];

export class PaginationWalk {
  readonly firstUrl: string;
  /** Every item, by id, in the order the pages gave them (the first time an id came). */
  readonly items = new Map<string, ListItem>();
  readonly findings: Finding[] = [];
  /** Rules a page was judged by, held or broken: a report says "not checked" for the others. */
  readonly judged = new Set<RuleId>();
  /** The `data` of the page taken last (empty before the first, or when it was not a list). */
  lastData: readonly unknown[] = [];
  pages = 0;
  /** The walk reached its final page (not stopped by a finding or by `stopAfter`). */
  complete = false;
  /** The request to send now; undefined once the walk is over. */
  next: string | undefined;
  private readonly options: WalkOptions;
  /** Every next value followed, with the page that handed it out: a cursor handed out again is a loop. */
  private readonly followed = new Map<string, number>();
  private lastCursor: string | undefined;

  constructor(firstUrl: string, options: WalkOptions) {
    if (nextValue(firstUrl) !== undefined) throw new Error(`the first request of a walk carries no next: ${firstUrl}`);
    this.firstUrl = firstUrl;
    this.next = firstUrl;
    this.options = options;
  }

  /** Takes the answer to `next` and judges it; the findings of this page. */
  observe(exchange: Exchange): readonly Finding[] {
    const before = this.findings.length;
    if (this.next !== undefined) this.next = this.page(exchange, `${exchange.request.method} ${exchange.request.url}`);
    return this.findings.slice(before);
  }

  /** What only the whole walk shows: its length and its item count, once it reached its final page. */
  end(): readonly Finding[] {
    const before = this.findings.length;
    const { limit, expectedCount } = this.options;
    const items = this.items.size;
    const request = `the walk from GET ${this.firstUrl}`;
    const bound = limit === undefined ? Number.POSITIVE_INFINITY : walkPageBound(items, limit);
    const length = { expected: `at most ${bound} pages for ${items} items of limit ${limit}`, got: `${this.pages}` };
    if (this.complete && limit !== undefined) this.judge('snapshot.traversal', this.pages <= bound, length, request);
    const count = { expected: `${expectedCount} distinct items`, got: `${items}` };
    if (this.complete && expectedCount !== undefined) this.judge('snapshot.traversal', items === expectedCount, count, request);
    return this.findings.slice(before);
  }

  /** The URL to request after this page; undefined when the walk is over. */
  private page(exchange: Exchange, request: string): string | undefined {
    this.pages++;
    this.lastData = [];
    const { status, body } = exchange;
    const why = status === 410 ? ' (the snapshot became obsolete mid-walk)' : status === 429 ? ' (rate limited: the walk went over the budget)' : '';
    if (!this.judge('snapshot.next', status === 200, { expected: `200 for page ${this.pages} of the walk`, got: `${status}${why}` }, request)) return undefined;
    const data = isRecord(body) && Array.isArray(body.data) ? (body.data as unknown[]) : undefined;
    const shape = { expected: 'a JSON list envelope with a data array', got: excerpt(exchange.text) };
    if (!this.judge('envelope.shape', data !== undefined, shape, request)) return undefined;
    this.lastData = data ?? [];
    const duplicates: string[] = [];
    for (const item of this.lastData) {
      if (!isRecord(item) || typeof item.id !== 'string') continue; // the page's own rules name it
      if (this.items.has(item.id)) duplicates.push(item.id);
      else this.items.set(item.id, item as unknown as ListItem);
    }
    // A repeated item ends the walk at once: a cursor that leads back to pages already seen would
    // otherwise be followed to maxPages (minutes against a real service) before anything is said.
    const shown = duplicates.slice(0, 3).join(', ') + (duplicates.length > 3 ? ` and ${duplicates.length - 3} more` : '');
    const reached = this.lastCursor === undefined ? 'the first request (no next)' : `next=${this.lastCursor}`;
    const once = { expected: 'every item of the snapshot once', got: `item ${shown} again on page ${this.pages}, reached with ${reached}` };
    if (!this.judge('snapshot.traversal', duplicates.length === 0, once, request)) return undefined;

    const next = isRecord(body) && isRecord(body.links) ? body.links.next : undefined;
    if (isFinalNext(next) || this.lastData.length === 0) {
      this.complete = true;
      return undefined;
    }
    const cursor = typeof next === 'string' ? nextValue(next) : undefined;
    const link = { expected: 'links.next a URL carrying a next value, or nothing', got: excerpt(JSON.stringify(next)) };
    if (!this.judge('envelope.next-link', cursor !== undefined && cursor !== '', link, request) || cursor === undefined) return undefined;
    const renewed = { expected: 'a new next value on each page', got: `the next value of page ${this.pages - 1} again` };
    if (!this.judge('snapshot.next', cursor !== this.lastCursor, renewed, request)) return undefined;
    const handedOutOn = this.followed.get(cursor);
    const loop = { expected: 'a next value not handed out before', got: `next=${cursor}, first handed out on page ${handedOutOn}: the walk would loop` };
    if (!this.judge('snapshot.traversal', handedOutOn === undefined, loop, request)) return undefined;
    if (this.options.stopAfter !== undefined && this.pages >= this.options.stopAfter) return undefined;
    const maxPages = this.options.maxPages ?? 1000;
    const of = this.options.limit === undefined ? '' : ` of limit ${this.options.limit}`;
    const ends = { expected: `the final page within ${maxPages} pages`, got: `still none after ${this.pages} pages${of}` };
    if (!this.judge('snapshot.traversal', this.pages < maxPages, ends, request)) return undefined;
    this.lastCursor = cursor;
    this.followed.set(cursor, this.pages);
    return withNext(this.firstUrl, cursor);
  }

  private judge(rule: RuleId, ok: boolean, broken: Broken, request: string): boolean {
    this.judged.add(rule);
    if (!ok) this.findings.push(finding(rule, broken, request));
    return ok;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function excerpt(text: string | undefined): string {
  if (text === undefined || text === '') return 'an empty body';
  return text.length > 80 ? `${text.slice(0, 80)}...` : text;
}
