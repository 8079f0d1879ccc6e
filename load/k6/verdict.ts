/**
 * What the k6 scripts do with their judgements, by the ids of contracts/rules/: each rule judged is
 * counted on METRICS.rulesJudged (so that the reports tell a rule that held from one no request
 * exercised), each finding on the script's findings counter tagged with its rule (the per-rule
 * thresholds of load/lib/plans/common.ts) and logged in one line. The per-response rules are judged
 * by the judges the contract suite applies, with the bundled standalone schema validators.
 */
import { validateContentAttributes, validateErrorBody, validateListEnvelope, validateResourceObject, validateTokenResponse } from 'generated:validators';
import { Counter } from 'k6/metrics';
import type { Broken, Exchange } from '../../contracts/rules/exchange.ts';
import { type Finding, finding, findingText } from '../../contracts/rules/finding.ts';
import type { RuleId } from '../../contracts/rules/index.ts';
import { judgeExchange } from '../../contracts/rules/judge.ts';
import { METRICS } from '../lib/metrics.ts';

// Created once, in the init context of the one module every script's judgements go through.
const rulesJudged = new Counter(METRICS.rulesJudged);
const VALIDATORS = {
  tokenResponse: validateTokenResponse,
  listEnvelope: validateListEnvelope,
  resourceObject: validateResourceObject,
  contentAttributes: validateContentAttributes,
  errorBody: validateErrorBody,
};

/** Counts one judgement of `rule`, held or broken: without any, the reports say the rule was not checked. */
export function judged(rule: RuleId): void {
  rulesJudged.add(1, { rule });
}

/** Records rules judged and the findings among them; true when none broke. */
export type Recorder = (judged: Iterable<RuleId>, findings: readonly Finding[]) => boolean;

export function recorder(script: string, findings: Counter): Recorder {
  return (rules, broken) => {
    for (const rule of rules) judged(rule);
    // A zero keeps the counter's samples flowing, so its thresholds are evaluated on data.
    findings.add(0);
    for (const f of broken) {
      findings.add(1, { rule: f.rule });
      console.error(`${script}, ${f.rule} (${f.level}): ${findingText(f)}`);
    }
    return broken.length === 0;
  };
}

/** One rule's verdict on one request; true when it held. */
export function verdict(record: Recorder, rule: RuleId, ok: boolean, broken: () => Broken, request: string): boolean {
  return record([rule], ok ? [] : [finding(rule, broken(), request)]);
}

/** Every per-response rule on `exchange`; true when none broke. */
export function judgeAnswer(record: Recorder, exchange: Exchange): boolean {
  const { checked, findings } = judgeExchange(exchange, { validators: VALIDATORS });
  return record(checked, findings);
}
