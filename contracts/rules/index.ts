/**
 * Every rule the suite checks, each one object in the file of its area (this folder), assembled in report order. Tests declare the rules they enforce by these
 * ids (`checks()`), faults name the rule they break (and so its area), the per-response judges are applied by judge.ts, and `npm run rules` / docs/rules.md
 * list every rule with its tests. k6-safe: load scripts name their findings by these ids too. docs/adding-a-rule.md says how a rule is added.
 */
import { AREA_IDS } from './areas.ts';
import { BEARER_RULES } from './bearer.ts';
import { CLIENT_RULES } from './client.ts';
import { CONTENT_RULES } from './content.ts';
import { ENVELOPE_RULES } from './envelope.ts';
import { ERRORS_RULES } from './errors.ts';
import { LIFETIME_RULES } from './lifetime.ts';
import { LOGOUT_RULES } from './logout.ts';
import { PROVIDER_RULES } from './provider.ts';
import { RATE_LIMIT_RULES } from './rate-limit.ts';
import type { Rule, RuleLevel } from './rule.ts';
import { SCOPES_RULES } from './scopes.ts';
import { SNAPSHOT_RULES } from './snapshots.ts';
import { TOKEN_RULES } from './token.ts';
import { USERS_RULES } from './users.ts';

export { AREA_IDS, RULE_AREAS, type RuleArea } from './areas.ts';
export type { Rule, RuleLevel } from './rule.ts';

export const RULES = {
  ...TOKEN_RULES,
  ...SCOPES_RULES,
  ...PROVIDER_RULES,
  ...BEARER_RULES,
  ...LOGOUT_RULES,
  ...LIFETIME_RULES,
  ...SNAPSHOT_RULES,
  ...ENVELOPE_RULES,
  ...CONTENT_RULES,
  ...USERS_RULES,
  ...RATE_LIMIT_RULES,
  ...ERRORS_RULES,
  ...CLIENT_RULES,
} as const satisfies Record<string, Rule>;

export type RuleId = keyof typeof RULES;

/** Every rule id, area by area in report order. */
export const RULE_IDS: readonly RuleId[] = AREA_IDS.flatMap((area) => (Object.keys(RULES) as RuleId[]).filter((id) => RULES[id].area === area));

export function isRuleId(text: string): text is RuleId {
  return Object.prototype.hasOwnProperty.call(RULES, text);
}

export function ruleLevel(id: RuleId): RuleLevel {
  return RULES[id].level;
}

/** The rules judged on every response of a kind: those with a judge. */
export const RESPONSE_RULE_IDS: readonly RuleId[] = RULE_IDS.filter((id) => (RULES[id] as Rule).judge !== undefined);
