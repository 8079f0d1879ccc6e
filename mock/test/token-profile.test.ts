/** The token endpoint under each of the profile's tokens options (and rateLimit.countsTokenRequests), over HTTP. */
import { api, expect, getToken, json, ORG, postToken, profiled, test } from './http-fixtures.ts';

const CC = { grant_type: 'client_credentials', client_id: ORG.id, client_secret: ORG.secret, scope: 'content:read' };

test.describe('tokens.badCredentialsStatus and tokens.unheldScopeStatus', () => {
  for (const status of [400, 401] as const) {
    test.describe(`${status}`, () => {
      test.use({ mockOptions: { profile: profiled({ tokens: { badCredentialsStatus: status, unheldScopeStatus: status } }) } });
      test(`wrong secret and unheld scope: ${status}`, async ({ mock }) => {
        const wrong = await postToken(mock, { ...CC, client_secret: 'guess' });
        expect(wrong.status).toBe(status);
        expect(await json(wrong)).toMatchObject({ error: 'invalid_client' });
        if (status === 401) expect(wrong.headers.get('www-authenticate')).toMatch(/^Basic/);
        const unheld = await postToken(mock, { ...CC, scope: 'groups:read' });
        expect(unheld.status).toBe(status);
        expect(await json(unheld)).toMatchObject({ error: 'invalid_scope' });
      });
    });
  }
});

test.describe('tokens.acceptJsonBody', () => {
  test.use({ mockOptions: { profile: profiled({ tokens: { acceptJsonBody: true } }) } });
  test('a JSON body of the same fields gets a token; a JSON body that is no object, or a field that is no string, is refused', async ({ mock }) => {
    const post = (body: string) => fetch(`${mock.authUrl}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const res = await post(JSON.stringify(CC));
    expect(res.status).toBe(200);
    expect(await json(res)).toHaveProperty('access_token');
    expect(await json(await post('[]'))).toMatchObject({ error: 'invalid_request' });
    expect((await json(await post(JSON.stringify({ ...CC, scope: ['content:read'] })))).error_description).toBe('scope must be a string.');
    expect((await postToken(mock, CC)).status).toBe(200);
  });
});

test.describe('tokens.mislabelledForm read-as-form', () => {
  test.use({ mockOptions: { profile: profiled({ tokens: { mislabelledForm: 'read-as-form' } }) } });
  test('a form body labelled application/json gets a token; a real JSON body is still refused without acceptJsonBody', async ({ mock }) => {
    const post = (body: string) => fetch(`${mock.authUrl}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const res = await post(new URLSearchParams(CC).toString());
    expect(res.status).toBe(200);
    expect(await json(res)).toHaveProperty('access_token');
    expect((await json(await post(JSON.stringify(CC)))).error_description).toMatch(/must be form-encoded/);
  });
});

test('strict refuses a form body labelled application/json', async ({ mock }) => {
  const res = await fetch(`${mock.authUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: new URLSearchParams(CC).toString(),
  });
  expect(res.status).toBe(400);
});

test('strict refuses a JSON body', async ({ mock }) => {
  const res = await fetch(`${mock.authUrl}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(CC) });
  expect(res.status).toBe(400);
  expect((await json(res)).error_description).toMatch(/must be form-encoded/);
});

test.describe('tokens.scopeSeparators comma', () => {
  test.use({ mockOptions: { profile: profiled({ tokens: { scopeSeparators: 'comma' } }) } });
  test('commas separate (spaces around them are trimmed); a space-separated list is one scope nobody holds', async ({ mock }) => {
    expect((await postToken(mock, { ...CC, scope: 'content:read, users:read' })).status).toBe(200);
    const spaced = await postToken(mock, { ...CC, scope: 'content:read users:read' });
    expect(spaced.status).toBe(403);
    expect((await json(spaced)).error).toBe('invalid_scope');
  });
});

test.describe('tokens.expiresIn countdown', () => {
  test.use({ mockOptions: { profile: profiled({ tokens: { expiresIn: 'countdown' } }), tokenTtlSeconds: 3600 } });
  test('a fresh token says one second less than the lifetime', async ({ mock }) => {
    expect((await getToken(mock)).expires_in).toBe(3599);
  });
});

test.describe('tokens.reuse live-token', () => {
  test.use({ mockOptions: { profile: profiled({ tokens: { reuse: 'live-token' } }), tokenTtlSeconds: 3600 } });
  test('the same scope set gets the live token back, counting down; other scopes, a logout or the end of its life get a new one', async ({ mock }) => {
    const first = await getToken(mock, 'content:read,users:read');
    expect(first.expires_in).toBe(3600);
    mock.clock.advance(100.5);
    const again = await getToken(mock, 'users:read content:read');
    expect(again.access_token).toBe(first.access_token);
    expect(again.expires_in).toBe(3600 - 1 - 100);
    expect((await getToken(mock, 'content:read')).access_token).not.toBe(first.access_token);
    // One logout ends it for every holder.
    expect((await api(mock, '/oauth/token', first.access_token, { method: 'POST' })).status).toBe(204);
    const after = await getToken(mock, 'content:read,users:read');
    expect(after.access_token).not.toBe(first.access_token);
    expect(after.expires_in).toBe(3600);
    mock.clock.advance(3599.5);
    expect((await getToken(mock, 'content:read,users:read')).access_token).not.toBe(after.access_token);
  });

  test('a reused token comes with a refresh token that works, a fresh one once the first was used', async ({ mock }) => {
    const first = await getToken(mock);
    const refreshed = await postToken(mock, { grant_type: 'refresh_token', refresh_token: first.refresh_token, client_id: ORG.id, client_secret: ORG.secret });
    expect(refreshed.status).toBe(200);
    const again = await getToken(mock);
    // The refresh issued a newer token for the same scopes: that one comes back now.
    expect(again.access_token).toBe((await json(refreshed)).access_token);
  });
});

test.describe('tokens.refreshGrant false', () => {
  test.use({ mockOptions: { profile: profiled({ tokens: { refreshGrant: false } }) } });
  test('grant_type=refresh_token is an unsupported grant type', async ({ mock }) => {
    const { refresh_token } = await getToken(mock);
    const res = await postToken(mock, { grant_type: 'refresh_token', refresh_token, client_id: ORG.id, client_secret: ORG.secret });
    expect(res.status).toBe(400);
    expect(await json(res)).toEqual({
      error: 'unsupported_grant_type',
      error_description: 'grant_type "refresh_token" is not supported; use client_credentials.',
    });
  });
});

test.describe('tokens.tokenType Bearer', () => {
  test.use({ mockOptions: { profile: profiled({ tokens: { tokenType: 'Bearer' } }) } });
  test('token_type is written Bearer', async ({ mock }) => expect((await getToken(mock)).token_type).toBe('Bearer'));
});

test.describe('rateLimit.countsTokenRequests', () => {
  test.use({ mockOptions: { profile: profiled({ rateLimit: { countsTokenRequests: true } }), rate: { requests: 3, periodSeconds: 60, period: '1m' } } });
  test('token requests spend the client’s budget, carry the headers, and get 429 with Retry-After when it is spent', async ({ mock }) => {
    const first = await postToken(mock, CC);
    expect(first.headers.get('x-rate-limit-remaining')).toBe('2');
    const { access_token } = await json(first);
    expect((await api(mock, '/api/v2/content?limit=1', access_token)).headers.get('x-rate-limit-remaining')).toBe('1');
    // A refused scope is the client's request too.
    expect((await postToken(mock, { ...CC, scope: 'groups:read' })).headers.get('x-rate-limit-remaining')).toBe('0');
    const refused = await postToken(mock, CC);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('60');
    expect(await json(refused)).toMatchObject({ error: 'invalid_request', error_description: expect.stringMatching(/token requests included/) });
    // Wrong credentials name no client whose budget they could spend.
    expect((await postToken(mock, { ...CC, client_secret: 'guess' })).status).toBe(403);
  });
});

test.describe('tokens.requestLimit', () => {
  test.use({ mockOptions: { profile: profiled({ tokens: { requestLimit: '2/10s' } }) } });
  test('every token request of a client_id counts; past the limit, 429 with Retry-After until the period ends; then tokens again', async ({ mock }) => {
    expect((await postToken(mock, CC)).status).toBe(200);
    // A refusal counts too: the limit is on requests, not on tokens.
    expect((await postToken(mock, { ...CC, scope: 'groups:read' })).status).toBe(403);
    const refused = await postToken(mock, CC);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('10');
    expect(await json(refused)).toMatchObject({ error_description: expect.stringMatching(/^Too many token requests for this client_id \(2 per 10s\)/) });
    mock.clock.advance(10);
    expect((await postToken(mock, CC)).status).toBe(200);
  });

  test('a control-plane reset keeps the count, as a real token endpoint keeps it whatever a test does to the data', async ({ mock }) => {
    await postToken(mock, CC);
    await postToken(mock, CC);
    await fetch(`${mock.controlUrl}/reset`, { method: 'POST' });
    expect((await postToken(mock, CC)).status).toBe(429);
    // A window opened on a clock moved forward ends when the reset puts the clock back.
    mock.clock.advance(3600);
    await postToken(mock, CC);
    await postToken(mock, CC);
    mock.reset();
    expect((await postToken(mock, CC)).status).toBe(200);
  });
});

test.describe('tokens.lifetime', () => {
  test.use({ mockOptions: { profile: profiled({ tokens: { lifetime: '365d' } }) } });
  test('expires_in is the profile’s lifetime, and GET /_mock/profile says it', async ({ mock }) => {
    expect((await getToken(mock)).expires_in).toBe(365 * 86_400);
    expect((await json(await fetch(`${mock.controlUrl}/profile`))).tokens).toMatchObject({ lifetime: '365d' });
  });
});

test.describe('lifetime over HTTP, on the virtual clock', () => {
  test.use({ mockOptions: { tokenTtlSeconds: 3600 } });
  test('a token authenticates until its age reaches its lifetime; tokenTtlSeconds is the profile’s lifetime in force', async ({ mock }) => {
    expect(mock.profile.tokens.lifetime).toBe('1h');
    const { access_token } = await getToken(mock);
    mock.clock.advance(3599.999);
    expect((await api(mock, '/api/v2/content?limit=1', access_token)).status).toBe(200);
    mock.clock.advance(0.001);
    const res = await api(mock, '/api/v2/content?limit=1', access_token);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
  });
});

test.describe('a per-key token lifetime from the clients list', () => {
  test.use({ mockOptions: { clients: [{ id: 'short', secret: 's', scopes: ['content:read'], tokenTtl: '1h' }] } });
  test('expires_in is the key’s lifetime', async ({ mock }) => {
    expect((await getToken(mock, 'content:read', { id: 'short', secret: 's' })).expires_in).toBe(3600);
  });
});
