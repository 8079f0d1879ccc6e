/**
 * Applies the per-response judges of contracts/rules/ to one exchange: which rules applied to it, and a finding for each broken one. The suite's client
 * (harness/verdict/response-rules.ts) and the k6 scripts (load/k6/verdict.ts) both judge through here.
 */
import type { Exchange, JudgeContext } from './exchange.ts';
import { type Finding, finding } from './finding.ts';
import { RESPONSE_RULE_IDS, RULES, type RuleId } from './index.ts';
import type { Rule } from './rule.ts';

export interface Judged {
  /** Rules that applied to the exchange, held or broken. */
  readonly checked: RuleId[];
  readonly findings: Finding[];
}

/** The judgement of `exchange` by every rule judged on every response (or by `rules` only). */
export function judgeExchange(exchange: Exchange, context: JudgeContext, rules: readonly RuleId[] = RESPONSE_RULE_IDS): Judged {
  const checked: RuleId[] = [];
  const findings: Finding[] = [];
  for (const rule of rules) {
    const judgement = (RULES[rule] as Rule).judge?.(exchange, context);
    if (judgement === undefined) continue;
    checked.push(rule);
    if (judgement !== null) findings.push(finding(rule, judgement, `${exchange.request.method} ${exchange.request.url}`));
  }
  return { checked, findings };
}
