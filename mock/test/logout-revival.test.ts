/**
 * A logged-out token never comes back to life: whatever happens after the logout (the
 * clock moves a little or past the lifetime, the client refreshes, gets new tokens, the mock is
 * reset, the token store sweeps), the old access token gets 401 on every route, and a refresh token
 * logged out with it stays refused.
 */
import type { MockServer } from '../app.ts';
import { api, expect, getToken, json, ORG, postToken, type TokenResponse, test } from './http-fixtures.ts';

const logout = (mock: MockServer, token: string, body?: object) =>
  api(mock, '/oauth/token', token, { method: 'POST', headers: { 'content-type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) });

const refresh = (mock: MockServer, refresh_token: string) =>
  postToken(mock, { grant_type: 'refresh_token', refresh_token, client_id: ORG.id, client_secret: ORG.secret });

async function expectDead(mock: MockServer, token: string): Promise<void> {
  for (const path of ['/api/v2/content?limit=1', '/api/v2/users?limit=1']) {
    const res = await api(mock, path, token);
    expect(res.status, `GET ${path} with the logged-out token`).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
  }
  expect((await logout(mock, token)).status, 'logging out the logged-out token again').toBe(401);
}

interface AfterLogout {
  readonly what: string;
  /** Something that happens after the logout; `kept` is a refresh token of the same grant that was not logged out. */
  readonly after: (mock: MockServer, tokens: { loggedOut: TokenResponse; kept: TokenResponse }) => Promise<void>;
}

const PATHS: readonly AfterLogout[] = [
  { what: 'nothing', after: async () => {} },
  { what: 'the clock moves one second', after: async (mock) => mock.clock.advance(1) },
  { what: 'the clock moves past the token lifetime', after: async (mock) => mock.clock.advance(61 * 86_400) },
  {
    what: 'the client refreshes with a refresh token that was not logged out',
    after: async (mock, { kept }) => {
      const res = await refresh(mock, kept.refresh_token);
      expect(res.status).toBe(200);
      expect((await api(mock, '/api/v2/content?limit=1', (await json(res)).access_token)).status).toBe(200);
    },
  },
  {
    what: 'the client gets new tokens',
    after: async (mock) => {
      expect((await api(mock, '/api/v2/content?limit=1', (await getToken(mock)).access_token)).status).toBe(200);
    },
  },
  { what: 'the mock is reset', after: async (mock) => mock.reset() },
  {
    what: 'the token store sweeps (a token issued two minutes later)',
    after: async (mock) => {
      mock.clock.advance(120);
      await getToken(mock);
    },
  },
];

test.describe('a logged-out token never comes back to life', () => {
  for (const { what, after } of PATHS) {
    test(`after logout, then ${what}`, async ({ mock }) => {
      const loggedOut = await getToken(mock);
      const kept = await getToken(mock);
      expect((await logout(mock, loggedOut.access_token, { refresh_token: loggedOut.refresh_token })).status).toBe(204);
      await after(mock, { loggedOut, kept });
      await expectDead(mock, loggedOut.access_token);
      const again = await refresh(mock, loggedOut.refresh_token);
      expect(again.status, 'the refresh token logged out with it').toBe(400);
      expect(await json(again)).toMatchObject({ error: 'invalid_grant' });
    });
  }

  test('a refresh token used once is spent: it cannot be used again, even after the clock moves', async ({ mock }) => {
    const { refresh_token } = await getToken(mock);
    expect((await refresh(mock, refresh_token)).status).toBe(200);
    mock.clock.advance(3600);
    expect((await refresh(mock, refresh_token)).status).toBe(400);
  });
});
