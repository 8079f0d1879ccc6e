/** POST {base}/oauth/token with a bearer token: logout (mock/logout.ts) and the profile's logout options. */
import type { MockServer } from '../app.ts';
import { api, expect, getToken, json, ORG, PROVIDER, postToken, profiled, test } from './http-fixtures.ts';

const logout = (mock: MockServer, token: string | undefined, body?: unknown) =>
  api(mock, '/oauth/token', token, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });

const refresh = (mock: MockServer, refresh_token: string, client: { id: string; secret: string } = ORG) =>
  postToken(mock, { grant_type: 'refresh_token', refresh_token, client_id: client.id, client_secret: client.secret });

test.describe('logout', () => {
  test('204 with the rate headers; the access token stops authenticating at once, the refresh token still works', async ({ mock }) => {
    const { access_token, refresh_token } = await getToken(mock);
    const res = await logout(mock, access_token);
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    expect(res.headers.get('x-rate-limit-remaining')).toBe('199');
    expect((await api(mock, '/api/v2/content?limit=1', access_token)).status).toBe(401);
    expect((await refresh(mock, refresh_token)).status).toBe(200);
  });

  test('a refresh token in the JSON body expires too', async ({ mock }) => {
    const { access_token, refresh_token } = await getToken(mock);
    expect((await logout(mock, access_token, { refresh_token })).status).toBe(204);
    const res = await refresh(mock, refresh_token);
    expect(res.status).toBe(400);
    expect(await json(res)).toMatchObject({ error: 'invalid_grant' });
  });

  test('another client’s refresh token is left alone', async ({ mock }) => {
    const org = await getToken(mock);
    const provider = await getToken(mock, 'content:read', PROVIDER);
    expect((await logout(mock, org.access_token, { refresh_token: provider.refresh_token })).status).toBe(204);
    expect((await refresh(mock, provider.refresh_token, PROVIDER)).status).toBe(200);
  });

  test('a logged-out token cannot log out again, nor be revived by a refresh', async ({ mock }) => {
    const { access_token, refresh_token } = await getToken(mock);
    await logout(mock, access_token, { refresh_token });
    const again = await logout(mock, access_token);
    expect(again.status).toBe(401);
    expect(again.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
    expect((await refresh(mock, refresh_token)).status).toBe(400);
    expect((await api(mock, '/api/v2/content?limit=1', access_token)).status).toBe(401);
  });

  test('without a token: 401 with WWW-Authenticate: Bearer', async ({ mock }) => {
    const res = await logout(mock, undefined);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
  });

  for (const { title, body, parameter } of [
    { title: 'a body that is not JSON', body: 'refresh_token=abc' },
    { title: 'a JSON array', body: '[]' },
    { title: 'a refresh_token that is not a string', body: { refresh_token: 5 }, parameter: 'refresh_token' },
  ]) {
    test(`${title}: 400, and the token is not logged out`, async ({ mock }) => {
      const { access_token } = await getToken(mock);
      const res = await logout(mock, access_token, body);
      expect(res.status).toBe(400);
      const error = (await json(res)).errors[0];
      expect(error).toMatchObject({ status: 400, code: 'invalid-body' });
      if (parameter) expect(error.source).toEqual({ parameter });
      expect(res.headers.get('x-rate-limit-limit')).toBe('1m');
      expect((await api(mock, '/api/v2/content?limit=1', access_token)).status).toBe(200);
    });
  }

  test('GET on the logout path: 405 with Allow: POST', async ({ mock }) => {
    const res = await api(mock, '/oauth/token');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  });
});

test.describe('profile: logout.response', () => {
  for (const { response, status, body } of [
    { response: '200-json', status: 200, body: '{"status":"logged-out"}' },
    { response: '200-empty', status: 200, body: '' },
  ] as const) {
    test.describe(response, () => {
      test.use({ mockOptions: { profile: profiled({ logout: { response } }) } });
      test(`${status} with ${body === '' ? 'an empty body' : 'a small JSON body'}; the token is logged out`, async ({ mock }) => {
        const { access_token } = await getToken(mock);
        const res = await logout(mock, access_token);
        expect(res.status).toBe(status);
        expect(await res.text()).toBe(body);
        expect((await api(mock, '/api/v2/content?limit=1', access_token)).status).toBe(401);
      });
    });
  }
});

test.describe('profile: logout.request', () => {
  test.describe('json-object', () => {
    test.use({ mockOptions: { profile: profiled({ logout: { request: 'json-object' } }) } });
    test('an empty body is refused and changes nothing; {} logs out', async ({ mock }) => {
      const { access_token } = await getToken(mock);
      const empty = await logout(mock, access_token);
      expect(empty.status).toBe(400);
      expect((await json(empty)).errors[0].detail).toMatch(/must be a JSON object/);
      expect((await api(mock, '/api/v2/content?limit=1', access_token)).status).toBe(200);
      expect((await logout(mock, access_token, {})).status).toBe(204);
      expect((await api(mock, '/api/v2/content?limit=1', access_token)).status).toBe(401);
    });
  });

  test.describe('any', () => {
    test.use({ mockOptions: { profile: profiled({ logout: { request: 'any' } }) } });
    test('any body logs out; a JSON object’s refresh_token still expires', async ({ mock }) => {
      for (const body of ['refresh_token=abc', '[]', { refresh_token: 5 }, 'not json']) {
        const { access_token } = await getToken(mock);
        expect((await logout(mock, access_token, body)).status).toBe(204);
        expect((await api(mock, '/api/v2/content?limit=1', access_token)).status).toBe(401);
      }
      const { access_token, refresh_token } = await getToken(mock);
      expect((await logout(mock, access_token, { refresh_token })).status).toBe(204);
      expect((await refresh(mock, refresh_token)).status).toBe(400);
    });
  });
});
