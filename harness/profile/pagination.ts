/**
 * Probes of snapshot pagination (profile group `pagination`, but for `obsoleteStatus`, which needs a
 * snapshot left alone for its whole lifetime: harness/profile/timed.ts). Each probe opens a snapshot
 * of its own, so what one does to its cursors cannot change what another sees.
 */
import { SCHEMA_BY_KEY } from '../../schemas/index.ts';
import type { ApiResponse } from '../client/transport.ts';
import { nextValue } from '../../contracts/pagination.ts';
import { parseQuery } from '../../contracts/url.ts';
import { cursorForm } from './classify.ts';
import { dataOf, isSuccess, linksOf, nextUrl, outcome, type Probe } from './session.ts';
import { createdItem, dayFilters } from './query.ts';

const PAGE = 2;
/** Pages a walk to the final page may take: a narrow filter makes one or two. */
const MAX_WALK_PAGES = 6;
const DOCUMENTED_ATTRIBUTES = new Set(Object.keys((SCHEMA_BY_KEY.contentAttributes as { properties?: object }).properties ?? {}));

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
  if (form !== undefined) p.decide('pagination.cursor', form, `the next value has ${cursor.length} characters`, first);
  else p.unknown('pagination.cursor', `the next value (${cursor.length} characters) is neither 22 base64url characters nor 10 letters`, first);
  decideExtraMembers(p, first);

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

function decideExtraMembers(p: Probe, page: ApiResponse): void {
  const members = Object.keys(page.body as object).filter((k) => k !== 'links' && k !== 'data');
  const attributes = new Set(dataOf(page).flatMap((item) => Object.keys((item.attributes as object | undefined) ?? {})));
  const extra = [...members, ...[...attributes].filter((name) => !DOCUMENTED_ATTRIBUTES.has(name)).map((name) => `attribute ${name}`)];
  const basis = extra.length > 0 ? `beyond the document: ${extra.join(', ')}` : 'only the members and attributes the document names';
  p.decide('pagination.extraMembers', extra.length > 0, basis, page);
}

/**
 * finalPage: a walk to the end of a small set, the day of one item where the date filters allow, else
 * the largest pages. What links.next is on the last page with items, or whether a page with none follows.
 */
async function finalPage(p: Probe, token: string): Promise<void> {
  const item = createdItem(p);
  const narrow = item === undefined ? undefined : dayFilters(p, item.createdMs);
  const limit = narrow !== undefined ? PAGE : Math.min(p.value<number>('query.limitMax') ?? 1000, 1000);
  let page = await p.api.list('listContent', { ...narrow, limit }, { token });
  for (let n = 1; n <= MAX_WALK_PAGES; n++) {
    if (page.status !== 200) return p.unknown('pagination.finalPage', `page ${n} of the walk got ${page.status}`, page);
    const next = nextUrl(page);
    if (next === undefined) {
      if (dataOf(page).length === 0 && n === 1) return p.unknown('pagination.finalPage', 'the walk found no items at all', page);
      const links = linksOf(page);
      const form = links === undefined || !('next' in links) ? 'absent' : links.next === null ? 'null' : links.next === '' ? 'empty-string' : undefined;
      if (form === undefined) return p.unknown('pagination.finalPage', `links.next of the final page is ${JSON.stringify(links?.next)}`, page);
      return p.decide('pagination.finalPage', form, `links.next of the final page (page ${n}) is ${form}`, page);
    }
    if (n === MAX_WALK_PAGES) break;
    const previous = page;
    page = await p.api.get(next, { token });
    if (page.status === 200 && dataOf(page).length === 0) {
      return p.decide('pagination.finalPage', 'trailing-empty-page', `page ${n + 1} of the walk, after a page with items, holds none`, previous, page);
    }
  }
  p.unknown('pagination.finalPage', `no final page within ${MAX_WALK_PAGES} pages of ${limit} items`, page);
}
