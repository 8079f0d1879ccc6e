/**
 * What every judge reports when a rule breaks, whatever ran it (a spec, a k6 script, the profile
 * prober, the mock judging its caller), and what every report renders: one shape, one vocabulary
 * (the ids of contracts/rules). k6-safe.
 */
import { type Broken, type Exchange, sentence } from './exchange.ts';
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

/**
 * The judge of rules over a sequence (a client's requests within its windows, a walk of a snapshot, a
 * client's conduct towards the service): one per kind, fed the exchanges of one sequence in order,
 * saying what each broke. Pure and k6-safe: it reads time from the exchanges, never from a clock.
 */
export interface Observer {
  observe(exchange: Exchange): readonly Finding[];
  /** What only the whole sequence shows, once it is over. */
  end?(): readonly Finding[];
}
