/**
 * The annotation types the suite writes on its tests (the declarations, the verdict, the transport's rate-limit
 * retries and waits, a shared token issued anew) and its reporters read: one table with no import, so a reporter loads it without
 * Playwright's test runner. A type with a leading `_` is hidden in the HTML report.
 */
export const ANNOTATIONS = {
  rule: 'rule',
  needs: 'needs',
  checked: '_rules-checked',
  deviation: 'platform-deviation',
  retry: 'rate-limit-retry',
  wait: 'rate-limit-wait',
  reissued: 'token-reissued',
} as const;
