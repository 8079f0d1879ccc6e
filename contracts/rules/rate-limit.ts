/**
 * The rules of the rate limit (document, Limits, and its table of rate limit response headers). The
 * headers of one answer are judged here, once, for the suite and the k6 scripts alike; what they must
 * say from one response to the next is judged over a sequence of one client's responses
 * (contracts/rate-limit-rules.ts, contracts/rate-limit-judge.ts).
 *
 * Which answers carry the headers: the document lists them as the rate limit's response headers, for
 * a limit of "one API client, all endpoints", and says nothing of which responses carry them. The
 * least that reading gives is a served response of a resource endpoint: that is the contract
 * (rate.headers). Its table states what each header holds, so wherever one comes it must hold that
 * (a Remaining of -1 on a 429 is no "number of requests remaining"): the contract too. That the other
 * answers (refusals, logout) carry them is the platform's choice (platform.rate-headers-everywhere).
 * An answer refusing the token (401, 403) names no client whose budget could be counted: neither applies.
 */
import { type HeaderLookup, hasRateLimitHeaders, parseRateLimitHeaders, type RateLimitHeaders, resetResolutionMs } from '../rate-limit.ts';
import { latestResetMs } from '../rate-limit-window.ts';
import type { Broken, Exchange, Judgement, JudgeContext } from './exchange.ts';
import { isServed } from './exchange.ts';
import type { Rule } from './rule.ts';

export const RATE_LIMIT_RULES = {
  'rate.headers': {
    level: 'contract',
    area: 'rate-limit',
    statement:
      'a served resource response carries X-Rate-Limit-Limit (a period like 1m), X-Rate-Limit-Remaining (a whole number) and X-Rate-Limit-Reset (a UTC ISO 8601 time within one period); any answer that carries them has them well formed',
    section: 'Limits, Rate limit response headers',
    quote:
      'X-Rate-Limit-Limit | Rate limit period, written like `1m`, `12h` or `1d`. X-Rate-Limit-Remaining | Number of requests remaining. X-Rate-Limit-Reset | UTC date and time, ISO 8601, when the limit resets.',
    judged: 'every 2xx resource response; every other answer of the api origin that carries them',
    judge: judgeRateHeaders,
  },
  'rate.remaining': {
    level: 'contract',
    area: 'rate-limit',
    statement: 'X-Rate-Limit-Remaining falls by one with each request of the client within a window',
    section: 'Limits, Rate limit response headers',
    quote: 'X-Rate-Limit-Remaining | Number of requests remaining.',
  },
  'rate.per-client': {
    level: 'contract',
    area: 'rate-limit',
    statement:
      'the budget belongs to the API client and covers all its endpoints: a new token of the same client does not renew it, another client’s requests do not spend it, and GET /api/v2/users is refused like content once it is spent',
    section: 'Limits',
    quote: 'Default request rate | 200 requests per minute | One API client, all endpoints.',
  },
  'rate.budget': {
    level: 'contract',
    area: 'rate-limit',
    statement: 'the budget of a window (first Remaining + 1) and its period (X-Rate-Limit-Limit) are the rate in force (LP_RATE when set)',
    section: 'Limits',
    quote: 'Custom rate | Set per organization on request; headers reflect the limit in force | One API client.',
  },
  'rate.period': {
    level: 'contract',
    area: 'rate-limit',
    statement:
      'X-Rate-Limit-Limit is the period of the windows the resets show: a window opened once the previous one’s X-Rate-Limit-Reset has passed resets no sooner than one period after it',
    section: 'Limits, Rate limit response headers',
    quote: 'X-Rate-Limit-Limit | Rate limit period, written like `1m`, `12h` or `1d`. X-Rate-Limit-Reset | UTC date and time, ISO 8601, when the limit resets.',
  },
  'rate.reset': {
    level: 'contract',
    area: 'rate-limit',
    statement: 'once X-Rate-Limit-Reset has passed, the budget is back: a request is served',
    section: 'Limits, Rate limit response headers',
    quote: 'X-Rate-Limit-Reset | UTC date and time, ISO 8601, when the limit resets.',
  },
  'platform.rate-headers-everywhere': {
    level: 'platform',
    area: 'rate-limit',
    statement: 'the X-Rate-Limit-* headers come on every response of the api origin, 429s and logout included',
    basis: 'mock',
    note: 'The document lists the headers without saying which responses carry them.',
    judged: 'every 429, query refusal and logout answer of the api origin',
    judge: judgeHeadersEverywhere,
  },
  'platform.default-rate': {
    level: 'platform',
    area: 'rate-limit',
    statement: 'without LP_RATE, the rate in force is the default 200 per 1m',
    basis: 'platform-docs',
    note: 'An organization may have a custom rate; set LP_RATE to it to make this a contract check.',
  },
} as const satisfies Record<string, Rule>;

/** One answer whose X-Rate-Limit-* headers are read. */
export interface HeaderContext {
  readonly status: number;
  /** A response of a resource endpoint (the document's table is about them); false: logout or another path. Default true. */
  readonly resource?: boolean;
  /** The target's time when it answered, for "Reset within one period"; unchecked when absent. */
  readonly nowMs?: number | undefined;
  /** How far `nowMs` may be from the target's clock. Default 0. */
  readonly clockSlackMs?: number | undefined;
}

export interface HeadersRead {
  /** The headers, when all three are there and well formed. */
  readonly headers: RateLimitHeaders | undefined;
  /** The rule this answer's headers are judged by (see the header of this file). */
  readonly rule: 'rate.headers' | 'platform.rate-headers-everywhere';
  /** How they broke it, if they did. */
  readonly broken: Broken | undefined;
}

/**
 * The X-Rate-Limit-* headers of one answer and the rule that judges them: present on a served resource
 * response and well formed wherever present (rate.headers), with a Reset not before the answer and at
 * most one period after it, each within the clock's slack and the Reset's resolution; present on any
 * other answer (platform.rate-headers-everywhere).
 */
export function readRateHeaders(get: HeaderLookup, at: HeaderContext): HeadersRead {
  const parsed = parseRateLimitHeaders(get);
  const servedResource = at.status >= 200 && at.status <= 299 && at.resource !== false;
  if (!parsed.ok) {
    const present = hasRateLimitHeaders(get);
    const rule = present || servedResource ? 'rate.headers' : 'platform.rate-headers-everywhere';
    const expected = present ? 'the X-Rate-Limit headers, where present, well formed' : `the three X-Rate-Limit headers on the ${at.status}`;
    return { headers: undefined, rule, broken: { expected, got: parsed.error } };
  }
  const headers = parsed.value;
  if (at.nowMs !== undefined) {
    const slack = (at.clockSlackMs ?? 0) + resetResolutionMs(headers);
    const latest = latestResetMs(at.nowMs, headers.periodSeconds * 1000);
    if (headers.resetMs < at.nowMs - slack || headers.resetMs > latest + slack) {
      return {
        headers,
        rule: 'rate.headers',
        broken: {
          expected: `X-Rate-Limit-Reset within one period (${headers.period}) of the target's time ${new Date(at.nowMs).toISOString()} (±${slack} ms)`,
          got: get('x-rate-limit-reset') ?? '',
        },
      };
    }
  }
  return { headers, rule: servedResource ? 'rate.headers' : 'platform.rate-headers-everywhere', broken: undefined };
}

/** The headers of an exchange of the api origin, but a refused token's; undefined for any other. */
function readExchange(exchange: Exchange, context: JudgeContext): HeadersRead | undefined {
  if (exchange.origin !== 'api' || exchange.status === 401 || exchange.status === 403) return undefined;
  const resource = exchange.list !== undefined;
  // The Reset's window is judged on served pages: the answers the document's table is surely about.
  const clock = resource && isServed(exchange) ? context.clock : undefined;
  return readRateHeaders(exchange.header, { status: exchange.status, resource, nowMs: clock?.nowMs, clockSlackMs: clock?.slackMs });
}

function judgeRateHeaders(exchange: Exchange, context: JudgeContext): Judgement {
  const read = readExchange(exchange, context);
  return read?.rule === 'rate.headers' ? (read.broken ?? null) : undefined;
}

function judgeHeadersEverywhere(exchange: Exchange, context: JudgeContext): Judgement {
  const read = readExchange(exchange, context);
  return read?.rule === 'platform.rate-headers-everywhere' ? (read.broken ?? null) : undefined;
}
