/** The load scripts' custom metrics, named once for the scripts, their plans' thresholds and handleSummary; pure (no k6 import). */
export const METRICS = {
  /** Counter, tag `rule` (an id of contracts/rules/): a rate-limit rule broken. */
  rateFindings: 'lp_rate_findings',
  /** Counter: 429s received. The probe needs some (it adds 0 per 2xx so the metric always has samples); the paced scripts none. */
  rateLimited: 'lp_rate_limited',
  /** Counter: requests sent once Retry-After had passed that were served (0 added per response). */
  retryHonoured: 'lp_retry_honoured',
  /** Trend: requests served before the first 429, in windows seen from their first request. */
  budgetMeasured: 'lp_budget_measured',
  /** Counter: windows measured from their first request to their first 429. */
  windowsMeasured: 'lp_windows_measured',
  /** Trend (time): from a window's first response to its first 429. */
  timeToFirst429: 'lp_time_to_first_429',
  /** Trend: seconds between the instant Retry-After names and X-Rate-Limit-Reset. */
  retryAfterApart: 'lp_retry_after_apart_seconds',
  /** Trend, tag `bucket`: X-Rate-Limit-Remaining over time, for the plot. */
  plotRemaining: 'lp_plot_remaining',
  /** Counter, tag `bucket`: 429s over time, for the plot. */
  plotRefused: 'lp_plot_429',
  /** Counter, tag `rule`: a traversal invariant broken. */
  walkViolations: 'lp_walk_violations',
  /** Counter: walks that reached their final page. */
  walksCompleted: 'lp_walks_completed',
  /** Trend: pages per completed walk. */
  walkPages: 'lp_walk_pages',
  /** Counter, tag `rule`: a token lifecycle rule broken. */
  lifecycleViolations: 'lp_lifecycle_violations',
  /** Counter: issue → use → log out → refused cycles that completed. */
  lifecyclesCompleted: 'lp_lifecycles_completed',
  /** Counter, tag `rule`: a smoke check of an endpoint failed. */
  smokeViolations: 'lp_smoke_violations',
  /** Counter, tag `rule`: one per judgement of the rule, held or broken; with none, the reports say "not checked", not "ok". */
  rulesJudged: 'lp_rules_judged',
  /** Counter: token requests refused for the key (LP_CLIENT_ID / LP_CLIENT_SECRET): the run checked nothing of the service. */
  keyRefused: 'lp_key_refused',
} as const;
