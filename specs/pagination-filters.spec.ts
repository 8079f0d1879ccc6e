/**
 * Date filters: their names and meaning are the platform's (CONTENT_FILTERS), so every filter check is a platform rule; the walk itself keeps the document's
 * rules whatever its query. A filtered walk is judged against an unfiltered one (filter-oracle.ts), an item on a boundary day going either way.
 */
import { CONTENT_FILTERS, type ContentFilterName } from '../contracts/endpoints.ts';
import type { DateFilter } from '../contracts/pagination.ts';
import type { ApiClient } from '../harness/client/api.ts';
import { dayAt, expectedSets, filterProblems, type Oracle, takeOracle } from '../harness/walks/filter-oracle.ts';
import { type ApiResponse, checks, test, type Verdict } from './fixtures/index.ts';
import { expectTraversal, NOT_ABOUT_THE_QUERY, servedLimit, walkList } from '../harness/walks/list-walk.ts';

type Bounds = Partial<Record<ContentFilterName, number>>;

/** Walks the list with `filters` set to the days at these fractions of the data: the traversal is the document's, the filtering the platform's. */
async function expectFilteredWalk(api: ApiClient, verdict: Verdict, oracle: Oracle, bounds: Bounds): Promise<void> {
  const query: Record<string, string> = {};
  const filters: DateFilter[] = [];
  for (const f of CONTENT_FILTERS) {
    const fraction = bounds[f.name];
    const day = fraction === undefined ? undefined : dayAt(oracle, f.attribute, fraction);
    if (day === undefined) continue;
    query[f.name] = day;
    filters.push({ name: f.name, readings: [day] });
  }
  test.skip(filters.length === 0, 'No content item carries the timestamps to filter on.');
  // The page size only shapes the walk (about three pages of what the platform's filters keep): no
  // verdict below depends on it, so a service that ignores the filters is judged by the walk it gives.
  const limit = await servedLimit(api, Math.ceil(expectedSets(oracle, filters).lenient.size / 3));
  const walked = await walkList(api, api.url('listContent', { limit, ...query }), { limit });
  if (walked.first.status !== 200) {
    verdict.platform('platform.filters', false, `expected the filtered list, got ${walked.first.status} (GET ${walked.firstUrl})`);
    return;
  }
  expectTraversal(walked);
  const problems = await filterProblems(api, walked, oracle, filters);
  verdict.platform('platform.filters', problems.length === 0, () => `${problems.join('; ')} (the filtered walk from GET ${walked.firstUrl})`);
}

/** A refusal of the query itself: a 4xx other than those about the token or the rate. */
function judgeQueryRefused(verdict: Verdict, response: ApiResponse): void {
  const refused = response.status >= 400 && response.status <= 499 && !NOT_ABOUT_THE_QUERY.includes(response.status);
  verdict.platform('platform.query-refusals', refused, `expected a 4xx refusing the query, got ${response.status} (GET ${response.request.url})`);
}

test.describe('a date filter', () => {
  for (const { name, description } of [
    { name: 'filter[start_date]', description: 'keeps only items created from that date' },
    { name: 'filter[end_date]', description: 'keeps only items created before that date' },
    { name: 'filter[modified_after]', description: 'keeps only items modified after that date' },
    { name: 'filter[modified_before]', description: 'keeps only items modified before that date' },
  ] as const)
    test(`${name} ${description}, and all of them`, checks('platform.filters', 'snapshot.traversal'), async ({ api, verdict }) => {
      await expectFilteredWalk(api, verdict, await takeOracle(api), { [name]: 0.5 });
    });
});

test.describe('combined date filters', () => {
  for (const { title, bounds } of [
    { title: 'start_date and end_date keep the items created in the range', bounds: { 'filter[start_date]': 0.25, 'filter[end_date]': 0.75 } },
    {
      title: 'modified_after and modified_before keep the items modified in the range',
      bounds: { 'filter[modified_after]': 0.25, 'filter[modified_before]': 0.75 },
    },
    {
      title: 'all four keep the intersection',
      bounds: { 'filter[start_date]': 0.1, 'filter[end_date]': 0.9, 'filter[modified_after]': 0.2, 'filter[modified_before]': 0.95 },
    },
  ] as const)
    test(title, checks('platform.filters', 'snapshot.traversal'), async ({ api, verdict }) => {
      await expectFilteredWalk(api, verdict, await takeOracle(api), bounds);
    });
});

test.describe('an inverted range', () => {
  for (const [from, before] of [
    ['filter[start_date]', 'filter[end_date]'],
    ['filter[modified_after]', 'filter[modified_before]'],
  ] as const)
    test(`${from} after ${before} gives an empty result or a 4xx`, checks('platform.filters'), async ({ api, verdict }) => {
      const response = await api.list('listContent', { [from]: '2024-06-02', [before]: '2024-06-01' });
      const data = (response.body as { data?: unknown[] } | undefined)?.data;
      const ok = response.status === 200 ? Array.isArray(data) && data.length === 0 : response.status >= 400 && response.status <= 499;
      const message = `expected an empty page or a 4xx, got ${response.status} with ${data?.length ?? 0} items (GET ${response.request.url})`;
      verdict.platform('platform.filters', ok, message);
    });
});

test.describe('an invalid date', () => {
  for (const name of CONTENT_FILTERS.map((f) => f.name))
    test(`in ${name} is refused with a 4xx`, checks('platform.query-refusals'), async ({ api, verdict }) => {
      for (const value of ['2024-02-30', 'yesterday']) judgeQueryRefused(verdict, await api.list('listContent', { [name]: value }));
    });
});

test.describe('a provider key', () => {
  test(
    'sees, filtered, only its own provider’s items, and all of those the filter keeps',
    checks(['provider.isolation', 'platform.filters'], { needs: ['provider'] }),
    async ({ api, tokens, target, verdict }) => {
      const provider = target.provider?.name;
      const own = api.as(await tokens.forScopes(['content:read'], 'provider'));
      const oracle = await takeOracle(own);
      const others = [...oracle.items.values()].filter((item) => item.attributes?.provider !== provider).map((item) => item.id);
      const message = () => `items of other providers in the walk of the key of "${provider}": ${others.slice(0, 5).join(', ')}`;
      verdict.contract('provider.isolation', others.length === 0, message);
      await expectFilteredWalk(own, verdict, oracle, { 'filter[start_date]': 0.5 });
    },
  );
});
