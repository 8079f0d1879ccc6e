/**
 * Document, Endpoints 4 "List users": the endpoint exists and, like every list, answers with the list
 * envelope of resource objects (contract). Its fields, `type` and scopes are not shown: the reference
 * notes' `type` users is a platform rule (judged on every users page, fixtures/response-rules.ts).
 */
import { checks, expect, test } from './fixtures/index.ts';
import { walk } from './fixtures/pages.ts';

test.describe('a users page', checks(['users.list', 'envelope.shape', 'platform.users-shape'], { needs: ['users-scope'] }), () => {
  test('is a list envelope of resource objects', async ({ api, verdict }) => {
    const response = await api.list('listUsers', { limit: 20 });
    expect(response).toHaveStatus(200);
    verdict.checked('users.list');
  });

  test('continues with its newest next like every list', checks('snapshot.next', 'snapshot.traversal'), async ({ api }) => {
    const first = await api.list('listUsers', { limit: 2 });
    expect(first).toHaveStatus(200);
    const next = (first.body as { links?: { next?: unknown } } | undefined)?.links?.next;
    test.skip(typeof next !== 'string' || next === '', 'The first users page of two was the last: nothing to continue.');
    await walk(api, api.url('listUsers', { limit: 2 }), { maxPages: 500 });
  });
});
