/**
 * Cursors are unforgeable and bound to their client and query (mock/pagination.ts), over HTTP: a
 * tampered, truncated or extended `next` is refused, so is another client's, and a refused attempt
 * does not spend the owner's cursor. Cursors carry 96 random bits.
 */
import type { MockServer } from '../app.ts';
import { api, expect, getToken, json, PROVIDER, test } from './http-fixtures.ts';

/** The first page of `query` for `token`, and its `next` value. */
async function firstCursor(mock: MockServer, token: string, query = 'limit=2'): Promise<string> {
  const res = await api(mock, `/api/v2/content?${query}`, token);
  expect(res.status).toBe(200);
  const next = (await json(res)).links.next as string;
  return new URL(next).searchParams.get('next') as string;
}

const continueWith = (mock: MockServer, token: string, cursor: string, query = 'limit=2', path = '/api/v2/content') =>
  api(mock, `${path}?${query}&next=${encodeURIComponent(cursor)}`, token);

async function expectRefused(res: Response, parameter: string, detail: RegExp): Promise<void> {
  expect(res.status).toBe(400);
  const error = (await json(res)).errors[0];
  expect(error).toMatchObject({ code: 'invalid-parameter', source: { parameter } });
  expect(error.detail).toMatch(detail);
}

/** Every way of changing one character, and of cutting or extending, that a tamperer would try. */
function tamperings(cursor: string): Array<{ how: string; value: string }> {
  const swap = (i: number) => `${cursor.slice(0, i)}${cursor[i] === 'A' ? 'B' : 'A'}${cursor.slice(i + 1)}`;
  return [
    { how: 'first character changed', value: swap(0) },
    { how: 'middle character changed', value: swap(Math.floor(cursor.length / 2)) },
    { how: 'last character changed', value: swap(cursor.length - 1) },
    { how: 'truncated by one', value: cursor.slice(0, -1) },
    { how: 'cut in half', value: cursor.slice(0, cursor.length / 2) },
    { how: 'extended by one', value: `${cursor}A` },
    { how: 'upper-cased', value: cursor.toUpperCase() },
    { how: 'base64 padding added', value: `${cursor}==` },
  ].filter((t) => t.value !== cursor);
}

test.describe('next values are unforgeable', () => {
  test('cursors are 22 base64url characters (96 random bits and a slot), each new', async ({ mock }) => {
    const { access_token } = await getToken(mock);
    const seen = new Set<string>();
    let cursor = await firstCursor(mock, access_token, 'limit=1');
    for (let i = 0; i < 20; i++) {
      expect(cursor).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(seen.has(cursor)).toBe(false);
      seen.add(cursor);
      const page = await json(await continueWith(mock, access_token, cursor, 'limit=1'));
      cursor = new URL(page.links.next).searchParams.get('next') as string;
    }
  });

  test('a tampered, truncated or extended cursor is refused, and the real one still works after', async ({ mock }) => {
    const { access_token } = await getToken(mock);
    const cursor = await firstCursor(mock, access_token);
    for (const { how, value } of tamperings(cursor)) {
      await test.step(how, async () => expectRefused(await continueWith(mock, access_token, value), 'next', /not a value this service issued/));
    }
    expect((await continueWith(mock, access_token, cursor)).status).toBe(200);
  });
});

test.describe('next values are bound to their client and query', () => {
  test('another client’s cursor is refused like an unknown one, and stays its owner’s', async ({ mock }) => {
    const org = await getToken(mock);
    const provider = await getToken(mock, 'content:read', PROVIDER);
    const providerCursor = await firstCursor(mock, provider.access_token);
    await expectRefused(await continueWith(mock, org.access_token, providerCursor), 'next', /not a value this service issued to this client/);
    expect((await continueWith(mock, provider.access_token, providerCursor)).status).toBe(200);
  });

  test('another token of the same client may continue the walk (cursors belong to the client, not the token)', async ({ mock }) => {
    const first = await getToken(mock);
    const second = await getToken(mock);
    const cursor = await firstCursor(mock, first.access_token);
    expect((await continueWith(mock, second.access_token, cursor)).status).toBe(200);
  });

  test('the same cursor with another query is refused, naming the parameter that differs', async ({ mock }) => {
    const { access_token } = await getToken(mock);
    const cursor = await firstCursor(mock, access_token, 'limit=2&filter[start_date]=2020-01-01');
    await expectRefused(await continueWith(mock, access_token, cursor, 'limit=3&filter[start_date]=2020-01-01'), 'limit', /must repeat the query/);
    await expectRefused(await continueWith(mock, access_token, cursor, 'limit=2'), 'filter[start_date]', /must repeat the query/);
    expect((await continueWith(mock, access_token, cursor, 'filter[start_date]=2020-01-01&limit=2')).status).toBe(200);
  });

  test('a content cursor is refused on users', async ({ mock }) => {
    const { access_token } = await getToken(mock);
    const cursor = await firstCursor(mock, access_token);
    await expectRefused(await continueWith(mock, access_token, cursor, 'limit=2', '/api/v2/users'), 'next', /belongs to \/api\/v2\/content/);
  });

  test('a used cursor is refused (the newest must be used), and so is one after reset', async ({ mock }) => {
    const { access_token } = await getToken(mock);
    const cursor = await firstCursor(mock, access_token);
    expect((await continueWith(mock, access_token, cursor)).status).toBe(200);
    await expectRefused(await continueWith(mock, access_token, cursor), 'next', /already used/);
    const fresh = await firstCursor(mock, access_token);
    mock.reset();
    const token = (await getToken(mock)).access_token;
    await expectRefused(await continueWith(mock, token, fresh), 'next', /not a value this service issued/);
  });
});
