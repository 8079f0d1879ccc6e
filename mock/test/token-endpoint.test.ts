/** POST {auth}/oauth/token (mock/token-endpoint.ts): what is issued, and every refusal with its OAuth error. */
import type { MockServer } from '../app.ts';
import { api, expect, FORM, getToken, json, ORG, PROVIDER, postToken, test } from './http-fixtures.ts';

const CC = { grant_type: 'client_credentials', client_id: ORG.id, client_secret: ORG.secret, scope: 'content:read' };
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

test.describe('a token is issued', () => {
  test('200 with access_token, token_type bearer, expires_in the lifetime, refresh_token; not cacheable', async ({ mock }) => {
    const res = await postToken(mock, CC);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const body = await json(res);
    expect(body).toEqual({
      access_token: expect.stringMatching(/^[\w-]{43}$/),
      token_type: 'bearer',
      expires_in: 60 * 86_400,
      refresh_token: expect.stringMatching(/^[\w-]{43}$/),
    });
  });

  test('with HTTP Basic client authentication (RFC 6749 §2.3.1)', async ({ mock }) => {
    const res = await postToken(mock, { grant_type: 'client_credentials', scope: 'users:read' }, { authorization: basic(ORG.id, ORG.secret) });
    expect(res.status).toBe(200);
  });

  test('scopes are comma-delimited, spaces tolerated, and the token holds exactly those', async ({ mock }) => {
    const { access_token } = await getToken(mock, ' users:read , users:write');
    expect((await api(mock, '/api/v2/users?limit=1', access_token)).status).toBe(200);
    expect((await api(mock, '/api/v2/content?limit=1', access_token)).status).toBe(403);
    const spaced = await getToken(mock, 'content:read users:read');
    expect((await api(mock, '/api/v2/content?limit=1', spaced.access_token)).status).toBe(200);
  });

  test('a charset parameter on the form content type is fine', async ({ mock }) => {
    expect((await postToken(mock, CC, { 'content-type': `${FORM};charset=UTF-8` })).status).toBe(200);
  });

  test('a provider key gets its own lifetime and scopes', async ({ mock }) => {
    const body = await getToken(mock, 'content:read', PROVIDER);
    expect(body.expires_in).toBe(60 * 86_400);
  });
});

test.describe('refusals: a 4xx with an OAuth error body, never a token', () => {
  const jsonType = { 'content-type': 'application/json' };
  for (const { title, form, headers, status, error, mentions } of [
    { title: 'a JSON body', form: JSON.stringify(CC), headers: jsonType, status: 400, error: 'invalid_request', mentions: 'form-encoded' },
    {
      title: 'no content type',
      form: new URLSearchParams(CC).toString(),
      headers: { 'content-type': '' },
      status: 400,
      error: 'invalid_request',
      mentions: 'Content-Type',
    },
    {
      title: 'text/plain',
      form: new URLSearchParams(CC).toString(),
      headers: { 'content-type': 'text/plain' },
      status: 400,
      error: 'invalid_request',
      mentions: 'text/plain',
    },
    { title: 'no grant_type', form: { ...CC, grant_type: undefined }, status: 400, error: 'invalid_request', mentions: 'grant_type' },
    { title: 'grant_type password', form: { ...CC, grant_type: 'password' }, status: 400, error: 'unsupported_grant_type', mentions: 'password' },
    { title: 'no client_id', form: { ...CC, client_id: undefined }, status: 400, error: 'invalid_request', mentions: 'client_id' },
    { title: 'no client_secret', form: { ...CC, client_secret: undefined }, status: 400, error: 'invalid_request', mentions: 'client_secret' },
    { title: 'no scope', form: { ...CC, scope: undefined }, status: 400, error: 'invalid_request', mentions: 'scope' },
    { title: 'an empty scope', form: { ...CC, scope: ' , ' }, status: 400, error: 'invalid_request', mentions: 'scope' },
    { title: 'a repeated parameter', form: `${new URLSearchParams(CC)}&scope=users:read`, status: 400, error: 'invalid_request', mentions: 'scope' },
    { title: 'an unknown client', form: { ...CC, client_id: 'nobody' }, status: 403, error: 'invalid_client', mentions: 'authentication' },
    { title: 'a wrong secret', form: { ...CC, client_secret: 'guess' }, status: 403, error: 'invalid_client', mentions: 'authentication' },
    {
      title: 'a scope the key does not hold',
      form: { ...CC, scope: 'content:read,groups:read' },
      status: 403,
      error: 'invalid_scope',
      mentions: 'groups:read',
    },
    {
      title: 'credentials both in Basic and in the form',
      form: CC,
      headers: { authorization: basic(ORG.id, ORG.secret) },
      status: 400,
      error: 'invalid_request',
      mentions: 'both',
    },
    {
      title: 'a malformed Basic header',
      form: { grant_type: 'client_credentials', scope: 'content:read' },
      headers: { authorization: 'Basic !!!' },
      status: 400,
      error: 'invalid_request',
      mentions: 'Basic',
    },
    {
      title: 'a wrong secret by Basic',
      form: { grant_type: 'client_credentials', scope: 'content:read' },
      headers: { authorization: basic(ORG.id, 'guess') },
      status: 403,
      error: 'invalid_client',
      mentions: 'authentication',
    },
  ] as Array<{
    title: string;
    form: Record<string, string | undefined> | string;
    headers?: Record<string, string>;
    status: number;
    error: string;
    mentions: string;
  }>) {
    test(title, async ({ mock }) => {
      const body = typeof form === 'string' ? form : Object.fromEntries(Object.entries(form).filter((e): e is [string, string] => e[1] !== undefined));
      const res = await postToken(mock, body, headers);
      const answer = await json(res);
      expect(res.status, JSON.stringify(answer)).toBe(status);
      expect(answer).toEqual({ error, error_description: expect.stringContaining(mentions) });
      expect(JSON.stringify(answer)).not.toContain(ORG.secret);
    });
  }

  test('GET and other paths on the auth origin: 405 with Allow, 404', async ({ mock }) => {
    const get = await fetch(`${mock.authUrl}/oauth/token`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect(await json(get)).toMatchObject({ error: 'invalid_request' });
    const other = await fetch(`${mock.authUrl}/api/v2/content`);
    expect(other.status).toBe(404);
    expect(await json(other)).toMatchObject({ error: 'invalid_request' });
  });

  test('an oversized body: 413', async ({ mock }) => {
    const res = await postToken(mock, `${new URLSearchParams(CC)}&pad=${'x'.repeat(70_000)}`);
    expect(res.status).toBe(413);
    expect(await json(res)).toMatchObject({ error: 'invalid_request', error_description: expect.stringContaining('larger than') });
  });
});

test.describe('refresh_token grant', () => {
  const refresh = (mock: MockServer, refresh_token: string, client: { id: string; secret: string } = ORG, extra: Record<string, string> = {}) =>
    postToken(mock, { grant_type: 'refresh_token', refresh_token, client_id: client.id, client_secret: client.secret, ...extra });

  test('a refresh token gives a new pair with the same scopes, once', async ({ mock }) => {
    const first = await getToken(mock, 'users:read');
    const res = await refresh(mock, first.refresh_token);
    expect(res.status).toBe(200);
    const second = await json(res);
    expect(second.access_token).not.toBe(first.access_token);
    expect((await api(mock, '/api/v2/users?limit=1', second.access_token)).status).toBe(200);
    expect((await api(mock, '/api/v2/content?limit=1', second.access_token)).status).toBe(403);
    const again = await refresh(mock, first.refresh_token);
    expect(again.status).toBe(400);
    expect(await json(again)).toMatchObject({ error: 'invalid_grant' });
  });

  test('another client’s refresh token: 400 invalid_grant', async ({ mock }) => {
    const { refresh_token } = await getToken(mock, 'content:read', PROVIDER);
    const res = await refresh(mock, refresh_token, ORG);
    expect(res.status).toBe(400);
    expect(await json(res)).toMatchObject({ error: 'invalid_grant' });
  });

  test('a refresh may narrow the scopes but not widen them', async ({ mock }) => {
    const { refresh_token } = await getToken(mock, 'content:read');
    const wider = await refresh(mock, refresh_token, ORG, { scope: 'content:read,users:read' });
    expect(wider.status).toBe(403);
    expect(await json(wider)).toMatchObject({ error: 'invalid_scope' });
    expect((await refresh(mock, refresh_token, ORG, { scope: 'content:read' })).status).toBe(200);
  });

  test('no refresh_token: 400 invalid_request naming it', async ({ mock }) => {
    const res = await postToken(mock, { grant_type: 'refresh_token', client_id: ORG.id, client_secret: ORG.secret });
    expect(await json(res)).toEqual({ error: 'invalid_request', error_description: expect.stringContaining('refresh_token') });
  });
});
