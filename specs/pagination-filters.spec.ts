/**
 * Document, List content items: "filter parameters exist, including filtering by date". Their names
 * and meaning are the reference notes' (contracts/endpoints.ts CONTENT_FILTERS): start_date created
 * from, end_date created before, modified_after / modified_before on modified-at, all `yyyy-mm-dd`.
 * A filtered walk is judged against an unfiltered one (fixtures/filter-oracle.ts): every item it
 * returns passes the filters by its own timestamps, every item that passes is returned, and an item
 * on a boundary day may go either way (the notes do not say how the service reads it).
 */
import { CONTENT_FILTERS, type ContentFilterName } from '../contracts/endpoints.ts';
import type { DateFilter } from '../contracts/pagination.ts';
import { validateErrorBody } from '../schemas/index.ts';
import type { ApiClient } from './fixtures/api.ts';
import { dayAt, describeProblems, expectedSets, filterProblems, type Oracle, takeOracle } from './fixtures/filter-oracle.ts';
import { type ApiResponse, expect, test } from './fixtures/index.ts';
import { expectTraversal, limitForPages, walkList } from './fixtures/list-walk.ts';

type Bounds = Partial<Record<ContentFilterName, number>>;

/** Walks the list with `filters` set to the days at these fractions of the data, and asserts both the traversal and the filter invariants. */
async function expectFilteredWalk(api: ApiClient, oracle: Oracle, bounds: Bounds): Promise<void> {
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
  const limit = limitForPages(expectedSets(oracle, filters).lenient.size);
  const walked = await walkList(api, api.url('listContent', { limit, ...query }), { limit });
  expectTraversal(walked);
  expect(describeProblems(await filterProblems(api, walked, oracle, filters)), `the filtered walk from GET ${walked.firstUrl}`).toEqual([]);
}

/** A refusal of the query itself: a 4xx other than those about the token or the rate, with the error shape where there is a body. */
function expectQueryRefused(response: ApiResponse): void {
  expect(response).toHaveStatus('4xx');
  expect(response, 'a refusal of the query, not of the token or the rate').not.toHaveStatus([401, 403, 429]);
  if (response.text.trim() !== '') expect(response.body).toMatchSchema(validateErrorBody, { request: response.request });
}

test.describe('a date filter', () => {
  for (const { name, description } of [
    { name: 'filter[start_date]', description: 'keeps only items created from that date' },
    { name: 'filter[end_date]', description: 'keeps only items created before that date' },
    { name: 'filter[modified_after]', description: 'keeps only items modified after that date' },
    { name: 'filter[modified_before]', description: 'keeps only items modified before that date' },
  ] as const) {
    test(`${name} ${description}, and all of them`, async ({ api }) => {
      await expectFilteredWalk(api, await takeOracle(api), { [name]: 0.5 });
    });
  }
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
  ] as const) {
    test(title, async ({ api }) => {
      await expectFilteredWalk(api, await takeOracle(api), bounds);
    });
  }
});

test.describe('an inverted range', () => {
  for (const [from, before] of [
    ['filter[start_date]', 'filter[end_date]'],
    ['filter[modified_after]', 'filter[modified_before]'],
  ] as const) {
    test(`${from} after ${before} gives an empty result or a 4xx`, async ({ api }) => {
      const query = { [from]: '2024-06-02', [before]: '2024-06-01' };
      const response = await api.list('listContent', query);
      if (response.status === 200) expect((response.body as { data?: unknown[] }).data, `the data of GET ${response.request.url}`).toEqual([]);
      else expectQueryRefused(response);
    });
  }
});

test.describe('an invalid date', () => {
  for (const name of CONTENT_FILTERS.map((f) => f.name)) {
    test(`in ${name} is refused with a 4xx`, async ({ api }) => {
      for (const value of ['2024-02-30', 'yesterday']) expectQueryRefused(await api.list('listContent', { [name]: value }));
    });
  }
});

test.describe('a provider key', () => {
  test('sees, filtered, only its own provider’s items, and all of those the filter keeps', async ({ api, tokens, target }) => {
    const provider = target.provider;
    test.skip(!provider, 'No provider key is configured (LP_PROVIDER_CLIENT_ID, LP_PROVIDER_CLIENT_SECRET, LP_PROVIDER_NAME).');
    const own = api.as((await tokens.issue(['content:read'], 'provider')).accessToken);
    const oracle = await takeOracle(own);
    const others = [...oracle.items.values()].filter((item) => item.attributes?.provider !== provider?.name).map((item) => item.id);
    expect(others, `items of other providers in the unfiltered walk of the key of "${provider?.name}"`).toEqual([]);
    await expectFilteredWalk(own, oracle, { 'filter[start_date]': 0.5 });
  });
});
