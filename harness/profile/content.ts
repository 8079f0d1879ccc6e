/**
 * Probes of the content list (profile groups `query`, `filters`, `pagination` and `timestamps`): what the service does with a parameter it does not know, one
 * given twice, an unreadable value and a limit out of range; the default and largest limit; whether the platform's date filters exist and keep their named day;
 * snapshot pagination (but `obsoleteStatus`, which needs a snapshot left alone for its whole lifetime: rate-limit.ts), each probe on a snapshot of its own so
 * that what one does to its cursors cannot change what another sees; the timestamps of every item the other probes were served.
 */
import { PAGE_LIMIT } from '../../contracts/limits.ts';
import { nextValue } from '../../contracts/pagination.ts';
import { parseZonelessTimestamp } from '../../contracts/timestamps.ts';
import { parseQuery } from '../../contracts/url.ts';
import { SCHEMA_BY_KEY } from '../../schemas/index.ts';
import type { Query } from '../client/api.ts';
import type { ApiResponse } from '../client/transport.ts';
import { nextUrl } from '../walks/list-walk.ts';
import { dataOf, isRefusal, isSuccess, linksOf, outcome, type Probe, statusIn } from './session.ts';

/** The schema's bounds of limitDefault and limitMax. */
const LIMIT_CEILING = 10_000;
/** A day no item was created on, nor after: a filter from it leaves an empty page (cheap answers for the limit search). */
const FAR_FUTURE = '2999-01-01';
const DAY_MS = 86_400_000;
const PAGE = 2;
/** Pages a walk to the final page may take: a narrow filter makes one or two. */
const MAX_WALK_PAGES = 6;
const DOCUMENTED_ATTRIBUTES = new Set(Object.keys((SCHEMA_BY_KEY.contentAttributes as { properties?: object }).properties ?? {}));

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
  const count = dataOf(plain).length;
  const paged = plain.status === 200 && nextUrl(plain) !== undefined && count > 0;
  const basis = `a page without limit held ${count} items and ${paged ? 'a next page' : 'no next page: the data set is smaller than the default'}`;
  p.decide('query.limitDefault', paged ? count : undefined, basis, plain);
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
    if (clamped.status === 200 && nextUrl(clamped) !== undefined)
      return p.decide('query.limitMax', count, `limit=${LIMIT_CEILING} was brought down to ${count} items, with a next page`, clamped);
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

/** The filters from the day an item was created on (a day earlier: `exclusive`) to the next, and that item; undefined when none was seen. */
function dayFilters(p: Probe, fromDay: 'inclusive' | 'exclusive') {
  const dayOf = (ms: number, days: number) => new Date(ms + days * DAY_MS).toISOString().slice(0, 10);
  for (const item of p.items) {
    const created = (item.attributes as Record<string, unknown> | undefined)?.['created-at'];
    const ms = typeof created === 'string' ? parseZonelessTimestamp(created) : Number.NaN;
    if (typeof item.id !== 'string' || Number.isNaN(ms)) continue;
    return { id: item.id, filters: { 'filter[start_date]': dayOf(ms, fromDay === 'inclusive' ? 0 : -1), 'filter[end_date]': dayOf(ms, 1) } };
  }
  return undefined;
}

async function probeFilters(p: Probe, list: List): Promise<void> {
  const future = await list({ limit: 1, 'filter[start_date]': FAR_FUTURE });
  const items = dataOf(future).length;
  // Served, the page tells whether the filter applies; refused, the service knows no such filter only where it refuses any unknown parameter.
  const refusedAsUnknown = isRefusal(future) && p.value('query.unknownParameter') === 'refuse';
  const value = future.status === 200 ? (items === 0 ? 'platform' : 'none') : refusedAsUnknown ? 'none' : undefined;
  p.settle('filters.dateFilters', `filter[start_date]=${FAR_FUTURE} (${items} item(s) on the page)`, value, future);
  if (p.value('filters.dateFilters') !== 'platform') return p.unknown('filters.fromDay', 'the service has no date filters');
  const item = dayFilters(p, 'inclusive');
  if (item === undefined) return p.unknown('filters.fromDay', 'no content item with a readable created-at was seen');
  // From the item's own day to the next: an inclusive start keeps the item, an exclusive one keeps nothing.
  const day = await list({ limit: PAGE_LIMIT.default, ...item.filters });
  const ids = dataOf(day).map((d) => d.id);
  if (day.status === 200 && ids.includes(item.id)) p.decide('filters.fromDay', 'inclusive', `filter[start_date] of an item's own day kept it`, day);
  else if (day.status === 200 && ids.length === 0) p.decide('filters.fromDay', 'exclusive', `filter[start_date] of an item's own day left it out`, day);
  else p.unknown('filters.fromDay', `the page of an item's own day (${day.status}) holds other items but not it`, day);
}

export async function probePagination(p: Probe, token: string): Promise<void> {
  const get = (url: string) => p.api.get(url, { token });
  const first = await p.api.list('listContent', { limit: PAGE }, { token });
  const next = nextUrl(first);
  const self = linksOf(first)?.self;
  if (first.status !== 200 || next === undefined || typeof self !== 'string') {
    const options = (['self', 'nextLink', 'cursor', 'olderCursors', 'nextWithoutQuery', 'extraMembers'] as const).map((o) => `pagination.${o}` as const);
    p.unknown(options, `the first page of limit=${PAGE} (${first.status}) has no links.self and links.next to read`, first);
    return finalPage(p, token);
  }
  p.decide('pagination.self', self.includes('?') ? 'with-query' : 'without-query', `links.self of GET ?limit=${PAGE} is ${self}`, first);
  const pairs = parseQuery(next.includes('?') ? next.slice(next.indexOf('?')) : '');
  const cursor = pairs.find(([name]) => name === 'next')?.[1] ?? '';
  const repeats = pairs.some(([name, value]) => name === 'limit' && value === String(PAGE));
  p.decide('pagination.nextLink', repeats ? 'repeat-query' : 'cursor-only', repeats ? 'links.next repeats limit' : 'links.next carries next only', first);
  const form = cursorForm(cursor);
  p.decide('pagination.cursor', form, `the next value has ${cursor.length} characters${form ? '' : ': neither 22 base64url characters nor 10 letters'}`, first);
  const members = Object.keys(first.body as object).filter((k) => k !== 'links' && k !== 'data');
  const attributes = new Set(dataOf(first).flatMap((item) => Object.keys((item.attributes as object | undefined) ?? {})));
  const extra = [...members, ...[...attributes].filter((name) => !DOCUMENTED_ATTRIBUTES.has(name)).map((name) => `attribute ${name}`)];
  const basis = extra.length > 0 ? `beyond the document: ${extra.join(', ')}` : 'only the members and attributes the document names';
  p.decide('pagination.extraMembers', extra.length > 0, basis, first);
  // olderCursors: follow links.next, then follow the same links.next again.
  const second = await get(next);
  const again = await get(next);
  if (!isSuccess(second)) p.unknown('pagination.olderCursors', `following links.next got ${second.status}`, second);
  else p.settle('pagination.olderCursors', 'a next value already followed, followed again,', outcome(again, 'valid-while-active', 'refuse'), second, again);
  // nextWithoutQuery: a fresh snapshot's next value, sent without the query that started it.
  const fresh = await p.api.list('listContent', { limit: PAGE }, { token });
  const freshCursor = nextValue(nextUrl(fresh) ?? '');
  if (freshCursor === undefined) p.unknown('pagination.nextWithoutQuery', `a first page (${fresh.status}) had no next value`, fresh);
  else {
    const bare = await p.api.list('listContent', { next: freshCursor }, { token });
    p.settle('pagination.nextWithoutQuery', 'a request with next alone', outcome(bare, 'accept', 'refuse'), bare);
  }
  await finalPage(p, token);
}

/**
 * finalPage: a walk to the end of a small set, the day of one item where the date filters allow, else
 * the largest pages. What links.next is on the last page with items, or whether a page with none follows.
 */
async function finalPage(p: Probe, token: string): Promise<void> {
  const fromDay = p.value<'inclusive' | 'exclusive'>('filters.fromDay');
  const narrow = p.value('filters.dateFilters') === 'platform' && fromDay !== undefined ? dayFilters(p, fromDay)?.filters : undefined;
  const limit = narrow !== undefined ? PAGE : Math.min(p.value<number>('query.limitMax') ?? 1000, 1000);
  let page = await p.api.list('listContent', { ...narrow, limit }, { token });
  for (let n = 1; n <= MAX_WALK_PAGES; n++) {
    if (page.status !== 200) return p.unknown('pagination.finalPage', `page ${n} of the walk got ${page.status}`, page);
    const next = nextUrl(page);
    if (next === undefined) {
      if (dataOf(page).length === 0 && n === 1) return p.unknown('pagination.finalPage', 'the walk found no items at all', page);
      const links = linksOf(page);
      const form = links === undefined || !('next' in links) ? 'absent' : links.next === null ? 'null' : links.next === '' ? 'empty-string' : undefined;
      const basis = form ? `links.next of the final page (page ${n}) is ${form}` : `links.next of the final page is ${JSON.stringify(links?.next)}`;
      return p.decide('pagination.finalPage', form, basis, page);
    }
    if (n === MAX_WALK_PAGES) break;
    const previous = page;
    page = await p.api.get(next, { token });
    if (page.status === 200 && dataOf(page).length === 0)
      return p.decide('pagination.finalPage', 'trailing-empty-page', `page ${n + 1} of the walk, after a page with items, holds none`, previous, page);
  }
  p.unknown('pagination.finalPage', `no final page within ${MAX_WALK_PAGES} pages of ${limit} items`, page);
}

const TIMESTAMPS = ['created-at', 'modified-at'] as const;
/** With fewer, a trimming service could show one count throughout by chance (one in ten per timestamp). */
const ENOUGH = 40;
/** publish-date's forms, as timestamps.publishDate names them. */
const PUBLISH_DATE_FORMS = [
  ['like-created-at', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?$/],
  ['utc', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z$/],
  ['date', /^\d{4}-\d{2}-\d{2}$/],
] as const;

/** How many of `values` there are of each, in ascending order, and that as text (`label` writes one count). */
function tally<T extends string | number>(values: readonly T[], label: (value: T, n: number) => string): { counts: Map<T, number>; text: string } {
  const counts = new Map<T, number>();
  for (const value of [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) counts.set(value, (counts.get(value) ?? 0) + 1);
  return { counts, text: [...counts].map(([value, n]) => label(value, n)).join(', ') };
}

/**
 * The fractional seconds of the items' timestamps and the form of publish-date, read off every item the other probes were served: no request of its own. A
 * service that drops trailing zeros shows its digits only where the time has them: the most digits seen is then a floor, not the count written (a service that
 * keeps milliseconds and writes 7 digits trimmed shows at most 3). Only 7, the most a profile names, decides fractionDigits there.
 */
export function decideTimestamps(p: Probe): void {
  const attributes = p.items.map((item) => (item.attributes ?? {}) as Record<string, unknown>);
  const dates = attributes.map((a) => a['publish-date']).filter((value) => typeof value === 'string');
  const kinds = dates.map((date) => PUBLISH_DATE_FORMS.find(([, pattern]) => pattern.test(date))?.[0] ?? 'other');
  const forms = tally(kinds, (form, n) => `${n} ${form}`);
  const [only] = forms.counts.keys();
  const basis = only === undefined ? 'no item with a publish-date was seen' : `the forms of the publish-dates seen: ${forms.text}`;
  p.decide('timestamps.publishDate', forms.counts.size === 1 && only !== 'other' ? only : undefined, basis);
  const strings = attributes.flatMap((a) => TIMESTAMPS.map((name) => a[name])).filter((value) => typeof value === 'string');
  const digits = strings.map(fractionDigits).filter((n) => n !== undefined);
  const { counts, text } = tally(digits, (d, n) => `${n} with ${d} digit(s)`);
  const seen = digits.length;
  const both = ['timestamps.trimZeros', 'timestamps.fractionDigits'] as const;
  if (seen < ENOUGH) return p.unknown(both, `only ${seen} timestamps were seen (${ENOUGH} decide)`);
  const most = Math.max(...counts.keys());
  if (counts.size === 1 && most >= 1 && most <= 7) {
    const basis = `all ${seen} timestamps have ${most} fractional digits`;
    p.decide('timestamps.trimZeros', false, basis);
    return p.decide('timestamps.fractionDigits', most, basis);
  }
  if (most > 7) return p.unknown(both, `timestamps have up to ${most} fractional digits, more than a profile names (${text})`);
  p.decide('timestamps.trimZeros', true, `the fractional digits vary: ${text}`);
  if (most === 7) return p.decide('timestamps.fractionDigits', 7, `trailing zeros are dropped, and up to 7 digits are written (${text})`);
  const why = `trailing zeros are dropped and at most ${most} digits were seen (${text}): a service writing more digits of times kept to ${most} digits looks the same`;
  p.unknown('timestamps.fractionDigits', why);
}

/** Fractional digits of a timestamp's seconds (`12.44` → 2, `12` → 0); undefined for text that is no timestamp. */
export function fractionDigits(timestamp: string): number | undefined {
  const match = /T\d{2}:\d{2}:\d{2}(?:\.(\d+))?(?:Z|[+-]\d{2}:?\d{2})?$/.exec(timestamp);
  return match ? (match[1]?.length ?? 0) : undefined;
}

/** The form of a next value: the mock's 22 base64url characters or 10 letters; undefined for any other. */
export function cursorForm(value: string): 'base64url' | 'letters' | undefined {
  if (/^[A-Za-z]{10}$/.test(value)) return 'letters';
  return /^[A-Za-z0-9_-]{22}$/.test(value) ? 'base64url' : undefined;
}
