/**
 * The OpenAPI 3.1 document of the API, generated from the contract (endpoints, scopes, limits, hosts, open behaviours) and the JSON Schemas of schemas/:
 * nothing here repeats a number or a shape. `npm run openapi` writes it to dist/openapi.json.
 *
 * Node only (it embeds the schema files and resolves $refs with `URL`): load/tsconfig.json leaves it out.
 */
import { type JsonSchema, SCHEMA_BY_KEY, type SchemaKey } from './index.ts';
import { API_PREFIX, ENDPOINTS, type Endpoint, type Origin, type QueryParameter, RESOURCE_ENDPOINTS } from '../contracts/endpoints.ts';
import { DATA_CENTERS, ENVIRONMENTS, HOSTS, type Hosts, organizationHosts } from '../contracts/environments.ts';
import { DEFAULT_RATE, DEFAULT_TOKEN_TTL_SECONDS, PAGE_LIMIT, RATE_LIMIT_HEADERS, RETRY_AFTER_HEADER, SNAPSHOT_TTL_SECONDS } from '../contracts/limits.ts';
import { MISSING_SCOPE_STATUSES, TOKEN_REFUSAL_STATUSES, UNAUTHENTICATED_STATUSES } from '../contracts/open-behaviours.ts';
import { formatScopeList, SCOPES, type Scope } from '../contracts/scopes.ts';

/** A JSON value of the document; the document is plain data (JSON.stringify-able). */
type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

export const SECURITY_SCHEME = 'oauth2';

/** `contentList` → `ContentList`: the component name of a schema of schemas/. */
export function componentName(key: SchemaKey): string {
  return key.charAt(0).toUpperCase() + key.slice(1);
}

const schemaRef = (key: SchemaKey): JsonObject => ({ $ref: `#/components/schemas/${componentName(key)}` });

/**
 * A schema of schemas/ as a component: its `$id` and `$schema` go (an `$id` would become the base URI of the `#/components/...` references inside it), and
 * every `$ref` to a schema file, relative or absolute, becomes a reference to that file's component, fragment kept.
 */
export function embedSchema(schema: JsonSchema): JsonObject {
  const componentById = new Map(Object.entries(SCHEMA_BY_KEY).map(([key, s]) => [s.$id, `#/components/schemas/${componentName(key as SchemaKey)}`]));
  const own = componentById.get(schema.$id);
  const componentRef = (ref: string): string => {
    const absolute = new URL(ref, schema.$id);
    const fragment = absolute.hash;
    absolute.hash = '';
    const target = absolute.href === schema.$id ? own : componentById.get(absolute.href);
    if (!target) throw new Error(`${schema.$id}: $ref "${ref}" points outside schemas/ (${absolute.href})`);
    // `#/$defs/x` inside the file is `#/components/schemas/Name/$defs/x` in the document.
    return `${target}${fragment.length > 1 ? fragment.slice(1) : ''}`;
  };
  const rewrite = (node: unknown): Json => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (node === null || typeof node !== 'object') return node as Json;
    return Object.fromEntries(
      Object.entries(node).map(([key, value]) => [key, key === '$ref' && typeof value === 'string' ? componentRef(value) : rewrite(value)]),
    );
  };
  const { $id: _id, $schema: _schema, ...body } = schema;
  return rewrite(body) as JsonObject;
}

/** `x-rate-limit-limit` → `X-Rate-Limit-Limit`. */
const canonicalHeader = (name: string): string => name.replace(/(^|-)[a-z]/g, (start) => start.toUpperCase());

const headerRef = (lowerCaseName: string): JsonObject => ({ $ref: `#/components/headers/${canonicalHeader(lowerCaseName)}` });

/** `filter[start_date]` → `filter_start_date`: component keys allow only `[A-Za-z0-9._-]`. */
const parameterKey = (name: string): string => name.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/_+$/, '');

/**
 * Servers of an origin: the table of the platform docs (betatest US first, so that tools default to a test host), the organization-specific scheme, and the
 * document's own placeholder as a variable (for the mock or any other host). `pathPrefix` is appended to every URL (see pathFor).
 */
function serversFor(origin: Origin, pathPrefix: string, origins: ServedOrigins | undefined): JsonObject[] {
  const placeholder = origin === 'auth' ? 'auth_url' : 'base_url';
  const urlOf = (hosts: ServedOrigins) => (origin === 'auth' ? hosts.authUrl : hosts.baseUrl);
  // A document served by one running service names that service only: a client generated from it must reach the service that served it, not a platform host.
  if (origins !== undefined) return [{ url: `${urlOf(origins)}${pathPrefix}`, description: `This service's {${placeholder}}.` }];
  const table: JsonObject[] = ENVIRONMENTS.flatMap((environment) =>
    DATA_CENTERS.map((dataCenter) => {
      const hosts = HOSTS[environment][dataCenter];
      const inferred = hosts.confidence === 'I' ? ' (host inferred from client code, not confirmed)' : '';
      return { url: `${urlOf(hosts)}${pathPrefix}`, description: `${environment} ${dataCenter.toUpperCase()} {${placeholder}}${inferred}` };
    }),
  );
  // Server variables carry no `description`: swagger-parser's OpenAPI 3.1 schema spells it `descriptions`, refusing the real one; the server's says it instead.
  return [
    ...table,
    {
      url: `${urlOf(organizationHosts('{org}'))}${pathPrefix}`,
      description: `Organization-specific host; {org} is the organization's host label.`,
      variables: { org: { default: 'example' } },
    },
    {
      url: `{${placeholder}}${pathPrefix}`,
      description: `Any {${placeholder}}, e.g. the reference mock's ${origin === 'auth' ? 'authUrl' : 'baseUrl'} (npm run mock).`,
      variables: { [placeholder]: { default: urlOf(HOSTS.betatest.us) } },
    },
  ];
}

/**
 * Path key and server prefix of an endpoint. OpenAPI allows one operation per method and path, but token and logout are both `POST /oauth/token` on different
 * origins. Logout stays at its path on {base_url} (the document's default origin); the other keeps only its last segment and moves the rest into its servers'
 * URLs, so that server + path is still the endpoint's address.
 */
function pathFor(endpoint: Endpoint): { key: string; serverPrefix: string; clashesWith?: Endpoint } {
  const clashesWith = Object.values(ENDPOINTS).find((other) => other.id !== endpoint.id && other.method === endpoint.method && other.path === endpoint.path);
  if (!clashesWith || endpoint.origin === 'api') return { key: endpoint.path, serverPrefix: '' };
  const cut = endpoint.path.lastIndexOf('/');
  return { key: endpoint.path.slice(cut), serverPrefix: endpoint.path.slice(0, cut), clashesWith };
}

function describeScope(scope: Scope): string {
  const [resource = scope, access] = scope.split(':');
  const what = resource.replace(/_/g, ' ');
  return access === 'read' ? `Read ${what}.` : access === 'write' ? `Create and modify ${what}.` : `${access} ${what}.`;
}

function parameterComponent({ name, description, schema }: QueryParameter): JsonObject {
  if (name === 'limit') {
    const { min, max, default: fallback } = PAGE_LIMIT;
    const text = `Number of items per page: ${min} to ${max}, default ${fallback} (platform docs).`;
    return { name, in: 'query', required: false, description: text, schema: { type: 'integer', minimum: min, maximum: max, default: fallback } };
  }
  const text =
    name === 'next'
      ? `${description} Use the newest one on each call. A snapshot with no such request for ${SNAPSHOT_TTL_SECONDS} s is obsolete.`
      : schema.format === 'date'
        ? `${description} yyyy-mm-dd.`
        : description;
  return { name, in: 'query', required: false, description: text, schema: { ...schema } };
}

const statusList = (statuses: readonly number[]) => statuses.join(' or ');
const rateLimitHeaders = (): JsonObject => Object.fromEntries(Object.values(RATE_LIMIT_HEADERS).map((name) => [canonicalHeader(name), headerRef(name)]));

/** An error answer: the document's error body, with the rate headers unless told otherwise. */
function errorResponse(description: string, headers: JsonObject = rateLimitHeaders()): JsonObject {
  return { description, headers, content: { 'application/json': { schema: schemaRef('errorBody') } } };
}

function tooManyRequests(): JsonObject {
  return errorResponse(
    `The client exceeded its rate limit (default ${DEFAULT_RATE.requests} per ${DEFAULT_RATE.period}). Honour ${canonicalHeader(RETRY_AFTER_HEADER)}; do not retry at once; back off exponentially.`,
    { ...rateLimitHeaders(), [canonicalHeader(RETRY_AFTER_HEADER)]: headerRef(RETRY_AFTER_HEADER) },
  );
}

/** What the token endpoint's operation says beyond what every operation says. */
function tokenOperation(endpoint: Endpoint): JsonObject {
  const { key, serverPrefix, clashesWith } = pathFor(endpoint);
  const moved = clashesWith
    ? ` Here its path is ${key} under servers ending in ${serverPrefix}: ${clashesWith.id} is ${clashesWith.method} ${clashesWith.path} on the other origin, and OpenAPI allows one operation per method and path.`
    : '';
  const refused = {
    description: `Refused: unknown client, wrong secret, missing field, unsupported grant type or a scope the key does not hold. The real platform answers 403, RFC 6749 400 or 401: any of ${statusList(TOKEN_REFUSAL_STATUSES)}.`,
    content: { 'application/json': { schema: { $ref: '#/components/schemas/OAuthError' } } },
  };
  return {
    description: `POST {auth_url}${endpoint.path}. The client authenticates with its credentials in the form (no security scheme). Scopes are requested as a comma-delimited list; the token is valid only for them. Default token lifetime: ${DEFAULT_TOKEN_TTL_SECONDS} s (expires_in), configurable per organization.${moved}`,
    requestBody: {
      required: true,
      content: {
        [endpoint.requestContentType ?? 'application/x-www-form-urlencoded']: {
          schema: {
            type: 'object',
            required: ['grant_type', 'client_id', 'client_secret', 'scope'],
            properties: {
              grant_type: { type: 'string', enum: ['client_credentials'], description: 'Must be client_credentials.' },
              client_id: { type: 'string', description: 'Client identifier of the API key.' },
              client_secret: { type: 'string', format: 'password', description: 'Client secret of the API key.' },
              scope: { type: 'string', description: 'Scopes requested, comma-delimited.', examples: [formatScopeList(['content:read', 'users:read'])] },
            },
          },
        },
      },
    },
    responses: {
      '200': { description: 'A token.', content: { 'application/json': { schema: schemaRef('tokenResponse') } } },
      ...Object.fromEntries(TOKEN_REFUSAL_STATUSES.map((status) => [String(status), structuredClone(refused)])),
    },
  };
}

function unauthorized(headers: JsonObject = {}): JsonObject {
  return errorResponse(
    `Missing, malformed, unknown, expired or logged-out token (${statusList(UNAUTHENTICATED_STATUSES)}: the document leaves the status open).`,
    { ...headers, 'WWW-Authenticate': { $ref: '#/components/headers/WWW-Authenticate' } },
  );
}

function logoutOperation(endpoint: Endpoint): JsonObject {
  return {
    description: `POST {base_url}${endpoint.path} with a bearer token: the token expires immediately, and so does the refresh token given in the body.`,
    requestBody: {
      required: false,
      description: 'Optional; the document does not show the body. The mock reads refresh_token.',
      content: {
        [endpoint.requestContentType ?? 'application/json']: {
          schema: { type: 'object', properties: { refresh_token: { type: 'string', description: 'Refresh token to expire as well.' } } },
        },
      },
    },
    responses: {
      '2XX': { description: 'Logged out. The document does not show the response; the reference mock answers 204 without a body.' },
      '401': unauthorized(),
      '429': tooManyRequests(),
    },
  };
}

function resourceOperation(endpoint: Endpoint): JsonObject {
  const list: SchemaKey = endpoint.resourceType === 'users' ? 'usersList' : 'contentList';
  const scopes = endpoint.acceptedScopes.join(' or ');
  const source = endpoint.scopesSource === 'platform-docs' ? ' (the platform docs; the document does not show it)' : '';
  return {
    description: `${endpoint.method} {base_url}${endpoint.path}. Needs a token with ${scopes}${source}.${
      endpoint.paginated
        ? ` Paginated by snapshot: the first request takes a snapshot; send the same request with next from links.next for the following page, always the newest one. A snapshot with no next request for ${SNAPSHOT_TTL_SECONDS} s is obsolete. The final page's links.next is absent, null or "" (the document does not show it).`
        : ''
    }`,
    parameters: endpoint.query.map((parameter) => ({ $ref: `#/components/parameters/${parameterKey(parameter.name)}` })),
    responses: {
      '200': { description: 'A page.', headers: rateLimitHeaders(), content: { 'application/json': { schema: schemaRef(list) } } },
      '400': errorResponse('Invalid request: a query parameter out of range, malformed or unknown (the error names it in source.parameter).'),
      '401': unauthorized(rateLimitHeaders()),
      '403': errorResponse(`The token holds none of the accepted scopes (${statusList(MISSING_SCOPE_STATUSES)}: the document leaves the status open).`),
      ...(endpoint.paginated ? { '410': errorResponse('The snapshot of this next is obsolete (any 4xx is legal; the reference mock answers 410).') } : {}),
      '429': tooManyRequests(),
    },
  };
}

function operationFor(endpoint: Endpoint): JsonObject {
  const { id, summary, method, origin, path, acceptedScopes } = endpoint;
  const operation = id === 'token' ? tokenOperation(endpoint) : id === 'logout' ? logoutOperation(endpoint) : resourceOperation(endpoint);
  // A bearer endpoint: any one accepted scope will do, one requirement per scope; no accepted scopes: any valid token.
  const bearer = acceptedScopes.length === 0 ? [{ [SECURITY_SCHEME]: [] }] : acceptedScopes.map((scope) => ({ [SECURITY_SCHEME]: [scope] }));
  const security = endpoint.authentication === 'bearer' ? bearer : [];
  const address = `${method} ${origin === 'auth' ? '{auth_url}' : '{base_url}'}${path}`;
  // `description` is listed here to keep its place in the output: the operation's own replaces it.
  return { operationId: id, summary, description: '', security, ...operation, 'x-origin': origin, 'x-address': address };
}

/** The two origins of one running service (e.g. the mock's authUrl and baseUrl). */
type ServedOrigins = Pick<Hosts, 'authUrl' | 'baseUrl'>;

/** Builds the document (a fresh object per call): its servers and token URL are `origins` alone where given, as that service serves it; else the platform's. */
export function buildOpenApiDocument(origins?: ServedOrigins) {
  const paths: Record<string, JsonObject> = {};
  for (const endpoint of Object.values(ENDPOINTS) as Endpoint[]) {
    const { key, serverPrefix } = pathFor(endpoint);
    const item = (paths[key] ??= {});
    // The top-level servers are {base_url}'s; an endpoint elsewhere (or with a prefix) names its own.
    if (endpoint.origin !== 'api' || serverPrefix !== '') item.servers = serversFor(endpoint.origin, serverPrefix, origins);
    item[endpoint.method.toLowerCase()] = operationFor(endpoint);
  }
  const parameters = Object.fromEntries(RESOURCE_ENDPOINTS.flatMap((endpoint) => endpoint.query).map((p) => [parameterKey(p.name), parameterComponent(p)]));
  const rateLimitSchema = SCHEMA_BY_KEY.rateLimitHeaders.properties as Record<string, JsonObject>;
  const headers: Record<string, JsonObject> = {};
  for (const name of Object.values(RATE_LIMIT_HEADERS)) {
    const { description = '', ...schema } = rateLimitSchema[name] ?? {};
    if (!rateLimitSchema[name]) throw new Error(`schemas/rate-limit-headers.schema.json has no property "${name}" (contracts/limits.ts RATE_LIMIT_HEADERS)`);
    headers[canonicalHeader(name)] = { description, schema };
  }
  headers[canonicalHeader(RETRY_AFTER_HEADER)] = {
    description:
      'How long to wait before the next request: delta-seconds or an HTTP-date (RFC 9110; the document does not give the format, the mock sends seconds).',
    // Only 429 responses use it, and the document promises it there.
    required: true,
    schema: { type: 'string', pattern: '^[0-9]+$|^[A-Za-z]{3}, [0-9]{2} [A-Za-z]{3} [0-9]{4} [0-9]{2}:[0-9]{2}:[0-9]{2} GMT$' },
  };
  headers['WWW-Authenticate'] = { description: 'Bearer challenge (RFC 6750).', schema: { type: 'string', pattern: '^[Bb][Ee][Aa][Rr][Ee][Rr]' } };
  const schemas: Record<string, JsonObject> = Object.fromEntries(
    Object.entries(SCHEMA_BY_KEY).map(([key, s]) => [componentName(key as SchemaKey), embedSchema(s)]),
  );
  schemas.OAuthError = {
    title: 'OAuth error',
    description: 'Error body of the token endpoint per RFC 6749 section 5.2. The document does not show it and the real platform may differ.',
    type: 'object',
    required: ['error'],
    properties: { error: { type: 'string' }, error_description: { type: 'string' } },
  };
  return {
    openapi: '3.1.0' as const,
    info: {
      title: 'Learning Platform API',
      version: API_PREFIX.slice(API_PREFIX.lastIndexOf('/') + 1),
      description: [
        'Token issuance and logout, bearer authentication, the content listing with snapshot pagination, the users listing, and rate limiting,',
        'as the API document describes them, with the platform docs where it says "not shown".',
        `Rate limit: ${DEFAULT_RATE.requests} requests per ${DEFAULT_RATE.period} per API client over all endpoints (custom rates exist; the X-Rate-Limit-* headers show the one in force).`,
        `Snapshots live ${SNAPSHOT_TTL_SECONDS} s after the previous request of the set; tokens ${DEFAULT_TOKEN_TTL_SECONDS} s by default.`,
      ].join(' '),
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    servers: serversFor('api', '', origins),
    paths,
    components: {
      schemas,
      parameters,
      headers,
      securitySchemes: {
        [SECURITY_SCHEME]: {
          type: 'oauth2',
          description: `OAuth 2.0 client credentials. An API key is a client_id and client_secret; scopes are requested comma-delimited. Calls carry Authorization: Bearer <access_token>. ${origins ? "The token URL below is this service's." : "The token URL below is betatest US; other hosts: see the token endpoint's servers."}`,
          flows: {
            clientCredentials: {
              tokenUrl: `${(origins ?? HOSTS.betatest.us).authUrl}${ENDPOINTS.token.path}`,
              scopes: Object.fromEntries(SCOPES.map((scope) => [scope, describeScope(scope)])),
            },
          },
        },
      },
    },
  };
}
