/**
 * One walk over a paginated list (document, List content items, pagination rules 1–5) as a state
 * machine: it says which URL to request, takes each response, and checks the traversal invariants.
 * Pure: k6 drives it with `http.get`, the Node tests with the mock's real pages.
 *
 * The next request is "the same request with `next` set to the value taken from `links.next`"
 * (rule 2), built from the first request's URL rather than by following `links.next` as is.
 */
import { isFinalNext } from '../../contracts/open-behaviours.ts';
import { queryParam, withQueryParam } from './url.ts';

export const WALK_RULES = {
  status: 'every page of a walk answers 200',
  'json-body': 'every page is a JSON list envelope with a data array',
  schema: 'every page matches its list schema',
  'page-size': 'a page holds at most limit items',
  'resource-type': 'every item has the resource type of the endpoint',
  'duplicate-id': 'a walk yields every item once',
  'next-cursor': 'links.next carries a next value',
  'next-renewed': 'each response supplies a new next value',
  'walk-ends': 'a walk ends within its item count / limit pages (plus a trailing empty page)',
  'item-count': 'a walk yields the expected number of items',
} as const;
export type WalkRule = keyof typeof WALK_RULES;

export interface WalkFinding {
  readonly rule: WalkRule;
  /** 1-based page of the walk. */
  readonly page: number;
  /** What was expected, what came back, and the request. */
  readonly reason: string;
}

export interface WalkOptions {
  /** The `limit` the first request carries (its URL must carry it too). */
  readonly limit: number;
  /** Pages after which the walk stops as unbounded (a `walk-ends` finding). Default 1000. */
  readonly maxPages?: number;
  /** Pages after which the walk stops early without a finding: a sample of a data set too large to walk. Default: none. */
  readonly stopAfter?: number;
  /** `type` every item must have (`content`, `users`); unchecked when absent. */
  readonly resourceType?: string;
  /** Items the walk must yield, when the data set is known (the mock's `items`); unchecked when absent. */
  readonly expectedCount?: number;
  /** Schema check of a parsed page: `undefined` when it matches, else the reason. Unchecked when absent. */
  readonly validate?: (body: unknown) => string | undefined;
}

export type WalkStep =
  /** Request `url` next. */
  | { readonly kind: 'next'; readonly url: string }
  /** The walk is over (ended, or stopped by a finding that makes going on pointless). */
  | {
      readonly kind: 'done';
      readonly ok: boolean;
      /** Whether the walk reached its final page (false when stopped by a finding or by `stopAfter`). */
      readonly complete: boolean;
      readonly pages: number;
      readonly items: number;
      readonly findings: readonly WalkFinding[];
    };

/** Pages a walk may take beyond ceil(items / limit): one trailing empty page (reference notes, final page). */
const PAGE_SLACK = 1;

export class PaginationWalk {
  readonly firstUrl: string;
  private readonly options: WalkOptions;
  private readonly maxPages: number;
  private readonly seen = new Set<string>();
  private readonly findingList: WalkFinding[] = [];
  private currentUrl: string;
  private pages = 0;
  private lastCursor: string | undefined;
  private finished: Extract<WalkStep, { kind: 'done' }> | undefined;

  constructor(firstUrl: string, options: WalkOptions) {
    if (queryParam(firstUrl, 'next') !== undefined) throw new Error(`the first request of a walk carries no next: ${firstUrl}`);
    this.firstUrl = firstUrl;
    this.currentUrl = firstUrl;
    this.options = options;
    this.maxPages = options.maxPages ?? 1000;
  }

  /** The request to send now. */
  get url(): string {
    return this.currentUrl;
  }

  get findings(): readonly WalkFinding[] {
    return this.findingList;
  }

  get itemCount(): number {
    return this.seen.size;
  }

  /** Takes the response to `url` (status and body text) and says what comes next. */
  page(status: number, bodyText: string | null | undefined): WalkStep {
    if (this.finished) return this.finished;
    this.pages++;
    const request = `GET ${this.currentUrl}`;
    if (status !== 200) {
      const why = status === 410 ? ' (the snapshot became obsolete mid-walk)' : status === 429 ? ' (rate limited: the walk went over the budget)' : '';
      return this.finish('status', `expected 200, got ${status}${why} for ${request}`);
    }
    let body: unknown;
    try {
      body = JSON.parse(bodyText ?? '');
    } catch {
      return this.finish('json-body', `expected a JSON body, got ${excerpt(bodyText)} for ${request}`);
    }
    const schemaError = this.options.validate?.(body);
    if (schemaError !== undefined) this.add('schema', `${schemaError} (${request})`);
    if (!isRecord(body) || !Array.isArray(body.data)) return this.finish('json-body', `expected an object with a data array for ${request}`);
    const data: unknown[] = body.data;

    if (data.length > this.options.limit) this.add('page-size', `expected at most ${this.options.limit} items, got ${data.length} for ${request}`);
    for (const item of data) {
      const id = isRecord(item) && typeof item.id === 'string' ? item.id : undefined;
      if (id === undefined) continue; // the schema check names it
      if (this.options.resourceType !== undefined && isRecord(item) && item.type !== this.options.resourceType) {
        this.add('resource-type', `item ${id} has type ${JSON.stringify(item.type)}, expected "${this.options.resourceType}" (${request})`);
      }
      if (this.seen.has(id)) this.add('duplicate-id', `item ${id} came again on page ${this.pages} (${request})`);
      else this.seen.add(id);
    }

    const links = isRecord(body.links) ? body.links : undefined;
    const next = links?.next;
    // A trailing empty page ends the walk whatever its links say (reference notes, final page).
    if (isFinalNext(next) || data.length === 0) return this.end();
    if (typeof next !== 'string') return this.finish('next-cursor', `links.next is ${excerpt(JSON.stringify(next))}, expected a URL or nothing for ${request}`);
    const cursor = queryParam(next, 'next');
    if (cursor === undefined || cursor === '') return this.finish('next-cursor', `links.next ${next} carries no next value (${request})`);
    if (cursor === this.lastCursor) return this.finish('next-renewed', `links.next repeats the next value of the previous page (${request})`);
    if (this.options.stopAfter !== undefined && this.pages >= this.options.stopAfter) return this.done(false);
    if (this.pages >= this.maxPages)
      return this.finish('walk-ends', `still not at the final page after ${this.pages} pages of limit ${this.options.limit} (${request})`);
    this.lastCursor = cursor;
    this.currentUrl = withQueryParam(this.firstUrl, 'next', cursor);
    return { kind: 'next', url: this.currentUrl };
  }

  private end(): WalkStep {
    const items = this.seen.size;
    const allowed = Math.max(1, Math.ceil(items / this.options.limit)) + PAGE_SLACK;
    if (this.pages > allowed) {
      this.add('walk-ends', `${this.pages} pages for ${items} items of limit ${this.options.limit}; expected at most ${allowed} (walk from ${this.firstUrl})`);
    }
    const expected = this.options.expectedCount;
    if (expected !== undefined && items !== expected)
      this.add('item-count', `the walk yielded ${items} distinct items, expected ${expected} (walk from ${this.firstUrl})`);
    return this.done(true);
  }

  private finish(rule: WalkRule, reason: string): WalkStep {
    this.add(rule, reason);
    return this.done(false);
  }

  private done(complete: boolean): WalkStep {
    this.finished = { kind: 'done', ok: this.findingList.length === 0, complete, pages: this.pages, items: this.seen.size, findings: this.findingList };
    return this.finished;
  }

  private add(rule: WalkRule, reason: string): void {
    this.findingList.push({ rule, page: this.pages, reason });
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function excerpt(text: string | null | undefined): string {
  if (text === null || text === undefined || text === '') return 'an empty body';
  return text.length > 80 ? `${text.slice(0, 80)}...` : text;
}
