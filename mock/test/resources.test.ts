/** The mock's resource side, driven directly with a manual clock: pagination, snapshots, filters, strictness. */
import { expect, test } from '@playwright/test';
import { BASE, cursorOf, setup } from './listing-fixtures.ts';
import { bodyText } from '../http.ts';

test.describe('snapshot pagination', () => {
  test('a walk yields every item exactly once, with a new next on each page and none on the last', () => {
    const { walk, ids } = setup();
    const pages = walk('limit=40');
    expect(pages).toHaveLength(7);
    expect(new Set(ids(pages)).size).toBe(250);
    const cursors = pages.slice(0, -1).map((p) => cursorOf(p.links.next));
    expect(new Set(cursors).size).toBe(cursors.length);
    expect(pages.at(-1).links).not.toHaveProperty('next');
  });

  test('links.next repeats the query and links.self names the request', () => {
    const { list } = setup();
    const { body } = list('filter%5Bstart_date%5D=2020-01-01&limit=5');
    expect(body.links.self).toBe(`${BASE}/api/v2/content?filter%5Bstart_date%5D=2020-01-01&limit=5`);
    expect(body.links.next).toMatch(/^http:\/\/127\.0\.0\.1:9\/api\/v2\/content\?filter\[start_date\]=2020-01-01&limit=5&next=[\w-]{22}$/);
  });

  test('later creations and modifications stay out of a snapshot and show in a new one', () => {
    const { resources, list, walk, ids } = setup({ items: 20 });
    const laterItem = walk('limit=20')[0].data[10].id; // on a page the snapshot below has not served yet
    const first = list('limit=5').body;
    expect(resources.createContent({ title: 'new' }).ok).toBe(true);
    expect(resources.modifyContent(laterItem, { title: 'changed' }).ok).toBe(true);
    const old = [first, ...walk(first.links.next.split('?')[1])];
    expect(ids(old)).toHaveLength(20);
    expect(old.flatMap((p) => p.data).filter((d) => d.attributes.title === 'changed' || d.attributes.title === 'new')).toHaveLength(0);
    const fresh = walk('limit=50').flatMap((p) => p.data);
    expect(fresh).toHaveLength(21);
    expect(fresh.filter((d) => d.attributes.title === 'changed' || d.attributes.title === 'new')).toHaveLength(2);
  });

  test('a snapshot lives 119 s after the previous request and is obsolete (410) at 120 s', () => {
    const { clock, list } = setup();
    const first = list('limit=10').body;
    clock.advance(119);
    const second = list(first.links.next.split('?')[1]);
    expect(second.status).toBe(200);
    clock.advance(120);
    const third = list(second.body.links.next.split('?')[1]);
    expect(third.status).toBe(410);
    expect(third.body.errors[0]).toMatchObject({ code: 'snapshot-expired', status: 410 });
  });

  test('a used next is refused (use the newest), as is another client’s, another query’s and a forged one', () => {
    const { list } = setup();
    const first = list('limit=10').body;
    const query = first.links.next.split('?')[1];
    expect(list(query, { clientId: 'b' }).status).toBe(400);
    expect(list(`limit=11&next=${cursorOf(first.links.next)}`).body.errors[0].source.parameter).toBe('limit');
    expect(list(query).status).toBe(200);
    expect(list(query).body.errors[0].detail).toMatch(/newest/);
    expect(list('limit=10&next=AAAAAAAAAAAAAAAAAAAAAA').status).toBe(400);
  });

  test('obsolete snapshots are freed', () => {
    const { clock, list, resources } = setup();
    for (let i = 0; i < 100; i++) list('limit=1');
    expect(resources.stats().snapshots).toBe(100);
    clock.advance(120);
    list('limit=250');
    expect(resources.stats().snapshots).toBe(0);
  });

  test('a snapshot requested again outlives one opened after it, however many requests came between', () => {
    const { clock, list, resources } = setup({ items: 5000 });
    const query = (page: { links: { next: string } }) => page.links.next.split('?')[1] as string;
    const walked = list('limit=1').body;
    const idle = list('limit=1').body;
    clock.advance(60);
    // Each page of the walk moves its snapshot to the end of the order of last requests, thousands of times.
    let next = query(walked);
    for (let i = 0; i < 3000; i++) next = query(list(next).body);
    expect(resources.stats().snapshots).toBe(2);
    clock.advance(61);
    expect(list(next).status).toBe(200);
    expect(list(query(idle)).status).toBe(410);
    expect(resources.stats().snapshots).toBe(1);
  });

  test('thousands of walks at once each go on from their newest next, a used next is refused, and all expire together', () => {
    const { clock, list, resources } = setup({ items: 5000 });
    const query = (page: { links: { next: string } }) => page.links.next.split('?')[1] as string;
    const walks = 3000;
    const newest = Array.from({ length: walks }, () => query(list('limit=1').body));
    const used: string[] = [];
    const statuses = new Map<number, number>();
    for (let round = 0; round < 3; round++) {
      // The walks in a scrambled order: cursors are retired and handed out all over the table of cursors.
      for (let k = 0; k < walks; k++) {
        const i = (k * 7919 + round) % walks;
        const page = list(newest[i] as string);
        statuses.set(page.status, (statuses.get(page.status) ?? 0) + 1);
        // Retired cursors are remembered up to a bound: those of the last round are.
        if (round === 2 && k % 100 === 0) used.push(newest[i] as string);
        newest[i] = query(page.body);
      }
    }
    // One expect for the lot: thousands of them would take most of a minute.
    expect([...statuses]).toEqual([[200, 3 * walks]]);
    expect(resources.stats().snapshots).toBe(walks);
    expect(used.map((next) => list(next).body.errors[0].detail).filter((detail) => !/newest/.test(detail))).toEqual([]);
    clock.advance(120);
    expect(newest.slice(0, 10).map((next) => list(next).status)).toEqual(Array(10).fill(410));
    expect(resources.stats().snapshots).toBe(0);
    expect(list('limit=1').status).toBe(200);
  });
});

test.describe('query validation', () => {
  for (const search of [
    'limit=0',
    'limit=-1',
    'limit=1001',
    'limit=abc',
    'limit=',
    'limit=1&limit=2',
    'filter[start_date]=2024-02-30',
    'filter[since]=2024-01-01',
    'sort=title',
    'next=',
    'limit=%zz',
  ]) {
    test(`"${search}" is a 400 naming the parameter`, () => {
      const { list } = setup();
      const { status, body } = list(search);
      expect(status).toBe(400);
      expect(body.errors[0].source.parameter).toBeTruthy();
    });
  }
  for (const search of ['limit=1', 'limit=1000', '', 'limit=100&filter[start_date]=2020-01-01&filter[end_date]=2021-01-01']) {
    test(`"${search}" is accepted`, () => expect(setup().list(search).status).toBe(200));
  }
});

test.describe('filters and provider isolation', () => {
  test('each filter keeps only the items within it, and an inverted range is empty', () => {
    const { walk } = setup();
    const items = (q: string) => walk(q).flatMap((p) => p.data);
    const all = items('limit=1000');
    const day = (t: string) => Date.parse(`${t.slice(0, 10)}T00:00:00Z`);
    for (const [filter, date, test] of [
      ['start_date', '2021-01-01', (d: (typeof all)[0]) => day(d.attributes['created-at']) >= Date.parse('2021-01-01')],
      ['end_date', '2021-01-01', (d: (typeof all)[0]) => day(d.attributes['created-at']) < Date.parse('2021-01-01')],
      ['modified_after', '2023-06-01', (d: (typeof all)[0]) => day(d.attributes['modified-at']) >= Date.parse('2023-06-01')],
      ['modified_before', '2023-06-01', (d: (typeof all)[0]) => day(d.attributes['modified-at']) < Date.parse('2023-06-01')],
    ] as const) {
      const filtered = items(`limit=7&filter[${filter}]=${date}`);
      expect(filtered.length, filter).toBe(all.filter(test).length);
      expect(filtered.length, filter).toBeGreaterThan(0);
    }
    expect(items('filter[start_date]=2024-01-01&filter[end_date]=2020-01-01')).toHaveLength(0);
  });

  test('a provider key sees only its provider’s content', () => {
    const { walk } = setup();
    const items = walk('limit=9', { provider: 'Mock Academy' }).flatMap((p) => p.data);
    expect(items.length).toBeGreaterThan(10);
    expect(items.every((d) => d.attributes.provider === 'Mock Academy')).toBe(true);
  });
});

test.describe('users and data', () => {
  test('users are paginated the same way, type users', () => {
    const { resources } = setup();
    const result = resources.list({ endpoint: 'listUsers', clientId: 'a', provider: undefined, search: 'limit=50', baseUrl: BASE });
    const body = JSON.parse('body' in result ? bodyText(result.body) : '{}');
    expect(body.data).toHaveLength(30);
    expect(body.data[0]).toMatchObject({ type: 'users', attributes: { 'permission-role': expect.any(String) } });
    expect(resources.list({ endpoint: 'listUsers', clientId: 'a', provider: undefined, search: 'filter[start_date]=2020-01-01', baseUrl: BASE }).status).toBe(
      400,
    );
  });

  test('a million seeded items cost nothing until read, and ids are unique', () => {
    const { list } = setup({ items: 1_000_000 });
    const page = list('limit=1000').body;
    expect(new Set(page.data.map((d: { id: string }) => d.id)).size).toBe(1000);
    expect(page.links.next).toBeTruthy();
  });

  test('control-plane changes are type-checked and unknown ids are 404', () => {
    const { resources } = setup();
    expect(resources.createContent({ 'is-obsolete': 'false' })).toMatchObject({ ok: false, error: { status: 400, parameter: 'is-obsolete' } });
    // Checked by the schema the suite checks served items with: the control plane cannot create an item the mock would then serve invalid.
    expect(resources.createContent({ url: 'not a url' })).toMatchObject({ ok: false, error: { status: 400, parameter: 'url' } });
    expect(resources.createContent({ 'created-at': '2022-03-13T21:31:12Z' })).toMatchObject({ ok: false, error: { status: 400, parameter: 'created-at' } });
    expect(resources.createContent({ colour: 'red' })).toMatchObject({ ok: false, error: { status: 400, parameter: 'colour' } });
    expect(resources.createContent([])).toMatchObject({ ok: false, error: { status: 400 } });
    expect(resources.modifyContent('cnope', { title: 'x' })).toMatchObject({ ok: false, error: { status: 404 } });
    expect(resources.createContent({ title: 'ok', 'publish-date': null })).toMatchObject({ ok: true, item: { type: 'content' } });
  });
});
