/**
 * The validators, compiled once when this module loads: one Ajv, every schema added once by its `$id`, one typed validator per shape. The mock's installable
 * bundle gets, in its place, the same validators as standalone code generated at build time (schemas/standalone.ts mockValidatorsSource), so that the packaged
 * mock compiles no schema at start: every export here must have its namesake there (esbuild refuses the bundle otherwise).
 */
import type { ValidateFunction } from 'ajv/dist/2020';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { AJV_OPTIONS, CONTENT_ATTRIBUTE_NAMES, contentAttributeRef, SCHEMA_BY_KEY, SCHEMAS, type SchemaKey } from './registry.ts';
import type { ContentAttributes, ErrorBody, ProfileFile, TokenResponse } from './types.ts';

const ajv = new Ajv2020({ schemas: [...SCHEMAS], ...AJV_OPTIONS });
// Added once for specs that compile ad-hoc schemas with formats; schemas/*.schema.json use patterns: their standalone k6 code must not import ajv-formats.
addFormats(ajv);

function compiled<T>(key: SchemaKey): ValidateFunction<T> {
  // The schema object was added above, so this finds the compiled function in Ajv's cache.
  return ajv.compile<T>(SCHEMA_BY_KEY[key]);
}

export const validateListEnvelope = compiled('listEnvelope');
export const validateResourceObject = compiled('resourceObject');
export const validateContentAttributes = compiled<ContentAttributes>('contentAttributes');
export const validateContentItem = compiled('contentItem');
export const validateContentList = compiled('contentList');
export const validateUsersItem = compiled('usersItem');
export const validateUsersList = compiled('usersList');
export const validateTokenResponse = compiled<TokenResponse>('tokenResponse');
export const validateErrorBody = compiled<ErrorBody>('errorBody');
export const validateRateLimitHeaders = compiled('rateLimitHeaders');
/** A behaviour profile file of the mock (options may be left to the profile it extends). */
export const validateProfile = compiled<ProfileFile>('profile');

/**
 * One validator per content attribute, compiled from content-attributes.schema.json's own `properties` (by JSON pointer, in the same Ajv instance): for
 * checking attributes one at a time, as the mock's control plane does with partial bodies, under exactly the rules the suite checks served items with.
 */
export const CONTENT_ATTRIBUTE_VALIDATORS: ReadonlyMap<string, ValidateFunction> = new Map(
  CONTENT_ATTRIBUTE_NAMES.map((name) => {
    const validate = ajv.getSchema(contentAttributeRef(name));
    if (!validate) throw new Error(`content-attributes.schema.json has no compilable property ${name}`);
    return [name, validate] as const;
  }),
);
