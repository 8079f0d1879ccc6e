import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import SwaggerParser from '@apidevtools/swagger-parser';
import { expect, test } from '@playwright/test';
import Ajv2020 from 'ajv/dist/2020';
import { SCHEMA_BY_KEY } from './index.ts';
import { CONTENT_FILTERS, ENDPOINTS, RESOURCE_ENDPOINTS } from '../contracts/endpoints.ts';
import { HOSTS } from '../contracts/environments.ts';
import { PAGE_LIMIT, RATE_LIMIT_HEADERS } from '../contracts/limits.ts';
import { buildOpenApiDocument, componentName, embedSchema, SECURITY_SCHEME } from './openapi.ts';
import { SCOPES } from '../contracts/scopes.ts';
import { ROOT, tsNodeArgs } from '../common/root.ts';

const run = promisify(execFile);

type Node = Record<string, unknown>;
const at = (node: unknown, ...keys: string[]): Node => {
  let here = node;
  for (const key of keys) here = (here as Node | undefined)?.[key];
  if (here === null || typeof here !== 'object') throw new Error(`nothing at ${keys.join('/')}`);
  return here as Node;
};

const document = buildOpenApiDocument();

/** Every operation with its path key and method. */
const operations = Object.entries(document.paths).flatMap(([key, item]) =>
  Object.entries(item)
    .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
    .map(([method, operation]) => ({ key, method, item, operation: operation as Node })),
);
const operation = (id: string) => {
  const found = operations.find((o) => o.operation.operationId === id);
  if (!found) throw new Error(`no operation ${id}`);
  return found;
};

test('the document validates as OpenAPI 3.1 (swagger-parser)', async () => {
  // validate() dereferences the object it is given: a copy keeps `document` intact for the other tests.
  await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeTruthy();
  expect(document.openapi).toBe('3.1.0');
});

test('every endpoint is an operation at its address on its origin', () => {
  expect(operations).toHaveLength(Object.keys(ENDPOINTS).length);
  for (const endpoint of Object.values(ENDPOINTS)) {
    const { key, method, item } = operation(endpoint.id);
    expect(method, endpoint.id).toBe(endpoint.method.toLowerCase());
    const servers = (item.servers ?? document.servers) as { url: string }[];
    const betatest = HOSTS.betatest.us[endpoint.origin === 'auth' ? 'authUrl' : 'baseUrl'];
    // Server URL + path key is the endpoint's address, whatever the split.
    expect(`${servers[0]?.url}${key}`, endpoint.id).toBe(`${betatest}${endpoint.path}`);
    for (const server of servers) expect(`${server.url}${key}`.endsWith(endpoint.path), server.url).toBe(true);
  }
});

test('OAuth2 client credentials with every scope of contracts/scopes.ts', () => {
  const scheme = at(document.components.securitySchemes, SECURITY_SCHEME);
  expect(scheme.type).toBe('oauth2');
  const flow = at(scheme, 'flows', 'clientCredentials');
  expect(flow.tokenUrl).toBe(`${HOSTS.betatest.us.authUrl}${ENDPOINTS.token.path}`);
  expect(Object.keys(at(flow, 'scopes')).sort()).toEqual([...SCOPES].sort());
});

test('bearer security with the accepted scopes; the token endpoint has none', () => {
  expect(operation('token').operation.security).toEqual([]);
  expect(operation('logout').operation.security).toEqual([{ [SECURITY_SCHEME]: [] }]);
  for (const endpoint of RESOURCE_ENDPOINTS) {
    expect(operation(endpoint.id).operation.security).toEqual(endpoint.acceptedScopes.map((scope) => ({ [SECURITY_SCHEME]: [scope] })));
  }
});

test('every query parameter, limit bounded by PAGE_LIMIT, filters as dates', () => {
  const parameters = document.components.parameters;
  const resolved = (endpointId: string) =>
    (operation(endpointId).operation.parameters as { $ref: string }[]).map((p) => at(parameters, p.$ref.replace('#/components/parameters/', '')));
  for (const endpoint of RESOURCE_ENDPOINTS) {
    expect(resolved(endpoint.id).map((p) => p.name)).toEqual(endpoint.query.map((q) => q.name));
  }
  const limit = at(parameters, 'limit', 'schema');
  expect(limit).toEqual({ type: 'integer', minimum: PAGE_LIMIT.min, maximum: PAGE_LIMIT.max, default: PAGE_LIMIT.default });
  const content = resolved('listContent');
  for (const filter of CONTENT_FILTERS) {
    expect(content.find((p) => p.name === filter.name)?.schema, filter.name).toEqual({ type: 'string', format: 'date' });
  }
});

test('request bodies: a form for the token, optional JSON for logout', () => {
  const token = at(operation('token').operation, 'requestBody');
  expect(token.required).toBe(true);
  expect(at(token, 'content', 'application/x-www-form-urlencoded', 'schema').required).toEqual(['grant_type', 'client_id', 'client_secret', 'scope']);
  const logout = at(operation('logout').operation, 'requestBody');
  expect(logout.required).toBe(false);
  expect(Object.keys(at(logout, 'content'))).toEqual(['application/json']);
});

test('resource responses: schemas of schemas/, rate-limit headers, 401/403/410/429 with the error body, 429 with Retry-After', () => {
  const rateHeaders = Object.values(RATE_LIMIT_HEADERS).map((name) =>
    name.replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => `${dash}${c.toUpperCase()}`),
  );
  expect(rateHeaders).toEqual(['X-Rate-Limit-Limit', 'X-Rate-Limit-Remaining', 'X-Rate-Limit-Reset']);
  for (const endpoint of RESOURCE_ENDPOINTS) {
    const responses = at(operation(endpoint.id).operation, 'responses');
    const list = endpoint.resourceType === 'users' ? 'UsersList' : 'ContentList';
    expect(at(responses, '200', 'content', 'application/json', 'schema')).toEqual({ $ref: `#/components/schemas/${list}` });
    for (const status of ['200', '400', '401', '403', '410', '429']) {
      expect(Object.keys(at(responses, status, 'headers')), `${endpoint.id} ${status}`).toEqual(expect.arrayContaining(rateHeaders));
    }
    for (const status of ['400', '401', '403', '410', '429']) {
      expect(at(responses, status, 'content', 'application/json', 'schema'), `${endpoint.id} ${status}`).toEqual({ $ref: '#/components/schemas/ErrorBody' });
    }
    expect(at(responses, '429', 'headers', 'Retry-After')).toEqual({ $ref: '#/components/headers/Retry-After' });
    expect(at(responses, '401', 'headers', 'WWW-Authenticate')).toBeTruthy();
  }
  expect(at(document.components.headers, 'Retry-After').required).toBe(true);
});

test('the embedded schemas keep no $id and reference only components', () => {
  const refs: string[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node !== null && typeof node === 'object')
      for (const [key, value] of Object.entries(node)) {
        if (key === '$ref' && typeof value === 'string') refs.push(value);
        else walk(value);
      }
  };
  walk(document);
  for (const ref of refs) expect(ref).toMatch(/^#\/components\/(schemas|parameters|headers)\//);
  for (const [key, schema] of Object.entries(SCHEMA_BY_KEY)) {
    const component = at(document.components.schemas, componentName(key as keyof typeof SCHEMA_BY_KEY));
    expect(component.$id, key).toBeUndefined();
    expect(component.title).toBe(schema.title);
  }
});

test('embedding rewrites relative, absolute and fragment $refs to components and refuses one outside schemas/', () => {
  const base = { $schema: 'https://json-schema.org/draft/2020-12/schema', title: 't', description: 'd' };
  const schema = {
    ...base,
    $id: SCHEMA_BY_KEY.contentList.$id,
    properties: {
      a: { $ref: 'content-item.json' },
      b: { $ref: SCHEMA_BY_KEY.errorBody.$id },
      c: { $ref: '#/$defs/x' },
      d: { $ref: 'list-envelope.json#/properties/links' },
    },
    $defs: { x: { type: 'string' } },
  };
  expect(embedSchema(schema)).toEqual({
    title: 't',
    description: 'd',
    properties: {
      a: { $ref: '#/components/schemas/ContentItem' },
      b: { $ref: '#/components/schemas/ErrorBody' },
      c: { $ref: '#/components/schemas/ContentList/$defs/x' },
      d: { $ref: '#/components/schemas/ListEnvelope/properties/links' },
    },
    $defs: { x: { type: 'string' } },
  });
  expect(() => embedSchema({ ...base, $id: SCHEMA_BY_KEY.contentList.$id, $ref: 'https://example.com/other.json' })).toThrow(/points outside schemas/);
});

test('the embedded schemas judge bodies as schemas/ does', () => {
  // Resolve the rewritten $refs the way an OpenAPI 3.1 tool does: inside the document.
  const ajv = new Ajv2020({ strict: false, validateFormats: false });
  ajv.addSchema({ ...document }, 'urn:lp:openapi');
  const validate = ajv.compile({ $ref: 'urn:lp:openapi#/components/schemas/ContentList' });
  const attributes = {
    'content-type': 'Video',
    'external-id': 'e',
    title: 't',
    summary: 's',
    url: 'https://example.com',
    format: 'Video',
    'is-obsolete': false,
    'image-url': '',
    language: 'en',
    duration: 3.5,
    'duration-type': 'Minutes',
    provider: 'Mock Academy',
    'is-internal': true,
    owner: 'o',
    'learning-minutes': 3.5,
    'created-at': '2022-03-13T21:31:12.44',
    'modified-at': '2022-03-13T21:31:12.4400000',
    'publish-date': null,
    'platform-url': 'https://example.com/p',
  };
  const page = (changes: Record<string, unknown>) => ({
    links: { self: 'https://api.example.com/api/v2/content', next: null },
    data: [{ type: 'content', id: '1', attributes: { ...attributes, ...changes } }],
  });
  expect(validate(page({}))).toBe(true);
  expect(validate(page({ 'created-at': '2022-03-13T21:31:12.44Z' }))).toBe(false);
  expect(validate(page({ 'is-obsolete': 'false' }))).toBe(false);
});

test('npm run openapi writes the document and prints its path; a bad flag is refused with exit code 2', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'lp-openapi-'));
  try {
    const out = path.join(dir, 'openapi.json');
    const { stdout } = await run(process.execPath, tsNodeArgs('mock/openapi-cli.ts', ['--out', out]), { cwd: ROOT });
    expect(stdout.trim()).toBe(out);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual(JSON.parse(JSON.stringify(buildOpenApiDocument())));
    const refused = await run(process.execPath, tsNodeArgs('mock/openapi-cli.ts', ['--bogus']), { cwd: ROOT }).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => error,
    );
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('unknown argument "--bogus"');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
