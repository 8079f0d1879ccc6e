/** Scope names. The API document gives only the form (`content:read`: resource, colon, access kind); the names come from the platform's public docs. */

export const SCOPES = [
  'content:read',
  'content:write',
  'users:read',
  'users:write',
  'completions:read',
  'completions:write',
  'groups:read',
  'groups:write',
  'pathways:read',
  'skill_plans:read',
  'providers:read',
] as const;
export type Scope = (typeof SCOPES)[number];

const SCOPE_FORM = /^[a-z_]+:[a-z_]+$/;

/** Whether a text has the form of a scope (`resource:access`), known to this contract or not. */
export function isScopeForm(text: string): boolean {
  return SCOPE_FORM.test(text);
}

/** Comma-delimited in the document; some clients separate scopes by spaces, so both (and a mix) are read. Empty entries dropped; order, duplicates not kept. */
export function parseScopeList(text: string): string[] {
  return [...new Set(text.split(/[\s,]+/).filter((part) => part !== ''))];
}

/** The wire form the document prescribes for a token request. */
export function formatScopeList(scopes: readonly string[]): string {
  return scopes.join(',');
}
