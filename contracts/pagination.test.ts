import { expect, test } from '@playwright/test';
import {
  type DateFilter,
  type FilterVerdict,
  filterVerdict,
  nextValue,
  PaginationWalk,
  WALK_RULE_IDS,
  WALK_RULES,
  type WalkRule,
  walkPageBound,
  withNext,
} from './pagination.ts';
import { isRuleId } from './rules/index.ts';

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

test.describe('a walk whose limit is open (left out, out of range, given twice)', () => {
  const page = (ids: string[], next?: string) => JSON.stringify({ links: next ? { next } : {}, data: ids.map((id) => ({ type: 'content', id })) });

  test('bounds its length by maxPages only', () => {
    const walk = new PaginationWalk(FIRST, { limit: undefined, maxPages: 3 });
    expect(walk.page(200, page(['a', 'b', 'c'], `${FIRST}&next=c1`))).toMatchObject({ kind: 'next', url: `${FIRST}&next=c1` });
    expect(walk.lastData).toHaveLength(3);
    expect(walk.page(200, page(['d']))).toMatchObject({ kind: 'done', ok: true, complete: true, pages: 2, items: 4 });
  });

  test('takes a page larger than the platform’s maximum: the document shows none', () => {
    const walk = new PaginationWalk(FIRST, { limit: undefined });
    const ids = Array.from({ length: 1001 }, (_, i) => `i${i}`);
    expect(walk.page(200, page(ids))).toMatchObject({ kind: 'done', ok: true, complete: true, items: 1001 });
  });
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

test.describe('a walk that repeats itself fails at once, naming the item and the cursor', () => {
  const page = (ids: string[], next?: string) => JSON.stringify({ links: next ? { next } : {}, data: ids.map((id) => ({ type: 'content', id })) });

  test('a cursor leading back to the first page ends the walk on that page, not at maxPages', () => {
    const walk = new PaginationWalk(FIRST, { limit: 2, maxPages: 1000 });
    expect(walk.page(200, page(['a', 'b'], `${FIRST}&next=c1`)).kind).toBe('next');
    const step = walk.page(200, page(['a', 'b'], `${FIRST}&next=c2`));
    expect(step).toMatchObject({ kind: 'done', ok: false, complete: false, pages: 2 });
    const finding = step.kind === 'done' ? step.findings[0] : undefined;
    expect(finding?.rule).toBe('duplicate-id');
    expect(finding?.reason).toMatch(/^item a, b came again on page 2, reached with next=c1 \(GET /);
  });

  test('a next value handed out again after others is a loop', () => {
    const walk = new PaginationWalk(FIRST, { limit: 2, maxPages: 1000 });
    walk.page(200, page(['a', 'b'], `${FIRST}&next=c1`));
    walk.page(200, page(['c', 'd'], `${FIRST}&next=c2`));
    const step = walk.page(200, page(['e', 'f'], `${FIRST}&next=c1`));
    expect(step.kind === 'done' ? step.findings.map((f) => [f.rule, f.reason.slice(0, 62)]) : step).toEqual([
      ['cursor-loop', 'links.next hands out next=c1 again, first handed out on page 1'],
    ]);
  });

  test('every walk rule names a rule of the catalogue', () => {
    for (const rule of Object.keys(WALK_RULES) as WalkRule[]) expect(isRuleId(WALK_RULE_IDS[rule]), rule).toBe(true);
  });
});
