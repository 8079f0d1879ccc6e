/**
 * The /_mock control plane (mock/control.ts): clock, reset, content changes, validation, --no-control;
 * and its SDK scenario calls: served OpenAPI, spent budget, expired tokens, obsolete snapshots.
 */
import SwaggerParser from '@apidevtools/swagger-parser';
import { api, control, expect, getToken, json, ORG, postToken, profiled, START_MS, test } from './http-fixtures.ts';

test.describe('clock', () => {
  test('GET gives now; POST advanceSeconds moves it forward and gives the new now', async ({ mock }) => {
    expect(await json(await control(mock, '/clock', undefined, 'GET'))).toEqual({ now: new Date(START_MS).toISOString() });
    const res = await control(mock, '/clock', { advanceSeconds: 90.5 });
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ now: new Date(START_MS + 90_500).toISOString() });
    expect(mock.clock.now()).toBe(START_MS + 90_500);
  });

  for (const body of [{}, { advanceSeconds: -1 }, { advanceSeconds: '60' }, { advanceSeconds: null }, [], 'x']) {
    test(`${JSON.stringify(body)} is refused with 400 naming advanceSeconds`, async ({ mock }) => {
      const res = await control(mock, '/clock', body);
      expect(res.status).toBe(400);
      expect((await json(res)).errors[0]).toMatchObject({ status: 400, source: { parameter: 'advanceSeconds' } });
      expect(mock.clock.now()).toBe(START_MS);
    });
  }

  test('a body that is not JSON: 400', async ({ mock }) => {
    const res = await fetch(`${mock.controlUrl}/clock`, { method: 'POST', body: '{advance' });
    expect(res.status).toBe(400);
    expect((await json(res)).errors[0].detail).toContain('not valid JSON');
  });
});

test.describe('reset', () => {
  test('204; tokens, rate windows and the clock are back to the start', async ({ mock }) => {
    const { access_token } = await getToken(mock);
    await api(mock, '/api/v2/content?limit=1', access_token);
    await control(mock, '/clock', { advanceSeconds: 30 });
    expect(mock.stats()).toMatchObject({ accessTokens: 1, rateWindows: 1, snapshots: 1 });
    const res = await control(mock, '/reset');
    expect(res.status).toBe(204);
    expect(mock.clock.now()).toBe(START_MS);
    expect(mock.stats()).toEqual({
      accessTokens: 0,
      validAccessTokens: 0,
      refreshTokens: 0,
      validRefreshTokens: 0,
      rateWindows: 0,
      snapshots: 0,
      throttledClients: 0,
    });
    expect((await api(mock, '/api/v2/content?limit=1', access_token)).status).toBe(401);
  });

  test('stats gives the live entry counts', async ({ mock }) => {
    await getToken(mock);
    expect(await json(await control(mock, '/stats', undefined, 'GET'))).toEqual({
      accessTokens: 1,
      validAccessTokens: 1,
      refreshTokens: 1,
      validRefreshTokens: 1,
      rateWindows: 0,
      snapshots: 0,
      throttledClients: 0,
    });
  });
});

test.describe('content', () => {
  test('POST creates an item (201), PATCH modifies it (200), both accept bare or wrapped attributes', async ({ mock }) => {
    const created = await control(mock, '/content', { title: 'Made by a test', 'is-obsolete': false });
    expect(created.status).toBe(201);
    const item = await json(created);
    expect(item).toMatchObject({ type: 'content', id: expect.any(String), attributes: { title: 'Made by a test' } });
    mock.clock.advance(60);
    const patched = await control(mock, `/content/${encodeURIComponent(item.id)}`, { attributes: { title: 'Renamed' } }, 'PATCH');
    expect(patched.status).toBe(200);
    expect(await json(patched)).toMatchObject({ id: item.id, attributes: { title: 'Renamed' } });
  });

  test('a bad attribute: 400 naming it; an unknown id: 404', async ({ mock }) => {
    const bad = await control(mock, '/content', { 'is-obsolete': 'false' });
    expect(bad.status).toBe(400);
    expect((await json(bad)).errors[0].source).toEqual({ parameter: 'is-obsolete' });
    expect((await control(mock, '/content/no-such-id', { title: 'x' }, 'PATCH')).status).toBe(404);
  });
});

test.describe('routing', () => {
  for (const { method, path, status, allow } of [
    { method: 'DELETE', path: '/clock', status: 405, allow: 'GET, POST' },
    { method: 'GET', path: '/reset', status: 405, allow: 'POST' },
    { method: 'GET', path: '/content/x', status: 405, allow: 'PATCH' },
    { method: 'GET', path: '/nothing', status: 404 },
    { method: 'GET', path: '', status: 404 },
  ]) {
    test(`${method} /_mock${path}: ${status}`, async ({ mock }) => {
      const res = await fetch(`${mock.baseUrl}/_mock${path}`, { method });
      expect(res.status).toBe(status);
      expect(res.headers.get('allow')).toBe(allow ?? null);
      expect((await json(res)).errors[0].status).toBe(status);
    });
  }
});

test.describe('openapi.json', () => {
  test("GET gives the OpenAPI 3.1 document with this mock's origins as its only servers; it validates", async ({ mock }) => {
    const res = await control(mock, '/openapi.json', undefined, 'GET');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const document = await json(res);
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers).toEqual([{ url: mock.baseUrl, description: expect.any(String) }]);
    // The token endpoint is on the auth origin: its servers are the auth origin (with the path's prefix).
    const tokenPath = Object.values(document.paths as Record<string, { servers?: { url: string }[] }>).find((item) => item.servers !== undefined);
    expect(tokenPath?.servers?.map((s) => s.url)).toEqual([`${mock.authUrl}/oauth`]);
    expect(document.components.securitySchemes.oauth2.flows.clientCredentials.tokenUrl).toBe(`${mock.authUrl}/oauth/token`);
    await expect(SwaggerParser.validate(document)).resolves.toBeTruthy();
  });

  test('POST: 405 with Allow: GET', async ({ mock }) => {
    const res = await control(mock, '/openapi.json', {});
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET');
  });
});

test.describe("rate-limit: a client's budget spent", () => {
  test('remaining 0: the next request of that client is a 429 with Retry-After; the other client is not affected', async ({ mock }) => {
    const org = await getToken(mock);
    const provider = await getToken(mock, 'content:read', { id: 'mock-provider-client', secret: 'mock-provider-secret' });
    const res = await control(mock, '/rate-limit', { clientId: ORG.id, remaining: 0 });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body).toEqual({ clientId: ORG.id, remaining: 0, resetAt: expect.any(String) });
    expect(Date.parse(body.resetAt)).toBeGreaterThan(START_MS);
    const refused = await api(mock, '/api/v2/content?limit=1', org.access_token);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await api(mock, '/api/v2/content?limit=1', provider.access_token)).status).toBe(200);
  });

  test('the default remaining is 0', async ({ mock }) => {
    const { access_token } = await getToken(mock);
    expect((await control(mock, '/rate-limit', { clientId: ORG.id })).status).toBe(200);
    expect((await api(mock, '/api/v2/content?limit=1', access_token)).status).toBe(429);
  });

  test('remaining 2: two more requests pass, counting down, then a 429; the budget comes back after the period', async ({ mock }) => {
    const { access_token } = await getToken(mock);
    expect((await control(mock, '/rate-limit', { clientId: ORG.id, remaining: 2 })).status).toBe(200);
    const first = await api(mock, '/api/v2/content?limit=1', access_token);
    expect(first.headers.get('x-rate-limit-remaining')).toBe('1');
    const second = await api(mock, '/api/v2/content?limit=1', access_token);
    expect(second.headers.get('x-rate-limit-remaining')).toBe('0');
    expect((await api(mock, '/api/v2/content?limit=1', access_token)).status).toBe(429);
    // The budget comes back when the period (200/1m) has passed.
    await control(mock, '/clock', { advanceSeconds: 60 });
    expect((await api(mock, '/api/v2/content?limit=1', access_token)).status).toBe(200);
  });

  for (const { body, status, parameter } of [
    { body: {}, status: 400, parameter: 'clientId' },
    { body: { clientId: ORG.id, remaining: -1 }, status: 400, parameter: 'remaining' },
    { body: { clientId: ORG.id, remaining: 1.5 }, status: 400, parameter: 'remaining' },
    { body: { clientId: 'nobody' }, status: 404 },
  ]) {
    test(`${JSON.stringify(body)}: ${status}`, async ({ mock }) => {
      const res = await control(mock, '/rate-limit', body);
      expect(res.status).toBe(status);
      const error = (await json(res)).errors[0];
      if (parameter) expect(error.source).toEqual({ parameter });
    });
  }
});

test.describe('rate-limit windows', () => {
  for (const window of ['clock-aligned', 'sliding'] as const) {
    test.describe(window, () => {
      test.use({ mockOptions: { profile: profiled({ extends: 'strict', rateLimit: { window } }) } });
      test('remaining 1: one request passes, the next is a 429 with Retry-After', async ({ mock }) => {
        const { access_token } = await getToken(mock);
        expect((await control(mock, '/rate-limit', { clientId: ORG.id, remaining: 1 })).status).toBe(200);
        expect((await api(mock, '/api/v2/content?limit=1', access_token)).status).toBe(200);
        const refused = await api(mock, '/api/v2/content?limit=1', access_token);
        expect(refused.status).toBe(429);
        expect(refused.headers.get('retry-after')).not.toBeNull();
        await control(mock, '/clock', { advanceSeconds: 60 });
        expect((await api(mock, '/api/v2/content?limit=1', access_token)).status).toBe(200);
      });
    });
  }
});

test.describe('tokens/expire: a token expired now', () => {
  test('by clientId: every access token of that client answers 401, its refresh token still refreshes; other clients keep theirs', async ({ mock }) => {
    const first = await getToken(mock);
    const second = await getToken(mock);
    const provider = await getToken(mock, 'content:read', { id: 'mock-provider-client', secret: 'mock-provider-secret' });
    const res = await control(mock, '/tokens/expire', { clientId: ORG.id });
    expect(await json(res)).toEqual({ clientId: ORG.id, expired: 2 });
    for (const token of [first, second]) {
      const refused = await api(mock, '/api/v2/content?limit=1', token.access_token);
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer/);
    }
    expect((await api(mock, '/api/v2/content?limit=1', provider.access_token)).status).toBe(200);
    const refreshed = await postToken(mock, { grant_type: 'refresh_token', client_id: ORG.id, client_secret: ORG.secret, refresh_token: first.refresh_token });
    expect(refreshed.status).toBe(200);
  });

  test('by token: that one answers 401, the others of the client still work; the answer does not repeat the token', async ({ mock }) => {
    const first = await getToken(mock);
    const second = await getToken(mock);
    const res = await control(mock, '/tokens/expire', { token: first.access_token });
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ expired: 1 });
    expect(text).not.toContain(first.access_token);
    expect((await api(mock, '/api/v2/content?limit=1', first.access_token)).status).toBe(401);
    expect((await api(mock, '/api/v2/content?limit=1', second.access_token)).status).toBe(200);
    expect(await json(await control(mock, '/tokens/expire', { token: first.access_token }))).toEqual({ expired: 0 });
  });

  for (const { body, status } of [
    { body: {}, status: 400 },
    { body: { clientId: ORG.id, token: 'x' }, status: 400 },
    { body: { token: 5 }, status: 400 },
    { body: { clientId: 'nobody' }, status: 404 },
  ]) {
    test(`${JSON.stringify(body)}: ${status}`, async ({ mock }) => {
      expect((await control(mock, '/tokens/expire', body)).status).toBe(status);
    });
  }
});

test.describe('snapshots/expire: a snapshot obsolete now', () => {
  const firstPage = async (mock: Parameters<Parameters<typeof test>[2]>[0]['mock'], token: string) =>
    (await json(await api(mock, '/api/v2/content?limit=2', token))).links.next as string;

  test('all (empty body): the next request with next gets the obsolete-snapshot error (410)', async ({ mock }) => {
    const { access_token } = await getToken(mock);
    const next = await firstPage(mock, access_token);
    const other = await firstPage(mock, access_token);
    // No body at all is the same as {}.
    const res = await fetch(`${mock.controlUrl}/snapshots/expire`, { method: 'POST' });
    expect(await json(res)).toEqual({ expired: 2 });
    for (const url of [next, other]) {
      const gone = await fetch(url, { headers: { authorization: `Bearer ${access_token}` } });
      expect(gone.status).toBe(410);
      expect((await json(gone)).errors[0]).toMatchObject({ status: 410, source: { parameter: 'next' } });
    }
    expect(mock.stats().snapshots).toBe(0);
  });

  test('one by its next value: only that snapshot is obsolete', async ({ mock }) => {
    const { access_token } = await getToken(mock);
    const next = await firstPage(mock, access_token);
    const other = await firstPage(mock, access_token);
    const cursor = new URL(next).searchParams.get('next');
    expect(await json(await control(mock, '/snapshots/expire', { next: cursor }))).toEqual({ expired: 1 });
    expect((await fetch(next, { headers: { authorization: `Bearer ${access_token}` } })).status).toBe(410);
    expect((await fetch(other, { headers: { authorization: `Bearer ${access_token}` } })).status).toBe(200);
    expect(await json(await control(mock, '/snapshots/expire', { next: 'not-a-cursor' }))).toEqual({ expired: 0 });
  });

  test('next that is not a string: 400 naming next', async ({ mock }) => {
    const res = await control(mock, '/snapshots/expire', { next: 7 });
    expect(res.status).toBe(400);
    expect((await json(res)).errors[0].source).toEqual({ parameter: 'next' });
  });
});

test.describe('control: false (--no-control)', () => {
  test.use({ mockOptions: { control: false } });
  test('the control plane is gone: 404, and controlUrl is undefined', async ({ mock }) => {
    expect(mock.controlUrl).toBeUndefined();
    for (const [method, path] of [
      ['GET', '/_mock/clock'],
      ['POST', '/_mock/reset'],
      ['GET', '/_mock/openapi.json'],
      ['POST', '/_mock/rate-limit'],
      ['POST', '/_mock/tokens/expire'],
      ['POST', '/_mock/snapshots/expire'],
    ]) {
      expect((await fetch(`${mock.baseUrl}${path}`, { method })).status).toBe(404);
    }
  });
});
