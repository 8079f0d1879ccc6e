/**
 * Probes of the content list's query (profile groups `query` and `filters`): what the service does
 * with a parameter it does not know, one given twice, an unreadable value and a limit out of range;
 * the default and largest limit; whether the platform's date filters exist and keep their named day.
 */
import { PAGE_LIMIT } from '../../contracts/limits.ts';
import { parseZonelessTimestamp } from '../../contracts/timestamps.ts';
import type { Query } from '../client/api.ts';
import type { ApiResponse } from '../client/transport.ts';
import { dataOf, isRefusal, nextUrl, outcome, type Probe, statusIn } from './session.ts';

/** The schema's bounds of limitDefault and limitMax. */
const LIMIT_CEILING = 10_000;
/** A day no item was created on, nor after: a filter from it leaves an empty page (cheap answers for the limit search). */
const FAR_FUTURE = '2999-01-01';
const DAY_MS = 86_400_000;

type List = (query: Query) => Promise<ApiResponse>;

export async function probeQuery(p: Probe, token: string): Promise<void> {
  const list: List = (query) => p.api.list('listContent', query, { token });

  const unknown = await list({ limit: 1, profile_probe: '1' });
  p.settle('query.unknownParameter', 'a parameter the endpoint does not know', outcome(unknown, 'ignore', 'refuse'), unknown);
  const repeated = await list('limit=1&limit=2');
  const served = repeated.status === 200 ? ['first', 'last'][dataOf(repeated).length - 1] : undefined;
  p.settle('query.repeatedParameter', `limit=1&limit=2 (${dataOf(repeated).length} item(s) on the page)`, isRefusal(repeated) ? 'refuse' : served, repeated);
  const invalid = await list({ limit: 'abc' });
  p.settle('query.invalidValue', 'limit=abc', outcome(invalid, 'ignore', 'refuse'), invalid);

  const plain = await list({});
  const defaultCount = dataOf(plain).length;
  if (plain.status === 200 && nextUrl(plain) !== undefined && defaultCount > 0) {
    p.decide('query.limitDefault', defaultCount, `a page without limit held ${defaultCount} items and a next page`, plain);
  } else {
    p.unknown('query.limitDefault', `a page without limit held ${defaultCount} items and no next page: the data set is smaller than the default`, plain);
  }
  const zero = await list({ limit: 0 });
  p.settle('query.limitOutOfRange', 'limit=0', outcome(zero, 'clamp', 'refuse'), zero);

  await probeFilters(p, list);
  await probeLimitMax(p, list);

  // invalidStatus: the status of a refused query; failing any, of a next value the service never issued.
  const refused = p.refusals.find((r) => r.status === 400 || r.status === 422);
  const answer = refused ?? (await list({ limit: 1, next: 'ProfileProbeNoSuchCursor' }));
  const what = refused ? 'a refused query' : 'no query was refused; a next value the service never issued';
  p.settle('query.invalidStatus', what, statusIn(answer, [400, 422]), answer);
}

async function probeLimitMax(p: Probe, list: List): Promise<void> {
  const outOfRange = p.value<'refuse' | 'clamp'>('query.limitOutOfRange');
  if (outOfRange === 'clamp') {
    const clamped = await list({ limit: LIMIT_CEILING });
    const count = dataOf(clamped).length;
    if (clamped.status === 200 && nextUrl(clamped) !== undefined) {
      return p.decide('query.limitMax', count, `limit=${LIMIT_CEILING} was brought down to ${count} items, with a next page`, clamped);
    }
    return p.unknown('query.limitMax', `limit=${LIMIT_CEILING} served the whole data set (${count} items): the largest limit may be larger`, clamped);
  }
  if (outOfRange !== 'refuse') return p.unknown('query.limitMax', 'what a limit out of range does is not known');
  // An empty page (cheap) once the date filters are known to work.
  const filter = p.value('filters.dateFilters') === 'platform' ? { 'filter[start_date]': FAR_FUTURE } : {};
  // low is served (limit=1 was), high is refused (LIMIT_CEILING + 1 stands for "beyond the schema's bounds"). The platform's
  // documented maximum and the limit above it are tried first (two requests when it holds), then a binary search.
  let [low, high] = [1, LIMIT_CEILING + 1];
  const answers = new Map<number, ApiResponse>();
  while (high - low > 1) {
    const limit = [PAGE_LIMIT.max, PAGE_LIMIT.max + 1].find((n) => n > low && n < high) ?? Math.floor((low + high) / 2);
    const answer = await list({ ...filter, limit });
    answers.set(limit, answer);
    if (answer.status === 200) low = limit;
    else high = limit;
  }
  const evidence = [answers.get(low), answers.get(high)].filter((answer) => answer !== undefined);
  if (low >= LIMIT_CEILING)
    return p.unknown('query.limitMax', `limit=${LIMIT_CEILING} was served: the largest limit is beyond what a profile names`, ...evidence);
  p.decide('query.limitMax', low, `limit=${low} was served, limit=${high} refused`, ...evidence);
}

/** The day (yyyy-mm-dd) `days` after the day of a timestamp. */
function dayOf(ms: number, days = 0): string {
  return new Date(ms + days * DAY_MS).toISOString().slice(0, 10);
}

/** An item seen on some page, and the moment it was created. */
export function createdItem(p: Probe): { id: string; createdMs: number } | undefined {
  for (const item of p.items) {
    const created = (item.attributes as Record<string, unknown> | undefined)?.['created-at'];
    const ms = typeof created === 'string' ? parseZonelessTimestamp(created) : Number.NaN;
    if (typeof item.id === 'string' && !Number.isNaN(ms)) return { id: item.id, createdMs: ms };
  }
  return undefined;
}

/** The filters that keep exactly the day an item was created on, whichever way the lower bound reads. */
export function dayFilters(p: Probe, createdMs: number): Record<string, string> | undefined {
  const fromDay = p.value<'inclusive' | 'exclusive'>('filters.fromDay');
  if (p.value('filters.dateFilters') !== 'platform' || fromDay === undefined) return undefined;
  return { 'filter[start_date]': dayOf(createdMs, fromDay === 'inclusive' ? 0 : -1), 'filter[end_date]': dayOf(createdMs, 1) };
}

async function probeFilters(p: Probe, list: List): Promise<void> {
  const future = await list({ limit: 1, 'filter[start_date]': FAR_FUTURE });
  const items = dataOf(future).length;
  // Served, the page tells whether the filter applies; refused, the service knows no such filter only where it refuses any unknown parameter.
  const refusedAsUnknown = isRefusal(future) && p.value('query.unknownParameter') === 'refuse';
  const value = future.status === 200 ? (items === 0 ? 'platform' : 'none') : refusedAsUnknown ? 'none' : undefined;
  p.settle('filters.dateFilters', `filter[start_date]=${FAR_FUTURE} (${items} item(s) on the page)`, value, future);

  if (p.value('filters.dateFilters') !== 'platform') return p.unknown('filters.fromDay', 'the service has no date filters');
  const item = createdItem(p);
  if (item === undefined) return p.unknown('filters.fromDay', 'no content item with a readable created-at was seen');
  // From the item's own day to the next: an inclusive start keeps the item, an exclusive one keeps nothing.
  const day = await list({ limit: PAGE_LIMIT.default, 'filter[start_date]': dayOf(item.createdMs), 'filter[end_date]': dayOf(item.createdMs, 1) });
  const ids = dataOf(day).map((d) => d.id);
  if (day.status === 200 && ids.includes(item.id)) p.decide('filters.fromDay', 'inclusive', `filter[start_date] of an item's own day kept it`, day);
  else if (day.status === 200 && ids.length === 0) p.decide('filters.fromDay', 'exclusive', `filter[start_date] of an item's own day left it out`, day);
  else p.unknown('filters.fromDay', `the page of an item's own day (${day.status}) holds other items but not it`, day);
}
