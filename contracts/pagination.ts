/**
 * What a walk of a paginated list (contracts/rules/walk.ts) and the date filters rest on, as pure k6-safe code: no `URL`, no timers, no Node modules
 * (docs/load.md, "The k6 runtime").
 *
 * - The next request is "the same request with `next` set to the value taken from `links.next`" (List content items, rule 2): withNext, nextValue.
 * - Date filters (reference notes): `filter[start_date]` created from, `filter[end_date]` created before, `filter[modified_after]` / `filter[modified_before]`
 *   on modified-at, all `yyyy-mm-dd`. How the service treats the boundary day itself is not documented: an item whose timestamp falls on a bound's day may be
 *   in or out (`edge`); every other item is decided exactly.
 */
import { CONTENT_FILTERS, type ContentFilterName } from './endpoints.ts';
import { decodeComponent, parseQuery } from './url.ts';

/** Pages a walk may take beyond ceil(items / limit): one trailing empty page (reference notes, final page). */
const PAGE_SLACK = 1;

/** The most pages a walk over `items` items in pages of `limit` may take before its final page is recognised. */
export function walkPageBound(items: number, limit: number): number {
  return Math.max(1, Math.ceil(items / limit)) + PAGE_SLACK;
}

/** A URL's `next` parameter (as parseQuery decodes it) or undefined. The mock's client judge reads each list request's: one search without `%`, bare `next`. */
export function nextValue(url: string): string | undefined {
  const start = url.indexOf('?');
  // Most queries carry no next, nor an encoded name that could be one: answered without copying them.
  if (start < 0 || (url.indexOf('next', start) < 0 && url.indexOf('%', start) < 0)) return undefined;
  const query = url.slice(start + 1).split('#')[0] ?? '';
  const text = `&${query}&`;
  if (text.includes('%') || text.includes('&next&')) return parseQuery(query).find(([name]) => name === 'next')?.[1];
  const at = text.indexOf('&next=');
  return at < 0 ? undefined : decodeComponent(text.slice(at + 6, text.indexOf('&', at + 1)));
}

/** Rule 2: the same request as `firstUrl`, byte for byte, with `next` set to `cursor`. */
export function withNext(firstUrl: string, cursor: string): string {
  const [head = '', fragment] = firstUrl.split('#');
  const joiner = head.indexOf('?') < 0 ? '?' : head.endsWith('?') || head.endsWith('&') ? '' : '&';
  return `${head}${joiner}next=${encodeURIComponent(cursor)}${fragment === undefined ? '' : `#${fragment}`}`;
}

// ---------------------------------------------------------------------------------------------
// Date filters

/**
 * One filter of a request and the days the service may read its value as: one day for a `yyyy-mm-dd` value; several where the document leaves the reading open
 * (a value given twice, another spelling of a date); `null` for "the service may ignore it" (an empty value).
 */
export type DateFilter = { readonly name: ContentFilterName; readonly readings: readonly (string | null)[] };

/** `in`: every reading keeps the item; `out`: every reading drops it; `edge`: it depends on how the boundary day (or the value) is read. */
export type FilterVerdict = 'in' | 'out' | 'edge';

const DAY = /^\d{4}-\d{2}-\d{2}/;

/**
 * What the filters make of an item, judged by its own `created-at` and `modified-at`: `out` when any filter drops it whichever way it is read, `in` when every
 * filter keeps it whichever way, else `edge`. An item without a readable timestamp is `edge` (its schema check names it).
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
      if (day === undefined || day === reading) return 'edge';
      return (contract.bound === 'from' ? day > reading : day < reading) ? 'in' : 'out';
    });
    const one: FilterVerdict = each.every((v) => v === 'in') ? 'in' : each.every((v) => v === 'out') ? 'out' : 'edge';
    if (one === 'out') return 'out';
    if (one === 'edge') verdict = 'edge';
  }
  return verdict;
}
