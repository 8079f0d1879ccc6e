/**
 * One rule's verdict on one request: a k6 check named by the rule's sentence (for the checks
 * threshold and the report), a count on the script's violations counter tagged with the rule
 * (for the per-rule thresholds), and one log line saying why.
 */
import { check } from 'k6';
import type { Counter } from 'k6/metrics';

export type Verdict<R extends string> = (rule: R, ok: boolean, reason: () => string) => boolean;

export function verdicts<R extends string>(script: string, violations: Counter, sentences: Readonly<Record<R, string>>): Verdict<R> {
  return (rule, ok, reason) => {
    check(null, { [sentences[rule]]: () => ok });
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
