/**
 * Small checks the entry scripts share, kept pure (no k6 import) so that Node tests run them:
 * schema verdicts of the bundled standalone validators as sentences, and the X-Rate-Limit-* headers
 * of a response.
 */
import { type HeaderLookup, headerLookup, parseRateLimitHeaders } from '../../contracts/rate-limit.ts';

/** An ajv standalone validator (load/types/validators.d.ts): a boolean, and `errors` after a failed call. */
export interface StandaloneValidator {
  (data: unknown): boolean;
  errors?: ReadonlyArray<{ readonly instancePath: string; readonly message?: string; readonly keyword: string }> | null;
}

/** `undefined` when `data` matches; else which schema and the first few errors (paths and messages, never values). */
export function schemaProblem(title: string, validate: StandaloneValidator, data: unknown, maxErrors = 3): string | undefined {
  if (validate(data)) return undefined;
  const errors = validate.errors ?? [];
  const listed = errors.slice(0, maxErrors).map((e) => `${e.instancePath === '' ? '(root)' : e.instancePath} ${e.message ?? e.keyword}`);
  const more = errors.length > maxErrors ? `; and ${errors.length - maxErrors} more` : '';
  return `does not match the ${title} schema: ${listed.join('; ')}${more}`;
}

/** Response headers keyed in lower case: k6 canonicalises names (`X-Rate-Limit-Remaining`), the schemas use lower case. */
export function lowerCaseHeaders(headers: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of Object.keys(headers)) {
    const value = headers[key];
    if (value !== undefined) out[key.toLowerCase()] = value;
  }
  return out;
}

/** `undefined` when the three X-Rate-Limit-* headers are present and well formed; else the reason. */
export function rateHeaderProblem(headers: HeaderLookup | Readonly<Record<string, string | undefined>>): string | undefined {
  const parsed = parseRateLimitHeaders(typeof headers === 'function' ? headers : headerLookup(headers));
  return parsed.ok ? undefined : parsed.error;
}
