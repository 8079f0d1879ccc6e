/** The load scripts' custom metrics, named once for the scripts, their plans' thresholds and handleSummary; pure (no k6 import). */
export const METRICS = {
  rateFindings: 'lp_rate_findings', // Counter, tag `rule` (an id of contracts/rules/): a rate-limit rule broken.
  rateLimited: 'lp_rate_limited', // Counter: 429s received. The probe needs some (it adds 0 per 2xx so the metric always has samples); the paced scripts none.
  retryHonoured: 'lp_retry_honoured', // Counter: requests sent once Retry-After had passed that were served (0 added per response).
  budgetMeasured: 'lp_budget_measured', // Trend: requests served before the first 429, in windows seen from their first request.
  windowsMeasured: 'lp_windows_measured', // Counter: windows measured from their first request to their first 429.
  timeToFirst429: 'lp_time_to_first_429', // Trend (time): from a window's first response to its first 429.
  retryAfterApart: 'lp_retry_after_apart_seconds', // Trend: seconds between the instant Retry-After names and X-Rate-Limit-Reset.
  plotRemaining: 'lp_plot_remaining', // Trend, tag `bucket`: X-Rate-Limit-Remaining over time, for the plot.
  plotRefused: 'lp_plot_429', // Counter, tag `bucket`: 429s over time, for the plot.
  walkViolations: 'lp_walk_violations', // Counter, tag `rule`: a traversal invariant broken.
  walksCompleted: 'lp_walks_completed', // Counter: walks that reached their final page.
  walkPages: 'lp_walk_pages', // Trend: pages per completed walk.
  lifecycleViolations: 'lp_lifecycle_violations', // Counter, tag `rule`: a token lifecycle rule broken.
  lifecyclesCompleted: 'lp_lifecycles_completed', // Counter: issue → use → log out → refused cycles that completed.
  smokeViolations: 'lp_smoke_violations', // Counter, tag `rule`: a smoke check of an endpoint failed.
  rulesJudged: 'lp_rules_judged', // Counter, tag `rule`: one per judgement of the rule, held or broken; with none, the reports say "not checked", not "ok".
  keyRefused: 'lp_key_refused', // Counter: token requests refused for the key (LP_CLIENT_ID / LP_CLIENT_SECRET): the run checked nothing of the service.
} as const;
