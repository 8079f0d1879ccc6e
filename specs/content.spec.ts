/**
 * Content pages: every page of every test is judged by the envelope, item and link rules where it comes; these tests ask for the pages that show them. The
 * document shows no maximum page size, so every page asked for here has a size the target serves (servedLimit).
 */
import { PAGE_LIMIT } from '../contracts/limits.ts';
import { checks, expect, test } from './fixtures/index.ts';
import { takeOracle } from '../harness/walks/filter-oracle.ts';
import { pageOf, servedLimit } from '../harness/walks/list-walk.ts';
import { describeRequest } from '../harness/client/transport.ts';

test.describe('a content page', () => {
  test(
    'is a list envelope of content items, each with every documented attribute, its type and a value it can have',
    checks(
      'envelope.shape',
      'content.type',
      'content.attributes',
      'content.timestamps',
      'platform.timestamp-fraction',
      'platform.publish-date-format',
      'platform.modified-after-created',
      'rate.headers',
    ),
    async ({ api }) => {
      expect(await api.list('listContent', { limit: await servedLimit(api, 20) })).toHaveStatus(200);
    },
  );
  test(
    'of a walk over the data set: every item’s created-at and modified-at name a day and time of the calendar',
    checks('content.timestamps'),
    async ({ api }) => {
      // The api client judges every page of the walk (the pattern and the calendar): an impossible day is found on whichever item carries it.
      await takeOracle(api);
    },
  );
  test('has unique ids', checks('snapshot.traversal'), async ({ api, verdict }) => {
    const response = await api.list('listContent', { limit: await servedLimit(api, 50) });
    const ids = pageOf(response).data.map((item) => (item as { id?: unknown }).id);
    const repeated = ids.filter((id, index) => ids.indexOf(id) !== index);
    verdict.contract(
      'snapshot.traversal',
      repeated.length === 0,
      () => `expected unique ids within the page, got ${repeated.map((id) => JSON.stringify(id)).join(', ')} repeated (${describeRequest(response.request)})`,
    );
  });
  test(
    'names this request in links.self, and the next page in links.next',
    checks('envelope.self', 'platform.self-query', 'envelope.next-link'),
    async ({ api }) => {
      const { next } = pageOf(await api.list('listContent', { limit: 1 }));
      test.skip(next === undefined, 'The first page of one item was the final page: the target has at most one item.');
    },
  );
});

/** The units of duration the platform documents; its list of content types is open ("…"), so only non-empty is asked. */
const DURATION_TYPES = ['Words', 'Seconds', 'Minutes', 'Hours', 'Days'];

test('content-type and duration-type take the values the platform documents', checks('platform.content-values'), async ({ api, verdict }) => {
  const { data } = pageOf(await api.list('listContent', { limit: await servedLimit(api, 50) }));
  const odd = (data as { id?: unknown; attributes?: Record<string, unknown> }[]).flatMap(({ id, attributes }) => {
    const [type, unit] = [attributes?.['content-type'], attributes?.['duration-type']];
    const ok = typeof type === 'string' && type !== '' && typeof unit === 'string' && DURATION_TYPES.includes(unit);
    return ok ? [] : [`${String(id)} (content-type ${JSON.stringify(type)}, duration-type ${JSON.stringify(unit)})`];
  });
  verdict.platform('platform.content-values', odd.length === 0, () => `items outside the documented values: ${odd.slice(0, 5).join(', ')}`);
});

test.describe('limit', () => {
  for (const wanted of [PAGE_LIMIT.min, 7])
    test(
      `${wanted} (or the most the target serves below it) is accepted, and the page holds at most that many items`,
      checks('content.limit'),
      async ({ api }) => {
        expect(await api.list('listContent', { limit: await servedLimit(api, wanted) })).toHaveStatus(200);
      },
    );
  test('left out gives a page of at most the platform’s default, 100', checks('platform.limit-bounds'), async ({ api, verdict }) => {
    const response = await api.list('listContent');
    expect(response).toHaveStatus(200);
    const size = pageOf(response).data.length;
    const message = `expected at most ${PAGE_LIMIT.default} items without limit, got ${size} (GET ${response.request.url})`;
    verdict.platform('platform.limit-bounds', size <= PAGE_LIMIT.default, message);
  });
  for (const limit of [String(PAGE_LIMIT.max), '0', '-1', String(PAGE_LIMIT.max + 1), 'abc'])
    test(`${limit} is answered with a 4xx or a page within the platform’s bounds`, checks('platform.limit-bounds'), async ({ api, verdict }) => {
      const response = await api.list('listContent', { limit });
      const size = response.status === 200 ? pageOf(response).data.length : 0;
      const ok = (response.status >= 400 && response.status <= 499) || (response.status === 200 && size <= PAGE_LIMIT.max);
      const message = `expected a 4xx or a page of at most ${PAGE_LIMIT.max} items, got ${response.status} with ${size} items (GET ${response.request.url})`;
      verdict.platform('platform.limit-bounds', ok, message);
    });
});
