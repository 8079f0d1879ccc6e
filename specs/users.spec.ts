/**
 * Document, Endpoints 4 "List users": the endpoint exists and, like every list, answers with the list envelope of resource objects (contract). Its fields,
 * `type`, query parameters and scopes are not shown: the reference notes' `type` users is a platform rule (judged on every users page,
 * harness/verdict/response-rules.ts), and their `limit` is asked for only where the target serves it.
 */
import { checks, expect, test } from './fixtures/index.ts';
import { expectTraversal, NOT_ABOUT_THE_QUERY, pageOf, walkList } from '../harness/walks/list-walk.ts';

test.describe('a users page', checks(['users.list', 'envelope.shape', 'platform.users-shape'], { needs: ['users-scope'] }), () => {
  test('is a list envelope of resource objects', async ({ api, verdict }) => {
    // No query: the document names none for this endpoint.
    expect(await api.list('listUsers')).toHaveStatus(200);
    verdict.checked('users.list');
  });
  test('continues with its newest next like every list', checks('snapshot.next', 'snapshot.traversal'), async ({ api }) => {
    // Pages of two where the target reads the platform's limit; its own page size where it refuses it.
    let query: { limit: number } | undefined = { limit: 2 };
    let first = await api.list('listUsers', query);
    if (first.status >= 400 && first.status <= 499 && !NOT_ABOUT_THE_QUERY.includes(first.status)) {
      query = undefined;
      first = await api.list('listUsers');
    }
    expect(first).toHaveStatus(200);
    test.skip(pageOf(first).next === undefined, 'The first users page was the last: nothing to continue.');
    expectTraversal(await walkList(api, api.url('listUsers', query), { limit: query?.limit, maxPages: 500 }));
  });
});
