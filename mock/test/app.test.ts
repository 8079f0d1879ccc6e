/** The app factory and router (mock/app.ts): routes, error shapes, limits, logging, lifecycle. */
import { connect } from 'node:net';
import { expect as plainExpect, test as plainTest } from '@playwright/test';
import { createMock, type MockServer } from '../app.ts';
import { BUILT_IN_PROFILES } from '../profile.ts';
import { api, expect, getToken, json, postToken, profiled, test } from './http-fixtures.ts';

/** Sends raw bytes and returns the raw answer: for requests fetch refuses to make. */
function raw(url: string, request: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(request));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      answer += chunk;
    });
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
    socket.setTimeout(5000, () => socket.destroy(new Error('no answer within 5 s')));
  });
}

test.describe('api origin routes', () => {
  for (const { method, path, status, allow } of [
    { method: 'POST', path: '/api/v2/content', status: 405, allow: 'GET' },
    { method: 'DELETE', path: '/api/v2/users', status: 405, allow: 'GET' },
    { method: 'PUT', path: '/oauth/token', status: 405, allow: 'POST' },
    { method: 'GET', path: '/api/v2/content/', status: 404 },
    { method: 'GET', path: '/api/v1/content', status: 404 },
    { method: 'GET', path: '/', status: 404 },
    { method: 'GET', path: '/api/v2/%2e%2e/content', status: 404 },
  ]) {
    test(`${method} ${path}: ${status}`, async ({ mock }) => {
      const res = await api(mock, path, undefined, { method });
      expect(res.status).toBe(status);
      expect(res.headers.get('allow')).toBe(allow ?? null);
      expect((await json(res)).errors[0]).toMatchObject({
        id: expect.any(String),
        status,
        code: expect.any(String),
        title: expect.any(String),
        detail: expect.any(String),
      });
    });
  }

  test('an oversized logout body: 413 and the connection is closed', async ({ mock }) => {
    const { access_token } = await getToken(mock);
    const res = await api(mock, '/oauth/token', access_token, { method: 'POST', body: 'x'.repeat(100_000) });
    expect(res.status).toBe(413);
    expect(res.headers.get('connection')).toBe('close');
    expect((await json(res)).errors[0]).toMatchObject({ status: 413, code: 'payload-too-large' });
  });
});

test.describe('requests node:http refuses still get a JSON error body', () => {
  test('a head over the size limit: 431', async ({ mock }) => {
    const answer = await raw(mock.baseUrl, `GET /api/v2/content HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 431 /);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)).errors[0]).toMatchObject({ status: 431 });
  });
  test('garbage on the auth origin: 400 with an OAuth body', async ({ mock }) => {
    const answer = await raw(mock.authUrl, 'NOT HTTP AT ALL\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({ error: 'invalid_request' });
  });
});

test.describe('profile errors.body and tokens.errorBody empty', () => {
  test.use({ mockOptions: { profile: profiled({ errors: { body: 'empty' }, tokens: { errorBody: 'empty' } }) } });
  test('errors of both origins have an empty body, raw ones too; successes and the control plane keep theirs', async ({ mock }) => {
    const unauthorized = await api(mock, '/api/v2/content');
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get('www-authenticate')).toBe('Bearer');
    expect(await unauthorized.text()).toBe('');
    const refused = await postToken(mock, { grant_type: 'password' });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toBe('');
    const garbage = await raw(mock.authUrl, 'NOT HTTP AT ALL\r\n\r\n');
    expect(garbage).toMatch(/^HTTP\/1\.1 400 [^]*Content-Length: 0\r\n/);
    expect((await getToken(mock)).access_token).toBeTruthy();
    const control = await fetch(`${mock.controlUrl}/clock`, { method: 'POST', body: '{}' });
    expect((await json(control)).errors[0].status).toBe(400);
  });
});

test.describe('the control plane reports the profile and the valid tokens', () => {
  test.use({ mockOptions: { profile: profiled({ extends: 'lenient', name: 'mine' }), rate: { requests: 7, periodSeconds: 60, period: '1m' } } });
  test('GET /_mock/profile is the complete profile in force (its rate the rate option’s); /_mock/stats counts valid tokens', async ({ mock }) => {
    const profile = await json(await fetch(`${mock.controlUrl}/profile`));
    expect(profile).toEqual({ ...mock.profile, rateLimit: { ...mock.profile.rateLimit, rate: '7/1m' } });
    expect(profile.name).toBe('mine');
    const a = await getToken(mock);
    await getToken(mock);
    await api(mock, '/oauth/token', a.access_token, { method: 'POST' });
    const stats = await json(await fetch(`${mock.controlUrl}/stats`));
    expect(stats).toMatchObject({ accessTokens: 1, validAccessTokens: 1, refreshTokens: 2 });
    mock.clock.advance(60 * 86_400);
    expect(await json(await fetch(`${mock.controlUrl}/stats`))).toMatchObject({ validAccessTokens: 0 });
    for (const text of [JSON.stringify(profile), JSON.stringify(stats)]) expect(text).not.toMatch(/secret|access_token|mock-org/);
  });
});

test.describe('logging', () => {
  const lines: string[] = [];
  test.use({ mockOptions: { log: (line) => lines.push(line) } });
  test('one line per request: origin, method, path without query, status, ms; never a token, secret or cursor', async ({ mock }) => {
    lines.length = 0;
    const { access_token, refresh_token } = await getToken(mock);
    const first = await json(await api(mock, '/api/v2/content?limit=1', access_token));
    await fetch(first.links.next, { headers: { authorization: `Bearer ${access_token}` } });
    await api(mock, '/oauth/token', access_token, { method: 'POST', body: JSON.stringify({ refresh_token }) });
    await api(mock, '/api/v2/users\u0007?x=1');
    await expect.poll(() => lines.length).toBe(5);
    expect(lines[0]).toMatch(/^auth POST \/oauth\/token 200 \d+\.\dms$/);
    expect(lines[1]).toMatch(/^api GET \/api\/v2\/content 200 \d+\.\dms$/);
    expect(lines[3]).toMatch(/^api POST \/oauth\/token 204 /);
    expect(lines[4]).toMatch(/^api GET \/api\/v2\/users%07 404 /);
    const all = lines.join('\n');
    const cursor = new URL(first.links.next).searchParams.get('next') as string;
    for (const secret of [access_token, refresh_token, 'mock-org-secret', cursor, 'limit=']) expect(all).not.toContain(secret);
  });
});

plainTest.describe('factory', () => {
  plainTest('URLs are known once listening; close is idempotent and frees both ports', async () => {
    const mock: MockServer = createMock();
    plainExpect(() => mock.baseUrl).toThrow(/not listening yet/);
    await mock.listen();
    plainExpect(mock.authUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    plainExpect(mock.controlUrl).toBe(`${mock.baseUrl}/_mock`);
    plainExpect(mock.authUrl).not.toBe(mock.baseUrl);
    await mock.close();
    await mock.close();
    await plainExpect(fetch(mock.baseUrl)).rejects.toThrow();
  });

  plainTest('close ends every connection, a refused CONNECT that came with a body too', async () => {
    const mock = createMock();
    await mock.listen();
    const { hostname, port } = new URL(mock.baseUrl);
    // Node hands a CONNECT's socket to the mock and no longer counts it as a connection of its own.
    const socket = connect(Number(port), hostname, () =>
      socket.end('CONNECT /_mock/stats HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 119193\r\n\r\n' + 'x'.repeat(119_193)),
    );
    socket.on('error', () => undefined);
    await new Promise((resolve) => socket.once('data', resolve));
    const closed = mock.close().then(() => 'closed');
    const held = new Promise((resolve) => setTimeout(() => resolve('still open after 5 s'), 5_000));
    plainExpect(await Promise.race([closed, held])).toBe('closed');
    socket.destroy();
  });

  plainTest('a port in use: listen rejects with a sentence naming it', async () => {
    const first = createMock();
    await first.listen();
    const port = Number(new URL(first.baseUrl).port);
    const second = createMock({ apiPort: port });
    await plainExpect(second.listen()).rejects.toThrow(`Cannot listen on 127.0.0.1:${port}: the port is in use.`);
    await second.close();
    await first.close();
  });

  for (const { options, message } of [
    { options: { apiPort: 70_000 }, message: /apiPort must be an integer from 0 to 65535/ },
    { options: { items: -1 }, message: /items must be an integer/ },
    { options: { tokenTtlSeconds: 0 }, message: /tokenTtlSeconds must be an integer from 1/ },
    { options: { profile: { name: 'half' } }, message: /^profile: tokens\.badCredentialsStatus is not set/ },
    {
      options: { profile: { ...BUILT_IN_PROFILES.strict, query: { ...BUILT_IN_PROFILES.strict.query, limitMax: 0 } } },
      message: /^profile: query\.limitMax must be an integer from 1 to 10000, got 0\.$/,
    },
    { options: { clients: [] }, message: /clients: expected at least one client/ },
  ]) {
    plainTest(`bad options are refused: ${message.source}`, () => {
      plainExpect(() => createMock(options as Parameters<typeof createMock>[0])).toThrow(message);
    });
  }
});
