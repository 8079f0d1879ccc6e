import { expect, test } from '@playwright/test';
import { type DateFilter, type FilterVerdict, filterVerdict, nextValue, walkPageBound, withNext } from './pagination.ts';

const FIRST = 'https://api.example.com/api/v2/content?limit=2&filter[start_date]=2024-01-01';

test.describe('the next request of a walk (rule 2)', () => {
  for (const { url, expected } of [
    { url: 'https://a.example/api/v2/content?limit=5&next=plErSU', expected: 'plErSU' },
    { url: 'https://a.example/api/v2/content?next=a%2Bb%2F%3D&limit=5', expected: 'a+b/=' },
    { url: 'https://a.example/api/v2/content?limit=5', expected: undefined },
    { url: 'https://a.example/api/v2/content?nextx=1&xnext=2', expected: undefined },
    { url: 'https://a.example/api/v2/content?next=', expected: '' },
    { url: 'https://a.example/api/v2/content#next=1', expected: undefined },
  ]) {
    test(`reads next ${JSON.stringify(expected)} out of ${url}`, () => {
      expect(nextValue(url)).toBe(expected);
    });
  }

  test('is the first request byte for byte, brackets and order kept, with next appended and encoded', () => {
    expect(withNext(FIRST, 'a+b/=')).toBe(`${FIRST}&next=a%2Bb%2F%3D`);
    expect(withNext('https://a.example/api/v2/content', 'c1')).toBe('https://a.example/api/v2/content?next=c1');
    expect(withNext('https://a.example/api/v2/content?', 'c1')).toBe('https://a.example/api/v2/content?next=c1');
  });
});

test.describe('the bound of a walk', () => {
  for (const [items, limit, pages] of [
    [0, 10, 2],
    [10, 10, 2],
    [11, 10, 3],
    [250, 1000, 2],
    [250, 1, 251],
  ] as const) {
    test(`${items} items in pages of ${limit}: at most ${pages} pages, a trailing empty one included`, () => {
      expect(walkPageBound(items, limit)).toBe(pages);
    });
  }
});

test.describe('a date filter judges an item by its own timestamps', () => {
  const item = { 'created-at': '2024-03-10T12:00:00.5', 'modified-at': '2024-06-01T00:00:00.0' };
  const f = (name: DateFilter['name'], ...readings: (string | null)[]): DateFilter => ({ name, readings });
  for (const { title, filters, verdict } of [
    { title: 'created after the start date: in', filters: [f('filter[start_date]', '2024-03-09')], verdict: 'in' },
    { title: 'created before the start date: out', filters: [f('filter[start_date]', '2024-03-11')], verdict: 'out' },
    { title: 'created on the start date: either', filters: [f('filter[start_date]', '2024-03-10')], verdict: 'edge' },
    { title: 'created before the end date: in', filters: [f('filter[end_date]', '2024-03-11')], verdict: 'in' },
    { title: 'created after the end date: out', filters: [f('filter[end_date]', '2024-03-09')], verdict: 'out' },
    { title: 'created on the end date: either', filters: [f('filter[end_date]', '2024-03-10')], verdict: 'edge' },
    { title: 'modified after modified_after: in', filters: [f('filter[modified_after]', '2024-05-31')], verdict: 'in' },
    { title: 'modified on modified_before: either', filters: [f('filter[modified_before]', '2024-06-01')], verdict: 'edge' },
    { title: 'modified after modified_before: out', filters: [f('filter[modified_before]', '2024-05-01')], verdict: 'out' },
    {
      title: 'one filter out among others in: out',
      filters: [f('filter[start_date]', '2024-01-01'), f('filter[modified_before]', '2024-05-01')],
      verdict: 'out',
    },
    { title: 'an edge among others in: either', filters: [f('filter[start_date]', '2024-03-10'), f('filter[modified_after]', '2024-01-01')], verdict: 'edge' },
    { title: 'an inverted range: out', filters: [f('filter[start_date]', '2024-06-02'), f('filter[end_date]', '2024-06-01')], verdict: 'out' },
    { title: 'two readings that disagree: either', filters: [f('filter[start_date]', '2024-01-01', '2024-12-01')], verdict: 'edge' },
    { title: 'two readings that agree: in', filters: [f('filter[start_date]', '2024-01-01', '2024-02-01')], verdict: 'in' },
    { title: 'a value the service may ignore: in', filters: [f('filter[end_date]', null)], verdict: 'in' },
    { title: 'no filters: in', filters: [], verdict: 'in' },
  ] as Array<{ title: string; filters: DateFilter[]; verdict: FilterVerdict }>) {
    test(title, () => {
      expect(filterVerdict(item, filters)).toBe(verdict);
    });
  }

  test('an item without a readable timestamp is left to its schema check', () => {
    expect(filterVerdict({ 'created-at': 'yesterday' }, [f('filter[start_date]', '2024-01-01')])).toBe('edge');
    expect(filterVerdict(undefined, [f('filter[start_date]', '2024-01-01')])).toBe('edge');
  });
});
