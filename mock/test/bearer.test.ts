/** Bearer authentication and scopes of the resource endpoints (mock/bearer.ts). */
import { expect as plainExpect, test as plainTest } from '@playwright/test';
import { parseBearer } from '../bearer.ts';
import { api, expect, getToken, json, PROVIDER, profiled, test } from './http-fixtures.ts';

plainTest.describe('reading the Authorization header', () => {
  for (const { header, expected } of [
    { header: undefined, expected: { kind: 'missing' } },
    { header: '', expected: { kind: 'missing' } },
    { header: 'Bearer abc-._~+/123==', expected: { kind: 'token', token: 'abc-._~+/123==' } },
    { header: 'bearer abc', expected: { kind: 'token', token: 'abc' } },
    { header: 'BEARER  abc ', expected: { kind: 'token', token: 'abc' } },
    { header: 'Bearer', expected: { kind: 'malformed' } },
    { header: 'Bearer a b', expected: { kind: 'malformed' } },
    { header: 'Bearer a,b', expected: { kind: 'malformed' } },
    { header: 'Basic bW9jazpzZWNyZXQ=', expected: { kind: 'other-scheme' } },
    { header: 'Bearerabc', expected: { kind: 'other-scheme' } },
  ]) {
    plainTest(`${JSON.stringify(header)}`, () => plainExpect(parseBearer(header)).toEqual(expected));
  }
});

test.describe('401 with WWW-Authenticate: Bearer, not counted against any client', () => {
  for (const { title, header, challenge } of [
    { title: 'no Authorization header', header: undefined, challenge: 'Bearer' },
    { title: 'another scheme', header: 'Basic bW9jazpzZWNyZXQ=', challenge: 'Bearer' },
    { title: 'a malformed bearer token', header: 'Bearer not a token', challenge: 'Bearer error="invalid_token"' },
    { title: 'an unknown token', header: 'Bearer AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', challenge: 'Bearer error="invalid_token"' },
  ]) {
    for (const path of ['/api/v2/content', '/api/v2/users']) {
      test(`${title} on ${path}`, async ({ mock }) => {
        const res = await api(mock, path, undefined, header === undefined ? {} : { headers: { authorization: header } });
        expect(res.status).toBe(401);
        expect(res.headers.get('www-authenticate')).toBe(challenge);
        expect(res.headers.get('x-rate-limit-remaining')).toBeNull();
        const body = await json(res);
        expect(body.errors[0]).toMatchObject({ status: 401, code: 'unauthorized', detail: expect.any(String) });
      });
    }
  }

  test('an expired token and a logged-out token', async ({ mock }) => {
    const expired = await getToken(mock);
    const loggedOut = await getToken(mock);
    expect((await api(mock, '/oauth/token', loggedOut.access_token, { method: 'POST' })).status).toBe(204);
    mock.clock.advance(60 * 86_400);
    for (const token of [expired.access_token, loggedOut.access_token]) {
      const res = await api(mock, '/api/v2/content', token);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
    }
  });
});

test.describe('scopes: any one accepted scope lets a token list', () => {
  for (const { scope, content, users } of [
    { scope: 'content:read', content: 200, users: 403 },
    { scope: 'content:write', content: 200, users: 403 },
    { scope: 'users:read', content: 403, users: 200 },
    { scope: 'users:write', content: 403, users: 200 },
    { scope: 'content:read,users:write', content: 200, users: 200 },
  ]) {
    test(`${scope}: content ${content}, users ${users}`, async ({ mock }) => {
      const { access_token } = await getToken(mock, scope);
      for (const [path, status] of [
        ['/api/v2/content?limit=1', content],
        ['/api/v2/users?limit=1', users],
      ] as const) {
        const res = await api(mock, path, access_token);
        expect(res.status, path).toBe(status);
        // Counted: a 403 carries the rate headers too.
        expect(res.headers.get('x-rate-limit-limit')).toBe('1m');
        if (status === 403) {
          expect(res.headers.get('www-authenticate')).toMatch(/^Bearer error="insufficient_scope"/);
          expect((await json(res)).errors[0]).toMatchObject({
            status: 403,
            code: 'forbidden',
            detail: expect.stringContaining(scope.split(',')[0] as string),
          });
        }
      }
    });
  }

  test('a provider key lists content with content:read', async ({ mock }) => {
    const { access_token } = await getToken(mock, 'content:read', PROVIDER);
    expect((await api(mock, '/api/v2/content?limit=1', access_token)).status).toBe(200);
  });
});

test.describe('profile: statuses and accepted scopes', () => {
  for (const status of [401, 404] as const) {
    test.describe(`auth.missingScopeStatus ${status}`, () => {
      test.use({ mockOptions: { profile: profiled({ auth: { missingScopeStatus: status } }) } });
      test(`a missing scope gives ${status}, with the insufficient_scope challenge`, async ({ mock }) => {
        const { access_token } = await getToken(mock, 'users:read');
        const res = await api(mock, '/api/v2/content', access_token);
        expect(res.status).toBe(status);
        expect(res.headers.get('www-authenticate')).toMatch(/^Bearer error="insufficient_scope"/);
      });
    });
  }

  test.describe('auth.unauthenticatedStatus 403', () => {
    test.use({ mockOptions: { profile: profiled({ auth: { unauthenticatedStatus: 403 } }) } });
    test('a missing, unknown or logged-out token gives 403', async ({ mock }) => {
      expect((await api(mock, '/api/v2/content')).status).toBe(403);
      expect((await api(mock, '/api/v2/users', 'nope')).status).toBe(403);
    });
  });

  test.describe('auth.contentScopes content:read only, auth.usersScopes users:read only', () => {
    test.use({ mockOptions: { profile: profiled({ auth: { contentScopes: ['content:read'], usersScopes: ['users:read'] } }) } });
    test('content:write alone is refused on content, users:write alone on users', async ({ mock }) => {
      const { access_token } = await getToken(mock, 'content:write,users:write');
      const content = await api(mock, '/api/v2/content', access_token);
      expect(content.status).toBe(403);
      expect(content.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope", scope="content:read"');
      expect((await api(mock, '/api/v2/users', access_token)).status).toBe(403);
      expect((await api(mock, '/api/v2/content', (await getToken(mock, 'content:read')).access_token)).status).toBe(200);
    });
  });
});
