/**
 * The parts of a bad HTTP request, for any route: odd methods and versions, missing or doubled Host, broken framing, huge and repeated headers, odd bodies and
 * content types, long and odd paths. Sizes straddle the mock's limits (64 KiB body, 8 KiB target, 16 KiB head) so both sides of each are tried.
 */
import fc from 'fast-check';
import { FRAMINGS, type FuzzRequest, fuzzRequestOf } from '../fuzz-harness.ts';

/** Mostly ordinary methods, then ones node knows but the mock does not serve, then tokens llhttp rejects. */
const method: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS') },
  { weight: 2, arbitrary: fc.constantFrom('TRACE', 'CONNECT', 'PROPFIND', 'PURGE', 'SEARCH', 'QUERY', 'get', 'Post') },
  { weight: 1, arbitrary: fc.stringMatching(/^[A-Z]{1,12}$/) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary-ascii', minLength: 1, maxLength: 10 }) },
);

/** `value` `odds` times out of `odds + 1`, else one of `others`. */
export const usually = <T>(value: T, odds: number, others: fc.Arbitrary<T>) =>
  fc.oneof({ weight: odds, arbitrary: fc.constant(value) }, { weight: 1, arbitrary: others });

/** The words of `list`, split at whitespace: long lists of tokens kept to a few lines. */
export const wordsOf = (list: string) => list.trim().split(/\s+/);

const version = usually('HTTP/1.1', 30, fc.constantFrom('HTTP/1.0', 'HTTP/2.0', 'HTTP/1.2', 'HTTP/9.9', 'http/1.1', 'HTTP/1', 'HTTP/1.1 extra', ''));

export const host = usually<FuzzRequest['host']>('ok', 30, fc.constantFrom('missing', 'twice', 'empty'));

export const framing = usually<FuzzRequest['framing']>('length', 7, fc.constantFrom(...FRAMINGS));

const HEADER_NAMES = wordsOf('Accept Accept-Encoding Content-Encoding Cookie Origin Range Forwarded X-Forwarded-For If-None-Match TE Trailer Via Max-Forwards');

const headerName: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.stringMatching(/^X-[A-Za-z0-9-]{1,20}$/) },
  { weight: 4, arbitrary: fc.constantFrom(...HEADER_NAMES) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary-ascii', minLength: 1, maxLength: 12 }) },
);

const headerValue: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary-ascii', maxLength: 20 }) },
  { weight: 1, arbitrary: fc.constantFrom('gzip', '*/*', 'bytes=0-0', 'for=127.0.0.1', '\u00e9\u00e8', '') },
);

/** Headers that change how node parses the request, or that servers are known to trip on. */
const specialHeaders: fc.Arbitrary<Array<[string, string]>> = fc.constantFrom(
  [['Expect', '100-continue']],
  [['Expect', 'the-impossible']],
  [
    ['Connection', 'Upgrade'],
    ['Upgrade', 'websocket'],
  ],
  [
    ['Connection', 'Upgrade, HTTP2-Settings'],
    ['Upgrade', 'h2c'],
    ['HTTP2-Settings', 'AAMAAABkAAQAAP__'],
  ],
  [['Connection', 'close']],
  [['Connection', 'keep-alive, x']],
  [['Transfer-Encoding', 'gzip']],
  [['Content-Encoding', 'gzip']],
  [
    ['Authorization', 'Bearer a'],
    ['Authorization', 'Bearer b'],
  ],
  [
    ['Content-Type', 'application/json'],
    ['Content-Type', 'application/x-www-form-urlencoded'],
  ],
);

/** Extra headers: a few random ones, sometimes one huge (up to past the 16 KiB head), many, or repeated. */
export const extraHeaders: fc.Arbitrary<Array<[string, string]>> = fc.oneof(
  { weight: 12, arbitrary: fc.array(fc.tuple(headerName, headerValue), { maxLength: 4 }) },
  { weight: 2, arbitrary: specialHeaders },
  { weight: 1, arbitrary: fc.integer({ min: 4_000, max: 20_000 }).map((n): Array<[string, string]> => [['X-Huge', 'h'.repeat(n)]]) },
  { weight: 1, arbitrary: fc.integer({ min: 50, max: 600 }).map((n): Array<[string, string]> => Array.from({ length: n }, (_, i) => [`X-Many-${i}`, 'v'])) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(headerName, headerValue, fc.integer({ min: 2, max: 50 }))
      .map(([n, v, k]) => Array.from({ length: k }, () => [n, v] as [string, string])),
  },
);

export const contentType: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 4, arbitrary: fc.constant('application/x-www-form-urlencoded') },
  { weight: 3, arbitrary: fc.constant('application/json') },
  { weight: 2, arbitrary: fc.constant(undefined) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      'application/x-www-form-urlencoded; charset=UTF-8',
      'APPLICATION/X-WWW-FORM-URLENCODED',
      'application/x-www-form-urlencoded;charset=latin1;x=',
      'application/vnd.api+json',
      'text/plain',
      'multipart/form-data; boundary=x',
      'application/xml',
      '',
      ';',
      'application/x-www-form-urlencoded, application/json',
      '*/*',
    ),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 30 }) },
);

/** Bodies of any kind: empty, text, JSON, raw bytes, and sizes on both sides of the 64 KiB cap. */
export const anyBody: fc.Arbitrary<{ body: string; binary: boolean }> = fc.oneof(
  { weight: 3, arbitrary: fc.constant({ body: '', binary: false }) },
  { weight: 4, arbitrary: fc.string({ maxLength: 200 }).map((body) => ({ body, binary: false })) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 80 }).map((body) => ({ body, binary: false })) },
  { weight: 3, arbitrary: fc.json({ maxDepth: 3 }).map((body) => ({ body, binary: false })) },
  { weight: 2, arbitrary: fc.uint8Array({ maxLength: 300 }).map((bytes) => ({ body: Buffer.from(bytes).toString('latin1'), binary: true })) },
  { weight: 1, arbitrary: fc.integer({ min: 60 * 1024, max: 140 * 1024 }).map((n) => ({ body: 'x'.repeat(n), binary: false })) },
);

/** A path segment: plain, percent-encoded random bytes (valid UTF-8 or not), or raw odd characters. */
const segment: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.stringMatching(/^[a-z0-9._~-]{0,12}$/) },
  { weight: 2, arbitrary: fc.uint8Array({ maxLength: 8 }).map((bytes) => [...bytes].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('')) },
  { weight: 2, arbitrary: fc.constantFrom('..', '.', '%2e%2e', '%2E', '%2f', '%5c', '%00', '%', '%zz', '%c0%ae', '..%2f', '%252e', ';', '~', '@') },
  { weight: 1, arbitrary: fc.string({ unit: 'binary-ascii', maxLength: 6 }) },
);

const KNOWN_PATHS = ['/api/v2/content', '/api/v2/users', '/oauth/token', '/_mock/clock', '/_mock/stats', '/_mock/content'];

/** Targets near a route, one per word (none holds a space); `/`, `*` and the empty target come first where they are used. */
const ODD_TARGETS = wordsOf(`
  /api/v2/content/ //api/v2/content /api/v2/../v2/content /api/v2/%2e%2e/content /api/v2/./content /api/v2/content/.. /API/V2/CONTENT
  /api/v2/c%6fntent /api/v2/content;x=1 /api/v2/content#frag /api/v2/content%00 /api/v2/content%2F..%2F..%2Fetc%2Fpasswd /..%2f..%2f..%2fetc/passwd
  /../../../../etc/passwd /_mock/../api/v2/content /_mock/%2e%2e/reset /_mock /_mock/ /_mock/content/ /oauth/token/ /oauth//token
  /oauth/token?grant_type=client_credentials http://127.0.0.1/api/v2/content api/v2/content /\\api\\v2\\content /% /%zz /%C0%AE%C0%AE/ /api/v2/content?
  /api/v2/content??limit=1 /api/v2/content?&&&
`);

/** Request-targets that are not quite a route: near misses, traversal, odd forms, random segments, long ones. */
const oddTarget: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('/', '*', '', ...ODD_TARGETS) },
  {
    weight: 3,
    arbitrary: fc.tuple(fc.constantFrom('', ...KNOWN_PATHS), fc.array(segment, { maxLength: 5 })).map(([base, segs]) => `${base}/${segs.join('/')}`),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom(...KNOWN_PATHS), fc.integer({ min: 7_000, max: 20_000 }), fc.boolean())
      .map(([base, n, inQuery]) => (inQuery ? `${base}?limit=${'9'.repeat(n)}` : `${base}/${'a'.repeat(n)}`)),
  },
);

/** A request of any method to any target on either origin, with odd headers and any body. */
export const oddRequest: fc.Arbitrary<FuzzRequest> = fc
  .record({
    origin: fc.constantFrom('auth' as const, 'api' as const),
    method,
    target: fc.oneof(oddTarget, fc.constantFrom(...KNOWN_PATHS)),
    version,
    host,
    contentType,
    headers: extraHeaders,
    body: anyBody,
    framing,
  })
  .map(({ body, ...rest }) => fuzzRequestOf({ ...rest, ...body }));
