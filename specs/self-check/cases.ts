/**
 * Breakages the suite must catch, each a fault of the mock (mock/faults.ts) that breaks one rule of
 * the API document, with the spec and test that state the rule and what its failure message says.
 * Issue 8's matrix covers every fault; these few are the contract suite's own proof (issue 3).
 */
import type { FaultName } from '../../mock/faults.ts';

export interface FaultCase {
  readonly fault: FaultName;
  /** File under specs/. */
  readonly spec: string;
  /** The title of the test that states the broken rule. */
  readonly title: string;
  /** The describe block it sits in, where the title alone is not unique in its file. */
  readonly within?: string;
  /** What the failure message must say. */
  readonly message: RegExp;
}

export const FAULT_CASES: readonly FaultCase[] = [
  { fault: 'token-wrong-secret-accepted', spec: 'token.spec.ts', title: 'a wrong client secret', message: /to answer 400, 401 or 403, got 200/ },
  {
    fault: 'bearer-not-checked',
    spec: 'bearer-auth.spec.ts',
    within: 'GET /api/v2/users refuses (401 or 403, never 2xx)',
    title: 'no Authorization header',
    message: /to answer 401 or 403, got 200/,
  },
  {
    fault: 'scope-not-enforced-content',
    spec: 'scopes.spec.ts',
    title: 'users:read cannot call GET /api/v2/content',
    message: /to answer 401 or 403, got 200/,
  },
  {
    fault: 'logout-keeps-access-token',
    spec: 'logout.spec.ts',
    title: 'refuses the logged-out token at once on every resource endpoint',
    message: /to answer 401 or 403, got 200/,
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
    title: 'is valid against the envelope and content-item schemas',
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
    message: /Remaining for a new token/,
  },
];

/** Matches the case's test by the end of its full title (describe and title joined by a space; tags follow). */
export function titlePattern(c: FaultCase): RegExp {
  const title = c.within === undefined ? c.title : `${c.within} ${c.title}`;
  return new RegExp(`${title.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}(?: @\\w+)*$`);
}
