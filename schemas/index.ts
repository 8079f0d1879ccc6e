/**
 * The schemas of schemas/*.schema.json and what judges bodies with them: the schema objects and ids
 * (registry.ts), the validators compiled once (validators.ts; in the mock's installable bundle, the
 * same validators as standalone code generated at build time), readable errors (formatErrors, check),
 * and the standalone code generators for the bundles (standalone.ts). Specs match bodies with these
 * validators, the OpenAPI document embeds the schema objects, and the k6 build turns them into ajv
 * standalone code so that nothing compiles a schema inside k6.
 */
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020';
import { fail, type Result } from '../contracts/result.ts';
import type { SchemaKey } from './registry.ts';
import {
  validateContentAttributes,
  validateContentItem,
  validateContentList,
  validateErrorBody,
  validateListEnvelope,
  validateProfile,
  validateRateLimitHeaders,
  validateResourceObject,
  validateTokenResponse,
  validateUsersItem,
  validateUsersList,
} from './validators.ts';

export type * from './types.ts';
export { SCHEMA_BASE, SCHEMA_BY_KEY, SCHEMA_IDS, SCHEMAS } from './registry.ts';
export type { JsonSchema, SchemaId, SchemaKey } from './registry.ts';
export { K6_VALIDATOR_EXPORTS, standaloneValidatorsSource } from './standalone.ts';
export {
  CONTENT_ATTRIBUTE_VALIDATORS,
  validateContentAttributes,
  validateContentItem,
  validateContentList,
  validateErrorBody,
  validateListEnvelope,
  validateProfile,
  validateRateLimitHeaders,
  validateResourceObject,
  validateTokenResponse,
  validateUsersItem,
  validateUsersList,
} from './validators.ts';

/** The validators by schema key, for code that picks a schema by name (e.g. a toMatchSchema matcher). */
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

export interface FormatErrorsOptions {
  /** Errors listed one per line; the rest are counted. Default 10. */
  readonly maxErrors?: number;
  /** Characters of an offending value shown before it is cut. Default 80. */
  readonly maxValueLength?: number;
}

/** Member names whose values are never shown: an error message ends up in reports and CI logs. */
const SECRET_NAME = /token|secret|password|authorization|cookie/i;
const REDACTED = '[redacted]';

/**
 * Ajv errors as readable lines: where (instance path), what (message and its parameter), and the
 * offending value (JSON, cut, secrets redacted). The value comes from the error itself (the shared
 * instance is verbose) or, for errors of a non-verbose validator, from `data` at the error's path.
 */
export function formatErrors(errors: readonly ErrorObject[] | null | undefined, data?: unknown, options: FormatErrorsOptions = {}): string {
  if (!errors || errors.length === 0) return 'no errors';
  const maxErrors = options.maxErrors ?? 10;
  const maxValueLength = options.maxValueLength ?? 80;
  const lines = errors.slice(0, maxErrors).map((error) => {
    const where = error.instancePath === '' ? '(root)' : error.instancePath;
    const detail = describeParams(error);
    const line = `${where} ${error.message ?? error.keyword}${detail}`;
    // The value of a `required`/`additionalProperties` error is the whole parent object: it says nothing more.
    if (error.keyword === 'required' || error.keyword === 'dependentRequired') return line;
    const value = 'data' in error ? error.data : data === undefined ? undefined : atPointer(data, error.instancePath);
    if (value === undefined) return line;
    const secret = SECRET_NAME.test(lastSegment(error.instancePath));
    return `${line} (got ${secret ? REDACTED : renderValue(value, maxValueLength)})`;
  });
  if (errors.length > maxErrors) lines.push(`… and ${errors.length - maxErrors} more`);
  return lines.join('\n');
}

function describeParams(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'const') return ` ${JSON.stringify(params.allowedValue)}`;
  if (error.keyword === 'enum') return ` ${JSON.stringify(params.allowedValues)}`;
  if (error.keyword === 'additionalProperties') return ` (${JSON.stringify(params.additionalProperty)})`;
  return '';
}

function renderValue(value: unknown, max: number): string {
  const text = JSON.stringify(value, (key, member: unknown) => (key !== '' && SECRET_NAME.test(key) ? REDACTED : member)) ?? String(value);
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

function lastSegment(pointer: string): string {
  return pointer.slice(pointer.lastIndexOf('/') + 1);
}

/** The value at a JSON pointer (RFC 6901), `undefined` where there is none. */
function atPointer(data: unknown, pointer: string): unknown {
  if (pointer === '') return data;
  let here: unknown = data;
  for (const raw of pointer.slice(1).split('/')) {
    if (here === null || typeof here !== 'object') return undefined;
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    here = (here as Record<string, unknown>)[segment];
  }
  return here;
}

/** A value that passed its schema, or the sentence saying which schema and why not. */
export type Checked<T> = Result<T>;

/** Validates and, on failure, says which schema and why, before the validator's errors are overwritten by its next call. */
export function check<T>(validate: ValidateFunction<T>, data: unknown, options?: FormatErrorsOptions): Checked<T> {
  if (validate(data)) return { ok: true, value: data };
  const schema = validate.schema as { title?: string; $id?: string };
  return fail(`does not match the ${schema.title ?? 'schema'} schema (${schema.$id ?? 'no $id'}):\n${formatErrors(validate.errors, data, options)}`);
}
