/**
 * What a run (or a listing) says of each rule of contracts/rules/: which tests state it, what they need, and, after a run, whether it held, broke, deviated or
 * was not checked and why. A rule counts as checked only through a test that ran (passed or failed): a skipped test checks nothing, and its skip sentence says
 * why. Pure: the summary reporter and `npm run rules` feed it test records.
 */
import { AREA_IDS, RULE_IDS, RULES, type RuleArea, type RuleId } from '../../contracts/rules/index.ts';
import type { Rule } from '../../contracts/rules/rule.ts';

/** One test as the run (or `playwright test --list`) saw it. */
export interface TestRecord {
  /** `file › describe › title`. */
  readonly title: string;
  readonly declared: readonly string[];
  readonly needs: readonly string[];
  /** Rules the test judged at run time (its Verdict), declared or not. */
  readonly checked: readonly string[];
  readonly status: 'passed' | 'failed' | 'skipped' | 'did-not-run' | 'listed';
  /** Why it was skipped (the need's sentence), when it was. */
  readonly skipReason?: string;
  /** `<rule id>: <message>` of each platform deviation. */
  readonly deviations: readonly string[];
  /** The failure messages (a contract finding starts with `<rule id> (contract)`). */
  readonly failures: readonly string[];
}

type RuleState = 'held' | 'broken' | 'deviates' | 'not checked' | 'no test';

export interface RuleCoverage {
  readonly id: RuleId;
  readonly state: RuleState;
  /** The tests that declare the rule, each with what it needs of the target. */
  readonly tests: readonly string[];
  /** Needs of those tests, each once. */
  readonly needs: readonly string[];
  /** For `not checked`: why (skip sentences); for `broken`: the failing tests; for `deviates`: the deviations. */
  readonly why: readonly string[];
  /**
   * For `broken`: why it broke, the first failure message that names the rule (its sentence: expected,
   * got, the request), else the first of a failing test that declares it; as redacted as it came.
   */
  readonly firstFailure?: string;
  /** Where the rule is judged on every response of a kind (its `judged`), if it is. */
  readonly everyResponse?: string;
}

export function coverage(records: readonly TestRecord[]): RuleCoverage[] {
  // Client rules judge the mock's callers, never the target: no test of the suite states one.
  return RULE_IDS.filter((id) => RULES[id].level !== 'client').map((id) => {
    const declaring = records.filter((r) => r.declared.includes(id));
    const judging = records.filter((r) => (r.status === 'passed' || r.status === 'failed') && (r.declared.includes(id) || r.checked.includes(id)));
    const tests = declaring.map((r) => (r.needs.length > 0 ? `${r.title} (needs: ${r.needs.join(', ')})` : r.title));
    const needs = [...new Set(declaring.flatMap((r) => r.needs))];
    const where = (RULES[id] as Rule).judged;
    const base = { id, tests, needs, ...(where === undefined ? {} : { everyResponse: where }) };
    if (declaring.length === 0 && where === undefined) return { ...base, state: 'no test', why: [] };
    if (judging.length === 0) {
      const listed = records.length > 0 && records.every((r) => r.status === 'listed');
      const reasons = [...new Set(declaring.map((r) => r.skipReason ?? (r.status === 'did-not-run' ? 'did not run' : 'no test ran it')))];
      return { ...base, state: 'not checked', why: listed ? [] : reasons.length > 0 ? reasons : ['no response of its kind came'] };
    }
    const naming = (m: string) => m.includes(`${id} (contract)`);
    // A failure names the rule it broke. The other rules a failing test declares held where it judged them; one it
    // never judged (it failed first), or a failure naming no rule (a timeout, a crash), leaves them broken.
    const named = (r: TestRecord) => r.failures.some((m) => RULE_IDS.some((other) => m.includes(`${other} (contract)`)));
    const failed = judging.filter(
      (r) => r.status === 'failed' && (r.failures.some(naming) || (r.declared.includes(id) && (!named(r) || !r.checked.includes(id)))),
    );
    if (RULES[id].level === 'contract' && failed.length > 0) {
      const message = failed.flatMap((r) => r.failures).find(naming) ?? failed.flatMap((r) => r.failures).find((m) => m.trim() !== '');
      return { ...base, state: 'broken', why: failed.map((r) => r.title), ...(message === undefined ? {} : { firstFailure: sentenceOf(message) }) };
    }
    const deviations = [...new Set(judging.flatMap((r) => r.deviations.filter((d) => d.startsWith(`${id}:`))))];
    return deviations.length > 0 ? { ...base, state: 'deviates', why: deviations } : { ...base, state: 'held', why: [] };
  });
}

/** One platform deviation as a test reported it. */
export interface Deviation {
  readonly rule: string;
  /** What deviated: expected, got, the request (redacted where it was produced). */
  readonly message: string;
  readonly test: string;
}

/** Every deviation of the tests that ran, in the order of the tests, each (rule, message, test) once. */
export function deviationsOf(records: readonly TestRecord[]): Deviation[] {
  return records
    .filter((r) => r.status === 'passed' || r.status === 'failed')
    .flatMap((r) =>
      [...new Set(r.deviations)].map((text) => {
        const [, rule = '', message = text] = /^([\s\S]*?): ([\s\S]*)$/.exec(text) ?? [];
        return { rule, message, test: r.title };
      }),
    );
}

/** Characters of a failure message kept: a rule's sentence with its request fits many times over. */
const SENTENCE_LIMIT = 2000;

/**
 * The rule's sentence of a failure message: without terminal colours, Playwright's `Error: ` and what
 * Playwright adds after it (the matcher's `expect(…)` block, the call log), cut at SENTENCE_LIMIT.
 */
export function sentenceOf(message: string): string {
  // eslint-disable-next-line no-control-regex
  let text = message.replace(/\u001b\[[0-9;]*m/g, '').replace(/^\s*Error: /, '');
  const matcher = text.search(/\n\s*\n\s*(expect\(|Expected:|Call log:)/);
  if (matcher >= 0) text = text.slice(0, matcher);
  text = text.trim();
  return text.length > SENTENCE_LIMIT ? `${text.slice(0, SENTENCE_LIMIT - 1)}…` : text;
}

/** The rules grouped by area, in the catalogue's order of areas. */
export function byArea<T extends { readonly id: RuleId }>(items: readonly T[]): [RuleArea, T[]][] {
  return AREA_IDS.map((area) => [area, items.filter((item) => RULES[item.id].area === area)] as [RuleArea, T[]]).filter(([, list]) => list.length > 0);
}

/** One line of counts: `31 held, 1 broken, 2 deviate, 9 not checked, 1 without a test (of 58 rules)`. */
export function countsLine(items: readonly RuleCoverage[]): string {
  const c = (state: RuleState) => items.filter((item) => item.state === state).length;
  return `${c('held')} held, ${c('broken')} broken, ${c('deviates')} deviate, ${c('not checked')} not checked, ${c('no test')} without a test (of ${items.length} rules)`;
}
