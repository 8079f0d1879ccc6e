/**
 * Queries for GET /api/v2/content, generated with what the API document (and the reference notes)
 * expect of each: `valid` must give a walk that satisfies every invariant; `open` may give a 4xx with
 * the error shape or such a walk (the document does not say which); `invalid` must give a 4xx.
 */
import fc from 'fast-check';
import { CONTENT_FILTERS, type ContentFilterName } from '../../contracts/endpoints.ts';
import { PAGE_LIMIT } from '../../contracts/limits.ts';

export type Expectation = 'valid' | 'open' | 'invalid';

export interface QueryParam {
  readonly name: string;
  readonly value: string;
  /** Why this parameter makes the query open or invalid, for a readable counterexample. */
  readonly note?: string;
  readonly expectation: Expectation;
}

export interface GeneratedQuery {
  /** In the order they are sent; repeated names possible. */
  readonly params: readonly QueryParam[];
  /** Send `filter[start_date]` as `filter%5Bstart_date%5D`. */
  readonly encodeBrackets: boolean;
}

const DAY_MS = 86_400_000;

export function formatDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Dates around a data range: its edges, a day either side, and anywhere within a year of it. */
export function dateAround(range: { fromMs: number; toMs: number }): fc.Arbitrary<string> {
  const from = Math.floor(range.fromMs / DAY_MS) * DAY_MS;
  const to = Math.floor(range.toMs / DAY_MS) * DAY_MS;
  const edges = fc.constantFrom(from, to, from - DAY_MS, to + DAY_MS, from + DAY_MS, to - DAY_MS);
  const anywhere = fc.integer({ min: (from - 365 * DAY_MS) / DAY_MS, max: (to + 365 * DAY_MS) / DAY_MS }).map((d) => d * DAY_MS);
  return fc.oneof(edges, anywhere).map(formatDay);
}

/** Not dates of the form yyyy-mm-dd, or days that do not exist: the document makes these a 4xx. */
export const invalidDate: fc.Arbitrary<string> = fc.constantFrom('2024-02-30', '2023-13-01', '2024/01/01', '01-02-2024', 'yesterday', '', '2024-1-1', '20240101');

/** `limit`: its edges and ordinary values (valid), and what the document leaves open (0, -1, max+1, text). */
export const limitParam: fc.Arbitrary<QueryParam> = fc.oneof(
  { weight: 6, arbitrary: fc.oneof(fc.constantFrom(PAGE_LIMIT.min, PAGE_LIMIT.default, PAGE_LIMIT.max, 2, 7), fc.integer({ min: PAGE_LIMIT.min, max: 60 })).map((n) => ({ name: 'limit', value: String(n), expectation: 'valid' as const })) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom('0', '-1', String(PAGE_LIMIT.max + 1), 'abc', '', '1.5', '1e2', ' 5')
      .map((value) => ({ name: 'limit', value, expectation: 'open' as const, note: 'limit out of range or not an integer: a 4xx or a page within bounds' })),
  },
);

export function filterParam(name: ContentFilterName, range: { fromMs: number; toMs: number }): fc.Arbitrary<QueryParam> {
  return fc.oneof(
    { weight: 8, arbitrary: dateAround(range).map((value) => ({ name, value, expectation: 'valid' as const })) },
    { weight: 1, arbitrary: invalidDate.map((value) => ({ name, value, expectation: 'invalid' as const, note: 'not a yyyy-mm-dd date' })) },
  );
}

/**
 * A whole query: limit and each filter present or absent, shuffled, sometimes one parameter repeated
 * (the document does not say what that means: open), brackets encoded or not.
 */
export function contentQuery(range: { fromMs: number; toMs: number }): fc.Arbitrary<GeneratedQuery> {
  const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined, freq: 2 });
  return fc
    .record({
      limit: optional(limitParam),
      filters: fc.tuple(...CONTENT_FILTERS.map((f) => optional(filterParam(f.name, range)))),
      repeat: fc.option(fc.nat(), { nil: undefined, freq: 8 }),
      encodeBrackets: fc.boolean(),
      order: fc.array(fc.nat(), { minLength: 5, maxLength: 5 }),
    })
    .map(({ limit, filters, repeat, encodeBrackets, order }) => {
      const present = [limit, ...filters].filter((p): p is QueryParam => p !== undefined);
      // Shuffle by the generated keys: shrinking the keys towards 0 restores the natural order.
      const shuffled = present.map((p, i) => ({ p, key: order[i] ?? 0 })).sort((a, b) => a.key - b.key).map((x) => x.p);
      const params = [...shuffled];
      if (repeat !== undefined && shuffled.length > 0) {
        const again = shuffled[repeat % shuffled.length] as QueryParam;
        params.push({ ...again, expectation: again.expectation === 'invalid' ? 'invalid' : 'open', note: `${again.name} given twice: the document does not say which counts` });
      }
      return { params, encodeBrackets };
    });
}

/** The strictest demand any parameter makes: invalid beats open beats valid. */
export function expectationOf(query: GeneratedQuery): Expectation {
  if (query.params.some((p) => p.expectation === 'invalid')) return 'invalid';
  if (query.params.some((p) => p.expectation === 'open')) return 'open';
  const value = (name: ContentFilterName) => query.params.find((p) => p.name === name)?.value;
  // An inverted range: an empty result or a 4xx (issue 4): open, and an empty walk if 2xx.
  for (const [from, before] of [
    [value('filter[start_date]'), value('filter[end_date]')],
    [value('filter[modified_after]'), value('filter[modified_before]')],
  ]) {
    if (from !== undefined && before !== undefined && from >= before) return 'open';
  }
  return 'valid';
}

export function toSearch(query: GeneratedQuery): string {
  return query.params
    .map(({ name, value }) => {
      const encodedName = encodeURIComponent(name);
      return `${query.encodeBrackets ? encodedName : encodedName.replace(/%5B/g, '[').replace(/%5D/g, ']')}=${encodeURIComponent(value)}`;
    })
    .join('&');
}

/** A counterexample as a reader wants it: the query string and why each odd parameter is odd. */
export function describeQuery(query: GeneratedQuery): string {
  const notes = query.params.filter((p) => p.note).map((p) => `${p.name}=${JSON.stringify(p.value)}: ${p.note}`);
  return `?${toSearch(query)} (${expectationOf(query)})${notes.length ? `\n  ${notes.join('\n  ')}` : ''}`;
}
