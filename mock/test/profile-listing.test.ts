/**
 * The listing options of a profile (query.*, filters.*, pagination.*, timestamps.*, users.*), each
 * against the strict behaviour it replaces, on mock/resources.ts directly.
 */
import { expect, test } from '@playwright/test';
import { BASE, cursorOf, setup } from './listing-fixtures.ts';

const queryOf = (next: string) => next.slice(next.indexOf('?') + 1);

test.describe('query', () => {
  test('unknownParameter ignore: an unknown parameter is served past, and not repeated in links.next', () => {
    const { list } = setup({ profile: { query: { unknownParameter: 'ignore' } } });
    const { status, body } = list('sort=title&limit=5&=x');
    expect(status).toBe(200);
    expect(body.data).toHaveLength(5);
    expect(body.links.next).toMatch(/\?limit=5&next=/);
    expect(setup().list('sort=title').status).toBe(400);
  });

  for (const { rule, count } of [
    { rule: 'first', count: 2 },
    { rule: 'last', count: 3 },
  ] as const) {
    test(`repeatedParameter ${rule}: limit=2&limit=3 serves ${count}, and the walk goes on with the same query`, () => {
      const { list } = setup({ profile: { query: { repeatedParameter: rule } } });
      const first = list('limit=2&limit=3');
      expect(first.body.data).toHaveLength(count);
      const second = list(`limit=2&limit=3&next=${cursorOf(first.body.links.next)}`);
      expect(second.status).toBe(200);
      expect(second.body.data).toHaveLength(count);
    });
  }

  test('invalidValue ignore: an unreadable limit, filter day, empty next or encoding is left out', () => {
    const { list } = setup({ profile: { query: { invalidValue: 'ignore' } } });
    expect(list('limit=abc').body.data).toHaveLength(100);
    expect(list('limit=7&filter[start_date]=2024-02-30').body.data).toHaveLength(7);
    expect(list('limit=4&next=').body.data).toHaveLength(4);
    // A segment that cannot be decoded is left out whole: the limit after it is the only one.
    expect(list('limit=%zz&limit=3').body.data).toHaveLength(3);
    expect(list('x%zz=1&limit=3').body.data).toHaveLength(3);
  });

  test('invalidStatus 422: every refused query is a 422 naming the parameter', () => {
    const { list } = setup({ profile: { query: { invalidStatus: 422 } } });
    for (const search of ['limit=0', 'sort=x', 'limit=1&limit=2', 'next=nope']) {
      const { status, body } = list(search);
      expect(status, search).toBe(422);
      expect(body.errors[0].source.parameter, search).toBeTruthy();
    }
  });

  test('limitDefault and limitMax: 25 without limit, 500 at most, 501 refused', () => {
    const { list } = setup({ items: 600, profile: { query: { limitDefault: 25, limitMax: 500 } } });
    expect(list('').body.data).toHaveLength(25);
    expect(list('limit=500').body.data).toHaveLength(500);
    expect(list('limit=501').body.errors[0].detail).toMatch(/from 1 to 500/);
  });

  test('limitOutOfRange clamp: 0 and -1 serve 1 item, 5000 serves the maximum', () => {
    const { list } = setup({ items: 1200, profile: { query: { limitOutOfRange: 'clamp' } } });
    expect(list('limit=0').body.data).toHaveLength(1);
    expect(list('limit=-1').body.data).toHaveLength(1);
    expect(list('limit=5000').body.data).toHaveLength(1000);
    expect(list('limit=abc').status).toBe(400); // not a number at all: invalidValue decides
  });
});

test.describe('filters', () => {
  test('dateFilters none: the filters are unknown parameters (refused, or ignored with unknownParameter ignore)', () => {
    expect(setup({ profile: { filters: { dateFilters: 'none' } } }).list('filter[start_date]=2021-01-01').body.errors[0].detail).toMatch(
      /unknown query parameter "filter\[start_date\]" \(known parameters: limit, next\)/,
    );
    const ignored = setup({ profile: { filters: { dateFilters: 'none' }, query: { unknownParameter: 'ignore' } } });
    expect(ignored.list('limit=1000&filter[start_date]=2030-01-01').body.data).toHaveLength(250);
  });

  test('fromDay exclusive: start_date and modified_after leave out items of the named day itself', () => {
    const inclusive = setup();
    const exclusive = setup({ profile: { filters: { fromDay: 'exclusive' } } });
    const all = inclusive.walk('limit=1000').flatMap((p) => p.data);
    for (const [filter, attribute] of [
      ['start_date', 'created-at'],
      ['modified_after', 'modified-at'],
    ] as const) {
      // A day some item falls on, so that the two readings differ.
      const day = (all[17].attributes[attribute] as string).slice(0, 10);
      const onDay = all.filter((d) => (d.attributes[attribute] as string).startsWith(day)).length;
      const count = (s: ReturnType<typeof setup>) => s.walk(`limit=1000&filter[${filter}]=${day}`).flatMap((p) => p.data).length;
      expect(onDay, filter).toBeGreaterThan(0);
      expect(count(inclusive) - count(exclusive), filter).toBe(onDay);
    }
    // Upper bounds are exclusive under both readings.
    expect(exclusive.walk('limit=1000&filter[end_date]=2021-01-01').flatMap((p) => p.data).length).toBe(
      inclusive.walk('limit=1000&filter[end_date]=2021-01-01').flatMap((p) => p.data).length,
    );
  });
});

test.describe('pagination', () => {
  for (const { finalPage, last } of [
    { finalPage: 'null', last: null },
    { finalPage: 'empty-string', last: '' },
  ] as const) {
    test(`finalPage ${finalPage}: links.next of the final page is ${JSON.stringify(last)}`, () => {
      const pages = setup({ profile: { pagination: { finalPage } } }).walk('limit=100');
      expect(pages).toHaveLength(3);
      expect(pages.at(-1).links).toHaveProperty('next', last);
    });
  }

  test('finalPage trailing-empty-page: the last items come with a next, which leads to an empty page without one', () => {
    const pages = setup({ profile: { pagination: { finalPage: 'trailing-empty-page' } } }).walk('limit=125');
    expect(pages.map((p) => p.data.length)).toEqual([125, 125, 0]);
    expect(pages.at(-1).links).not.toHaveProperty('next');
  });

  test('self without-query: links.self is the path alone', () => {
    expect(setup({ profile: { pagination: { self: 'without-query' } } }).list('limit=5').body.links.self).toBe(`${BASE}/api/v2/content`);
  });

  test('nextLink cursor-only: links.next carries only next, and a request with only next is served with the first query', () => {
    const { list, walk, ids } = setup({ profile: { pagination: { nextLink: 'cursor-only', nextWithoutQuery: 'accept' } } });
    const first = list('limit=5&filter[start_date]=2021-01-01').body;
    expect(first.links.next).toMatch(/^http:\/\/127\.0\.0\.1:9\/api\/v2\/content\?next=[\w-]{22}$/);
    const second = list(queryOf(first.links.next));
    expect(second.status).toBe(200);
    expect(second.body.data).toHaveLength(5);
    expect(second.body.data.every((d: { attributes: Record<string, string> }) => (d.attributes['created-at'] ?? '') >= '2021-01-01')).toBe(true);
    expect(new Set(ids(walk('limit=30'))).size).toBe(250);
  });

  test('nextWithoutQuery accept: a request with next and another query is served from the cursor', () => {
    const { list } = setup({ profile: { pagination: { nextWithoutQuery: 'accept' } } });
    const first = list('limit=5').body;
    expect(list(`limit=50&next=${cursorOf(first.links.next)}`).body.data).toHaveLength(5);
    expect(setup().list(`limit=50&next=${cursorOf(setup().list('limit=5').body.links.next)}`).status).toBe(400);
  });

  test('cursor letters: ten letters', () => {
    expect(cursorOf(setup({ profile: { pagination: { cursor: 'letters' } } }).list('limit=5').body.links.next)).toMatch(/^[A-Za-z]{10}$/);
  });

  test('olderCursors valid-while-active: a followed next serves its page again until the snapshot is obsolete', () => {
    const { list, clock } = setup({ profile: { pagination: { olderCursors: 'valid-while-active' } } });
    const first = list('limit=5').body;
    const again = list(queryOf(first.links.next));
    const twice = list(queryOf(first.links.next));
    expect(twice.status).toBe(200);
    expect(twice.body.data).toEqual(again.body.data);
    // Each response still supplies a new next value.
    expect(twice.body.links.next).not.toBe(again.body.links.next);
    clock.advance(120);
    expect(list(queryOf(first.links.next)).status).toBe(410);
  });

  for (const status of [400, 404] as const) {
    test(`obsoleteStatus ${status}`, () => {
      const { list, clock } = setup({ profile: { pagination: { obsoleteStatus: status } } });
      const first = list('limit=5').body;
      clock.advance(120);
      expect(list(queryOf(first.links.next))).toMatchObject({ status, body: { errors: [{ status, code: 'snapshot-expired' }] } });
    });
  }

  test('extraMembers: a meta member and attributes beyond the document', () => {
    const { body } = setup({ profile: { pagination: { extraMembers: true } } }).list('limit=2');
    expect(body.meta).toEqual({ mock: true });
    expect(body.data[0].attributes).toMatchObject({ 'degreed-url': expect.stringMatching(/^https:/), visibility: 'Public' });
  });
});

test.describe('timestamps', () => {
  test('fractionDigits 7 without trimming: seven digits always', () => {
    const { list } = setup({ profile: { timestamps: { fractionDigits: 7, trimZeros: false } } });
    for (const item of list('limit=50').body.data) expect(item.attributes['created-at']).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{7}$/);
  });

  test('fractionDigits 3 without trimming (strict): three digits always', () => {
    for (const item of setup().list('limit=50').body.data) expect(item.attributes['modified-at']).toMatch(/\.\d{3}$/);
  });

  test('trimZeros: trailing zeros dropped, and the dot too for a whole second', () => {
    const { list, resources } = setup({ items: 0, profile: { timestamps: { fractionDigits: 7, trimZeros: true } } });
    // The manual clock starts on a whole second: the new item is created at one.
    expect(resources.createContent({ title: 'now' }).ok).toBe(true);
    expect(list('').body.data[0].attributes['created-at']).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
    const seeded = setup({ profile: { timestamps: { fractionDigits: 7, trimZeros: true } } }).list('limit=100').body.data;
    for (const item of seeded) expect(item.attributes['created-at']).toMatch(/T\d\d:\d\d:\d\d(\.\d{0,6}[1-9])?$/);
  });

  for (const { form, pattern } of [
    { form: 'like-created-at', pattern: /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}$/ },
    { form: 'utc', pattern: /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/ },
    { form: 'date', pattern: /^\d{4}-\d\d-\d\d$/ },
  ] as const) {
    test(`publishDate ${form}: every publish-date set is written so, created-at as before`, () => {
      const items = setup({ profile: { timestamps: { publishDate: form } } }).list('limit=100').body.data;
      const dates = items.map((item: { attributes: Record<string, unknown> }) => item.attributes['publish-date']).filter((d: unknown) => d !== null);
      expect(dates.length).toBeGreaterThan(0);
      for (const date of dates) expect(date).toMatch(pattern);
      for (const item of items) expect(item.attributes['created-at']).toMatch(/\.\d{3}$/);
    });
  }
});

test.describe('users', () => {
  test('limit unknown: the users list refuses limit (strict) or serves past it (ignore); next still works', () => {
    const strict = setup({ profile: { users: { limit: 'unknown' } } });
    const refused = strict.list('limit=2', { endpoint: 'listUsers' });
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].source).toEqual({ parameter: 'limit' });
    expect(strict.list('limit=2').status).toBe(200);
    const ignoring = setup({ profile: { users: { limit: 'unknown' }, query: { unknownParameter: 'ignore', limitDefault: 5 } } });
    const first = ignoring.list('limit=2', { endpoint: 'listUsers' });
    expect(first.body.data).toHaveLength(5);
    expect(ignoring.list(`next=${cursorOf(first.body.links.next)}`, { endpoint: 'listUsers' }).status).toBe(200);
  });

  test('type user, attributes minimal: a name and an email', () => {
    const { list } = setup({ profile: { users: { type: 'user', attributes: 'minimal' } } });
    const [user] = list('limit=1', { endpoint: 'listUsers' }).body.data;
    expect(user).toEqual({ type: 'user', id: expect.any(String), attributes: { name: expect.any(String), email: expect.stringContaining('@') } });
  });
});
