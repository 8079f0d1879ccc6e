/**
 * What a rule is: one object, in the file of its area (contracts/rules/<area>.ts), at one of three levels:
 *
 * - `contract`: the API document states it. `quote` holds the document's own words, `section` where they stand. A broken contract rule fails the run.
 * - `platform`: the document leaves the point open ("not shown"), and the rule is what the real platform's public documentation records, or a stricter
 *   choice of this project's mock. A broken platform rule is reported (a "platform deviation"); it fails the run only with LP_STRICT=1.
 * - `client`: what the document asks of a client; the mock reports its callers' breaches as client findings, and no verdict on a service rests on it.
 *
 * A rule judged on every response of a kind carries `judged` (where) and `judge` (how: a pure function of one exchange, exchange.ts), which the suite's client
 * and the k6 scripts both apply. A rule judged over a sequence carries `observe`: a pure function of one step of its sequence, fed by the one driver
 * (observe.ts) over its area's table. k6-safe.
 */
import type { RuleArea } from './areas.ts';
import type { ExchangeJudge, Judgement } from './exchange.ts';

export type RuleLevel = 'contract' | 'platform' | 'client';

interface RuleBase {
  readonly area: RuleArea;
  /** What must hold, in this project's words: a report line names the rule by this. */
  readonly statement: string;
  /** Where the rule is judged on every response of a kind, e.g. `every 2xx list page`; only with `judge`. */
  readonly judged?: string;
  /** The judgement of one exchange: undefined where the rule does not apply to it. */
  readonly judge?: ExchangeJudge;
  /** The judgement of one step of its sequence (the step type is its area file's): undefined where it does not apply. */
  readonly observe?: (step: never) => Judgement;
}

/** What a judge reports when rule `Id` breaks: finding.ts names it by every rule id. */
export interface RuleFinding<Id extends string = string> {
  readonly rule: Id;
  readonly level: RuleLevel;
  readonly expected: string;
  readonly got: string;
  /** The request in a few words, e.g. `GET /api/v2/content?limit=1`: never a token. */
  readonly request: string;
  /** Epoch ms when the answer came, where a sequence rule judged it. */
  readonly atMs?: number;
}

/** A rule the document's own words state (or, for a client rule, imply). */
interface QuotedRule extends RuleBase {
  /** Where the document states it, e.g. `Endpoints, 1. Request an access token`. */
  readonly section: string;
  /** The document's words (sentences or table cells) that state the rule. */
  readonly quote: string;
}

interface ContractRule extends QuotedRule {
  readonly level: 'contract';
}

interface PlatformRule extends RuleBase {
  readonly level: 'platform';
  /** `platform-docs`: the real platform's public documentation or fixtures record it; `mock`: the mock's own stricter choice. */
  readonly basis: 'platform-docs' | 'mock';
  /** What the document leaves open here, and what the basis says. */
  readonly note: string;
}

/** What the document asks of a client (never a verdict on the service): the mock judges its callers by these. */
interface ClientRule extends QuotedRule {
  readonly level: 'client';
  /** `stated`: the words ask it of the client; `implied`: it follows from them. */
  readonly basis: 'stated' | 'implied';
}

export type Rule = ContractRule | PlatformRule | ClientRule;

/** A rule as its area's file writes it: the file names the area once, with inArea. */
type AreaRule = Rule extends infer R ? (R extends Rule ? Omit<R, 'area'> : never) : never;

/** The rules of one area's file, each marked with that area. */
export function inArea<const A extends RuleArea, const T extends Record<string, AreaRule>>(area: A, rules: T) {
  return Object.fromEntries(Object.entries<object>(rules).map(([id, rule]) => [id, { ...rule, area }])) as { [K in keyof T]: T[K] & { readonly area: A } };
}
