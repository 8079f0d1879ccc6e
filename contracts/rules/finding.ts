/**
 * What every judge reports when a rule breaks, whatever ran it (a spec, a k6 script, the profile prober, the mock judging its caller), and what every report
 * renders: one shape, one vocabulary (the ids of contracts/rules). k6-safe.
 */
import { type Broken, sentence } from './exchange.ts';
import { RULES, type RuleId } from './index.ts';
import type { RuleFinding } from './rule.ts';

export type Finding = RuleFinding<RuleId>;

/** A finding of `rule`, at its level, from how it broke on `request`. */
export function finding(rule: RuleId, broken: Broken, request: string, atMs?: number): Finding {
  return { rule, level: RULES[rule].level, expected: broken.expected, got: broken.got, request, ...(atMs === undefined ? {} : { atMs }) };
}

/** A finding in one line, without its rule: `expected …, got … (the request)`. */
export function findingText(f: Finding): string {
  return `${sentence(f)} (${f.request})`;
}
