/**
 * The groups of rules, in the order every report lists them: a rule names its area, a fault breaks a rule and so has its area, and the fault matrix runs the
 * spec files of that area (tools/fault-matrix/areas.ts). A list, not an object's keys: JavaScript would list the integer-like `429` before every other key.
 */
const AREA_LIST = [
  { id: 'token', title: 'Token issuance' },
  { id: 'scopes', title: 'Scopes' },
  { id: 'provider', title: 'Provider keys' },
  { id: 'bearer', title: 'Bearer authentication' },
  { id: 'logout', title: 'Logout' },
  { id: 'lifetime', title: 'Token lifetime' },
  { id: 'snapshots', title: 'Snapshot pagination' },
  { id: 'envelope', title: 'List envelope' },
  { id: 'content', title: 'Content items' },
  { id: 'users', title: 'Users' },
  { id: 'rate-limit', title: 'Rate limit' },
  { id: '429', title: '429 and Retry-After' },
  { id: 'errors', title: 'Errors' },
  // What the document asks of a client: the mock judges its callers by these; no spec, no fault.
  { id: 'client', title: 'Client conduct' },
] as const;

export type RuleArea = (typeof AREA_LIST)[number]['id'];

/** The areas in report order. */
export const AREA_IDS: readonly RuleArea[] = AREA_LIST.map((area) => area.id);

export const RULE_AREAS = Object.fromEntries(AREA_LIST.map((area) => [area.id, area.title])) as Readonly<Record<RuleArea, string>>;
