/**
 * The schemas of schemas/ and what schemas/index.ts builds from them: per-schema cases, the schema
 * files themselves, formatErrors and check, and the standalone validators for k6. One file, longer
 * than most, on purpose: one table of sample documents (CASES) feeds the Ajv validators, the k6
 * standalone validators and the mock bundle's standalone validators alike, which must agree on every case.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import type { ValidateFunction } from 'ajv/dist/2020';
import { buildSync } from 'esbuild';
import { headerLookup, parseRateLimitHeaders } from '../contracts/rate-limit.ts';
import { ZONELESS_TIMESTAMP_PATTERN } from '../contracts/timestamps.ts';
import {
  CONTENT_ATTRIBUTE_VALIDATORS,
  check,
  formatErrors,
  K6_VALIDATOR_EXPORTS,
  SCHEMA_BASE,
  SCHEMA_BY_KEY,
  SCHEMA_IDS,
  SCHEMAS,
  type SchemaKey,
  standaloneValidatorsSource,
  VALIDATORS,
  validateContentItem,
  validateTokenResponse,
} from './index.ts';
import { mockValidatorsSource } from './standalone.ts';

interface Case {
  readonly description: string;
  readonly data: unknown;
  readonly valid: boolean;
}

/** The attributes of the document's table (Content item attributes), in its order. */
const DOCUMENT_ATTRIBUTES = [
  'content-type',
  'external-id',
  'title',
  'summary',
  'url',
  'format',
  'is-obsolete',
  'image-url',
  'language',
  'duration',
  'duration-type',
  'provider',
  'is-internal',
  'owner',
  'learning-minutes',
  'created-at',
  'modified-at',
  'publish-date',
  'platform-url',
] as const;

const ATTRIBUTES: Record<(typeof DOCUMENT_ATTRIBUTES)[number], unknown> = {
  'content-type': 'Article',
  'external-id': 'ext-0001',
  title: 'Writing contract tests',
  summary: 'How to test what a document promises.',
  url: 'https://example.com/articles/contract-tests',
  format: 'Text',
  'is-obsolete': false,
  'image-url': 'https://example.com/images/contract-tests.png',
  language: 'en',
  duration: 12.5,
  'duration-type': 'Minutes',
  provider: 'Mock Academy',
  'is-internal': false,
  owner: 'Content Team',
  'learning-minutes': 12.5,
  'created-at': '2022-03-13T21:31:12.44',
  'modified-at': '2022-03-14T08:00:00.1234567',
  'publish-date': '2022-03-13T21:31:12.4',
  'platform-url': 'https://betatest.degreed.com/content/abc123',
};

const attributes = (changes: Record<string, unknown> = {}, drop: readonly string[] = []) =>
  Object.fromEntries(Object.entries({ ...ATTRIBUTES, ...changes }).filter(([name]) => !drop.includes(name)));
const item = (changes: Record<string, unknown> = {}, attributeChanges: Record<string, unknown> = {}) => ({
  type: 'content',
  id: 'abc123',
  attributes: attributes(attributeChanges),
  ...changes,
});
const page = (links: Record<string, unknown>, data: unknown[] = [item()]) => ({ links, data });
const SELF = 'https://api.betatest.degreed.com/api/v2/content?limit=5';
const NEXT = 'https://api.betatest.degreed.com/api/v2/content?limit=5&next=plErSU';

const user = (changes: Record<string, unknown> = {}) => ({
  type: 'users',
  id: 'u-1',
  attributes: { 'first-name': 'Ada', 'last-name': 'Lovelace', 'login-disabled': 'True', restricted: false, 'permission-role': 'Member' },
  ...changes,
});
const TOKEN = { access_token: 'example-access', token_type: 'bearer', expires_in: 5_183_999, refresh_token: 'example-refresh' };
const ERROR = {
  id: '2b3c4d5e-0000-4000-8000-000000000000',
  code: 'quota-exceeded',
  status: 429,
  title: 'API calls quota exceeded.',
  detail: 'Maximum 200 requests allowed per 1m.',
};
const HEADERS = { 'x-rate-limit-limit': '1m', 'x-rate-limit-remaining': '69', 'x-rate-limit-reset': '2021-10-26T20:39:22.1494434Z' };

const CASES: Partial<Record<SchemaKey, readonly Case[]>> = {
  contentAttributes: [
    { description: 'every attribute of the document, well typed', data: attributes(), valid: true },
    { description: 'created-at with 1 fractional digit', data: attributes({ 'created-at': '2022-03-13T21:31:12.4' }), valid: true },
    { description: 'created-at with 7 fractional digits', data: attributes({ 'created-at': '2022-03-13T21:31:12.4400000' }), valid: true },
    { description: 'created-at with 8 fractional digits', data: attributes({ 'created-at': '2022-03-13T21:31:12.44000000' }), valid: false },
    { description: 'created-at without a fraction', data: attributes({ 'created-at': '2022-03-13T21:31:12' }), valid: false },
    { description: 'created-at with a zone (Z)', data: attributes({ 'created-at': '2022-03-13T21:31:12.44Z' }), valid: false },
    { description: 'created-at with an offset', data: attributes({ 'created-at': '2022-03-13T21:31:12.44+02:00' }), valid: false },
    { description: 'created-at as a date only', data: attributes({ 'created-at': '2022-03-13' }), valid: false },
    { description: 'modified-at with a zone', data: attributes({ 'modified-at': '2022-03-14T08:00:00.12Z' }), valid: false },
    { description: 'publish-date null', data: attributes({ 'publish-date': null }), valid: true },
    { description: 'publish-date with a zone', data: attributes({ 'publish-date': '2022-03-13T21:31:12.4Z' }), valid: false },
    { description: 'publish-date as an empty string', data: attributes({ 'publish-date': '' }), valid: false },
    { description: 'is-obsolete "false" (a string)', data: attributes({ 'is-obsolete': 'false' }), valid: false },
    { description: 'is-internal 0', data: attributes({ 'is-internal': 0 }), valid: false },
    { description: 'is-obsolete true', data: attributes({ 'is-obsolete': true }), valid: true },
    { description: 'duration as a string', data: attributes({ duration: '12.5' }), valid: false },
    { description: 'duration as an integer', data: attributes({ duration: 30 }), valid: true },
    { description: 'duration 0', data: attributes({ duration: 0 }), valid: true },
    { description: 'duration negative', data: attributes({ duration: -0.5 }), valid: false },
    { description: 'learning-minutes negative', data: attributes({ 'learning-minutes': -1 }), valid: false },
    { description: 'learning-minutes null', data: attributes({ 'learning-minutes': null }), valid: false },
    { description: 'title as a number', data: attributes({ title: 42 }), valid: false },
    { description: 'image-url empty (no image)', data: attributes({ 'image-url': '' }), valid: true },
    { description: 'image-url without a scheme', data: attributes({ 'image-url': 'example.com/a.png' }), valid: false },
    { description: 'url with another scheme', data: attributes({ url: 'mailto:team@example.com' }), valid: true },
    { description: 'platform-url relative', data: attributes({ 'platform-url': '/content/abc123' }), valid: false },
    {
      description: 'unknown attributes (degreed-url, visibility)',
      data: attributes({ 'degreed-url': 'https://degreed.com/x', visibility: 'Public' }),
      valid: true,
    },
    ...DOCUMENT_ATTRIBUTES.map((name) => ({ description: `${name} missing`, data: attributes({}, [name]), valid: false })),
    { description: 'an array', data: [attributes()], valid: false },
  ],
  contentItem: [
    { description: 'a content item', data: item(), valid: true },
    { description: 'type "contents"', data: item({ type: 'contents' }), valid: false },
    { description: 'type "users"', data: item({ type: 'users' }), valid: false },
    { description: 'id as a number', data: item({ id: 1 }), valid: false },
    { description: 'id empty', data: item({ id: '' }), valid: false },
    { description: 'attributes missing', data: { type: 'content', id: 'abc123' }, valid: false },
    { description: 'an attribute with a zone', data: item({}, { 'modified-at': '2022-03-14T08:00:00.12Z' }), valid: false },
    { description: 'extra members (links, relationships)', data: item({ links: { self: 'https://x' }, relationships: {} }), valid: true },
  ],
  contentList: [
    { description: 'a page with links.next', data: page({ self: SELF, next: NEXT }), valid: true },
    { description: 'final page, next absent', data: page({ self: SELF }), valid: true },
    { description: 'final page, next null', data: page({ self: SELF, next: null }), valid: true },
    { description: 'final page, next ""', data: page({ self: SELF, next: '' }), valid: true },
    { description: 'an empty trailing page', data: page({ self: SELF }, []), valid: true },
    {
      description: 'self without the query (as the real service sends it)',
      data: page({ self: 'https://api.betatest.degreed.com/api/v2/content' }),
      valid: true,
    },
    { description: 'self missing', data: page({ next: NEXT }), valid: false },
    { description: 'self relative', data: page({ self: '/api/v2/content' }), valid: false },
    { description: 'next relative', data: page({ self: SELF, next: '/api/v2/content?next=plErSU' }), valid: false },
    { description: 'next a number', data: page({ self: SELF, next: 5 }), valid: false },
    { description: 'links missing', data: { data: [item()] }, valid: false },
    { description: 'data missing', data: { links: { self: SELF } }, valid: false },
    { description: 'data an object', data: { links: { self: SELF }, data: item() }, valid: false },
    { description: 'an item of type "contents" in data', data: page({ self: SELF }, [item(), item({ type: 'contents' })]), valid: false },
    { description: 'an item with "is-obsolete": "false" in data', data: page({ self: SELF }, [item({}, { 'is-obsolete': 'false' })]), valid: false },
    { description: 'extra members (meta, links.prev)', data: { ...page({ self: SELF, prev: SELF }), meta: { count: 1 } }, valid: true },
  ],
  listEnvelope: [
    { description: 'any resource objects in data', data: page({ self: SELF }, [{ anything: true }]), valid: true },
    { description: 'self missing', data: page({}), valid: false },
  ],
  resourceObject: [
    { description: 'type, id, attributes', data: { type: 'anything', id: '1', attributes: {} }, valid: true },
    { description: 'attributes an array', data: { type: 'anything', id: '1', attributes: [] }, valid: false },
  ],
  usersItem: [
    { description: 'a user with mixed attribute types ("True" strings)', data: user(), valid: true },
    { description: 'a user with no attributes', data: user({ attributes: {} }), valid: true },
    { description: 'type "user"', data: user({ type: 'user' }), valid: false },
    { description: 'type "content"', data: user({ type: 'content' }), valid: false },
    { description: 'id missing', data: { type: 'users', attributes: {} }, valid: false },
    { description: 'attributes a string', data: user({ attributes: 'none' }), valid: false },
  ],
  usersList: [
    { description: 'a page of users', data: { links: { self: SELF, next: NEXT }, data: [user(), user({ id: 'u-2' })] }, valid: true },
    { description: 'a page with a content item', data: { links: { self: SELF }, data: [item()] }, valid: false },
    { description: 'final page, next null', data: { links: { self: SELF, next: null }, data: [] }, valid: true },
  ],
  tokenResponse: [
    { description: 'the real service example', data: TOKEN, valid: true },
    { description: 'token_type "Bearer"', data: { ...TOKEN, token_type: 'Bearer' }, valid: true },
    { description: 'token_type "BEARER"', data: { ...TOKEN, token_type: 'BEARER' }, valid: true },
    { description: 'token_type "mac"', data: { ...TOKEN, token_type: 'mac' }, valid: false },
    { description: 'token_type "bearer " (trailing space)', data: { ...TOKEN, token_type: 'bearer ' }, valid: false },
    { description: 'expires_in 0', data: { ...TOKEN, expires_in: 0 }, valid: false },
    { description: 'expires_in "5184000" (a string)', data: { ...TOKEN, expires_in: '5184000' }, valid: false },
    { description: 'expires_in 1.5', data: { ...TOKEN, expires_in: 1.5 }, valid: false },
    { description: 'expires_in 1', data: { ...TOKEN, expires_in: 1 }, valid: true },
    { description: 'access_token empty', data: { ...TOKEN, access_token: '' }, valid: false },
    ...(['access_token', 'token_type', 'expires_in', 'refresh_token'] as const).map((name) => ({
      description: `${name} missing`,
      data: Object.fromEntries(Object.entries(TOKEN).filter(([key]) => key !== name)),
      valid: false,
    })),
    { description: 'extra members (scope)', data: { ...TOKEN, scope: 'content:read' }, valid: true },
  ],
  errorBody: [
    { description: 'the real service fixture (status a number)', data: { errors: [ERROR] }, valid: true },
    { description: 'status a numeric string (JSON:API)', data: { errors: [{ ...ERROR, status: '429' }] }, valid: true },
    { description: 'status and detail only', data: { errors: [{ status: 400, detail: 'limit must be 1 to 1000' }] }, valid: true },
    { description: 'status and title only', data: { errors: [{ status: 401, title: 'Authentication required.' }] }, valid: true },
    { description: 'with source.parameter', data: { errors: [{ ...ERROR, status: 400, source: { parameter: 'limit' } }] }, valid: true },
    { description: 'neither title nor detail', data: { errors: [{ status: 400, code: 'invalid-parameter' }] }, valid: false },
    { description: 'title a number, detail a string', data: { errors: [{ status: 400, title: 4, detail: 'x' }] }, valid: false },
    { description: 'status missing', data: { errors: [{ title: 'Oops.' }] }, valid: false },
    { description: 'status "Too Many Requests"', data: { errors: [{ ...ERROR, status: 'Too Many Requests' }] }, valid: false },
    { description: 'status 42', data: { errors: [{ ...ERROR, status: 42 }] }, valid: false },
    { description: 'errors empty', data: { errors: [] }, valid: false },
    { description: 'errors missing (an OAuth error body)', data: { error: 'invalid_client', error_description: 'unknown client' }, valid: false },
    { description: 'errors an object', data: { errors: ERROR }, valid: false },
    { description: 'extra members (meta)', data: { errors: [ERROR], meta: {} }, valid: true },
  ],
  rateLimitHeaders: [
    { description: 'the real service example (7 fractional digits)', data: HEADERS, valid: true },
    {
      description: 'period 12h, reset without a fraction',
      data: { ...HEADERS, 'x-rate-limit-limit': '12h', 'x-rate-limit-reset': '2021-10-26T20:39:22Z' },
      valid: true,
    },
    { description: 'period 1d, remaining 0', data: { ...HEADERS, 'x-rate-limit-limit': '1d', 'x-rate-limit-remaining': '0' }, valid: true },
    { description: 'reset +00:00', data: { ...HEADERS, 'x-rate-limit-reset': '2021-10-26T20:39:22.149+00:00' }, valid: true },
    { description: 'other headers too', data: { ...HEADERS, 'content-type': 'application/json' }, valid: true },
    { description: 'period "minute"', data: { ...HEADERS, 'x-rate-limit-limit': 'minute' }, valid: false },
    { description: 'period "0m"', data: { ...HEADERS, 'x-rate-limit-limit': '0m' }, valid: false },
    { description: 'period "1 m"', data: { ...HEADERS, 'x-rate-limit-limit': '1 m' }, valid: false },
    { description: 'remaining -1', data: { ...HEADERS, 'x-rate-limit-remaining': '-1' }, valid: false },
    { description: 'remaining 1.5', data: { ...HEADERS, 'x-rate-limit-remaining': '1.5' }, valid: false },
    { description: 'reset without a zone', data: { ...HEADERS, 'x-rate-limit-reset': '2021-10-26T20:39:22.1494434' }, valid: false },
    { description: 'reset in another zone', data: { ...HEADERS, 'x-rate-limit-reset': '2021-10-26T20:39:22+02:00' }, valid: false },
    { description: 'reset as an HTTP-date', data: { ...HEADERS, 'x-rate-limit-reset': 'Tue, 26 Oct 2021 20:39:22 GMT' }, valid: false },
    ...Object.keys(HEADERS).map((name) => ({
      description: `${name} missing`,
      data: Object.fromEntries(Object.entries(HEADERS).filter(([key]) => key !== name)),
      valid: false,
    })),
  ],
};

const verdict = (valid: boolean) => (valid ? 'accepts' : 'rejects');

for (const [key, cases] of Object.entries(CASES) as [SchemaKey, readonly Case[]][]) {
  test.describe(`${key} schema`, () => {
    for (const { description, data, valid } of cases) {
      test(`${verdict(valid)} ${description}`, () => {
        const validate = VALIDATORS[key];
        const ok = validate(data);
        expect(ok, `expected the ${key} schema to ${verdict(valid).slice(0, -1)} it; errors:\n${formatErrors(validate.errors)}`).toBe(valid);
      });
    }
  });
}

test.describe('schema files', () => {
  test('one file per schema, each with a 2020-12 $schema, an $id named after the file, a title and a description', () => {
    const files = readdirSync(__dirname).filter((name) => name.endsWith('.schema.json'));
    const ids = files.map((name) => `${SCHEMA_BASE}${name.replace(/\.schema\.json$/, '.json')}`);
    expect(ids.sort()).toEqual(Object.values(SCHEMA_IDS).sort());
    for (const name of files) {
      const schema = JSON.parse(readFileSync(path.join(__dirname, name), 'utf8')) as Record<string, unknown>;
      expect(schema.$schema, name).toBe('https://json-schema.org/draft/2020-12/schema');
      expect(typeof schema.title, name).toBe('string');
      expect(typeof schema.description, name).toBe('string');
    }
    for (const [key, id] of Object.entries(SCHEMA_IDS)) expect(SCHEMA_BY_KEY[key as SchemaKey].$id).toBe(id);
    expect(SCHEMAS).toHaveLength(files.length);
  });

  test('content attributes require exactly the attributes of the document', () => {
    expect([...(SCHEMA_BY_KEY.contentAttributes.required as string[])].sort()).toEqual([...DOCUMENT_ATTRIBUTES].sort());
  });

  test('timestamps use the pattern of contracts/timestamps.ts', () => {
    const properties = SCHEMA_BY_KEY.contentAttributes.properties as Record<string, { pattern?: string; anyOf?: { pattern?: string }[] }>;
    expect(properties['created-at']?.pattern).toBe(ZONELESS_TIMESTAMP_PATTERN);
    expect(properties['modified-at']?.pattern).toBe(ZONELESS_TIMESTAMP_PATTERN);
    expect(properties['publish-date']?.anyOf?.[0]?.pattern).toBe(ZONELESS_TIMESTAMP_PATTERN);
  });

  test('the rate-limit headers schema names the headers of contracts/limits.ts and agrees with parseRateLimitHeaders', () => {
    for (const { description, data, valid } of CASES.rateLimitHeaders ?? []) {
      const parsed = parseRateLimitHeaders(headerLookup(data as Record<string, string>));
      expect(parsed.ok, description).toBe(valid);
    }
  });

  test('k6-safe: no format keyword, no named groups, no \\u{...} escapes', () => {
    const found: string[] = [];
    const walk = (node: unknown, at: string): void => {
      if (Array.isArray(node)) {
        for (const [i, child] of node.entries()) walk(child, `${at}/${i}`);
      } else if (node !== null && typeof node === 'object') {
        for (const [key, child] of Object.entries(node)) {
          // Under `properties` a key is a property name, not a keyword.
          if (key === 'format' && typeof child === 'string' && !at.endsWith('/properties')) found.push(`${at}/format`);
          if (key === 'pattern' && typeof child === 'string' && /\(\?<[A-Za-z]|\\u\{|\\p\{/.test(child)) found.push(`${at}/pattern ${child}`);
          walk(child, `${at}/${key}`);
        }
      }
    };
    for (const schema of SCHEMAS) walk(schema, schema.$id);
    expect(found).toEqual([]);
  });
});

test.describe('formatErrors and check', () => {
  test('names the path, the rule and the offending value', () => {
    const data = item({}, { 'created-at': '2022-03-13T21:31:12.44Z', 'is-obsolete': 'false' });
    expect(validateContentItem(data)).toBe(false);
    const text = formatErrors(validateContentItem.errors);
    expect(text).toContain('/attributes/created-at must match pattern');
    expect(text).toContain('(got "2022-03-13T21:31:12.44Z")');
    expect(text).toContain('/attributes/is-obsolete must be boolean (got "false")');
  });

  test('a missing member is named without dumping its parent', () => {
    const result = check(validateContentItem, item({}, {}));
    expect(result.ok).toBe(true);
    const missing = check(validateContentItem, { type: 'content', id: '1', attributes: attributes({}, ['title']) });
    expect(missing.ok).toBe(false);
    if (!missing.ok) {
      expect(missing.error).toContain('Content item schema (https://lp-contract.dev/schemas/content-item.json)');
      expect(missing.error).toContain("/attributes must have required property 'title'");
      expect(missing.error).not.toContain('(got');
    }
  });

  test('long values are cut and the list is capped', () => {
    const long = 'x'.repeat(500);
    const wrong = Object.fromEntries(DOCUMENT_ATTRIBUTES.map((name) => [name, {}]));
    expect(validateContentItem(item({ id: 1 }, { ...wrong, 'image-url': long }))).toBe(false);
    // Ten errors, then a count of the rest.
    const text = formatErrors(validateContentItem.errors, undefined);
    expect(text.split('\n')).toHaveLength(11);
    expect(text).toMatch(/… and \d+ more$/);
    expect(validateContentItem(item({}, { 'image-url': long }))).toBe(false);
    expect(formatErrors(validateContentItem.errors, undefined)).toContain(`(got "${'x'.repeat(79)}…)`);
  });

  test('tokens and secrets are never shown', () => {
    const body = { access_token: 'sekret-access-value', token_type: 'mac', expires_in: 0, refresh_token: 42 };
    expect(validateTokenResponse(body)).toBe(false);
    const text = formatErrors(validateTokenResponse.errors);
    expect(text).toContain('/token_type must match pattern');
    expect(text).toContain('/refresh_token must be string (got [redacted])');
    expect(validateTokenResponse([body])).toBe(false);
    const root = formatErrors(validateTokenResponse.errors);
    expect(`${text}\n${root}`).not.toContain('sekret');
  });

  test('errors of a non-verbose validator take their value from the data', () => {
    const errors = [{ instancePath: '/a~1b/0', schemaPath: '#', keyword: 'type', params: { type: 'string' }, message: 'must be string' }];
    expect(formatErrors(errors, { 'a/b': [5] })).toBe('/a~1b/0 must be string (got 5)');
    expect(formatErrors([])).toBe('no errors');
  });
});

test.describe('standalone validators for k6', () => {
  let dir = '';
  let source = '';
  test.beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'lp-standalone-'));
    source = standaloneValidatorsSource();
  });
  test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('the generated code needs neither ajv-formats nor `u`-flag regexes', () => {
    // Booleans, not toContain: a failure would otherwise print 60 kB of generated code.
    expect(/(?:require\(|from\s*)["']ajv-formats/.test(source), 'imports ajv-formats').toBe(false);
    expect(/new RegExp\([^)]*,\s*"[a-z]*u[a-z]*"\)/.test(source), 'builds a `u`-flag regex').toBe(false);
    expect(source.includes('\\u{'), 'holds a \\u{...} escape').toBe(false);
    const requires = [...source.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1]);
    for (const module of requires) expect(module).toMatch(/^ajv\/dist\/runtime\//);
    for (const name of Object.keys(K6_VALIDATOR_EXPORTS)) expect(source.includes(`export const ${name} =`), name).toBe(true);
  });

  test('bundled as k6 bundles are (esm, neutral, es2017), it imports nothing and judges every case as the compiled schemas do', () => {
    const built = buildSync({
      stdin: { contents: source, resolveDir: __dirname, sourcefile: 'validators.generated.mjs', loader: 'js' },
      bundle: true,
      format: 'esm',
      platform: 'neutral',
      target: 'es2017',
      external: ['k6', 'k6/*'],
      metafile: true,
      write: false,
      logLevel: 'silent',
    });
    const outputs = Object.values(built.metafile.outputs);
    expect(outputs).toHaveLength(1);
    expect(outputs[0]?.imports).toEqual([]);
    // Load the same code in Node: CommonJS, so that no ESM loader is needed here.
    const cjs = buildSync({ stdin: { contents: source, resolveDir: __dirname, loader: 'js' }, bundle: true, format: 'cjs', platform: 'neutral', write: false });
    const file = path.join(dir, 'validators.cjs');
    writeFileSync(file, cjs.outputFiles[0]?.text ?? '');
    const standalone = createRequire(__filename)(file) as Record<string, (data: unknown) => boolean>;
    const keyById = new Map(Object.entries(SCHEMA_IDS).map(([key, id]) => [id, key as SchemaKey]));
    for (const [name, id] of Object.entries(K6_VALIDATOR_EXPORTS)) {
      const validate = standalone[name];
      expect(typeof validate, name).toBe('function');
      for (const { description, data, valid } of CASES[keyById.get(id)!] ?? []) {
        expect(validate?.(data), `${name}: ${description}`).toBe(valid);
      }
    }
  });
});

test.describe('standalone validators for the mock bundle', () => {
  let dir = '';
  test.beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'lp-mock-validators-'));
  });
  test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('bundled as the mock bundle is (cjs, node), they judge every case with the same errors, schemas and attribute validators as the compiled ones', () => {
    const built = buildSync({
      stdin: { contents: mockValidatorsSource(), resolveDir: __dirname, sourcefile: 'validators.generated.mjs', loader: 'js' },
      bundle: true,
      format: 'cjs',
      platform: 'node',
      target: 'node20',
      write: false,
      logLevel: 'silent',
    });
    const file = path.join(dir, 'validators.cjs');
    writeFileSync(file, built.outputFiles[0]?.text ?? '');
    const standalone = createRequire(__filename)(file) as Record<string, unknown>;
    for (const [key, compiled] of Object.entries(VALIDATORS) as [SchemaKey, ValidateFunction][]) {
      const name = `validate${key.charAt(0).toUpperCase()}${key.slice(1)}`;
      const validate = standalone[name] as typeof compiled;
      expect(typeof validate, name).toBe('function');
      expect(validate.schema, `${name}.schema`).toEqual(SCHEMA_BY_KEY[key]);
      for (const { description, data } of CASES[key] ?? []) {
        // check() reads the schema's title and id and formats the (verbose) errors: the whole sentence must agree.
        expect(check(validate, data), `${name}: ${description}`).toEqual(check(compiled, data));
      }
    }
    const attributes = standalone.CONTENT_ATTRIBUTE_VALIDATORS as typeof CONTENT_ATTRIBUTE_VALIDATORS;
    expect([...attributes.keys()]).toEqual([...CONTENT_ATTRIBUTE_VALIDATORS.keys()]);
    for (const [name, compiled] of CONTENT_ATTRIBUTE_VALIDATORS) {
      const validate = attributes.get(name)!;
      expect(validate.schema, name).toEqual(compiled.schema);
      for (const value of [null, 1, '', 'x', true, '2024-01-01T00:00:00Z', 'https://example.com/a']) {
        expect(validate(value), `${name}: ${JSON.stringify(value)}`).toBe(compiled(value));
        expect(validate.errors ?? null, `${name}: ${JSON.stringify(value)}`).toEqual(compiled.errors ?? null);
      }
    }
  });
});
