/** Faults of bearer authentication, scopes and provider keys. */
import { api, expect, getToken, json, PROVIDER, test } from './fixtures.ts';

for (const { fault, scope, path } of [
  { fault: 'scope-not-enforced-content', scope: 'users:read', path: '/api/v2/content' },
  { fault: 'scope-not-enforced-users', scope: 'content:read', path: '/api/v2/users' },
] as const) {
  test.describe(fault, () => {
    test.use({ faults: [fault] });
    test(`${scope} lists ${path}; the other endpoint still checks its scope`, async ({ mock }) => {
      const { access_token } = await getToken(mock, scope);
      expect((await api(mock, `${path}?limit=1`, access_token)).status).toBe(200);
      // The token holds the other endpoint's scope, not this one's: swap them and the other endpoint refuses.
      const other = path.endsWith('content') ? '/api/v2/users' : '/api/v2/content';
      const otherScope = path.endsWith('content') ? 'content:read' : 'users:read';
      expect((await api(mock, `${other}?limit=1`, (await getToken(mock, otherScope)).access_token)).status).toBe(403);
    });
  });
}

test.describe('bearer-not-checked', () => {
  test.use({ faults: ['bearer-not-checked'] });
  test('no token, or a made-up one, lists content and users', async ({ mock }) => {
    expect((await api(mock, '/api/v2/content?limit=1')).status).toBe(200);
    expect((await api(mock, '/api/v2/users?limit=1', 'made-up')).status).toBe(200);
  });
});

test.describe('provider-isolation-broken', () => {
  test.use({ faults: ['provider-isolation-broken'] });
  test('the provider key sees other providers’ items', async ({ mock }) => {
    const { access_token } = await getToken(mock, 'content:read', PROVIDER);
    const body = await json(await api(mock, '/api/v2/content?limit=100', access_token));
    expect(new Set(body.data.map((d: { attributes: { provider: string } }) => d.attributes.provider)).size).toBeGreaterThan(1);
  });
});
