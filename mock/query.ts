/**
 * A list request's query (document, List content items: limit, next, filter[...]). What a service does with other parameters, repeats, unreadable values or a
 * limit out of range, the profile says (query.*, filters.*). A refusal names the parameter; strict wants each known, once, valid.
 */
import { CONTENT_FILTERS, type ContentFilterName, type Endpoint } from '../contracts/endpoints.ts';
import { fail, ok, type Result } from '../util/result.ts';
import { parseDate } from '../contracts/timestamps.ts';
import type { Profile } from '../schemas/types.ts';
import { type ApiError, apiErrors } from './error-bodies.ts';

export interface ListQuery {
  readonly limit: number;
  readonly next: string | undefined;
  /** Epoch ms bounds per filter applied: lower bounds inclusive, upper bounds exclusive. */
  readonly filters: ReadonlyMap<ContentFilterName, number>;
  /** The parameters other than `next` that are applied, as received (decoded), in order: links.next repeats them. */
  readonly pairs: ReadonlyArray<readonly [string, string]>;
  /** The same, sorted: a cursor is bound to this, so a request with `next` repeats the query. */
  readonly key: string;
}

/** The profile's rules for reading a query (query.* and filters.*). */
export type QueryRules = { readonly query: Profile['query']; readonly filters: Profile['filters'] };

/** Form decoding (`+` is a space), undefined for broken percent-encoding: a query's parts, and (RFC 6749 appendix B) the Basic user and password. */
export function formDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

const FILTERS: ReadonlyMap<string, (typeof CONTENT_FILTERS)[number]> = new Map(CONTENT_FILTERS.map((f) => [f.name, f]));
const INTEGER = /^-?\d{1,15}$/;
const DAY_MS = 86_400_000;

/** The parameters an endpoint knows under these rules: with `dateFilters: none` the filters are unknown ones. */
export function knownParameters(endpoint: Endpoint, rules: QueryRules): ReadonlySet<string> {
  return new Set(endpoint.query.map((p) => p.name).filter((name) => !FILTERS.has(name) || rules.filters.dateFilters === 'platform'));
}

const NO_FILTERS: ReadonlyMap<ContentFilterName, number> = new Map();
const NO_PAIRS: ReadonlyArray<readonly [string, string]> = [];

/** A problem of the query, found at segment `index`: the first problem of a query is the one reported. */
type Problem = { readonly index: number; readonly parameter: string; readonly detail: string };

/** The parameters of a query that apply, and why it is refused, if it is. Hot path: no closures, no iterators. */
export function parseListQuery(search: string, endpoint: Endpoint, known: ReadonlySet<string>, rules: QueryRules): Result<ListQuery, ApiError> {
  const q = rules.query;
  // The value each known parameter gets, and the segment it came from, in order of first appearance.
  const names: string[] = [];
  const values: string[] = [];
  const indexes: number[] = [];
  let stop: Problem | undefined;
  const segments = search === '' ? [] : search.split('&');
  for (let index = 0; index < segments.length && stop === undefined; index++) {
    const segment = segments[index] as string;
    if (segment === '') continue;
    const eq = segment.indexOf('=');
    const name = formDecode(eq < 0 ? segment : segment.slice(0, eq));
    const value = formDecode(eq < 0 ? '' : segment.slice(eq + 1));
    if (name === undefined || value === undefined) {
      if (q.invalidValue === 'ignore') continue;
      stop = { index, parameter: name || segment.slice(0, 40), detail: `malformed percent-encoding in the query segment "${segment.slice(0, 80)}"` };
    } else if (name === '' || !known.has(name)) {
      if (q.unknownParameter === 'ignore') continue;
      // A segment like `=x` names no parameter: the error names the segment instead (source.parameter is never empty).
      if (name === '') stop = { index, parameter: segment.slice(0, 40), detail: `the query segment "${segment.slice(0, 80)}" has no parameter name` };
      else stop = { index, parameter: name, detail: `unknown query parameter "${name.slice(0, 80)}" (${unknownHint(name, known)})` };
    } else {
      const at = names.indexOf(name);
      if (at < 0) {
        names.push(name);
        values.push(value);
        indexes.push(index);
      } else if (q.repeatedParameter === 'refuse') stop = { index, parameter: name, detail: `"${name}" is given more than once` };
      else if (q.repeatedParameter === 'last') values[at] = value;
    }
  }
  // Values are checked in the order they came, and the first problem of the query is reported.
  let limit = q.limitDefault;
  let next: string | undefined;
  let filters = NO_FILTERS;
  const pairs: Array<readonly [string, string]> = [];
  for (let i = 0; i < names.length; i++) {
    if (stop !== undefined && stop.index < (indexes[i] as number)) break;
    const name = names[i] as string;
    const value = values[i] as string;
    if (name === 'next') {
      if (value !== '') next = value;
      else if (q.invalidValue === 'refuse') return refusal(q, 'next', 'next is empty: pass the value from links.next');
      continue;
    }
    if (name === 'limit') {
      const read = readLimit(value, q);
      if (typeof read === 'string') return refusal(q, 'limit', read);
      if (read === undefined) continue;
      limit = read;
    } else {
      const filter = FILTERS.get(name);
      if (filter !== undefined) {
        const day = parseDate(value);
        if (Number.isNaN(day)) {
          if (q.invalidValue === 'ignore') continue;
          return refusal(q, name, `${name} must be a date written yyyy-mm-dd; got "${value.slice(0, 40)}"`);
        }
        if (filters === NO_FILTERS) filters = new Map();
        // An exclusive lower bound leaves out the named day itself: the bound moves to the next day.
        (filters as Map<ContentFilterName, number>).set(filter.name, filter.bound === 'from' && rules.filters.fromDay === 'exclusive' ? day + DAY_MS : day);
      }
    }
    pairs.push([name, value]);
  }
  if (stop !== undefined) return refusal(q, stop.parameter, stop.detail);
  // A copy at its exact size: a snapshot keeps its query for 2 minutes (a pushed-to array reserves room for 17).
  return ok({ limit, next, filters, pairs: pairs.length === 0 ? NO_PAIRS : pairs.slice(), key: keyOf(pairs) });
}

function refusal(q: Profile['query'], parameter: string, detail: string): Result<never, ApiError> {
  return fail({ ...apiErrors.invalidParameter(detail, parameter), status: q.invalidStatus });
}

function unknownHint(name: string, known: ReadonlySet<string>): string {
  const filters = [...FILTERS.keys()].filter((f) => known.has(f));
  return name.startsWith('filter[') && filters.length > 0 ? `known filters: ${filters.join(', ')}` : `known parameters: ${[...known].join(', ')}`;
}

/** The pairs encoded and sorted: equal for the same query whatever the order of its parameters. */
function keyOf(pairs: ReadonlyArray<readonly [string, string]>): string {
  const encoded = pairs.map(([n, v]) => `${encodeURIComponent(n)}=${encodeURIComponent(v)}`);
  return encoded.sort().join('&');
}

/** The limit to serve, undefined to leave the default (an unreadable value ignored), or the refusal's sentence. */
function readLimit(value: string, q: Profile['query']): number | undefined | string {
  const range = `an integer from 1 to ${q.limitMax}`;
  if (!INTEGER.test(value)) return q.invalidValue === 'ignore' ? undefined : `limit must be ${range}; got "${value.slice(0, 40)}"`;
  const n = Number(value);
  if (n >= 1 && n <= q.limitMax) return n;
  return q.limitOutOfRange === 'clamp' ? Math.min(Math.max(n, 1), q.limitMax) : `limit must be ${range}; got "${value.slice(0, 40)}"`;
}

/** The first parameter in which two canonical query keys differ: what a mismatched `next` request names. */
export function firstDifference(expectedKey: string, actualKey: string): string {
  const names = (key: string) => new Map(key.split('&').flatMap((p) => (p === '' ? [] : [[decodeURIComponent(p.split('=')[0] ?? ''), p] as const])));
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
