/**
 * Error bodies in every shape a profile may choose (errors.body for the api origin, tokens.errorBody
 * for the auth origin), over HTTP: the endpoints' refusals, the routers' and node's raw ones.
 */
import type { ApiErrorBodyShape, TokenErrorBodyShape } from '../../schemas/types.ts';
import { api, expect, getToken, json, postToken, profiled, test } from './http-fixtures.ts';

const API_SHAPES: Record<ApiErrorBodyShape, { type: RegExp; unauthorized: (text: string) => void; invalidLimit: (text: string) => void }> = {
  'errors-array': {
    type: /^application\/json/,
    unauthorized: (t) =>
      expect(JSON.parse(t).errors[0]).toMatchObject({ status: 401, code: 'unauthorized', title: expect.any(String), detail: expect.any(String) }),
    invalidLimit: (t) => expect(JSON.parse(t).errors[0]).toMatchObject({ status: 400, source: { parameter: 'limit' } }),
  },
  rfc6750: {
    type: /^application\/json/,
    unauthorized: (t) => expect(JSON.parse(t)).toEqual({ error: 'invalid_token', error_description: expect.stringMatching(/Authorization header/) }),
    invalidLimit: (t) => expect(JSON.parse(t)).toEqual({ error: 'invalid_request', error_description: expect.stringMatching(/^limit must be/) }),
  },
  'problem-json': {
    type: /^application\/problem\+json/,
    unauthorized: (t) => expect(JSON.parse(t)).toEqual({ type: 'about:blank', title: 'Unauthorized', status: 401, detail: expect.any(String) }),
    invalidLimit: (t) => expect(JSON.parse(t)).toMatchObject({ status: 400, detail: expect.stringMatching(/^limit must be/) }),
  },
  'aspnet-validation': {
    type: /^application\/problem\+json/,
    unauthorized: (t) => expect(JSON.parse(t)).toMatchObject({ title: 'Unauthorized', status: 401 }),
    invalidLimit: (t) =>
      expect(JSON.parse(t)).toEqual({
        type: 'https://tools.ietf.org/html/rfc9110#section-15.5.1',
        title: 'One or more validation errors occurred.',
        status: 400,
        errors: { limit: [expect.stringMatching(/^limit must be/)] },
      }),
  },
  empty: { type: /^$/, unauthorized: (t) => expect(t).toBe(''), invalidLimit: (t) => expect(t).toBe('') },
  text: {
    type: /^text\/plain/,
    unauthorized: (t) => expect(t).toMatch(/^The request has no Authorization header/),
    invalidLimit: (t) => expect(t).toMatch(/^limit must be an integer/),
  },
  html: {
    type: /^text\/html/,
    unauthorized: (t) => expect(t).toMatch(/<h1>401 Unauthorized<\/h1>/),
    invalidLimit: (t) => expect(t).toMatch(/<title>400 Bad Request/),
  },
};

for (const [shape, check] of Object.entries(API_SHAPES) as Array<[ApiErrorBodyShape, (typeof API_SHAPES)[ApiErrorBodyShape]]>) {
  test.describe(`errors.body ${shape}`, () => {
    test.use({ mockOptions: { profile: profiled({ errors: { body: shape } }) } });
    test('a missing token, a bad limit and an unknown path', async ({ mock }) => {
      const unauthorized = await api(mock, '/api/v2/content');
      expect(unauthorized.status).toBe(401);
      expect(unauthorized.headers.get('content-type') ?? '').toMatch(check.type);
      check.unauthorized(await unauthorized.text());
      const invalid = await api(mock, '/api/v2/content?limit=0', (await getToken(mock)).access_token);
      expect(invalid.status).toBe(400);
      check.invalidLimit(await invalid.text());
      const unknown = await api(mock, '/nope');
      expect(unknown.status).toBe(404);
      expect(unknown.headers.get('content-type') ?? '').toMatch(check.type);
      // The control plane is the mock's own interface: its errors keep the platform's shape.
      const control = await fetch(`${mock.controlUrl}/clock`, { method: 'POST', body: '{}' });
      expect((await json(control)).errors[0].status).toBe(400);
    });
  });
}

const TOKEN_SHAPES: Record<TokenErrorBodyShape, (res: Response) => Promise<void>> = {
  oauth: async (res) => expect(await json(res)).toEqual({ error: 'invalid_client', error_description: expect.any(String) }),
  'errors-array': async (res) =>
    expect((await json(res)).errors[0]).toMatchObject({ status: 403, code: 'invalid_client', title: 'Client authentication failed.' }),
  'problem-json': async (res) => {
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await json(res)).toMatchObject({ title: 'Forbidden', status: 403 });
  },
  empty: async (res) => expect(await res.text()).toBe(''),
  text: async (res) => expect(await res.text()).toBe('Client authentication failed: unknown client_id or wrong client_secret.'),
  html: async (res) => expect(await res.text()).toMatch(/<h1>403 Forbidden<\/h1>/),
};

for (const [shape, check] of Object.entries(TOKEN_SHAPES) as Array<[TokenErrorBodyShape, (res: Response) => Promise<void>]>) {
  test.describe(`tokens.errorBody ${shape}`, () => {
    test.use({ mockOptions: { profile: profiled({ tokens: { errorBody: shape } }) } });
    test('a wrong secret', async ({ mock }) => {
      const res = await postToken(mock, { grant_type: 'client_credentials', client_id: 'mock-org-client', client_secret: 'guess', scope: 'content:read' });
      expect(res.status).toBe(403);
      await check(res);
    });
  });
}
