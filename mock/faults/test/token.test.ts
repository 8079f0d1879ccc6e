/** Faults of token issuance, logout and lifetime: each breaks its rule, and only it. */
import { api, expect, getToken, json, ORG, postToken, test } from './fixtures.ts';

const CC = { grant_type: 'client_credentials', client_id: ORG.id, client_secret: ORG.secret, scope: 'content:read' };

for (const { fault, form } of [
  { fault: 'token-wrong-secret-accepted', form: { ...CC, client_secret: 'guess' } },
  { fault: 'token-unheld-scope-granted', form: { ...CC, scope: 'groups:read' } },
  { fault: 'token-unsupported-grant-accepted', form: { ...CC, grant_type: 'password' } },
] as const) {
  test.describe(fault, () => {
    test.use({ faults: [fault] });
    test('the refusal becomes a token', async ({ mock }) => {
      const res = await postToken(mock, form);
      expect(res.status).toBe(200);
      expect(await json(res)).toHaveProperty('access_token');
    });
  });
}

test.describe('token response faults', () => {
  for (const { fault, check } of [
    { fault: 'token-expires-in-string', check: (b: Record<string, unknown>) => expect(b.expires_in).toBe(String(60 * 86_400)) },
    { fault: 'token-type-not-bearer', check: (b: Record<string, unknown>) => expect(b.token_type).toBe('mac') },
    { fault: 'token-refresh-token-missing', check: (b: Record<string, unknown>) => expect(b).not.toHaveProperty('refresh_token') },
    { fault: 'expires-in-above-lifetime', check: (b: Record<string, unknown>) => expect(b.expires_in).toBe(60 * 86_400 + 86_400) },
  ] as const) {
    test.describe(fault, () => {
      test.use({ faults: [fault] });
      test('the token response breaks its rule', async ({ mock }) => {
        const res = await postToken(mock, CC);
        expect(res.status).toBe(200);
        const body = await json(res);
        expect(body.access_token).toEqual(expect.any(String));
        check(body);
        expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(JSON.stringify(body))));
      });
    });
  }
});

test.describe('scope-list-refused', () => {
  test.use({ faults: ['scope-list-refused'] });
  test('a comma-delimited list is refused; one scope is fine', async ({ mock }) => {
    const res = await postToken(mock, { ...CC, scope: 'content:read,users:read' });
    expect(res.status).toBe(403);
    expect(await json(res)).toMatchObject({ error: 'invalid_scope' });
    expect((await postToken(mock, CC)).status).toBe(200);
  });
});

const logout = (mock: Parameters<typeof api>[0], token: string | undefined, body?: unknown) =>
  api(mock, '/oauth/token', token, { method: 'POST', ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
const refresh = (mock: Parameters<typeof api>[0], refresh_token: string) =>
  postToken(mock, { grant_type: 'refresh_token', refresh_token, client_id: ORG.id, client_secret: ORG.secret });

test.describe('logout-keeps-access-token', () => {
  test.use({ faults: ['logout-keeps-access-token'] });
  test('the token still authenticates after a 204', async ({ mock }) => {
    const { access_token } = await getToken(mock);
    expect((await logout(mock, access_token)).status).toBe(204);
    expect((await api(mock, '/api/v2/content?limit=1', access_token)).status).toBe(200);
  });
});

test.describe('logout-keeps-refresh-token', () => {
  test.use({ faults: ['logout-keeps-refresh-token'] });
  test('the refresh token still refreshes; the access token is gone', async ({ mock }) => {
    const { access_token, refresh_token } = await getToken(mock);
    await logout(mock, access_token, { refresh_token });
    expect((await api(mock, '/api/v2/content?limit=1', access_token)).status).toBe(401);
    expect((await refresh(mock, refresh_token)).status).toBe(200);
  });
});

test.describe('logout-without-token-accepted', () => {
  test.use({ faults: ['logout-without-token-accepted'] });
  test('no token: 204', async ({ mock }) => expect((await logout(mock, undefined)).status).toBe(204));
});

test.describe('token-never-expires', () => {
  test.use({ faults: ['token-never-expires'], mockOptions: { tokenTtlSeconds: 3600 } });
  test('a token authenticates a year after its lifetime, yet not after logout', async ({ mock }) => {
    const { access_token } = await getToken(mock);
    mock.clock.advance(365 * 86_400);
    expect((await api(mock, '/api/v2/content?limit=1', access_token)).status).toBe(200);
    expect((await logout(mock, access_token)).status).toBe(204);
    expect((await api(mock, '/api/v2/content?limit=1', access_token)).status).toBe(401);
  });
});
