/**
 * The pagination rules of the document (List content items, rules 1–5) and its date filters, as pure
 * code that both the contract specs (Node) and the k6 load scripts run: no `URL`, no timers, no Node
 * modules (docs/load.md, "The k6 runtime").
 *
 * - PaginationWalk: one walk over a paginated list as a state machine. It says which URL to request,
 *   takes each response, and checks the traversal invariants (WALK_RULES). The next request is "the
 *   same request with `next` set to the value taken from `links.next`" (rule 2): the first request's
 *   URL, byte for byte, with `&next=…` appended, rather than `links.next` followed as is.
 * - The final page is not shown by the document: `next` absent, null or "" ends a walk, and so does an
 *   empty page (reference notes).
 * - Date filters (reference notes): `filter[start_date]` created from, `filter[end_date]` created
 *   before, `filter[modified_after]` / `filter[modified_before]` on modified-at, all `yyyy-mm-dd`. How
 *   the service treats the boundary day itself is not documented: an item whose timestamp falls on a
 *   bound's day may be in or out (`edge`); every other item is decided exactly.
 */
import { CONTENT_FILTERS, type ContentFilterName } from './endpoints.ts';
import { isFinalNext } from './open-behaviours.ts';
import type { RuleId } from './rules/index.ts';

export const WALK_RULES = {
  status: 'every page of a walk answers 200',
  'json-body': 'every page is a JSON list envelope with a data array',
  schema: 'every page matches its list schema',
  'page-size': 'a page holds at most limit items',
  'resource-type': 'every item has the resource type of the endpoint',
  'duplicate-id': 'a walk yields every item once',
  'cursor-loop': 'a walk never comes back to a next value it followed before',
  'next-cursor': 'links.next carries a next value',
  'next-renewed': 'each response supplies a new next value',
  'walk-ends': 'a walk ends within its item count / limit pages (plus a trailing empty page)',
  'item-count': 'a walk yields the expected number of items',
} as const;
export type WalkRule = keyof typeof WALK_RULES;

/**
 * The rule of contracts/rules/ each walk finding breaks, so a report names it by the catalogue's id.
 * `schema` and `resource-type` depend on the endpoint (a users page's type is a platform choice): the
 * caller that passes `validate` or `resourceType` knows which, and these are the content list's.
 */
export const WALK_RULE_IDS: Readonly<Record<WalkRule, RuleId>> = {
  status: 'snapshot.next',
  'json-body': 'envelope.shape',
  schema: 'content.attributes',
  'page-size': 'content.limit',
  'resource-type': 'content.type',
  'duplicate-id': 'snapshot.traversal',
  'cursor-loop': 'snapshot.traversal',
  'next-cursor': 'envelope.next-link',
  'next-renewed': 'snapshot.next',
  'walk-ends': 'snapshot.traversal',
  'item-count': 'snapshot.traversal',
};

export interface WalkFinding {
  readonly rule: WalkRule;
  /** 1-based page of the walk. */
  readonly page: number;
  /** What was expected, what came back, and the request. */
  readonly reason: string;
}

export interface WalkOptions {
  /**
   * The `limit` the first request carries (its URL must carry it too). Undefined when the request's
   * limit is left out or open (out of range, not an integer, given twice): the document then bounds
   * neither a page's size (the platform's maximum is a platform choice) nor the walk's length but by maxPages.
   */
  readonly limit: number | undefined;
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

/** The most pages a walk over `items` items in pages of `limit` may take before its final page is recognised. */
export function walkPageBound(items: number, limit: number): number {
  return Math.max(1, Math.ceil(items / limit)) + PAGE_SLACK;
}

/** The `next` query parameter of a URL (decoded); undefined when it has none. */
export function nextValue(url: string): string | undefined {
  const query = url.split('#')[0]?.split('?')[1];
  if (query === undefined) return undefined;
  for (const part of query.split('&')) {
    const eq = part.indexOf('=');
    if ((eq < 0 ? part : part.slice(0, eq)) !== 'next') continue;
    const raw = eq < 0 ? '' : part.slice(eq + 1);
    try {
      return decodeURIComponent(raw.replace(/\+/g, ' '));
    } catch {
      return raw;
    }
  }
  return undefined;
}

/** Rule 2: the same request as `firstUrl`, byte for byte, with `next` set to `cursor`. */
export function withNext(firstUrl: string, cursor: string): string {
  const [head = '', fragment] = firstUrl.split('#');
  const joiner = head.indexOf('?') < 0 ? '?' : head.endsWith('?') || head.endsWith('&') ? '' : '&';
  return `${head}${joiner}next=${encodeURIComponent(cursor)}${fragment === undefined ? '' : `#${fragment}`}`;
}

export class PaginationWalk {
  readonly firstUrl: string;
  private readonly options: WalkOptions;
  private readonly maxPages: number;
  private readonly seen = new Set<string>();
  /** Every next value followed, with the page that handed it out: a cursor handed out again is a loop. */
  private readonly followed = new Map<string, number>();
  private readonly findingList: WalkFinding[] = [];
  /** Rules a response was checked against, held or broken: a report says "not checked" for the others. */
  private readonly judgedRules = new Set<WalkRule>();
  private currentUrl: string;
  private pages = 0;
  private lastCursor: string | undefined;
  private lastPageData: readonly unknown[] = [];
  private finished: Extract<WalkStep, { kind: 'done' }> | undefined;

  constructor(firstUrl: string, options: WalkOptions) {
    if (nextValue(firstUrl) !== undefined) throw new Error(`the first request of a walk carries no next: ${firstUrl}`);
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

  /** The rules some response of the walk was checked against so far, held or broken. */
  get judged(): readonly WalkRule[] {
    return [...this.judgedRules];
  }

  get itemCount(): number {
    return this.seen.size;
  }

  /** The `data` of the page taken last (empty before the first, or when it was not a list). */
  get lastData(): readonly unknown[] {
    return this.lastPageData;
  }

  /** Takes the response to `url` (status and body text) and says what comes next. */
  page(status: number, bodyText: string | null | undefined): WalkStep {
    if (this.finished) return this.finished;
    this.pages++;
    this.lastPageData = [];
    const request = `GET ${this.currentUrl}`;
    this.judge('status');
    if (status !== 200) {
      const why = status === 410 ? ' (the snapshot became obsolete mid-walk)' : status === 429 ? ' (rate limited: the walk went over the budget)' : '';
      return this.finish('status', `expected 200, got ${status}${why} for ${request}`);
    }
    let body: unknown;
    this.judge('json-body');
    try {
      body = JSON.parse(bodyText ?? '');
    } catch {
      return this.finish('json-body', `expected a JSON body, got ${excerpt(bodyText)} for ${request}`);
    }
    if (this.options.validate !== undefined) this.judge('schema');
    const schemaError = this.options.validate?.(body);
    if (schemaError !== undefined) this.add('schema', `${schemaError} (${request})`);
    if (!isRecord(body) || !Array.isArray(body.data)) return this.finish('json-body', `expected an object with a data array for ${request}`);
    const data: unknown[] = body.data;
    this.lastPageData = data;

    // Without one valid limit the page has no bound the document states: the platform's maximum is not the document's.
    const pageBound = this.options.limit;
    const duplicates: string[] = [];
    this.judge('duplicate-id');
    if (pageBound !== undefined) this.judge('page-size');
    if (this.options.resourceType !== undefined && data.length > 0) this.judge('resource-type');
    if (pageBound !== undefined && data.length > pageBound) this.add('page-size', `expected at most ${pageBound} items, got ${data.length} for ${request}`);
    for (const item of data) {
      const id = isRecord(item) && typeof item.id === 'string' ? item.id : undefined;
      if (id === undefined) continue; // the schema check names it
      if (this.options.resourceType !== undefined && isRecord(item) && item.type !== this.options.resourceType) {
        this.add('resource-type', `item ${id} has type ${JSON.stringify(item.type)}, expected "${this.options.resourceType}" (${request})`);
      }
      if (this.seen.has(id)) duplicates.push(id);
      else this.seen.add(id);
    }
    // A repeated item ends the walk at once: a cursor that leads back to pages already seen would
    // otherwise be followed to maxPages (minutes against a real service) before anything is said.
    if (duplicates.length > 0) {
      const shown = duplicates.slice(0, 3).join(', ') + (duplicates.length > 3 ? ` and ${duplicates.length - 3} more` : '');
      const cursor = this.lastCursor === undefined ? 'the first request (no next)' : `next=${this.lastCursor}`;
      return this.finish('duplicate-id', `item ${shown} came again on page ${this.pages}, reached with ${cursor} (${request})`);
    }

    const links = isRecord(body.links) ? body.links : undefined;
    const next = links?.next;
    // A trailing empty page ends the walk whatever its links say (reference notes, final page).
    if (isFinalNext(next) || data.length === 0) return this.end();
    this.judge('next-cursor');
    if (typeof next !== 'string') return this.finish('next-cursor', `links.next is ${excerpt(JSON.stringify(next))}, expected a URL or nothing for ${request}`);
    const cursor = nextValue(next);
    if (cursor === undefined || cursor === '') return this.finish('next-cursor', `links.next ${next} carries no next value (${request})`);
    this.judge('next-renewed', 'cursor-loop');
    if (cursor === this.lastCursor) return this.finish('next-renewed', `links.next repeats the next value of the previous page (${request})`);
    const handedOutOn = this.followed.get(cursor);
    if (handedOutOn !== undefined) {
      return this.finish('cursor-loop', `links.next hands out next=${cursor} again, first handed out on page ${handedOutOn}: the walk would loop (${request})`);
    }
    if (this.options.stopAfter !== undefined && this.pages >= this.options.stopAfter) return this.done(false);
    if (this.pages >= this.maxPages) {
      const of = this.options.limit === undefined ? '' : ` of limit ${this.options.limit}`;
      return this.finish('walk-ends', `still not at the final page after ${this.pages} pages${of} (${request})`);
    }
    this.lastCursor = cursor;
    this.followed.set(cursor, this.pages);
    this.currentUrl = withNext(this.firstUrl, cursor);
    return { kind: 'next', url: this.currentUrl };
  }

  private end(): WalkStep {
    const items = this.seen.size;
    const limit = this.options.limit;
    if (limit !== undefined) this.judge('walk-ends');
    if (limit !== undefined && this.pages > walkPageBound(items, limit)) {
      this.add(
        'walk-ends',
        `${this.pages} pages for ${items} items of limit ${limit}; expected at most ${walkPageBound(items, limit)} (walk from ${this.firstUrl})`,
      );
    }
    const expected = this.options.expectedCount;
    if (expected !== undefined) this.judge('item-count');
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
    this.judge(rule);
    this.findingList.push({ rule, page: this.pages, reason });
  }

  private judge(...rules: WalkRule[]): void {
    for (const rule of rules) this.judgedRules.add(rule);
  }
}

// ---------------------------------------------------------------------------------------------
// Date filters

/**
 * One filter of a request and the days the service may read its value as: one day for a `yyyy-mm-dd`
 * value; several where the document leaves the reading open (a value given twice, another spelling
 * of a date); `null` for "the service may ignore it" (an empty value).
 */
export interface DateFilter {
  readonly name: ContentFilterName;
  readonly readings: readonly (string | null)[];
}

/** `in`: every reading keeps the item; `out`: every reading drops it; `edge`: it depends on how the boundary day (or the value) is read. */
export type FilterVerdict = 'in' | 'out' | 'edge';

const DAY = /^\d{4}-\d{2}-\d{2}/;

/**
 * What the filters make of an item, judged by its own `created-at` and `modified-at`: `out` when any
 * filter drops it whichever way it is read, `in` when every filter keeps it whichever way, else `edge`.
 * An item without a readable timestamp is `edge` (its schema check names it).
 */
export function filterVerdict(attributes: Readonly<Record<string, unknown>> | undefined, filters: readonly DateFilter[]): FilterVerdict {
  let verdict: FilterVerdict = 'in';
  for (const filter of filters) {
    const contract = CONTENT_FILTERS.find((f) => f.name === filter.name);
    if (!contract) continue;
    const stamp = attributes?.[contract.attribute];
    const day = typeof stamp === 'string' && DAY.test(stamp) ? stamp.slice(0, 10) : undefined;
    const each = filter.readings.map((reading): FilterVerdict => {
      if (reading === null) return 'in';
      if (day === undefined) return 'edge';
      if (day === reading) return 'edge';
      return (contract.bound === 'from' ? day > reading : day < reading) ? 'in' : 'out';
    });
    const one: FilterVerdict = each.every((v) => v === 'in') ? 'in' : each.every((v) => v === 'out') ? 'out' : 'edge';
    if (one === 'out') return 'out';
    if (one === 'edge') verdict = 'edge';
  }
  return verdict;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function excerpt(text: string | null | undefined): string {
  if (text === null || text === undefined || text === '') return 'an empty body';
  return text.length > 80 ? `${text.slice(0, 80)}...` : text;
}
