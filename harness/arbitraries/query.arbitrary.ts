/**
 * Queries for GET /api/v2/content, generated with what the API document (and the platform docs) expect of each: `valid` must give a walk that satisfies every
 * invariant; `open` may give a 4xx with the error shape or such a walk (the document does not say which); `invalid` must give a 4xx.
 *
 * What varies: `limit` (its edges, ordinary values, and values the document leaves open), each date filter present or absent with days around the data's range
 * and at its edges, the parameters' order, one parameter given twice, brackets of `filter[...]` sent encoded or not.
 */
import fc from 'fast-check';
import { CONTENT_FILTERS, type ContentFilterName } from '../../contracts/endpoints.ts';
import { PAGE_LIMIT } from '../../contracts/limits.ts';
import type { DateFilter } from '../../contracts/pagination.ts';

export type Expectation = 'valid' | 'open' | 'invalid';

interface QueryParam {
  readonly name: string;
  readonly value: string;
  /** Why this parameter makes the query open or invalid, for a readable counterexample. */
  readonly note?: string;
  readonly expectation: Expectation;
  /** Of a filter: the `yyyy-mm-dd` days the service may read the value as (null: it may ignore an empty value); absent for `limit` and for invalid values. */
  readonly readings?: readonly (string | null)[];
}

export interface GeneratedQuery {
  /** In the order they are sent; repeated names possible. */
  readonly params: readonly QueryParam[];
  /** Send `filter[start_date]` as `filter%5Bstart_date%5D`. */
  readonly encodeBrackets: boolean;
}

/** A span of days of the data, in epoch ms (any time within the first and the last day). */
export type DayRange = { readonly fromMs: number; readonly toMs: number };

/** The data's range per filtered attribute: `created-at` for start/end date, `modified-at` for modified after/before. */
export type DataRanges = Readonly<Record<(typeof CONTENT_FILTERS)[number]['attribute'], DayRange>>;

const DAY_MS = 86_400_000;

/** Days around a data range: its edges, a day either side, and anywhere within a year of it. */
function dateAround(range: DayRange): fc.Arbitrary<string> {
  const from = Math.floor(range.fromMs / DAY_MS);
  const to = Math.floor(range.toMs / DAY_MS);
  const edges = fc.constantFrom(from, to, from - 1, to + 1, from + 1, to - 1);
  return fc.oneof(edges, fc.integer({ min: from - 365, max: to + 365 })).map((day) => new Date(day * DAY_MS).toISOString().slice(0, 10));
}

/** Not dates at all, or days the calendar does not have: the document's filters take dates, so these are a 4xx. */
const invalidDate: fc.Arbitrary<string> = fc.constantFrom('2024-02-30', '2023-13-01', '2023-00-10', 'yesterday', 'not-a-date', '2024-13-45');

/**
 * Real days written otherwise than `yyyy-mm-dd`, and an empty value: the document does not say whether a service refuses them or reads them (a lenient date
 * parser reads `2024/01/01`), so they are open, with every reading the service may choose.
 */
const otherSpelling: fc.Arbitrary<{ value: string; readings: readonly (string | null)[]; note: string }> = fc.constantFrom(
  { value: '2024/01/01', readings: ['2024-01-01'], note: 'a date written with slashes: a 4xx or read as 2024-01-01' },
  { value: '2024-1-1', readings: ['2024-01-01'], note: 'a date without leading zeros: a 4xx or read as 2024-01-01' },
  { value: '20240101', readings: ['2024-01-01'], note: 'an ISO 8601 basic date: a 4xx or read as 2024-01-01' },
  { value: '01-02-2024', readings: ['2024-01-02', '2024-02-01'], note: 'a day-month order date: a 4xx or read either way' },
  { value: '2024-01-01T00:00:00', readings: ['2024-01-01'], note: 'a date with a time: a 4xx or read as 2024-01-01' },
  { value: '', readings: [null], note: 'an empty value: a 4xx or the filter left out' },
);

const validLimit = fc.oneof(fc.constantFrom(PAGE_LIMIT.min, PAGE_LIMIT.default, PAGE_LIMIT.max, 2, 7), fc.integer({ min: PAGE_LIMIT.min, max: 60 }));

/** `limit`: its edges and ordinary values (valid), and what the document leaves open (0, -1, max+1, text). */
const limitParam: fc.Arbitrary<QueryParam> = fc.oneof(
  { weight: 6, arbitrary: validLimit.map((n) => ({ name: 'limit', value: String(n), expectation: 'valid' as const })) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom('0', '-1', String(PAGE_LIMIT.max + 1), 'abc', '', '1.5', '1e2', ' 5')
      .map((value) => ({ name: 'limit', value, expectation: 'open' as const, note: 'limit out of range or not an integer: a 4xx or a page within bounds' })),
  },
);

function filterParam(name: ContentFilterName, range: DayRange): fc.Arbitrary<QueryParam> {
  return fc.oneof(
    { weight: 12, arbitrary: dateAround(range).map((value): QueryParam => ({ name, value, expectation: 'valid', readings: [value] })) },
    { weight: 1, arbitrary: invalidDate.map((value): QueryParam => ({ name, value, expectation: 'invalid', note: 'not a date of the calendar' })) },
    { weight: 1, arbitrary: otherSpelling.map(({ value, readings, note }): QueryParam => ({ name, value, expectation: 'open', readings, note })) },
  );
}

/**
 * A whole query: limit and each filter present or absent, shuffled, sometimes one parameter given twice (with the same or another value: the document does not
 * say which counts, so open), brackets encoded or not.
 */
export function contentQuery(ranges: DataRanges): fc.Arbitrary<GeneratedQuery> {
  const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined, freq: 2 });
  return fc
    .record({
      limit: optional(limitParam),
      filters: fc.tuple(...CONTENT_FILTERS.map((f) => optional(filterParam(f.name, ranges[f.attribute])))),
      // One query in six gives a parameter twice: the rest should reach a walk (the mock refuses every repeat).
      repeat: fc.oneof(
        { weight: 5, arbitrary: fc.constant(undefined) },
        {
          weight: 1,
          arbitrary: fc.record({ index: fc.nat(), other: fc.option(fc.oneof(validLimit.map(String), dateAround(ranges['created-at'])), { nil: undefined }) }),
        },
      ),
      encodeBrackets: fc.boolean(),
      order: fc.array(fc.nat(), { minLength: 5, maxLength: 5 }),
    })
    .map(({ limit, filters, repeat, encodeBrackets, order }): GeneratedQuery => {
      const present = [limit, ...filters].filter((p): p is QueryParam => p !== undefined);
      // Shuffle by the generated keys: shrinking the keys towards 0 restores the natural order.
      const params = present
        .map((p, i) => ({ p, key: order[i] ?? 0 }))
        .sort((a, b) => a.key - b.key)
        .map((x) => x.p);
      if (repeat !== undefined && params.length > 0) params.push(again(params[repeat.index % params.length] as QueryParam, repeat.other));
      return { params, encodeBrackets };
    });
}

/** The same parameter once more: its own value, or another of its kind (a limit for limit, a day for a filter). */
function again(p: QueryParam, other: string | undefined): QueryParam {
  const isLimit = p.name === 'limit';
  const value = other === undefined || isLimit !== /^\d+$/.test(other) ? p.value : other;
  const note = `${p.name} given twice: the document does not say which counts`;
  if (p.expectation === 'invalid') return { ...p, value: p.value, note };
  return { name: p.name, value, expectation: 'open', note, ...(isLimit ? {} : { readings: value === p.value ? (p.readings ?? []) : [value] }) };
}

/** The strictest demand any parameter makes: invalid beats open beats valid. */
export function expectationOf(query: GeneratedQuery): Expectation {
  if (query.params.some((p) => p.expectation === 'invalid')) return 'invalid';
  if (query.params.some((p) => p.expectation === 'open')) return 'open';
  const day = (name: ContentFilterName) => query.params.find((p) => p.name === name)?.value;
  // An inverted (or empty) range: an empty result or a 4xx; the filter oracle says which items may still come.
  const inverted = (from?: string, before?: string) => from !== undefined && before !== undefined && from >= before;
  return inverted(day('filter[start_date]'), day('filter[end_date]')) || inverted(day('filter[modified_after]'), day('filter[modified_before]'))
    ? 'open'
    : 'valid';
}

/** Every filter of the query with the days the service may read it as (a filter given twice: both values). */
export function filtersOf(query: GeneratedQuery): DateFilter[] {
  const byName = new Map<ContentFilterName, (string | null)[]>();
  for (const p of query.params) {
    const filter = CONTENT_FILTERS.find((f) => f.name === p.name);
    if (!filter || p.readings === undefined) continue;
    byName.set(filter.name, [...(byName.get(filter.name) ?? []), ...p.readings]);
  }
  return [...byName].map(([name, readings]) => ({ name, readings }));
}

/** The page size the query asks for, when it asks for exactly one valid one; undefined when left out or open. */
export function limitOf(query: GeneratedQuery): number | undefined {
  const [only, ...more] = query.params.filter((p) => p.name === 'limit');
  return more.length === 0 && only?.expectation === 'valid' ? Number(only.value) : undefined;
}

export function toSearch(query: GeneratedQuery): string {
  // The names need no encoding but their brackets (`filter[start_date]`), encoded or not as generated.
  return query.params.map(({ name, value }) => `${query.encodeBrackets ? encodeURIComponent(name) : name}=${encodeURIComponent(value)}`).join('&');
}

/** A counterexample as a reader wants it: the query string, what it demands, and why each odd parameter is odd. */
export function describeQuery(query: GeneratedQuery): string {
  const notes = query.params.filter((p) => p.note).map((p) => `${p.name}=${JSON.stringify(p.value)}: ${p.note}`);
  const search = toSearch(query);
  return `${search === '' ? 'no parameters' : `?${search}`} (${expectationOf(query)})${notes.length ? `\n  ${notes.join('\n  ')}` : ''}`;
}
