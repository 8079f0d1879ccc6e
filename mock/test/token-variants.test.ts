/** The token endpoint's legal variants and faults (mock/variants.ts, mock/faults.ts), one rule each. */
import { api, expect, getToken, json, ORG, postToken, test } from './http-fixtures.ts';

const CC = { grant_type: 'client_credentials', client_id: ORG.id, client_secret: ORG.secret, scope: 'content:read' };

test.describe('variants token-error-400 and token-error-401 move the two open refusals', () => {
  for (const { variant, status } of [
    { variant: 'token-error-400', status: 400 },
    { variant: 'token-error-401', status: 401 },
  ] as const) {
    test.describe(variant, () => {
      test.use({ mockOptions: { variants: [variant] } });
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

test.describe('variant expires-in-short', () => {
  test.use({ mockOptions: { variants: ['expires-in-short'], tokenTtlSeconds: 3600 } });
  test('expires_in is one second less than the lifetime', async ({ mock }) => {
    expect((await getToken(mock)).expires_in).toBe(3599);
  });
});

test.describe('faults', () => {
  const cases = [
    { fault: 'token-wrong-secret-accepted', form: { ...CC, client_secret: 'guess' }, status: 200 },
    { fault: 'token-unheld-scope-granted', form: { ...CC, scope: 'groups:read' }, status: 200 },
    { fault: 'token-unsupported-grant-accepted', form: { ...CC, grant_type: 'password' }, status: 200 },
    { fault: 'token-json-body-accepted', json: true, form: CC, status: 200 },
  ] as const;
  for (const c of cases) {
    test.describe(c.fault, () => {
      test.use({ mockOptions: { faults: [c.fault] } });
      test('the refusal becomes a token', async ({ mock }) => {
        const res =
          'json' in c
            ? await fetch(`${mock.authUrl}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(c.form) })
            : await postToken(mock, c.form);
        expect(res.status).toBe(c.status);
        expect(await json(res)).toHaveProperty('access_token');
      });
    });
  }
  test.describe('token-expires-in-string', () => {
    test.use({ mockOptions: { faults: ['token-expires-in-string'] } });
    test('expires_in is a string', async ({ mock }) => expect(typeof (await getToken(mock)).expires_in).toBe('string'));
  });
  test.describe('token-type-not-bearer', () => {
    test.use({ mockOptions: { faults: ['token-type-not-bearer'] } });
    test('token_type is not bearer', async ({ mock }) => expect((await getToken(mock)).token_type).not.toMatch(/^bearer$/i));
  });
});

test.describe('lifetime over HTTP, on the virtual clock', () => {
  test.use({ mockOptions: { tokenTtlSeconds: 3600 } });
  test('a token authenticates until its age reaches its lifetime', async ({ mock }) => {
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
