/**
 * Memory stays bounded: expired tokens, obsolete snapshots, ended rate windows and ended
 * throttle windows are evicted. Seen from outside, as the soak sees them: GET /_mock/stats after
 * moving the clock with POST /_mock/clock. Eviction is lazy (it runs when the store is next written
 * to), so each case makes one more request after the clock moved.
 */
import type { MockServer } from '../app.ts';
import { REFRESH_LIFETIME_FACTOR } from '../tokens.ts';
import { api, control, expect, getToken, json, ORG, PROVIDER, postToken, test } from './http-fixtures.ts';

const TOKEN_TTL_SECONDS = 3_600;

async function stats(mock: MockServer): Promise<Record<string, number>> {
  const res = await control(mock, '/stats', undefined, 'GET');
  expect(res.status).toBe(200);
  return json(res);
}

const advance = async (mock: MockServer, seconds: number) => expect((await control(mock, '/clock', { advanceSeconds: seconds })).status).toBe(200);

test.use({ mockOptions: { tokenTtlSeconds: TOKEN_TTL_SECONDS } });

test('expired access tokens are evicted, then their refresh tokens (which live twice as long)', async ({ mock }) => {
  for (let i = 0; i < 10; i++) await getToken(mock);
  expect(await stats(mock)).toMatchObject({ accessTokens: 10, refreshTokens: 10 });
  await advance(mock, TOKEN_TTL_SECONDS);
  await getToken(mock);
  expect(await stats(mock)).toMatchObject({ accessTokens: 1, refreshTokens: 11 });
  await advance(mock, TOKEN_TTL_SECONDS * REFRESH_LIFETIME_FACTOR);
  await getToken(mock);
  expect(await stats(mock)).toMatchObject({ accessTokens: 1, refreshTokens: 1 });
});

test('obsolete snapshots are evicted', async ({ mock }) => {
  const { access_token } = await getToken(mock);
  for (let i = 0; i < 10; i++) expect((await api(mock, '/api/v2/content?limit=1', access_token)).status).toBe(200);
  expect(await stats(mock)).toMatchObject({ snapshots: 10 });
  await advance(mock, 120);
  expect((await api(mock, '/api/v2/content?limit=1', access_token)).status).toBe(200);
  expect(await stats(mock)).toMatchObject({ snapshots: 1 });
});

test('a walk that ends leaves no snapshot behind', async ({ mock }) => {
  const { access_token } = await getToken(mock);
  let next: string | undefined = `${mock.baseUrl}/api/v2/users?limit=1000`;
  for (let pages = 0; next !== undefined && pages < 5; pages++) {
    const page = await json(await fetch(next, { headers: { authorization: `Bearer ${access_token}` } }));
    next = page.links.next;
  }
  expect(next).toBeUndefined();
  expect(await stats(mock)).toMatchObject({ snapshots: 0 });
});

test('ended rate windows are evicted', async ({ mock }) => {
  const org = await getToken(mock);
  const provider = await getToken(mock, 'content:read', PROVIDER);
  await api(mock, '/api/v2/content?limit=1', org.access_token);
  await api(mock, '/api/v2/content?limit=1', provider.access_token);
  expect(await stats(mock)).toMatchObject({ rateWindows: 2 });
  await advance(mock, 60);
  await api(mock, '/api/v2/content?limit=1', org.access_token);
  expect(await stats(mock)).toMatchObject({ rateWindows: 1 });
});

test('ended throttle windows of failed token requests are evicted', async ({ mock }) => {
  for (const id of ['a', 'b', 'c', ORG.id])
    await postToken(mock, { grant_type: 'client_credentials', client_id: id, client_secret: 'wrong', scope: 'content:read' });
  expect(await stats(mock)).toMatchObject({ throttledClients: 4 });
  await advance(mock, 60);
  await postToken(mock, { grant_type: 'client_credentials', client_id: 'd', client_secret: 'wrong', scope: 'content:read' });
  expect(await stats(mock)).toMatchObject({ throttledClients: 1 });
});

test('under churn without the clock moving, the stores stay within their bounds', async ({ mock }) => {
  // Token churn: each token is used once and logged out; the store holds only what is still valid.
  for (let i = 0; i < 50; i++) {
    const { access_token, refresh_token } = await getToken(mock);
    await api(mock, '/oauth/token', access_token, { method: 'POST', body: JSON.stringify({ refresh_token }) });
  }
  expect(await stats(mock)).toMatchObject({ accessTokens: 0, refreshTokens: 0 });
});
