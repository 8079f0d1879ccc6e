/** The /_mock control plane (mock/control.ts): clock, reset, content changes, validation, --no-control. */
import { api, control, expect, getToken, json, START_MS, test } from './http-fixtures.ts';

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

test.describe('control: false (--no-control)', () => {
  test.use({ mockOptions: { control: false } });
  test('the control plane is gone: 404, and controlUrl is undefined', async ({ mock }) => {
    expect(mock.controlUrl).toBeUndefined();
    for (const [method, path] of [
      ['GET', '/_mock/clock'],
      ['POST', '/_mock/reset'],
    ]) {
      expect((await fetch(`${mock.baseUrl}${path}`, { method })).status).toBe(404);
    }
  });
});
