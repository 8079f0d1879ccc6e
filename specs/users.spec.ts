/**
 * Document, Endpoints 4 "List users": the endpoint exists; its body is not shown. The list envelope
 * is the document's for every list; `type` `users` and the scope come from the reference notes
 * (which scope: see scopes.spec.ts, built from contracts/endpoints.ts).
 */
import { validateUsersList } from '../schemas/index.ts';
import { expect, test } from './fixtures/index.ts';
import { pageOf } from './fixtures/pages.ts';

test.describe('a users page', () => {
  test('is valid against the envelope and users schemas', async ({ api, target }) => {
    test.skip(!target.client.scopes.some((s) => s.startsWith('users:')), 'The key holds no users scope (LP_SCOPES).');
    const response = await api.list('listUsers', { limit: 20 });
    expect(response).toHaveStatus(200);
    expect(response.body).toMatchSchema(validateUsersList, { request: response.request });
  });

  test('holds resource objects of type users', async ({ api, target }) => {
    test.skip(!target.client.scopes.some((s) => s.startsWith('users:')), 'The key holds no users scope (LP_SCOPES).');
    const { data } = pageOf(await api.list('listUsers', { limit: 20 }));
    const types = [...new Set(data.map((item) => (item as { type?: unknown }).type))];
    expect(
      types.filter((type) => type !== 'users'),
      'types other than "users"',
    ).toEqual([]);
  });
});
