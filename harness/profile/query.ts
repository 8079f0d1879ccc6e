/**
 * Probes of the content list's query (profile groups `query` and `filters`): what the service does
 * with a parameter it does not know, one given twice, an unreadable value and a limit out of range;
 * the default and largest limit; whether the platform's date filters exist and keep their named day.
 */
import { PAGE_LIMIT } from '../../contracts/limits.ts';
import { parseZonelessTimestamp } from '../../contracts/timestamps.ts';
import type { ApiResponse } from '../client/transport.ts';
import { dataOf, isRefusal, nextUrl, type Probe } from './session.ts';

/** The schema's bounds of limitDefault and limitMax. */
const LIMIT_CEILING = 10_000;
/** A day no item was created on, nor after: a filter from it leaves an empty page (cheap answers for the limit search). */
const FAR_FUTURE = '2999-01-01';
const DAY_MS = 86_400_000;

type List = (query: Record<string, string | number> | string) => Promise<ApiResponse>;

export async function probeQuery(p: Probe, token: string): Promise<void> {
  const list: List = async (query) => p.seen(await p.api.list('listContent', query, { token }));

  const unknown = await list({ limit: 1, profile_probe: '1' });
  decideRefuseOrIgnore(p, 'query.unknownParameter', unknown, 'a parameter the endpoint does not know');

  const repeated = await list('limit=1&limit=2');
  if (isRefusal(repeated)) p.decide('query.repeatedParameter', 'refuse', 'limit=1&limit=2 was refused', repeated);
  else if (repeated.status === 200) {
    const count = dataOf(repeated).length;
    if (count === 1 || count === 2) p.decide('query.repeatedParameter', count === 1 ? 'first' : 'last', `limit=1&limit=2 served ${count} item(s)`, repeated);
    else p.unknown('query.repeatedParameter', `limit=1&limit=2 served ${count} items, neither 1 nor 2`, repeated);
  } else p.unknown('query.repeatedParameter', `limit=1&limit=2 got ${repeated.status}`, repeated);

  const invalid = await list({ limit: 'abc' });
  decideRefuseOrIgnore(p, 'query.invalidValue', invalid, 'limit=abc');

  const plain = await list({});
  const defaultCount = dataOf(plain).length;
  if (plain.status === 200 && nextUrl(plain) !== undefined && defaultCount > 0) {
    p.decide('query.limitDefault', defaultCount, `a page without limit held ${defaultCount} items and a next page`, plain);
  } else {
    p.unknown('query.limitDefault', `a page without limit held ${defaultCount} items and no next page: the data set is smaller than the default`, plain);
  }

  const zero = await list({ limit: 0 });
  if (isRefusal(zero)) p.decide('query.limitOutOfRange', 'refuse', 'limit=0 was refused', zero);
  else if (zero.status === 200) p.decide('query.limitOutOfRange', 'clamp', `limit=0 was served (${dataOf(zero).length} item(s))`, zero);
  else p.unknown('query.limitOutOfRange', `limit=0 got ${zero.status}`, zero);

  await probeFilters(p, list);
  await probeLimitMax(p, list);

  // invalidStatus: the status of a refused query; failing any, a next value the service never issued.
  const refusal = p.refusals.find((r) => r.status === 400 || r.status === 422);
  if (refusal !== undefined) p.decide('query.invalidStatus', refusal.status, 'the status of a refused query', refusal);
  else {
    const cursor = await list({ limit: 1, next: 'ProfileProbeNoSuchCursor' });
    if (cursor.status === 400 || cursor.status === 422)
      p.decide('query.invalidStatus', cursor.status, 'no query was refused; a next value the service never issued was', cursor);
    else p.unknown('query.invalidStatus', `no query was refused, and a next value the service never issued got ${cursor.status}`, cursor);
  }
}

function decideRefuseOrIgnore(p: Probe, option: 'query.unknownParameter' | 'query.invalidValue', answer: ApiResponse, what: string): void {
  if (isRefusal(answer)) p.decide(option, 'refuse', `${what} was refused`, answer);
  else if (answer.status === 200) p.decide(option, 'ignore', `${what} was served`, answer);
  else p.unknown(option, `${what} got ${answer.status}`, answer);
}

/** The empty filter of the limit search, once the date filters are known to work. */
function emptyFilter(p: Probe): Record<string, string> {
  return p.value('filters.dateFilters') === 'platform' ? { 'filter[start_date]': FAR_FUTURE } : {};
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
  const filter = emptyFilter(p);
  // The platform's documented maximum first: two requests when it holds, a binary search otherwise.
  const served = async (limit: number) => {
    const answer = await list({ ...filter, limit });
    return { ok: answer.status === 200, answer };
  };
  const atDocumented = await served(PAGE_LIMIT.max);
  const above = atDocumented.ok ? await served(PAGE_LIMIT.max + 1) : undefined;
  if (atDocumented.ok && above !== undefined && !above.ok) {
    return p.decide(
      'query.limitMax',
      PAGE_LIMIT.max,
      `limit=${PAGE_LIMIT.max} was served, limit=${PAGE_LIMIT.max + 1} refused`,
      atDocumented.answer,
      above.answer,
    );
  }
  // low is served, high is refused (LIMIT_CEILING + 1 stands for "beyond the schema's bounds"); limit=1 was served before.
  let [low, high] = atDocumented.ok ? [PAGE_LIMIT.max + 1, LIMIT_CEILING + 1] : [1, PAGE_LIMIT.max];
  let last = above?.answer ?? atDocumented.answer;
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    const tried = await served(middle);
    last = tried.answer;
    if (tried.ok) low = middle;
    else high = middle;
  }
  if (low >= LIMIT_CEILING) return p.unknown('query.limitMax', `limit=${LIMIT_CEILING} was served: the largest limit is beyond what a profile names`, last);
  p.decide('query.limitMax', low, `limit=${low} was served, limit=${low + 1} refused (binary search)`, last);
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
  const unknownParameter = p.value('query.unknownParameter');
  if (future.status === 200 && dataOf(future).length === 0) {
    p.decide('filters.dateFilters', 'platform', `filter[start_date]=${FAR_FUTURE} left an empty page`, future);
  } else if (future.status === 200) {
    p.decide('filters.dateFilters', 'none', `filter[start_date]=${FAR_FUTURE} was ignored: the page holds items`, future);
  } else if (isRefusal(future) && unknownParameter === 'refuse') {
    p.decide('filters.dateFilters', 'none', `filter[start_date] was refused, as unknown parameters are`, future);
  } else p.unknown('filters.dateFilters', `filter[start_date]=${FAR_FUTURE} got ${future.status}`, future);

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
