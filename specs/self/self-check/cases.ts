/**
 * Breakages the suite must catch, each a fault of the mock (mock/faults/catalogue.ts) that breaks one rule of the API document, with the spec and test that
 * state the rule and what its failure message says. The fault matrix covers every fault; these few are the contract suite's own proof.
 */
import type { FaultName } from '../../../mock/faults/index.ts';
import { literalPattern } from '../../../harness/verdict/declare.ts';

export interface FaultCase {
  readonly fault: FaultName;
  /** File under specs/. */
  readonly spec: string;
  /** The title of the test that states the broken rule. */
  readonly title: string;
  /** The describe block it sits in, where the title alone is not unique in its file. */
  readonly within?: string;
  /** What the failure message (or, for a platform rule, the deviation) must say. */
  readonly message: RegExp;
  /** `platform`: the fault breaks a platform rule, so the test passes with a platform deviation. Default contract. */
  readonly level?: 'platform';
}

export const FAULT_CASES: readonly FaultCase[] = [
  {
    fault: 'token-wrong-secret-accepted',
    spec: 'token.spec.ts',
    title: 'a wrong client secret',
    message: /token\.credentials \(contract\): expected a 4xx without access_token, got 200/,
  },
  {
    fault: 'bearer-not-checked',
    spec: 'bearer-auth.spec.ts',
    within: 'GET /api/v2/users refuses (a 4xx, never data)',
    title: 'no Authorization header',
    message: /bearer\.required \(contract\): expected a 4xx without data, got 200/,
  },
  {
    fault: 'scope-not-enforced-content',
    spec: 'scopes.spec.ts',
    title: 'users:read cannot call GET /api/v2/content',
    message: /scopes\.limit-token \(contract\): expected a 4xx without data, got 200/,
  },
  {
    fault: 'logout-keeps-access-token',
    spec: 'logout.spec.ts',
    title: 'refuses the logged-out token at once on every resource endpoint',
    message: /logout\.expires-access \(contract\): expected a 4xx without data, got 200/,
  },
  {
    fault: 'provider-isolation-broken',
    spec: 'provider-keys.spec.ts',
    title: 'sees only content items whose provider is its own',
    message: /items of other providers/,
  },
  {
    fault: 'attribute-wrong-type',
    spec: 'content.spec.ts',
    title: 'is a list envelope of content items, each with every documented attribute, its type and a value it can have',
    message: /is-obsolete must be boolean/,
  },
  {
    fault: 'rate-header-limit-missing',
    spec: 'rate-limit-headers.spec.ts',
    title: 'of GET /api/v2/content carries the three X-Rate-Limit headers, well formed, reset within one period',
    message: /X-Rate-Limit-Limit is missing/,
  },
  {
    fault: 'rate-budget-per-token',
    spec: 'rate-limit-headers.spec.ts',
    title: 'is not reset by a new token of the same client',
    message:
      /rate\.per-client \(contract\): expected X-Rate-Limit-Remaining \d+ to \d+, got X-Rate-Limit-Remaining went from \d+ to \d+ [^\n]*across a new token of the same client/,
  },
  {
    fault: 'retry-after-short',
    spec: 'rate-limit.spec.ts',
    title:
      'serves it to Remaining 0, has it back once X-Rate-Limit-Reset has passed for a window a period long, then refuses the request past it ' +
      'with 429 and Retry-After, for a new token and the users endpoint too, serves another client, and serves again once Retry-After has passed',
    message:
      /rate\.retry-after \(contract\): expected a request sent [\d.]+ s after a 429 whose Retry-After said "\d+", nothing sent in between, to be served, got 429/,
  },
  {
    fault: 'rate-429-early',
    spec: 'rate-limit.spec.ts',
    title: 'shows its period in X-Rate-Limit-Limit and its count in the budget',
    message: /rate\.429 \(contract\): expected \d+ requests served before the first 429 for a key whose rate is/,
  },
  {
    fault: 'item-repeated-across-pages',
    spec: 'pagination-traversal.spec.ts',
    title: 'each page gives a next unlike the one before, and the walk yields every item exactly once',
    message: /snapshot\.traversal \(contract\): expected every item of the snapshot once, got item \S+ again on page \d+/,
  },
  {
    fault: 'snapshot-sees-changes',
    spec: 'pagination-snapshots.spec.ts',
    title: 'hides from the rest of a walk an item created and one modified after its first page; a new walk shows both',
    message: /snapshot\.isolation \(contract\): expected the walk from GET \S+ not to show item \S+, created after its first page, got it/,
  },
  {
    fault: 'snapshot-never-expires',
    spec: 'pagination-snapshots.spec.ts',
    title: 'is refused with a 4xx after 120 s without a request, and a request without next starts a new one',
    message: /^snapshot\.expiry \(contract\): expected GET [\s\S]*to answer a 4xx, got 200/,
  },
  {
    fault: 'filter-start-date-ignored',
    spec: 'pagination-filters.spec.ts',
    title: 'filter[start_date] keeps only items created from that date, and all of them',
    message: /^platform\.filters: \d+ item\(s\) outside the filters/,
    level: 'platform',
  },
];

/** Matches the case's test by the end of its full title: its describe block and title joined by a space, each with its tags (a rule is a tag, declare.ts). */
export function titlePattern(c: FaultCase): RegExp {
  const tags = '(?: @\\S+)*';
  const title = c.within === undefined ? literalPattern(c.title) : `${literalPattern(c.within)}${tags} ${literalPattern(c.title)}`;
  return new RegExp(`${title}${tags}$`);
}
