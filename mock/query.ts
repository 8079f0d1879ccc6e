/**
 * Reading a list request's query string strictly: every parameter known to the endpoint
 * (contracts/endpoints.ts), none repeated, each valid, and a 400 that names the parameter otherwise.
 * The document gives the parameters; the strictness is the mock's choice (SDKs meet their bugs here).
 */
import { CONTENT_FILTERS, type ContentFilterName, type Endpoint } from '../contracts/endpoints.ts';
import { PAGE_LIMIT } from '../contracts/limits.ts';
import { parseDate } from '../contracts/timestamps.ts';
import { type ApiError, apiErrors } from './errors.ts';

export interface ListQuery {
  readonly limit: number;
  readonly next: string | undefined;
  /** Epoch ms bounds per filter given; `from` bounds are inclusive, `before` bounds exclusive. */
  readonly filters: ReadonlyMap<ContentFilterName, number>;
  /** The parameters other than `next`, as received (decoded), in order: links.next repeats them. */
  readonly pairs: ReadonlyArray<readonly [string, string]>;
  /** The same, sorted: a cursor is bound to this, so the request with `next` must repeat the query. */
  readonly key: string;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: ApiError };

const FILTER_NAMES: ReadonlySet<string> = new Set(CONTENT_FILTERS.map((f) => f.name));
const DIGITS = /^\d{1,9}$/;

function decode(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

export function parseListQuery(search: string, endpoint: Endpoint): Parsed<ListQuery> {
  const known = new Set(endpoint.query.map((p) => p.name));
  const seen = new Set<string>();
  const pairs: Array<readonly [string, string]> = [];
  const filters = new Map<ContentFilterName, number>();
  let limit: number = PAGE_LIMIT.default;
  let next: string | undefined;

  for (const segment of search.split('&')) {
    if (segment === '') continue;
    const eq = segment.indexOf('=');
    const name = decode(eq < 0 ? segment : segment.slice(0, eq));
    const value = decode(eq < 0 ? '' : segment.slice(eq + 1));
    if (name === undefined || value === undefined) {
      return fail(apiErrors.invalidParameter(name || segment.slice(0, 40), `malformed percent-encoding in the query segment "${segment.slice(0, 80)}"`));
    }
    // A segment like `=x` names no parameter: the error names the segment instead (source.parameter is never empty).
    if (name === '') return fail(apiErrors.invalidParameter(segment.slice(0, 40), `the query segment "${segment.slice(0, 80)}" has no parameter name`));
    if (!known.has(name)) {
      const hint =
        name.startsWith('filter[') && endpoint.id === 'listContent'
          ? `known filters: ${[...FILTER_NAMES].join(', ')}`
          : `known parameters: ${[...known].join(', ')}`;
      return fail(apiErrors.invalidParameter(name, `unknown query parameter "${name.slice(0, 80)}" (${hint})`));
    }
    if (seen.has(name)) return fail(apiErrors.invalidParameter(name, `"${name}" is given more than once`));
    seen.add(name);

    if (name === 'next') {
      if (value === '') return fail(apiErrors.invalidParameter('next', 'next is empty: pass the value from links.next'));
      next = value;
      continue;
    }
    pairs.push([name, value]);
    if (name === 'limit') {
      const n = DIGITS.test(value) ? Number(value) : Number.NaN;
      if (!(n >= PAGE_LIMIT.min && n <= PAGE_LIMIT.max)) {
        return fail(apiErrors.invalidParameter('limit', `limit must be an integer from ${PAGE_LIMIT.min} to ${PAGE_LIMIT.max}; got "${value.slice(0, 40)}"`));
      }
      limit = n;
    } else if (FILTER_NAMES.has(name)) {
      const ms = parseDate(value);
      if (Number.isNaN(ms)) return fail(apiErrors.invalidParameter(name, `${name} must be a date written yyyy-mm-dd; got "${value.slice(0, 40)}"`));
      filters.set(name as ContentFilterName, ms);
    }
  }
  const key = pairs
    .map(([n, v]) => `${encodeURIComponent(n)}=${encodeURIComponent(v)}`)
    .sort()
    .join('&');
  return { ok: true, value: { limit, next, filters, pairs, key } };
}

/** The first parameter in which two canonical query keys differ: what a mismatched `next` request names. */
export function firstDifference(expectedKey: string, actualKey: string): string {
  const names = (key: string) =>
    new Map(
      key
        .split('&')
        .filter(Boolean)
        .map((p) => [decodeURIComponent(p.split('=')[0] ?? ''), p] as const),
    );
  const expected = names(expectedKey);
  const actual = names(actualKey);
  for (const [name, pair] of expected) if (actual.get(name) !== pair) return name;
  for (const name of actual.keys()) if (!expected.has(name)) return name;
  return 'next';
}

/** Query pairs written back as a query string, brackets left readable as the service's own links are. */
export function formatQuery(pairs: ReadonlyArray<readonly [string, string]>): string {
  return pairs.map(([n, v]) => `${encodeURIComponent(n).replace(/%5B/g, '[').replace(/%5D/g, ']')}=${encodeURIComponent(v)}`).join('&');
}

function fail(error: ApiError): Parsed<never> {
  return { ok: false, error };
}
