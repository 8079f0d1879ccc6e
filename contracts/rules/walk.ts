/**
 * A walk of a paginated list (contracts/walk-sequence.ts) judged page by page by the rules of its areas that observe steps, through the one driver
 * (observe.ts); the per-response rules judge what a page shows of itself. Pure, k6-safe: the suite's walks (harness/walks) and load/pagination.ts run it.
 */
import { WalkSequence } from '../walk-sequence.ts';
import { ENVELOPE_RULES } from './envelope.ts';
import type { Exchange } from './exchange.ts';
import type { Finding } from './finding.ts';
import type { RuleId } from './index.ts';
import { SequenceDriver } from './observe.ts';
import { SNAPSHOT_RULES } from './snapshots.ts';

export type { ListItem, WalkOptions } from '../walk-sequence.ts';

const WALK_RULES = { ...SNAPSHOT_RULES, ...ENVELOPE_RULES };

/** The rules a walk judges, beside the per-response ones: those of its areas with an observer. */
export const WALK_RULE_IDS = (Object.keys(WALK_RULES) as (keyof typeof WALK_RULES)[]).filter((id) => 'observe' in WALK_RULES[id]);

export class PaginationWalk extends WalkSequence {
  readonly findings: Finding[] = [];
  /** Rules a page was judged by, held or broken: a report says "not checked" for the others. */
  readonly judged = new Set<RuleId>();
  readonly #driver = new SequenceDriver(WALK_RULES, this);

  /** Takes the answer to `next` and judges it; the findings of this page. A broken rule ends the walk. */
  observe(exchange: Exchange): readonly Finding[] {
    if (this.next === undefined) return [];
    const found = this.#record(this.#driver.observe(exchange));
    if (found.length > 0) this.next = undefined;
    return found;
  }

  /** What only the whole walk shows: its length and its item count, once it reached its final page. */
  end(): readonly Finding[] {
    return this.whole().flatMap((step) => this.#record(this.#driver.judge(step, () => `the walk from GET ${this.firstUrl}`)));
  }

  #record(findings: readonly Finding[]): readonly Finding[] {
    for (const rule of this.#driver.checked) this.judged.add(rule);
    this.findings.push(...findings);
    return findings;
  }
}
