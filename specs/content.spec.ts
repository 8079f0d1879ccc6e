/**
 * Document, Endpoints 3 "List content items" and Resources (envelope, resource object, content item
 * attributes). `limit` bounds are the reference notes' (default 100, maximum 1000); what happens
 * outside them is not documented: a 4xx or a page within the bounds are both accepted.
 */
import { PAGE_LIMIT } from '../contracts/limits.ts';
import { type ListEnvelope, validateContentList, validateListEnvelope } from '../schemas/index.ts';
import { expect, test } from './fixtures/index.ts';
import { pageOf } from './fixtures/pages.ts';

test.describe('a content page', () => {
  test('is valid against the envelope and content-item schemas', async ({ api }) => {
    const response = await api.list('listContent', { limit: 20 });
    expect(response).toHaveStatus(200);
    expect(response.body).toMatchSchema(validateContentList, { request: response.request });
  });

  test('holds resource objects of type content', async ({ api }) => {
    const { data } = pageOf(await api.list('listContent', { limit: 20 }));
    const types = [...new Set(data.map((item) => (item as { type?: unknown }).type))];
    expect(
      types.filter((type) => type !== 'content'),
      'types other than "content"',
    ).toEqual([]);
  });

  test('has unique ids', async ({ api }) => {
    const { data } = pageOf(await api.list('listContent', { limit: 50 }));
    const ids = data.map((item) => (item as { id?: unknown }).id);
    expect(
      ids.filter((id, index) => ids.indexOf(id) !== index),
      'ids repeated within the page',
    ).toEqual([]);
  });

  test('names this request in links.self (with or without its query)', async ({ api }) => {
    const response = await api.list('listContent', { limit: 3 });
    expect(response.body).toMatchSchema(validateListEnvelope, { request: response.request });
    const self = (response.body as ListEnvelope).links.self;
    const requested = new URL(response.request.url);
    const named = new URL(self, requested);
    expect(named.pathname, `path of links.self "${self}"`).toBe(requested.pathname);
    if (named.search !== '') expect(sortedQuery(named), `query of links.self "${self}"`).toEqual(sortedQuery(requested));
  });

  test('gives links.next, where present, as a URL that carries next', async ({ api }) => {
    const { next } = pageOf(await api.list('listContent', { limit: 1 }));
    test.skip(next === undefined, 'The first page of one item was the final page: the target has at most one item.');
    const url = new URL(next as string);
    expect(url.protocol, `scheme of links.next "${next}"`).toMatch(/^https?:$/);
    expect(url.searchParams.get('next') ?? '', `the next parameter of links.next "${next}"`).not.toBe('');
  });
});

test.describe('limit', () => {
  for (const limit of [PAGE_LIMIT.min, undefined, PAGE_LIMIT.max]) {
    test(`${limit ?? 'left out (the default)'} is accepted, and the page holds at most ${limit ?? PAGE_LIMIT.max} items`, async ({ api }) => {
      const response = await api.list('listContent', { limit });
      expect(response).toHaveStatus(200);
      expect(pageOf(response).data.length, `items on the page of ${response.request.url}`).toBeLessThanOrEqual(limit ?? PAGE_LIMIT.max);
    });
  }

  for (const limit of ['0', '-1', String(PAGE_LIMIT.max + 1), 'abc']) {
    test(`${limit} is refused with a 4xx or answered with a page within the bounds`, async ({ api }) => {
      const response = await api.list('listContent', { limit });
      if (response.status === 200) {
        expect(pageOf(response).data.length, `items on the page of ${response.request.url}`).toBeLessThanOrEqual(PAGE_LIMIT.max);
      } else {
        expect(response).toHaveStatus('4xx');
      }
    });
  }
});

function sortedQuery(url: URL): string[] {
  return [...url.searchParams].map(([name, value]) => `${name}=${value}`).sort();
}
