/** Bearer authentication and scopes of the resource endpoints (mock/bearer.ts). */
import { expect as plainExpect, test as plainTest } from '@playwright/test';
import { parseBearer } from '../bearer.ts';
import { api, expect, getToken, json, PROVIDER, test } from './http-fixtures.ts';

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

test.describe('variant missing-scope-401', () => {
  test.use({ mockOptions: { variants: ['missing-scope-401'] } });
  test('a missing scope gives 401', async ({ mock }) => {
    const { access_token } = await getToken(mock, 'users:read');
    expect((await api(mock, '/api/v2/content', access_token)).status).toBe(401);
  });
});

test.describe('faults', () => {
  for (const { fault, scope, path, status } of [
    { fault: 'scope-not-enforced-content', scope: 'users:read', path: '/api/v2/content', status: 200 },
    { fault: 'scope-not-enforced-users', scope: 'content:read', path: '/api/v2/users', status: 200 },
    { fault: 'content-write-refused', scope: 'content:write', path: '/api/v2/content', status: 403 },
  ] as const) {
    test.describe(fault, () => {
      test.use({ mockOptions: { faults: [fault] } });
      test(`${scope} on ${path}: ${status}`, async ({ mock }) => {
        const { access_token } = await getToken(mock, scope);
        expect((await api(mock, `${path}?limit=1`, access_token)).status).toBe(status);
      });
    });
  }
  test.describe('bearer-not-checked', () => {
    test.use({ mockOptions: { faults: ['bearer-not-checked'] } });
    test('no token lists content', async ({ mock }) => expect((await api(mock, '/api/v2/content?limit=1')).status).toBe(200));
  });
});
