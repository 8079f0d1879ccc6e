/**
 * The harness: the library the contract suite, the scripts and the profile prober drive a target
 * with. The specs' fixtures (specs/fixtures/index.ts) only create, reset and stop what is here.
 *
 * - target/: the settings (LP_*), the service under test, a worker's session of tokens and budget,
 *   the breaker that stops a run against a target that no longer answers;
 * - client/: every request (transport, throttle), the api and token endpoints, the control plane;
 * - verdict/: what a test declares (`checks()`, needs), the rules judged on every response, the two
 *   levels of a finding and the matchers that report it at the spec's line;
 * - walks/: walking a paginated list, and the oracles a walk is judged against;
 * - rate/: the target's clock, rate-limit headers, spending a client's budget;
 * - self-check/: child runs of the suite, for the tests that check the suite itself.
 */
export * from './arbitraries/query.arbitrary.ts';
export * from './client/api.ts';
export * from './client/control.ts';
export * from './client/redact.ts';
export * from './client/throttle.ts';
export * from './client/tokens.ts';
export * from './client/transport.ts';
export * from './rate/rate-harness.ts';
export * from './rate/rate-headers.ts';
export * from './rate/spend-budget.ts';
export * from './rate/target-clock.ts';
export * from './self-check/child-run.ts';
export * from './self-check/leak-run.ts';
export * from './self-check/leak-scan.ts';
export * from './self-check/marker.ts';
export * from './target/breaker.ts';
export * from './target/config.ts';
export * from './target/end-tokens.ts';
export * from './target/session.ts';
export * from './target/target.ts';
export * from './verdict/broken-rule.ts';
export * from './verdict/declare.ts';
export * from './verdict/frames.ts';
export * from './verdict/matchers.ts';
export * from './verdict/needs.ts';
export * from './verdict/refusals.ts';
export * from './verdict/response-rules.ts';
export * from './verdict/step.ts';
export * from './verdict/verdict.ts';
export * from './walks/filter-oracle.ts';
export * from './walks/list-walk.ts';
export * from './walks/pages.ts';
export * from './walks/query-oracle.ts';
