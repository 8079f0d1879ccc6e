/** The numbers of the API document (of the platform docs where it says "not shown"), each written once for the mock, the specs and the load scripts. */
import type { Rate } from './duration.ts';

/** Default request rate: 200 requests per minute per API client, all endpoints (document, Limits). */
export const DEFAULT_RATE: Rate = { requests: 200, periodSeconds: 60, period: '1m' };

/** A snapshot becomes obsolete after 2 minutes without a `next` request (document, pagination rule 4). */
export const SNAPSHOT_TTL_SECONDS = 120;

/** Default access token lifetime: 60 days, configurable per organization (document, Authentication 7). */
export const DEFAULT_TOKEN_TTL_SECONDS = 60 * 86_400;

/** `limit` query parameter: default 100, maximum 1000 (platform docs; the document says "not shown"). */
export const PAGE_LIMIT = { default: 100, min: 1, max: 1000 } as const;

/** Rate-limit response headers (document, Limits), in the lower case HTTP clients hand them back in. */
export const RATE_LIMIT_HEADERS = { limit: 'x-rate-limit-limit', remaining: 'x-rate-limit-remaining', reset: 'x-rate-limit-reset' } as const;

/** Sent with 429 (document, Errors). */
export const RETRY_AFTER_HEADER = 'retry-after';
