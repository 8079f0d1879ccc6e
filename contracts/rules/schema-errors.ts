/** Schema errors as readable lines for contracts/rules/ and schemas/index.ts, the same from Ajv in Node or a standalone validator bundled for k6. k6-safe. */
import { REDACTED } from '../../util/redact.ts';
import type { SchemaError } from './exchange.ts';

/** Member names whose values are never shown: an error message ends up in reports and CI logs. */
const SECRET_NAME = /token|secret|password|authorization|cookie/i;
/** Errors listed one per line (the rest are counted), and characters of an offending value shown before it is cut. */
const MAX_ERRORS = 10;
const MAX_VALUE_LENGTH = 80;

/**
 * Ajv errors as readable lines: where (instance path), what (message and its parameter), and the offending value (JSON, cut, secrets redacted). The value comes
 * from the error itself (the shared instance is verbose) or, for errors of a non-verbose validator, from `data` at the error's path.
 */
export function formatErrors(errors: readonly SchemaError[] | null | undefined, data?: unknown): string {
  if (!errors || errors.length === 0) return 'no errors';
  const lines = errors.slice(0, MAX_ERRORS).map((error) => {
    const where = error.instancePath === '' ? '(root)' : error.instancePath;
    const line = `${where} ${error.message ?? error.keyword}${describeParams(error)}`;
    // The value of a `required`/`additionalProperties` error is the whole parent object: it says nothing more.
    if (error.keyword === 'required' || error.keyword === 'dependentRequired') return line;
    const value = 'data' in error ? error.data : data === undefined ? undefined : atPointer(data, error.instancePath);
    if (value === undefined) return line;
    const secret = SECRET_NAME.test(error.instancePath.slice(error.instancePath.lastIndexOf('/') + 1));
    return `${line} (got ${secret ? REDACTED : renderValue(value)})`;
  });
  if (errors.length > MAX_ERRORS) lines.push(`… and ${errors.length - MAX_ERRORS} more`);
  return lines.join('\n');
}

function describeParams(error: SchemaError): string {
  const params = (error.params ?? {}) as Record<string, unknown>;
  if (error.keyword === 'const') return ` ${JSON.stringify(params.allowedValue)}`;
  if (error.keyword === 'enum') return ` ${JSON.stringify(params.allowedValues)}`;
  if (error.keyword === 'additionalProperties') return ` (${JSON.stringify(params.additionalProperty)})`;
  return '';
}

function renderValue(value: unknown): string {
  const text = JSON.stringify(value, (key, member: unknown) => (key !== '' && SECRET_NAME.test(key) ? REDACTED : member)) ?? String(value);
  return text.length > MAX_VALUE_LENGTH ? `${text.slice(0, MAX_VALUE_LENGTH)}…` : text;
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
