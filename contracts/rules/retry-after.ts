/**
 * The rules of a 429 (document, Errors): when it comes, and its Retry-After. Retry-After is judged on
 * every 429, of the token endpoint too (the rate covers all endpoints); the rest over a sequence of
 * one client's responses (contracts/rate-limit-rules.ts).
 */
import { parseRetryAfter } from '../rate-limit.ts';
import { held, type Exchange, type Judgement } from './exchange.ts';
import type { Rule } from './rule.ts';

export const RETRY_AFTER_RULES = {
  'rate.429': {
    level: 'contract',
    area: '429',
    statement: 'the request after the budget of a window is spent gets 429, and no request within the budget does',
    section: 'Errors',
    quote: '429 Too Many Requests | The client exceeds its assigned rate limit.',
  },
  'rate.retry-after': {
    level: 'contract',
    area: '429',
    statement: 'every 429 carries Retry-After, and a request sent once it has passed (nothing sent meanwhile) is served',
    section: 'Errors',
    quote: 'The response includes the header `Retry-After`, which says how long to wait before the next request.',
    judged: 'every 429 of the api origin or the token endpoint (Retry-After present and readable)',
    judge: judgeRetryAfter,
  },
  'platform.retry-after-reset': {
    level: 'platform',
    area: '429',
    statement: 'Retry-After names the time of X-Rate-Limit-Reset, within one second',
    basis: 'mock',
    note: 'The document says Retry-After says how long to wait; a service may ask for a longer wait than its window.',
  },
} as const satisfies Record<string, Rule>;

function judgeRetryAfter(exchange: Exchange): Judgement {
  if (exchange.status !== 429) return undefined;
  // Whether it is readable does not depend on the time it is read at.
  const retryAfter = parseRetryAfter(exchange.header('retry-after'), 0);
  return held(retryAfter.ok, 'the 429 to carry Retry-After (delta-seconds or an HTTP-date)', () => (retryAfter.ok ? '' : retryAfter.error));
}
