/**
 * The schemas of schemas/*.schema.json and what judges bodies with them: the schema objects and ids (registry.ts), the validators compiled once
 * (validators.ts), readable errors (formatErrors, check), and the standalone code generators for the bundles (standalone.ts).
 */
import type { ValidateFunction } from 'ajv/dist/2020';
import { fail, type Result } from '../util/result.ts';
import type { SchemaValidators } from '../contracts/rules/exchange.ts';
import { formatErrors } from '../contracts/rules/schema-errors.ts';
import { SCHEMA_IDS, type SchemaKey, validatorName } from './registry.ts';
import * as compiled from './validators.ts';

export type * from './types.ts';
export * from './registry.ts';
export { K6_VALIDATOR_EXPORTS, standaloneValidatorsSource } from './standalone.ts';
export * from './validators.ts';

/** The validators the rule judges of contracts/rules/ take, compiled here (k6 passes standalone ones of the same schemas). */
export const RULE_VALIDATORS: SchemaValidators = compiled;

/** The validators by schema key, for code that picks a schema by name (e.g. a toMatchSchema matcher). */
export const VALIDATORS = Object.fromEntries(
  Object.keys(SCHEMA_IDS).map((key) => [key, compiled[validatorName(key as SchemaKey) as keyof typeof compiled]]),
) as Readonly<Record<SchemaKey, ValidateFunction>>;

export { formatErrors } from '../contracts/rules/schema-errors.ts';

/** Validates and, on failure, says which schema and why, before the validator's errors are overwritten by its next call. */
export function check<T>(validate: ValidateFunction<T>, data: unknown): Result<T> {
  if (validate(data)) return { ok: true, value: data };
  const schema = validate.schema as { title?: string; $id?: string };
  return fail(`does not match the ${schema.title ?? 'schema'} schema (${schema.$id ?? 'no $id'}):\n${formatErrors(validate.errors, data)}`);
}
