/**
 * The schemas of schemas/*.schema.json as objects, by key and by `$id`: what every Ajv instance adds (schemas/validators.ts at run time, schemas/standalone.ts
 * at build time) and what the OpenAPI document embeds. No Ajv here: the mock bundle reads these objects without compiling anything.
 */
import contentAttributes from './content-attributes.schema.json';
import contentItem from './content-item.schema.json';
import contentList from './content-list.schema.json';
import errorBody from './error-body.schema.json';
import listEnvelope from './list-envelope.schema.json';
import profile from './profile.schema.json';
import rateLimitHeaders from './rate-limit-headers.schema.json';
import resourceObject from './resource-object.schema.json';
import tokenResponse from './token-response.schema.json';
import usersItem from './users-item.schema.json';
import usersList from './users-list.schema.json';

/** Every schema's `$id` lives under this base; a schema's file is `<name>.schema.json`, its id `<base><name>.json`. */
export const SCHEMA_BASE = 'https://lp-contract.dev/schemas/';

/** A schema as read from its file: a JSON Schema 2020-12 object with `$id`, `title` and `description`. */
export interface JsonSchema {
  readonly $schema: string;
  readonly $id: string;
  readonly title: string;
  readonly description: string;
  readonly [keyword: string]: unknown;
}

const FILES = {
  listEnvelope,
  resourceObject,
  contentAttributes,
  contentItem,
  contentList,
  usersItem,
  usersList,
  tokenResponse,
  errorBody,
  rateLimitHeaders,
  profile,
};
export type SchemaKey = keyof typeof FILES;

/** The schema objects by key, exactly as in their files (do not mutate: both Ajv instances and the OpenAPI builder share them). */
export const SCHEMA_BY_KEY: Readonly<Record<SchemaKey, JsonSchema>> = FILES;

export const SCHEMA_IDS = Object.fromEntries(Object.entries(SCHEMA_BY_KEY).map(([key, schema]) => [key, schema.$id])) as Readonly<Record<SchemaKey, string>>;

/** Every schema object, each once: what an Ajv instance (or the k6 build) adds before compiling. */
export const SCHEMAS: readonly JsonSchema[] = Object.values(SCHEMA_BY_KEY);

/**
 * The options of every Ajv instance that judges bodies, so that all give the same errors. Verbose keeps the offending value on each error, for formatErrors.
 * `x-rule`, the rule a profile option is an open point of (profile.schema.json), is an annotation: strict mode refuses a keyword it was not told of.
 */
export const AJV_OPTIONS = { strict: true, allErrors: true, verbose: true, keywords: ['x-rule'] };

/** The name of the exported validator of a schema: `validate` and the key, capitalised (validateUsersList). */
export function validatorName(key: SchemaKey): string {
  return `validate${key.charAt(0).toUpperCase()}${key.slice(1)}`;
}

/** The content attributes, in content-attributes.schema.json's order: each gets a validator of its own. */
export const CONTENT_ATTRIBUTE_NAMES: readonly string[] = Object.keys(SCHEMA_BY_KEY.contentAttributes.properties as Record<string, unknown>);

/** The reference (id and JSON pointer) of one content attribute's schema, as an Ajv instance resolves it. */
export function contentAttributeRef(name: string): string {
  return `${SCHEMA_IDS.contentAttributes}#/properties/${name}`;
}
