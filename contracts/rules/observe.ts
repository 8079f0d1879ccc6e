/**
 * The one driver of the sequence rules. A sequence (a client's requests within its rate windows, a client's conduct towards the service, a walk of a paginated
 * list) keeps its own bookkeeping and turns each exchange into one step of facts; every rule of its table with an `observe` function judges that step, as a
 * per-response judge judges an exchange (undefined: not applicable, null: held, else how it broke); the driver records which rules ran, makes the findings at
 * each rule's level, then lets the sequence commit the step. A new sequence rule is an entry and its function. Pure and k6-safe.
 */
import type { Exchange, Judgement } from './exchange.ts';
import type { RuleFinding, RuleLevel } from './rule.ts';

/** The bookkeeping of one kind of sequence. */
export interface Sequence<S> {
  /** The facts of `exchange` after what came before; undefined where it is only taken in (nothing judged). */
  step(exchange: Exchange): S | undefined;
  /** The step becomes part of the sequence, once every observer saw it. */
  commit(step: S): void;
  /** How a finding names the step's request; default its method and URL. */
  request?(step: S, exchange: Exchange): string;
}

/** A rule table whose entries observe steps of kind S. */
type Observers<Id extends string, S> = { readonly [K in Id]: { readonly level: RuleLevel; readonly observe?: (step: S) => Judgement } };

export class SequenceDriver<Id extends string, S, Q extends Sequence<S> = Sequence<S>> {
  /** The rules the latest exchange was judged by, held or broken, in the table's order: a rule no exchange ran is "not checked". */
  checked: readonly Id[] = [];
  /** The step of the latest exchange; undefined where it was only taken in. */
  latest: S | undefined;
  readonly #observers: readonly (readonly [Id, RuleLevel, (step: S) => Judgement])[];

  constructor(
    rules: Observers<Id, S>,
    protected readonly sequence: Q,
  ) {
    this.#observers = (Object.keys(rules) as Id[]).flatMap((id) => {
      const { level, observe } = rules[id];
      return observe === undefined ? [] : [[id, level, observe] as const];
    });
  }

  observe(exchange: Exchange): readonly RuleFinding<Id>[] {
    const step = (this.latest = this.sequence.step(exchange));
    this.checked = [];
    if (step === undefined) return [];
    const request = () => this.sequence.request?.(step, exchange) ?? `${exchange.request.method} ${exchange.request.url}`;
    const findings = this.judge(step, request, exchange.receivedMs ?? exchange.sentMs);
    this.sequence.commit(step);
    return findings;
  }

  /** Every observer's judgement of `step`, one the sequence made without an exchange too; `checked` the rules that ran. */
  judge(step: S, request: () => string, atMs?: number): RuleFinding<Id>[] {
    const checked: Id[] = [];
    const findings: RuleFinding<Id>[] = [];
    for (const [rule, level, observe] of this.#observers) {
      const judgement = observe(step);
      if (judgement === undefined) continue;
      checked.push(rule);
      if (judgement !== null)
        findings.push({ rule, level, expected: judgement.expected, got: judgement.got, request: request(), ...(atMs === undefined ? {} : { atMs }) });
    }
    this.checked = checked;
    return findings;
  }
}

/** A computation several observers of one step share, made once per step. */
export function perStep<S, T>(compute: (step: S) => T): (step: S) => T {
  let last: { readonly step: S; readonly value: T } | undefined;
  return (step) => (last?.step === step ? last.value : (last = { step, value: compute(step) }).value);
}
