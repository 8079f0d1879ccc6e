/**
 * Legal variants: behaviours the API document leaves open and the real service might show
 * (`--variant <name>`; `variants` in the app factory). The suite must pass against every one;
 * a failure is a false alarm. The module named in `where` implements it.
 */

export interface VariantInfo {
  /** What the document leaves open (or the reference note that allows it). */
  readonly open: string;
  readonly where: string;
}

export const VARIANTS = {
  'retry-after-http-date': { open: 'format of the Retry-After value', where: 'mock/rate-limit.ts' },
  'final-next-null': { open: 'content of links.next on the final page', where: 'mock/resources.ts' },
  'final-next-empty': { open: 'content of links.next on the final page', where: 'mock/resources.ts' },
  'final-empty-page': { open: 'content of links.next on the final page (a trailing empty page)', where: 'mock/resources.ts' },
  'missing-scope-401': { open: 'status for a missing scope', where: 'mock/bearer.ts' },
  'token-error-400': { open: 'status for refused token requests', where: 'mock/token-endpoint.ts' },
  'token-error-401': { open: 'status for refused token requests', where: 'mock/token-endpoint.ts' },
  'errors-without-body': { open: 'error body format', where: 'mock/app.ts' },
  'extra-members': { open: 'attributes and envelope members beyond the document', where: 'mock/resources.ts' },
  'self-without-query': { open: 'links.self on the real service drops the query string', where: 'mock/resources.ts' },
  'seven-digit-fractions': { open: 'fractional digits of timestamps and X-Rate-Limit-Reset', where: 'mock/resources.ts, mock/rate-limit.ts' },
  'expires-in-short': { open: 'expires_in is the lifetime minus elapsed seconds', where: 'mock/token-endpoint.ts' },
  'logout-200-json': { open: 'response of the logout endpoint', where: 'mock/logout.ts' },
  'cursor-alphabet': { open: 'form of the next cursor (short and opaque)', where: 'mock/resources.ts' },
} as const satisfies Record<string, VariantInfo>;

export type VariantName = keyof typeof VARIANTS;
export type Variants = ReadonlySet<VariantName>;
export const NO_VARIANTS: Variants = new Set();

export function isVariantName(name: string): name is VariantName {
  return Object.hasOwn(VARIANTS, name);
}
