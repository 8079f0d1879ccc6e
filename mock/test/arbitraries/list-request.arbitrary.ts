/**
 * Bad (and some good) requests to the two lists: garbage in `limit` and the filters, unknown and repeated parameters, odd encodings, `next` random, cut,
 * extended, tampered, superseded, another client's or of another query; bearer headers valid, tampered, malformed, of another scheme, doubled.
 */
import fc from 'fast-check';
import { CONTENT_FILTERS } from '../../../contracts/endpoints.ts';
import { type CursorOp, type FuzzRequest, fuzzRequestOf, marker } from '../fuzz-harness.ts';
import { extraHeaders, host, usually, wordsOf } from './http.arbitrary.ts';

const FILTERS = CONTENT_FILTERS.map((f) => f.name);

const limitValue = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: 1, max: 1000 }).map(String) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      ...wordsOf('0 -1 1001 1e2 0x10'),
      ' 5',
      '5 ',
      ...wordsOf('+5 1.0 05'),
      '',
      ...wordsOf('99999999999999999999 \u0661\u0662 NaN Infinity []'),
    ),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
);

const dateValue = fc.oneof(
  { weight: 3, arbitrary: fc.date({ min: new Date('1900-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      ...wordsOf('2024-02-30 2023-13-01 2024-00-10 2024/01/01 2024-1-1 20240101 99999-01-01 0000-01-01 2024-01-01T00:00:00 2024-01-01Z yesterday'),
      '',
    ),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
);

const cursorOwner = fc.constantFrom('org' as const, 'provider' as const);
const cursorOp = fc.constantFrom<CursorOp>('latest', 'latest', 'stale', 'flip', 'cut', 'extend');

const nextValue = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(cursorOwner, cursorOp, fc.nat({ max: 64 })).map(([owner, op, n]) => marker.next(owner, op, n)) },
  { weight: 1, arbitrary: fc.stringMatching(/^[A-Za-z0-9_-]{0,40}$/) },
  { weight: 1, arbitrary: fc.constantFrom('', 'null', 'undefined', '%00', 'x'.repeat(2_000)) },
);

const parameter: fc.Arbitrary<[string, string]> = fc.oneof(
  { weight: 4, arbitrary: limitValue.map((v): [string, string] => ['limit', v]) },
  { weight: 4, arbitrary: fc.tuple(fc.constantFrom(...FILTERS), dateValue) },
  { weight: 4, arbitrary: nextValue.map((v): [string, string] => ['next', v]) },
  {
    weight: 1,
    arbitrary: fc.tuple(
      fc.constantFrom('Limit', 'LIMIT', 'filter[start_date', 'filter[]', 'filter', 'page[size]', 'sort', 'fields[content]', 'next[]', 'limit[]', ''),
      fc.string({ maxLength: 10 }),
    ),
  },
  { weight: 1, arbitrary: fc.tuple(fc.string({ maxLength: 10 }), fc.string({ maxLength: 10 })) },
);

// Markers go out as they are: the session fills them in with URL-safe values.
const enc = (text: string) => (text.startsWith('{{') ? text : encodeURIComponent(text));

/** A parameter written as most clients write it (`component`: brackets left raw), unencoded, fully encoded, or spaces as `+`. */
const ENCODINGS = {
  component: (name: string, value: string) => `${enc(name).replace(/%5B/g, '[').replace(/%5D/g, ']')}=${enc(value)}`,
  raw: (name: string, value: string) => `${name}=${value}`,
  'brackets-encoded': (name: string, value: string) => `${enc(name)}=${enc(value)}`,
  plus: (name: string, value: string) => `${enc(name).replace(/%20/g, '+')}=${enc(value).replace(/%20/g, '+')}`,
};

/** Parameters the mock accepts (the `next` a live one of the same query, or not: the session decides). */
const goodParameter: fc.Arbitrary<[string, string]> = fc.oneof(
  fc.integer({ min: 1, max: 50 }).map((n): [string, string] => ['limit', String(n)]),
  fc
    .tuple(fc.constantFrom(...FILTERS), fc.date({ min: new Date('2015-01-01'), max: new Date('2030-01-01'), noInvalidDate: true }))
    .map(([name, d]): [string, string] => [name, d.toISOString().slice(0, 10)]),
  cursorOwner.map((owner): [string, string] => ['next', marker.next(owner, 'latest')]),
);

const goodParameters = fc.uniqueArray(goodParameter, { maxLength: 3, selector: ([name]) => name });

const query: fc.Arbitrary<string> = fc
  .record({
    params: fc.oneof(
      { weight: 2, arbitrary: goodParameters },
      { weight: 3, arbitrary: fc.tuple(goodParameters, parameter).map(([good, bad]) => [...good.filter(([name]) => name !== bad[0]), bad]) },
      { weight: 2, arbitrary: fc.array(parameter, { maxLength: 6 }) },
    ),
    repeat: usually<number | undefined>(undefined, 5, fc.nat({ max: 5 })),
    encoding: fc.constantFrom<keyof typeof ENCODINGS>('component', 'component', 'raw', 'brackets-encoded', 'plus'),
    noise: fc.constantFrom('', '', '', '&', '&&', '=', '&=&', '#x', '%', '&limit', '&next'),
  })
  .map(({ params, repeat, encoding, noise }) => {
    const chosen = repeat !== undefined && params.length > 0 ? [...params, params[repeat % params.length] as [string, string]] : params;
    return chosen.map(([name, value]) => ENCODINGS[encoding](name, value)).join('&') + noise;
  });

const authorization: fc.Arbitrary<readonly string[]> = fc.oneof(
  {
    weight: 14,
    arbitrary: fc
      .constantFrom('org', 'org', 'org', 'org', 'provider', 'provider', 'provider', 'limited', 'narrow')
      .map((who) => [`Bearer ${marker.token(who as 'org')}`]),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom('org' as const, 'provider' as const), fc.nat({ max: 42 }))
      .map(([who, at]) => [`Bearer ${marker.tamperedToken(who, at)}`]),
  },
  { weight: 1, arbitrary: fc.constant([]) },
  {
    weight: 2,
    arbitrary: fc.constantFrom<readonly string[]>(
      ['Bearer'],
      ['Bearer '],
      ['bearer  {{token:org}}'],
      ['Bearer {{token:org}} extra'],
      ['Bearer {{token:org}}='],
      ['Bearer "{{token:org}}"'],
      ['Basic {{token:org}}'],
      ['Token {{token:org}}'],
      ['Bearer {{token:target}}'],
      ['Bearer {{token:org}}', 'Bearer {{token:provider}}'],
      [`Bearer ${'A'.repeat(10_000)}`],
      ['Bearer \u00e9'],
    ),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }).map((v) => [v]) },
);

/** A listing request: mostly GET with a live token and a hostile query. */
export const listRequest: fc.Arbitrary<FuzzRequest> = fc
  .record({
    path: fc.constantFrom('/api/v2/content', '/api/v2/content', '/api/v2/users'),
    method: usually('GET', 15, fc.constantFrom('HEAD', 'POST', 'OPTIONS', 'DELETE')),
    query,
    authorization,
    headers: usually([], 8, extraHeaders),
    host,
  })
  .map(({ path, query: q, ...rest }) => fuzzRequestOf({ origin: 'api', target: q === '' ? path : `${path}?${q}`, body: '', framing: 'none', ...rest }));
