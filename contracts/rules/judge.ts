/**
 * Applies the per-response judges of contracts/rules/ to one exchange: which rules applied to it, and
 * how each broken one broke, as a sentence ending with the request. The suite's client
 * (harness/verdict/response-rules.ts) and the k6 scripts (load/lib/checks.ts) both judge through here.
 */
import { type Exchange, type JudgeContext, sentence } from './exchange.ts';
import { RESPONSE_RULE_IDS, RULES, type RuleId } from './index.ts';
import type { Rule } from './rule.ts';

interface RuleFinding {
  readonly rule: RuleId;
  /** What was expected, what came back, and the request. */
  readonly message: string;
}

export interface Judged {
  /** Rules that applied to the exchange, held or broken. */
  readonly checked: RuleId[];
  readonly findings: RuleFinding[];
}

/** The judgement of `exchange` by every rule judged on every response (or by `rules` only). */
export function judgeExchange(exchange: Exchange, context: JudgeContext, rules: readonly RuleId[] = RESPONSE_RULE_IDS): Judged {
  const checked: RuleId[] = [];
  const findings: RuleFinding[] = [];
  for (const rule of rules) {
    const judgement = (RULES[rule] as Rule).judge?.(exchange, context);
    if (judgement === undefined) continue;
    checked.push(rule);
    if (judgement !== null) findings.push({ rule, message: `${sentence(judgement)} (${exchange.request.method} ${exchange.request.url})` });
  }
  return { checked, findings };
}
