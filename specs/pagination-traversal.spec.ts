/**
 * Walks checked page by page by the rules of the walk; the document promises neither full pages before the last nor an order, so neither is asserted. The full
 * data set comes from an unfiltered walk (the oracle): against a live service a difference counts only if the data set is unchanged afterwards.
 */
import { walkPageBound } from '../contracts/pagination.ts';
import { type Oracle, takeOracle, unchangedSince } from '../harness/walks/filter-oracle.ts';
import { checks, test, type Verdict } from './fixtures/index.ts';
import { expectTraversal, servedLimit, walkList } from '../harness/walks/list-walk.ts';

/** Walks of several pages need a few items, and walks of the whole set a data set the oracle could walk. */
function skipUnlessWalkable(oracle: Oracle): void {
  const why = 'The data set is larger than the oracle walks (5 pages of 1000): walking it whole at several limits would spend too much of the budget.';
  test.skip(!oracle.complete, why);
  test.skip(oracle.items.size < 3, `The target holds ${oracle.items.size} content item(s): no walk of several pages.`);
}

const sortedIds = (items: ReadonlyMap<string, unknown>) => [...items.keys()].sort();

test.describe('following the newest next value', () => {
  test(
    'each page gives a next unlike the one before, and the walk yields every item exactly once',
    checks('snapshot.next', 'snapshot.traversal'),
    async ({ api, verdict }) => {
      const oracle = await takeOracle(api);
      skipUnlessWalkable(oracle);
      const limit = await servedLimit(api, Math.ceil(oracle.items.size / 4));
      const walked = await walkList(api, api.url('listContent', { limit }), { limit, maxPages: walkPageBound(oracle.items.size, limit) });
      expectTraversal(walked);
      if (sortedIds(walked.items).join() !== sortedIds(oracle.items).join())
        test.skip(!(await unchangedSince(api, oracle)), 'The data set changed during the test (a live service): nothing to compare.');
      judgeSameIds(verdict, sortedIds(walked.items), sortedIds(oracle.items), limit);
    },
  );
});

test.describe('walks over unchanged data', () => {
  test('in pages of different sizes yield the same set', checks('snapshot.traversal', 'content.limit'), async ({ api, verdict }) => {
    const oracle = await takeOracle(api);
    skipUnlessWalkable(oracle);
    const n = oracle.items.size;
    // Half the set and a sixth (or the largest sizes below them the target serves): pages of three sizes with the oracle's.
    const walks = [];
    for (const limit of [await servedLimit(api, Math.ceil(n / 2)), await servedLimit(api, Math.ceil(n / 6))]) {
      const walked = await walkList(api, api.url('listContent', { limit }), { limit, maxPages: walkPageBound(n, limit) });
      expectTraversal(walked, `the walk in pages of ${limit}`);
      walks.push({ limit, ids: sortedIds(walked.items) });
    }
    if (walks.some((w) => w.ids.join() !== sortedIds(oracle.items).join()))
      test.skip(!(await unchangedSince(api, oracle)), 'The data set changed during the test (a live service): nothing to compare.');
    for (const { limit, ids } of walks) judgeSameIds(verdict, ids, sortedIds(oracle.items), limit);
  });
});

/** snapshot.traversal: a walk in pages of `limit` yields the items of the oracle's walk, each once. */
function judgeSameIds(verdict: Verdict, ids: readonly string[], expected: readonly string[], limit: number): void {
  const missing = expected.filter((id) => !ids.includes(id));
  const extra = ids.filter((id) => !expected.includes(id));
  verdict.contract(
    'snapshot.traversal',
    ids.join() === expected.join(),
    () =>
      `expected the walk in pages of ${limit} to yield the ${expected.length} items of the unfiltered walk, got ${ids.length}` +
      `${missing.length > 0 ? `; missing ${missing.slice(0, 5).join(', ')}` : ''}${extra.length > 0 ? `; not in it ${extra.slice(0, 5).join(', ')}` : ''}`,
  );
}
