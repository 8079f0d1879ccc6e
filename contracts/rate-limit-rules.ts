/**
 * The judgement of a client's rate limit (document, Limits and Errors), one response or one step at a
 * time, written once for the contract specs and the k6 scripts; rate-limit-judge.ts runs these over a
 * whole sequence of one client's responses. Each finding names its rule in contracts/rules.ts.
 *
 * Every legal limiter passes: a window that starts at the client's first request, one aligned to the
 * clock, a sliding one (a request counts for one period after it was made, so budget comes back
 * request by request), token requests counted or not (the rate covers "all endpoints"), a Reset written
 * with 0 to 7 fractional digits, Retry-After as delta-seconds or an HTTP-date. A check that one of
 * them could fail is no check: each rule below judges only what holds for all of them.
 *
 * k6-safe: no Node modules, no `URL`, no `u`-flag regexes.
 */
import type { Rate } from './duration.ts';
import { type HeaderLookup, type RateLimitHeaders, resetResolutionMs, RETRY_AFTER_RESOLUTION_MS } from './rate-limit.ts';
import type { RetryAfterTime } from './rate-limit-retry.ts';
import { sentence } from './rules/exchange.ts';
import type { RuleId } from './rules/index.ts';
import { type HeaderContext, readRateHeaders } from './rules/rate-limit.ts';

/** The rules this file judges, in the order reports list them. */
export const RATE_RULES = [
  'rate.headers',
  'rate.remaining',
  'rate.budget',
  'rate.period',
  'rate.reset',
  'rate.429',
  'rate.retry-after',
  'platform.rate-headers-everywhere',
  'platform.default-rate',
  'platform.retry-after-reset',
] as const satisfies readonly RuleId[];
export type RateRule = (typeof RATE_RULES)[number];

export interface RateFinding {
  readonly rule: RateRule;
  /** What was expected and what came back. */
  readonly reason: string;
}

/**
 * How far the instant Retry-After names may lie from X-Rate-Limit-Reset when both say when the limit
 * lifts: Retry-After is whole seconds, so a target that names its reset exactly still rounds it.
 */
export const RETRY_AFTER_RESET_TOLERANCE_MS = RETRY_AFTER_RESOLUTION_MS;

/**
 * How far a target's clock may be from the client's when nothing narrows it (Date headers, a control
 * plane's clock): X-Rate-Limit-Reset is read on the target's clock, waits run on the client's.
 * Servers kept by NTP are within milliseconds; this also covers a virtual machine's drifting clock.
 */
export const TARGET_CLOCK_SLACK_MS = 5000;

/**
 * Requests a client sends past the budget the headers announced before it stops waiting for the 429
 * that should have come: one request past it already decides, a few more show it was no accident, and
 * they cost a real key little.
 */
export const SPEND_PAST_BUDGET = 5;

/** `3 request(s)`: counts in reasons. */
function requests(n: number): string {
  return `${n} request${n === 1 ? '' : 's'}`;
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

export type { HeaderContext } from './rules/rate-limit.ts';

/**
 * The X-Rate-Limit-* headers of one response, by the one judgement of rate.headers and
 * platform.rate-headers-everywhere (contracts/rules/rate-limit.ts): present on a served resource
 * response and well formed wherever present, with a Reset not before the response and at most one
 * period after it. A refusal or a logout without any is only a platform deviation.
 */
export function judgeRateHeaders(get: HeaderLookup, context: HeaderContext): { headers: RateLimitHeaders | undefined; findings: RateFinding[] } {
  const read = readRateHeaders(get, context);
  if (read.broken === undefined) return { headers: read.headers, findings: [] };
  const what = `a ${context.status} response${context.resource === false ? ' of logout' : ''}`;
  return { headers: read.headers, findings: [{ rule: read.rule, reason: `${what}: ${sentence(read.broken)}` }] };
}

/** Requests of the client between two responses, neither included. */
export interface Between {
  /** Served requests of a resource endpoint: certainly counted. */
  readonly counted: number;
  /** Requests that may or may not be counted: token requests, refusals, answers not read. */
  readonly uncertain: number;
}

export const NOTHING_BETWEEN: Between = { counted: 0, uncertain: 0 };

export interface RemainingStep {
  /** Headers of the earlier response. */
  readonly before: RateLimitHeaders;
  /** Headers of the later one. */
  readonly after: RateLimitHeaders;
  /** Whether the later request was served (then it is counted) or refused (then it may be). */
  readonly afterServed: boolean;
  readonly between?: Between;
  /**
   * Budget that may have come back between the two: `'reset'` when the reset `before` announced may
   * have come; a count when it had not (requests of the client a sliding window may have forgotten
   * meanwhile, having been made one period earlier); undefined when nobody knows what the client sent
   * a period earlier: then only X-Rate-Limit-Reset tells (a Reset that moved forward may give back).
   */
  readonly returned?: number | 'reset';
}

/**
 * One step of X-Rate-Limit-Remaining (rules rate.remaining and rate.429): within a window it falls by
 * one per counted request, and a request the budget no longer covers is refused. `judged` is false
 * when the two responses may lie in different windows.
 */
export function judgeRemainingStep(step: RemainingStep): { judged: boolean; finding: RateFinding | undefined } {
  const { before, after } = step;
  const between = step.between ?? NOTHING_BETWEEN;
  let returned = step.returned;
  if (returned === undefined) {
    // By the headers alone: a Reset moved by more than its resolution is a new window; one moved
    // less may be a sliding window forgetting a request, so only a fall too large is certain.
    if (after.resetMs - before.resetMs > Math.max(resetResolutionMs(before), resetResolutionMs(after))) returned = 'reset';
    else returned = after.resetMs > before.resetMs ? Number.POSITIVE_INFINITY : 0;
  }
  if (returned === 'reset') return { judged: false, finding: undefined };
  const atLeast = between.counted + (step.afterServed ? 1 : 0);
  const atMost = atLeast + between.uncertain + (step.afterServed ? 0 : 1);
  const spent = atLeast === atMost ? requests(atLeast) : `${atLeast} to ${requests(atMost)}`;
  const from = `X-Rate-Limit-Remaining went from ${before.remaining} to ${after.remaining} over ${spent} counted`;
  if (step.afterServed && before.remaining - atLeast + returned < 0) {
    return { judged: true, finding: { rule: 'rate.429', reason: `a request was served though the budget was spent (${from}); expected 429` } };
  }
  const low = Math.max(0, before.remaining - atMost);
  const high = Math.max(0, before.remaining - atLeast + returned);
  if (after.remaining >= low && after.remaining <= high) return { judged: true, finding: undefined };
  const expected = high === Number.POSITIVE_INFINITY ? `at least ${low}` : low === high ? String(low) : `${low} to ${high}`;
  const lapsed = returned > 0 && returned !== Number.POSITIVE_INFINITY ? `, ${requests(returned)} of a period earlier possibly forgotten` : '';
  return { judged: true, finding: { rule: 'rate.remaining', reason: `${from}${lapsed}; expected ${expected}` } };
}

/**
 * A refusal that is not part of a block (rule rate.429): it must not come while budget remains. With
 * the previous response's headers: its Remaining less what was spent since must be 0; with the
 * refusal's own headers: their Remaining must be 0.
 */
export function judgeRefusal(before: RateLimitHeaders | undefined, between: Between, own: RateLimitHeaders | undefined): RateFinding | undefined {
  if (before !== undefined) {
    const left = before.remaining - between.counted - between.uncertain;
    if (left > 0) {
      return {
        rule: 'rate.429',
        reason: `429 while budget remained: the previous response said X-Rate-Limit-Remaining ${before.remaining}, and at most ${requests(between.counted + between.uncertain)} counted since`,
      };
    }
  }
  if (own !== undefined && own.remaining > 0) return { rule: 'rate.429', reason: `429 whose own X-Rate-Limit-Remaining says ${own.remaining} remain` };
  return undefined;
}

/**
 * How far the instant a 429's Retry-After names lies from X-Rate-Limit-Reset (0 when the window of
 * instants it may name contains the reset), and the platform deviation when that is beyond the
 * tolerance and the clock slack. The document says only that Retry-After says how long to wait; that
 * it names the reset is what the platform does.
 */
export function judgeRetryAfterReset(retry: RetryAfterTime, resetMs: number, clockSlackMs = 0): { apartMs: number; finding: RateFinding | undefined } {
  const apartMs = Math.max(0, retry.earliestMs - resetMs, resetMs - retry.latestMs);
  if (apartMs <= RETRY_AFTER_RESET_TOLERANCE_MS + clockSlackMs) return { apartMs, finding: undefined };
  const direction = retry.latestMs < resetMs ? 'before' : 'after';
  return {
    apartMs,
    finding: {
      rule: 'platform.retry-after-reset',
      reason: `Retry-After "${retry.value}" names an instant ${(apartMs / 1000).toFixed(1)} s ${direction} X-Rate-Limit-Reset ${iso(resetMs)}`,
    },
  };
}

/** The rate the client expects: LP_RATE when set (a contract check), else the document's default (a platform one). */
export interface ExpectedRate {
  readonly rate: Rate;
  /** Set by the user for this key: the headers must reflect it ("headers reflect the limit in force"). */
  readonly explicit: boolean;
}

/**
 * The rate in force against the expected one (rule rate.budget, or platform.default-rate when the
 * expected rate is only the document's default): the period of X-Rate-Limit-Limit, and the budget,
 * first Remaining + 1 of a window seen from its first request (`fresh`); any later Remaining can only
 * be lower.
 */
export function judgeRateInForce(headers: RateLimitHeaders, expected: ExpectedRate, fresh: boolean): RateFinding | undefined {
  const rule: RateRule = expected.explicit ? 'rate.budget' : 'platform.default-rate';
  const name = `${expected.explicit ? 'the configured rate' : "the document's default rate"} ${expected.rate.requests}/${expected.rate.period}`;
  if (headers.periodSeconds !== expected.rate.periodSeconds) {
    return { rule, reason: `X-Rate-Limit-Limit says the period is ${headers.period}, but ${name} says ${expected.rate.period}` };
  }
  const budget = headers.remaining + 1;
  if (budget > expected.rate.requests || (fresh && budget !== expected.rate.requests)) {
    const seen = fresh ? 'the first request of a window' : 'a request';
    return {
      rule,
      reason: `${seen} left X-Rate-Limit-Remaining ${headers.remaining}, a budget of ${fresh ? '' : 'at least '}${budget}, but ${name} says ${expected.rate.requests}`,
    };
  }
  return undefined;
}

/**
 * X-Rate-Limit-Limit against the resets (rule rate.period): `opened` and `next` each opened a window
 * (the first request of it: Remaining + 1 is the budget), `next` sent once `opened`'s X-Rate-Limit-Reset
 * had passed, nothing of the client in between. Whatever the kind of window, the new one then resets
 * at least one period after the old one did: a window from the client's first request or a sliding
 * one resets one period after `next` was sent, an aligned one on the next multiple of the period.
 * Both resets are on the target's clock, so no clock slack is needed; each may be rounded to the second.
 */
export function judgeWindowPeriod(opened: RateLimitHeaders, next: RateLimitHeaders): RateFinding | undefined {
  const apartMs = next.resetMs - opened.resetMs;
  if (apartMs >= opened.periodSeconds * 1000 - resetResolutionMs(opened) - resetResolutionMs(next)) return undefined;
  return {
    rule: 'rate.period',
    reason:
      `a window opened once X-Rate-Limit-Reset ${iso(opened.resetMs)} had passed resets at ${iso(next.resetMs)}, ${(apartMs / 1000).toFixed(1)} s later, ` +
      `but X-Rate-Limit-Limit says the period is ${opened.period}`,
  };
}
