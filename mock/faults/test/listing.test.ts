/** Faults of the list envelope, the items, limit, the filters and snapshot pagination. */
import { api, expect, getToken, json, PROVIDER, test } from './fixtures.ts';
import type { MockServer } from '../../app.ts';

type Body = { links: { self?: string; next?: string | null }; data: Array<{ type: string; id?: string; attributes: Record<string, unknown> }> };

async function list(mock: MockServer, path: string, token?: string): Promise<{ status: number; headers: Headers; body: Body }> {
  const res = await api(mock, path, token ?? (await getToken(mock)).access_token);
  return { status: res.status, headers: res.headers, body: await json(res) };
}

/** Follows `next` to the end (at most `max` pages); the ids in order. */
async function walk(mock: MockServer, query: string, max = 20): Promise<string[]> {
  const { access_token } = await getToken(mock);
  const ids: string[] = [];
  let path = `/api/v2/content?${query}`;
  for (let i = 0; i < max; i++) {
    const { body } = await list(mock, path, access_token);
    ids.push(...body.data.map((d) => d.id as string));
    if (!body.links.next) return ids;
    path = `/api/v2/content?${query}&next=${new URL(body.links.next).searchParams.get('next')}`;
  }
  return ids;
}

for (const { fault, check } of [
  { fault: 'attribute-wrong-type', check: (b: Body) => expect(b.data[0]?.attributes['is-obsolete']).toMatch(/^(true|false)$/) },
  { fault: 'attribute-missing', check: (b: Body) => expect(b.data[0]?.attributes).not.toHaveProperty('summary') },
  { fault: 'timestamp-with-zone', check: (b: Body) => expect(b.data[0]?.attributes['created-at']).toMatch(/Z$/) },
  { fault: 'modified-at-impossible-day', check: (b: Body) => expect(b.data[0]?.attributes['modified-at']).toMatch(/^\d{4}-06-31T/) },
  { fault: 'type-wrong', check: (b: Body) => expect(b.data[0]?.type).toBe('contents') },
  { fault: 'links-self-missing', check: (b: Body) => expect(b.links).not.toHaveProperty('self') },
  { fault: 'links-self-other-path', check: (b: Body) => expect(new URL(b.links.self as string).pathname).toBe('/api/v1/content') },
  { fault: 'next-link-other-origin', check: (b: Body) => expect(new URL(b.links.next as string).origin).toBe('http://elsewhere.example.invalid') },
] as const) {
  test.describe(fault, () => {
    test.use({ faults: [fault] });
    test('a content page breaks its rule', async ({ mock }) => {
      const { status, body } = await list(mock, '/api/v2/content?limit=3');
      expect(status).toBe(200);
      check(body);
    });
  });
}

test.describe('users-item-id-missing', () => {
  test.use({ faults: ['users-item-id-missing'] });
  test('users come without an id; content keeps its ids', async ({ mock }) => {
    expect((await list(mock, '/api/v2/users?limit=2')).body.data[0]).not.toHaveProperty('id');
    expect((await list(mock, '/api/v2/content?limit=2')).body.data[0]).toHaveProperty('id');
  });
});

test.describe('limit', () => {
  for (const { fault, count } of [
    { fault: 'limit-ignored', count: 100 },
    { fault: 'limit-off-by-one', count: 6 },
  ] as const) {
    test.describe(fault, () => {
      test.use({ faults: [fault] });
      test(`limit=5 serves ${count}`, async ({ mock }) => expect((await list(mock, '/api/v2/content?limit=5')).body.data).toHaveLength(count));
    });
  }
});

test.describe('filters', () => {
  for (const { fault, filter } of [
    { fault: 'filter-start-date-ignored', filter: 'filter[start_date]=2030-01-01' },
    { fault: 'filter-end-date-ignored', filter: 'filter[end_date]=2000-01-01' },
    { fault: 'filter-modified-after-ignored', filter: 'filter[modified_after]=2030-01-01' },
    { fault: 'filter-modified-before-ignored', filter: 'filter[modified_before]=2000-01-01' },
  ] as const) {
    test.describe(fault, () => {
      test.use({ faults: [fault] });
      test(`${filter} (which keeps nothing) keeps everything; other filters still apply`, async ({ mock }) => {
        expect((await list(mock, `/api/v2/content?limit=7&${filter}`)).body.data).toHaveLength(7);
        const other = filter.includes('start_date') ? 'filter[end_date]=2000-01-01' : 'filter[start_date]=2030-01-01';
        expect((await list(mock, `/api/v2/content?limit=7&${other}`)).body.data).toHaveLength(0);
      });
    });
  }
});

test.describe('snapshot pagination', () => {
  test.describe('item-repeated-across-pages', () => {
    test.use({ faults: ['item-repeated-across-pages'] });
    test('the last item of the first page comes again', async ({ mock }) => {
      const ids = await walk(mock, 'limit=100');
      expect(ids[99]).toBe(ids[100]);
      expect(new Set(ids).size).toBe(250);
    });
  });

  test.describe('item-dropped-across-pages', () => {
    test.use({ faults: ['item-dropped-across-pages'] });
    test('one item is never served', async ({ mock }) => expect(new Set(await walk(mock, 'limit=100')).size).toBe(249));
  });

  test.describe('next-loops', () => {
    test.use({ faults: ['next-loops'] });
    test('the third page is the first again, and the walk never ends', async ({ mock }) => {
      const ids = await walk(mock, 'limit=50', 6);
      expect(ids.slice(100, 150)).toEqual(ids.slice(0, 50));
      expect(ids).toHaveLength(300);
    });
  });

  test.describe('next-unchanged', () => {
    test.use({ faults: ['next-unchanged'] });
    test('the second page hands out the next value it was asked with', async ({ mock }) => {
      const { access_token } = await getToken(mock);
      const first = await list(mock, '/api/v2/content?limit=10', access_token);
      const cursor = new URL(first.body.links.next as string).searchParams.get('next');
      const second = await list(mock, `/api/v2/content?limit=10&next=${cursor}`, access_token);
      expect(second.status).toBe(200);
      expect(new URL(second.body.links.next as string).searchParams.get('next')).toBe(cursor);
    });
  });

  test.describe('snapshot-sees-changes', () => {
    test.use({ faults: ['snapshot-sees-changes'] });
    test('an item created after the first request shows in the walk', async ({ mock }) => {
      const { access_token } = await getToken(mock);
      const first = await list(mock, '/api/v2/content?limit=200', access_token);
      await fetch(`${mock.controlUrl}/content`, { method: 'POST', body: JSON.stringify({ title: 'late' }) });
      const second = await list(mock, `/api/v2/content?limit=200&next=${new URL(first.body.links.next as string).searchParams.get('next')}`, access_token);
      expect(second.body.data.map((d) => d.attributes.title)).toContain('late');
    });
  });

  for (const { fault, after, status } of [
    { fault: 'snapshot-never-expires', after: 3600, status: 200 },
    { fault: 'snapshot-expires-early', after: 61, status: 410 },
  ] as const) {
    test.describe(fault, () => {
      test.use({ faults: [fault] });
      test(`a next value ${after} s later: ${status}`, async ({ mock }) => {
        const { access_token } = await getToken(mock);
        const first = await list(mock, '/api/v2/content?limit=10', access_token);
        mock.clock.advance(after);
        const res = await api(
          mock,
          `/api/v2/content?limit=10&next=${new URL(first.body.links.next as string).searchParams.get('next')}`,
          (await getToken(mock)).access_token,
        );
        expect(res.status).toBe(status);
      });
    });
  }

  test.describe('snapshot-expires-from-first-request', () => {
    test.use({ faults: ['snapshot-expires-from-first-request'] });
    test('a walk whose every request comes within 2 minutes of the one before is refused 2 minutes after its first', async ({ mock }) => {
      const { access_token } = await getToken(mock);
      const nextOf = (page: Body) => new URL(page.links.next as string).searchParams.get('next');
      const first = await list(mock, '/api/v2/content?limit=10', access_token);
      mock.clock.advance(100);
      const second = await list(mock, `/api/v2/content?limit=10&next=${nextOf(first.body)}`, access_token);
      expect(second.status).toBe(200);
      mock.clock.advance(30);
      const third = await api(mock, `/api/v2/content?limit=10&next=${nextOf(second.body)}`, access_token);
      expect(third.status).toBe(410);
      // A new walk is served: the fault moves only where the 2 minutes count from.
      expect((await api(mock, '/api/v2/content?limit=10', access_token)).status).toBe(200);
    });
  });
});

test.describe('next-followed-for-any-key', () => {
  test.use({ faults: ['next-followed-for-any-key'] });
  test("the provider key sent the organization's next value gets the organization's next page", async ({ mock }) => {
    const first = await list(mock, '/api/v2/content?limit=5');
    const next = new URL(first.body.links.next as string).searchParams.get('next');
    const provider = (await getToken(mock, 'content:read', PROVIDER)).access_token;
    const second = await list(mock, `/api/v2/content?limit=5&next=${next}`, provider);
    expect(second.status).toBe(200);
    expect(new Set(second.body.data.map((item) => item.attributes.provider)).size).toBeGreaterThan(1);
  });
});
