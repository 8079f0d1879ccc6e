/**
 * One rule's verdict on one request: a k6 check named by the rule's sentence (for the checks
 * threshold and the report), a count on the script's violations counter tagged with the rule
 * (for the per-rule thresholds), a count of the judgement (so that the report tells a rule that held
 * from one no request exercised), and one log line saying why.
 */
import { check } from 'k6';
import { Counter } from 'k6/metrics';
import { METRICS } from '../lib/metrics.ts';

export type Verdict<R extends string> = (rule: R, ok: boolean, reason: () => string) => boolean;

// Created once, in the init context of the one module every script's judgements go through.
const rulesJudged = new Counter(METRICS.rulesJudged);

/** Counts one judgement of `rule`, held or broken: without any, the reports say the rule was not checked. */
export function judged(rule: string): void {
  rulesJudged.add(1, { rule });
}

export function verdicts<R extends string>(script: string, violations: Counter, sentences: Readonly<Record<R, string>>): Verdict<R> {
  return (rule, ok, reason) => {
    check(null, { [sentences[rule]]: () => ok });
    judged(rule);
    if (ok) {
      // A zero keeps the counter's samples flowing, so its thresholds are evaluated on data.
      violations.add(0);
      return true;
    }
    violations.add(1, { rule });
    console.error(`${script}, ${rule}: ${reason()}`);
    return false;
  };
}
