/**
 * The rules of the rate limit and its 429 (document, Limits, its table of rate limit response headers, and Errors), each with its observer of one step of a
 * client's rate sequence (contracts/rate-sequence.ts), and `RateObserver`, the driver (observe.ts) over that sequence, fed one client's exchanges in order. The
 * suite's budget spend, the k6 probe and the profile prober all run it; they only drive the requests and wait.
 *
 * The document says what each header holds, not which responses carry them: a served resource response must (rate.headers), any answer that does must hold what
 * the table says (a Remaining of -1 on a 429 is no "number of requests remaining"); that refusals and logout carry them is the platform's choice. A refused
 * token (401, 403) names no client whose budget could be counted.
 *
 * Every legal limiter passes: a window from the client's first request, one aligned to the clock, a sliding one, token requests counted or not, a Reset written
 * with 0 to 7 fractional digits, Retry-After as delta-seconds or an HTTP-date. Pure and k6-safe.
 */
import {
  parseRateLimitHeaders,
  type RateLimitHeaders,
  resetPassedMs,
  type RetryAfterTime,
  resetResolutionMs,
  RETRY_AFTER_RESOLUTION_MS,
  retryAfterTime,
} from '../rate-limit.ts';
import { RateSequence, type RateSequenceOptions, type RateStep } from '../rate-sequence.ts';
import type { Result } from '../../util/result.ts';
import { type Broken, type Exchange, isServed, type Judgement, type TargetClock } from './exchange.ts';
import { AREA_IDS } from './areas.ts';
import { perStep, SequenceDriver } from './observe.ts';
import { inArea } from './rule.ts';

export { type ExpectedRate, TARGET_CLOCK_SLACK_MS } from '../rate-sequence.ts';

const HEADERS_QUOTE =
  'X-Rate-Limit-Limit | Rate limit period, written like `1m`, `12h` or `1d`. X-Rate-Limit-Remaining | Number of requests remaining. X-Rate-Limit-Reset | UTC date and time, ISO 8601, when the limit resets.';

export const RATE_LIMIT_RULES = {
  ...inArea('rate-limit', {
    'rate.headers': {
      level: 'contract',
      statement:
        'a served resource response carries X-Rate-Limit-Limit (a period like 1m), X-Rate-Limit-Remaining (a whole number) and X-Rate-Limit-Reset (a UTC ISO 8601 time within one period); any answer that carries them has them well formed',
      section: 'Limits, Rate limit response headers',
      quote: HEADERS_QUOTE,
      judged: 'every 2xx resource response; every other answer of the api origin that carries them',
      judge: (exchange, context) => judgeHeaders('rate.headers', exchange, context.clock),
      observe: (step: RateStep) => judgeHeaders('rate.headers', step.exchange, step.clock, step.parsed),
    },
    'rate.remaining': {
      level: 'contract',
      statement: 'X-Rate-Limit-Remaining falls by one with each request of the client within a window',
      section: 'Limits, Rate limit response headers',
      quote: 'X-Rate-Limit-Remaining | Number of requests remaining.',
      observe: (step: RateStep) => {
        const judged = remainingStep(step);
        return judged === undefined || step.across !== undefined ? undefined : judged.breaks === 'rate.remaining' ? judged.broken : null;
      },
    },
    'rate.per-client': {
      level: 'contract',
      statement:
        'the budget belongs to the API client and covers all its endpoints: a new token of the same client does not renew it, another client’s requests do not spend it, and GET /api/v2/users is refused like content once it is spent',
      section: 'Limits',
      quote: 'Default request rate | 200 requests per minute | One API client, all endpoints.',
      // A step across a new token or another client's requests, or onto the users endpoint.
      observe: (step: RateStep): Judgement => (step.across === undefined ? undefined : remainingStep(step)?.broken),
    },
    'rate.budget': {
      level: 'contract',
      statement: 'the budget of a window (first Remaining + 1) and its period (X-Rate-Limit-Limit) are the rate in force (LP_RATE when set)',
      section: 'Limits',
      quote: 'Custom rate | Set per organization on request; headers reflect the limit in force | One API client.',
      observe: (step: RateStep) => judgeRateInForce(step, true),
    },
    'rate.period': {
      level: 'contract',
      statement:
        'X-Rate-Limit-Limit is the period of the windows the resets show: a window opened once the previous one’s X-Rate-Limit-Reset has passed resets no sooner than one period after it',
      section: 'Limits, Rate limit response headers',
      quote:
        'X-Rate-Limit-Limit | Rate limit period, written like `1m`, `12h` or `1d`. X-Rate-Limit-Reset | UTC date and time, ISO 8601, when the limit resets.',
      // Two windows each seen from its first request, the second sent once the first one's Reset had passed.
      observe: ({ fresh, headers, opened, sentMs, offsetLow }: RateStep) =>
        fresh && headers !== undefined && opened !== undefined && sentMs + offsetLow >= resetPassedMs(opened)
          ? (judgeWindowPeriod(opened, headers) ?? null)
          : undefined,
    },
    'rate.reset': {
      level: 'contract',
      statement: 'once X-Rate-Limit-Reset has passed, the budget is back: a request is served',
      section: 'Limits, Rate limit response headers',
      quote: 'X-Rate-Limit-Reset | UTC date and time, ISO 8601, when the limit resets.',
      // A refusal of a request sent once the Reset of the answer before had passed (it said Remaining 0, nothing sent in between).
      observe: ({ refused, block, last, between, sentMs, offsetLow }: RateStep): Judgement => {
        if (!refused) return undefined;
        if (block !== undefined || last === undefined || sentMs + offsetLow < resetPassedMs(last.headers)) return null;
        if (between.counted + between.uncertain > 0 || last.headers.remaining > 0) return null;
        return { expected: `a request sent once X-Rate-Limit-Reset ${iso(last.headers.resetMs)} of the answer before had passed to be served`, got: '429' };
      },
    },
    'platform.rate-headers-everywhere': {
      level: 'platform',
      statement: 'the X-Rate-Limit-* headers come on every response of the api origin, 429s and logout included',
      basis: 'mock',
      note: 'The document lists the headers without saying which responses carry them.',
      judged: 'every 429, query refusal and logout answer of the api origin',
      judge: (exchange, context) => judgeHeaders('platform.rate-headers-everywhere', exchange, context.clock),
      observe: (step: RateStep) => judgeHeaders('platform.rate-headers-everywhere', step.exchange, step.clock, step.parsed),
    },
    'platform.default-rate': {
      level: 'platform',
      statement: 'without LP_RATE, the rate in force is the default 200 per 1m',
      basis: 'platform-docs',
      note: 'An organization may have a custom rate; set LP_RATE to it to make this a contract check.',
      observe: (step: RateStep) => judgeRateInForce(step, false),
    },
  }),
  ...inArea('429', {
    'rate.429': {
      level: 'contract',
      statement: 'the request after the budget of a window is spent gets 429, and no request within the budget does',
      section: 'Errors',
      quote: '429 Too Many Requests | The client exceeds its assigned rate limit.',
      observe: (step: RateStep): Judgement => {
        if (step.refused) return refusedWithBudget(step);
        const judged = remainingStep(step);
        return judged === undefined ? undefined : step.across === undefined && judged.breaks === 'rate.429' ? judged.broken : null;
      },
    },
    'rate.retry-after': {
      level: 'contract',
      statement: 'every 429 carries Retry-After, and a request sent once it has passed (nothing sent meanwhile) is served',
      section: 'Errors',
      quote: 'The response includes the header `Retry-After`, which says how long to wait before the next request.',
      judged: 'every 429 of the api origin or the token endpoint (Retry-After present and readable)',
      // Retry-After of any 429 (the token endpoint's too), on its own: present and readable.
      judge: (exchange: Exchange): Judgement => (exchange.status === 429 ? retryAfterRead(retryAfterTime(exchange.header('retry-after'), 0, 0)) : undefined),
      // In a sequence, also: a request sent once the wait of the 429 before had passed, nothing sent meanwhile, is served.
      observe: ({ refused, served, honours, block, sentMs, retryAfter }: RateStep): Judgement => {
        if (!refused) return served && honours ? null : undefined;
        if (!honours || block === undefined) return retryAfter === undefined ? null : retryAfterRead(retryAfter);
        const after = ((sentMs - block.refusedAtMs) / 1000).toFixed(1);
        return {
          expected: `a request sent ${after} s after a 429 whose Retry-After said "${block.retryAfter}", nothing sent in between, to be served`,
          got: '429 again',
        };
      },
    },
    'platform.retry-after-reset': {
      level: 'platform',
      statement: 'Retry-After names the time of X-Rate-Limit-Reset, within one second',
      basis: 'mock',
      note: 'The document says Retry-After says how long to wait; a service may ask for a longer wait than its window.',
      observe: ({ retry, retryApartMs, retryResetMs, slackMs }: RateStep): Judgement => {
        if (retryApartMs === undefined || retryResetMs === undefined || retry === undefined) return undefined;
        if (retryApartMs <= RETRY_AFTER_RESOLUTION_MS + slackMs) return null;
        return {
          expected: `Retry-After to name X-Rate-Limit-Reset ${iso(retryResetMs)} within ${RETRY_AFTER_RESOLUTION_MS + slackMs} ms`,
          got: `"${retry.value}", an instant ${(retryApartMs / 1000).toFixed(1)} s ${retry.latestMs < retryResetMs ? 'before' : 'after'} it`,
        };
      },
    },
  }),
};

/** The rules of this file, in report order. */
export function rateRuleIds(): readonly RateRuleId[] {
  const ids = Object.keys(RATE_LIMIT_RULES) as RateRuleId[];
  return AREA_IDS.flatMap((area) => ids.filter((id) => RATE_LIMIT_RULES[id].area === area));
}

type RateRuleId = keyof typeof RATE_LIMIT_RULES;

/** Requests a client sends past the budget it was told before it stops waiting for the 429 that should have come. */
export const SPEND_PAST_BUDGET = 5;

const requests = (n: number) => `${n} request${n === 1 ? '' : 's'}`;
const iso = (ms: number) => new Date(ms).toISOString();

/**
 * THE judgement of the headers of one answer by `rule` (rate.headers, platform.rate-headers-everywhere): present on a served resource response, well formed
 * wherever present, with a Reset within one period of the answer; present on any other answer of the api origin but a refused token's.
 */
function judgeHeaders(
  rule: 'rate.headers' | 'platform.rate-headers-everywhere',
  exchange: Exchange,
  clock: TargetClock | undefined,
  parsed = parseRateLimitHeaders(exchange.header),
): Judgement {
  if (exchange.origin !== 'api' || exchange.status === 401 || exchange.status === 403) return undefined;
  const servedResource = isServed(exchange) && exchange.list !== undefined;
  const judged = (by: typeof rule, broken: Broken | null = null) => (by === rule ? broken : undefined);
  if (!parsed.ok) {
    const present = ['x-rate-limit-limit', 'x-rate-limit-remaining', 'x-rate-limit-reset'].some((name) => exchange.header(name) !== undefined);
    const expected = present ? 'the X-Rate-Limit headers, where present, well formed' : `the three X-Rate-Limit headers on the ${exchange.status}`;
    return judged(present || servedResource ? 'rate.headers' : 'platform.rate-headers-everywhere', { expected, got: parsed.error });
  }
  const headers = parsed.value;
  // The Reset's window is judged on served pages: the answers the document's table is surely about.
  if (clock !== undefined && servedResource) {
    const slack = clock.slackMs + resetResolutionMs(headers);
    if (headers.resetMs < clock.nowMs - slack || headers.resetMs > clock.nowMs + headers.periodSeconds * 1000 + slack) {
      const expected = `X-Rate-Limit-Reset within one period (${headers.period}) of the target's time ${iso(clock.nowMs)} (±${slack} ms)`;
      return judged('rate.headers', { expected, got: exchange.header('x-rate-limit-reset') ?? '' });
    }
  }
  return judged(servedResource ? 'rate.headers' : 'platform.rate-headers-everywhere');
}

/** Retry-After of a 429: present and readable (delta-seconds or an HTTP-date). */
function retryAfterRead(retry: Result<RetryAfterTime>): Judgement {
  return retry.ok ? null : { expected: 'the 429 to carry Retry-After (delta-seconds or an HTTP-date)', got: retry.error };
}

/** A 429 that is the first refusal of a block: the budget must have run out (by the answer before, or its own Remaining). */
function refusedWithBudget({ block, last, between, headers }: RateStep): Judgement {
  if (block !== undefined) return null;
  const uncounted = between.counted + between.uncertain;
  if (last !== undefined && last.headers.remaining - uncounted > 0)
    return {
      expected: `no 429 while budget remained (the answer before said X-Rate-Limit-Remaining ${last.headers.remaining}, at most ${requests(uncounted)} counted since)`,
      got: '429',
    };
  if (headers !== undefined && headers.remaining > 0)
    return { expected: 'no 429 while budget remained', got: `a 429 whose own X-Rate-Limit-Remaining says ${headers.remaining}` };
  return null;
}

/**
 * THE judgement of X-Rate-Limit-Remaining from one answer to the next (rate.remaining; rate.429 for a request served once the budget was spent; rate.per-client
 * for either across a new token or another client's requests): within a window it falls by one per counted request. `returned`: the budget that may have come
 * back between the two (`'reset'`: not judged; undefined: unknown). Undefined where not judged.
 */
const remainingStep = perStep((step: RateStep): { breaks?: 'rate.429' | 'rate.remaining'; broken: Broken | null } | undefined => {
  if (step.remaining === undefined) return undefined;
  const { before, after, unseen } = step.remaining;
  // Unknown, by the headers alone: a Reset moved by more than its resolution is a new window; one moved less may be a sliding window forgetting a request, so
  // only a fall too large is certain.
  const moved = after.resetMs - before.resetMs;
  const newWindow = moved > Math.max(resetResolutionMs(before), resetResolutionMs(after));
  const returned = step.remaining.returned ?? (newWindow ? 'reset' : moved > 0 ? Number.POSITIVE_INFINITY : 0);
  if (returned === 'reset') return undefined;
  const atLeast = step.between.counted + (step.served ? 1 : 0);
  const atMost = atLeast + step.between.uncertain + unseen + (step.served ? 0 : 1);
  const spent = atLeast === atMost ? requests(atLeast) : `${atLeast} to ${requests(atMost)}`;
  const got = `X-Rate-Limit-Remaining went from ${before.remaining} to ${after.remaining} over ${spent} counted${step.across ? `, across ${step.across}` : ''}`;
  if (step.served && before.remaining - atLeast + returned < 0) return { breaks: 'rate.429', broken: { expected: 'a 429: the budget was spent', got } };
  const low = Math.max(0, before.remaining - atMost);
  const high = Math.max(0, before.remaining - atLeast + returned);
  if (after.remaining >= low && after.remaining <= high) return { broken: null };
  const lapsed = returned > 0 && returned !== Number.POSITIVE_INFINITY ? `, ${requests(returned)} of a period earlier possibly forgotten` : '';
  const expected = high === Number.POSITIVE_INFINITY ? `at least ${low}` : low === high ? String(low) : `${low} to ${high}`;
  return { breaks: 'rate.remaining', broken: { expected: `X-Rate-Limit-Remaining ${expected}${lapsed}`, got } };
});

/** THE judge of rate.period: `opened` and `next` each opened a window, `next` after `opened`'s Reset: in any window the new one resets a period later. */
export function judgeWindowPeriod(opened: RateLimitHeaders, next: RateLimitHeaders): (Broken & { readonly rule: 'rate.period' }) | undefined {
  const apartMs = next.resetMs - opened.resetMs;
  if (apartMs >= opened.periodSeconds * 1000 - resetResolutionMs(opened) - resetResolutionMs(next)) return undefined;
  return {
    rule: 'rate.period',
    expected: `a window opened once X-Rate-Limit-Reset ${iso(opened.resetMs)} had passed to reset at least X-Rate-Limit-Limit ${opened.period} later`,
    got: `a reset at ${iso(next.resetMs)}, ${(apartMs / 1000).toFixed(1)} s later`,
  };
}

/**
 * The rate in force against the expected one (rate.budget where it was set, platform.default-rate where it is the document's default): the period of
 * X-Rate-Limit-Limit, and the budget, first Remaining + 1 of a window seen from its first request (`fresh`); any later Remaining can only be lower.
 */
function judgeRateInForce({ served, headers, expected, fresh }: RateStep, explicit: boolean): Judgement {
  if (!served || headers === undefined || expected === undefined || expected.explicit !== explicit) return undefined;
  const name = `${explicit ? 'the configured rate' : "the document's default rate"} ${expected.rate.requests}/${expected.rate.period}`;
  if (headers.periodSeconds !== expected.rate.periodSeconds) return { expected: `X-Rate-Limit-Limit ${expected.rate.period} (${name})`, got: headers.period };
  const budget = headers.remaining + 1;
  if (budget <= expected.rate.requests && (!fresh || budget === expected.rate.requests)) return null;
  const seen = fresh ? 'the first request of a window' : 'a request';
  return {
    expected: `a budget of ${expected.rate.requests} (${name})`,
    got: `${seen} left X-Rate-Limit-Remaining ${headers.remaining}, a budget of ${fresh ? '' : 'at least '}${budget}`,
  };
}

/** What the observer made of the latest exchange (its step, contracts/rate-sequence.ts), for the code that drives the requests. */
export type RateSeen = Partial<RateStep> & {
  readonly fresh: boolean;
  /** The rules it was judged by, held or broken: a rule no exchange was judged by is "not checked". */
  readonly checked: readonly RateRuleId[];
};

/** One client's rate limit judged over its exchanges: the driver over its rate sequence (contracts/rate-sequence.ts). */
export class RateObserver extends SequenceDriver<RateRuleId, RateStep, RateSequence> {
  seen: RateSeen = { fresh: false, checked: [] };

  constructor(options: RateSequenceOptions = {}) {
    super(RATE_LIMIT_RULES, new RateSequence(options));
  }

  override observe(exchange: Exchange) {
    const findings = super.observe(exchange);
    this.seen = { ...(this.latest ?? { fresh: false }), checked: this.checked };
    return findings;
  }

  /** When the next request may be sent after the latest 429 (epoch ms); undefined when nothing holds it back. */
  retryAllowedAtMs(): number | undefined {
    return this.sequence.block?.retryAtMs;
  }

  /** The latest instant the latest 429's Retry-After names: a request sent then, nothing sent meanwhile, must be served. */
  retryNamedAtMs(): number | undefined {
    return this.sequence.block?.namedMs;
  }

  /** The next request crosses `what` (a new token, another client's requests): no budget renewed or spent, so its Remaining judges per-client counting. */
  crossing(what: string): void {
    this.sequence.crossing(what);
  }
}
