/**
 * The JSON Schemas of schemas/*.schema.json, compiled once: one Ajv (2020-12, strict, all errors),
 * every schema added once by its `$id`, one typed validator per shape. Specs match bodies with these
 * validators, the OpenAPI document embeds the schema objects, and the k6 build turns them into ajv
 * standalone code (standaloneValidatorsSource) so that nothing compiles a schema inside k6.
 */
import { fail, type Result } from '../contracts/result.ts';
import { formatErrors, type FormatErrorsOptions } from '../contracts/rules/schema-errors.ts';
import type { ValidateFunction } from 'ajv/dist/2020';
import Ajv2020 from 'ajv/dist/2020';
import standaloneCode from 'ajv/dist/standalone';
import addFormats from 'ajv-formats';
import contentAttributesSchema from './content-attributes.schema.json';
import contentItemSchema from './content-item.schema.json';
import contentListSchema from './content-list.schema.json';
import errorBodySchema from './error-body.schema.json';
import listEnvelopeSchema from './list-envelope.schema.json';
import profileSchema from './profile.schema.json';
import rateLimitHeadersSchema from './rate-limit-headers.schema.json';
import resourceObjectSchema from './resource-object.schema.json';
import tokenResponseSchema from './token-response.schema.json';
import type {
  ContentAttributes,
  ContentItem,
  ContentList,
  ErrorBody,
  ListEnvelope,
  ProfileFile,
  RateLimitHeaderValues,
  ResourceObject,
  TokenResponse,
  UserItem,
  UsersList,
} from './types.ts';
import usersItemSchema from './users-item.schema.json';
import usersListSchema from './users-list.schema.json';

export type * from './types.ts';

/** Every schema's `$id` lives under this base; a schema's file is `<name>.schema.json`, its id `<base><name>.json`. */
export const SCHEMA_BASE = 'https://lp-contract.dev/schemas/';

export const SCHEMA_IDS = {
  listEnvelope: `${SCHEMA_BASE}list-envelope.json`,
  resourceObject: `${SCHEMA_BASE}resource-object.json`,
  contentAttributes: `${SCHEMA_BASE}content-attributes.json`,
  contentItem: `${SCHEMA_BASE}content-item.json`,
  contentList: `${SCHEMA_BASE}content-list.json`,
  usersItem: `${SCHEMA_BASE}users-item.json`,
  usersList: `${SCHEMA_BASE}users-list.json`,
  tokenResponse: `${SCHEMA_BASE}token-response.json`,
  errorBody: `${SCHEMA_BASE}error-body.json`,
  rateLimitHeaders: `${SCHEMA_BASE}rate-limit-headers.json`,
  profile: `${SCHEMA_BASE}profile.json`,
} as const;
export type SchemaKey = keyof typeof SCHEMA_IDS;
export type SchemaId = (typeof SCHEMA_IDS)[SchemaKey];

/** A schema as read from its file: a JSON Schema 2020-12 object with `$id`, `title` and `description`. */
export interface JsonSchema {
  readonly $schema: string;
  readonly $id: string;
  readonly title: string;
  readonly description: string;
  readonly [keyword: string]: unknown;
}

/** The schema objects by key, exactly as in their files (do not mutate: both Ajv instances and the OpenAPI builder share them). */
export const SCHEMA_BY_KEY: Readonly<Record<SchemaKey, JsonSchema>> = {
  listEnvelope: listEnvelopeSchema,
  resourceObject: resourceObjectSchema,
  contentAttributes: contentAttributesSchema,
  contentItem: contentItemSchema,
  contentList: contentListSchema,
  usersItem: usersItemSchema,
  usersList: usersListSchema,
  tokenResponse: tokenResponseSchema,
  errorBody: errorBodySchema,
  rateLimitHeaders: rateLimitHeadersSchema,
  profile: profileSchema,
};

/** Every schema object, each once: what an Ajv instance (or the k6 build) adds before compiling. */
export const SCHEMAS: readonly JsonSchema[] = Object.values(SCHEMA_BY_KEY);

const ajv = new Ajv2020({
  schemas: [...SCHEMAS],
  strict: true,
  allErrors: true,
  // Keeps the offending value on each error, for formatErrors.
  verbose: true,
});
// Added once so that specs may compile ad-hoc schemas with formats; schemas/*.schema.json use none
// (patterns instead), because their standalone code for k6 must not import ajv-formats.
addFormats(ajv);

function compiled<T>(key: SchemaKey): ValidateFunction<T> {
  // The schema object was added above, so this finds the compiled function in Ajv's cache.
  return ajv.compile<T>(SCHEMA_BY_KEY[key]);
}

export const validateListEnvelope = compiled<ListEnvelope>('listEnvelope');
export const validateResourceObject = compiled<ResourceObject>('resourceObject');
export const validateContentAttributes = compiled<ContentAttributes>('contentAttributes');
export const validateContentItem = compiled<ContentItem>('contentItem');
export const validateContentList = compiled<ContentList>('contentList');
export const validateUsersItem = compiled<UserItem>('usersItem');
export const validateUsersList = compiled<UsersList>('usersList');
export const validateTokenResponse = compiled<TokenResponse>('tokenResponse');
export const validateErrorBody = compiled<ErrorBody>('errorBody');
export const validateRateLimitHeaders = compiled<RateLimitHeaderValues>('rateLimitHeaders');
/** A behaviour profile file of the mock (options may be left to the profile it extends). */
export const validateProfile = compiled<ProfileFile>('profile');

/** The validators by schema key, for code that picks a schema by name (e.g. a toMatchSchema matcher). */
/**
 * One validator per content attribute, compiled from content-attributes.schema.json's own `properties`
 * (by JSON pointer, in the same Ajv instance): for checking attributes one at a time, as the mock's control
 * plane does with partial bodies, under exactly the rules the suite checks served items with.
 */
export const CONTENT_ATTRIBUTE_VALIDATORS: ReadonlyMap<string, ValidateFunction> = new Map(
  Object.keys(SCHEMA_BY_KEY.contentAttributes.properties as Record<string, unknown>).map((name) => {
    const validate = ajv.getSchema(`${SCHEMA_IDS.contentAttributes}#/properties/${name}`);
    if (!validate) throw new Error(`content-attributes.schema.json has no compilable property ${name}`);
    return [name, validate] as const;
  }),
);

export const VALIDATORS = {
  listEnvelope: validateListEnvelope,
  resourceObject: validateResourceObject,
  contentAttributes: validateContentAttributes,
  contentItem: validateContentItem,
  contentList: validateContentList,
  usersItem: validateUsersItem,
  usersList: validateUsersList,
  tokenResponse: validateTokenResponse,
  errorBody: validateErrorBody,
  rateLimitHeaders: validateRateLimitHeaders,
  profile: validateProfile,
} as const satisfies Record<SchemaKey, ValidateFunction>;

export { formatErrors, type FormatErrorsOptions } from '../contracts/rules/schema-errors.ts';

/** A value that passed its schema, or the sentence saying which schema and why not. */
export type Checked<T> = Result<T>;

/** Validates and, on failure, says which schema and why, before the validator's errors are overwritten by its next call. */
export function check<T>(validate: ValidateFunction<T>, data: unknown, options?: FormatErrorsOptions): Checked<T> {
  if (validate(data)) return { ok: true, value: data };
  const schema = validate.schema as { title?: string; $id?: string };
  return fail(`does not match the ${schema.title ?? 'schema'} schema (${schema.$id ?? 'no $id'}):\n${formatErrors(validate.errors, data, options)}`);
}

/**
 * The validators the k6 bundles get (the export names of standaloneValidatorsSource's module): the
 * lists' and the token response's, and those the judges of contracts/rules/ take (SchemaValidators).
 */
export const K6_VALIDATOR_EXPORTS = {
  validateContentList: SCHEMA_IDS.contentList,
  validateUsersList: SCHEMA_IDS.usersList,
  validateTokenResponse: SCHEMA_IDS.tokenResponse,
  validateErrorBody: SCHEMA_IDS.errorBody,
  validateListEnvelope: SCHEMA_IDS.listEnvelope,
  validateResourceObject: SCHEMA_IDS.resourceObject,
  validateContentAttributes: SCHEMA_IDS.contentAttributes,
} as const satisfies Record<string, SchemaId>;

/**
 * ES module source of ajv standalone validators, one export per entry of `exports` (default
 * K6_VALIDATOR_EXPORTS), for the k6 bundles: generated in Node at build time so that k6 compiles no
 * schema. Its own Ajv instance, without ajv-formats (its URL regex stops a k6 v0.47 bundle from
 * loading) and with non-`u` regexes (docs/load.md, "The k6 runtime"). The code may `require` a few tiny
 * `ajv/dist/runtime/*` helpers (`minLength` counts code points with one): esbuild inlines them.
 * Each export is `(data) => boolean` with `.errors` (ajv error objects, non-verbose) after a call.
 */
export function standaloneValidatorsSource(exports: Readonly<Record<string, SchemaId>> = K6_VALIDATOR_EXPORTS): string {
  const standalone = new Ajv2020({
    schemas: [...SCHEMAS],
    strict: true,
    allErrors: true,
    unicodeRegExp: false,
    code: { source: true, esm: true },
  });
  return standaloneCode(standalone, { ...exports });
}
