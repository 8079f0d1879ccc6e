/**
 * The rules of the rate limit and its 429 (document, Limits, its table of rate limit response headers,
 * and Errors), and their one judge: `RateObserver`, fed one client's exchanges in order. The suite's
 * budget spend, the k6 probe and the profile prober all run it; they only drive the requests and wait.
 *
 * The document says what each header holds, not which responses carry them: a served resource
 * response must (rate.headers), any answer that does must hold what the table says (a Remaining of -1
 * on a 429 is no "number of requests remaining"); that refusals and logout carry them is the
 * platform's choice. A refused token (401, 403) names no client whose budget could be counted.
 *
 * Every legal limiter passes: a window from the client's first request, one aligned to the clock, a
 * sliding one, token requests counted or not, a Reset written with 0 to 7 fractional digits,
 * Retry-After as delta-seconds or an HTTP-date. Pure and k6-safe.
 */
import type { Rate } from '../duration.ts';
import type { Result } from '../../util/result.ts';
import {
  parseHttpDate,
  parseRateLimitHeaders,
  type RateLimitHeaders,
  resetResolutionMs,
  RETRY_AFTER_RESOLUTION_MS,
  type RetryAfterTime,
  retryAfterTime,
  retryAllowedAtMs,
  retryDelayMs,
} from '../rate-limit.ts';
import { stillCounts } from '../rate-limit-window.ts';
import type { Broken, Exchange, Judgement, JudgeContext } from './exchange.ts';
import { isServed } from './exchange.ts';
import { AREA_IDS } from './areas.ts';
import type { Finding, Observer } from './finding.ts';
import type { RuleId } from './index.ts';
import type { Rule } from './rule.ts';

const HEADERS_QUOTE =
  'X-Rate-Limit-Limit | Rate limit period, written like `1m`, `12h` or `1d`. X-Rate-Limit-Remaining | Number of requests remaining. X-Rate-Limit-Reset | UTC date and time, ISO 8601, when the limit resets.';

export const RATE_LIMIT_RULES = {
  'rate.headers': {
    level: 'contract',
    area: 'rate-limit',
    statement:
      'a served resource response carries X-Rate-Limit-Limit (a period like 1m), X-Rate-Limit-Remaining (a whole number) and X-Rate-Limit-Reset (a UTC ISO 8601 time within one period); any answer that carries them has them well formed',
    section: 'Limits, Rate limit response headers',
    quote: HEADERS_QUOTE,
    judged: 'every 2xx resource response; every other answer of the api origin that carries them',
    judge: headersJudge('rate.headers'),
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
    judge: headersJudge('platform.rate-headers-everywhere'),
  },
  'platform.default-rate': {
    level: 'platform',
    area: 'rate-limit',
    statement: 'without LP_RATE, the rate in force is the default 200 per 1m',
    basis: 'platform-docs',
    note: 'An organization may have a custom rate; set LP_RATE to it to make this a contract check.',
  },
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
    // Retry-After of any 429 (the token endpoint's too), on its own: present and readable.
    judge: (exchange: Exchange): Judgement => (exchange.status === 429 ? (judgeRetryAfter(exchange, 0, 0).breaches[0] ?? null) : undefined),
  },
  'platform.retry-after-reset': {
    level: 'platform',
    area: '429',
    statement: 'Retry-After names the time of X-Rate-Limit-Reset, within one second',
    basis: 'mock',
    note: 'The document says Retry-After says how long to wait; a service may ask for a longer wait than its window.',
  },
} as const satisfies Record<string, Rule>;

/** The rules the observer judges, by area; read off this file, not the registry, which imports it (a bundle may reach this file first). */
export function rateRuleIds(): readonly RateRuleId[] {
  const ids = Object.keys(RATE_LIMIT_RULES) as RateRuleId[];
  return AREA_IDS.flatMap((area) => ids.filter((id) => RATE_LIMIT_RULES[id].area === area));
}

type RateRuleId = keyof typeof RATE_LIMIT_RULES;

/** The rate the client expects: LP_RATE when set (a contract check), else the document's default (a platform one). */
export interface ExpectedRate {
  readonly rate: Rate;
  /** Set by the user for this key: the headers must reflect it ("headers reflect the limit in force"). */
  readonly explicit: boolean;
}

/** How far a target's clock may be from the client's when nothing narrows it (Date headers, a control plane's clock). */
export const TARGET_CLOCK_SLACK_MS = 5000;

/** Requests a client sends past the budget it was told before it stops waiting for the 429 that should have come. */
export const SPEND_PAST_BUDGET = 5;

/** A rule broken, with what was expected and what came back. */
type Breach = Broken & { readonly rule: RateRuleId };

const requests = (n: number) => `${n} request${n === 1 ? '' : 's'}`;
const iso = (ms: number) => new Date(ms).toISOString();

/**
 * THE judge of the headers of one answer (rate.headers, platform.rate-headers-everywhere): present on
 * a served resource response, well formed wherever present, with a Reset within one period of the
 * answer; present on any other answer of the api origin but a refused token's.
 */
function readRateHeaders(exchange: Exchange, clock: JudgeContext['clock']): { headers?: RateLimitHeaders; rule?: RateRuleId; broken?: Broken } {
  if (exchange.origin !== 'api' || exchange.status === 401 || exchange.status === 403) return {};
  const parsed = parseRateLimitHeaders(exchange.header);
  const servedResource = isServed(exchange) && exchange.list !== undefined;
  if (!parsed.ok) {
    const present = ['x-rate-limit-limit', 'x-rate-limit-remaining', 'x-rate-limit-reset'].some((name) => exchange.header(name) !== undefined);
    const expected = present ? 'the X-Rate-Limit headers, where present, well formed' : `the three X-Rate-Limit headers on the ${exchange.status}`;
    return { rule: present || servedResource ? 'rate.headers' : 'platform.rate-headers-everywhere', broken: { expected, got: parsed.error } };
  }
  const headers = parsed.value;
  // The Reset's window is judged on served pages: the answers the document's table is surely about.
  if (clock !== undefined && servedResource) {
    const slack = clock.slackMs + resetResolutionMs(headers);
    if (headers.resetMs < clock.nowMs - slack || headers.resetMs > clock.nowMs + headers.periodSeconds * 1000 + slack) {
      const expected = `X-Rate-Limit-Reset within one period (${headers.period}) of the target's time ${iso(clock.nowMs)} (±${slack} ms)`;
      return { headers, rule: 'rate.headers', broken: { expected, got: exchange.header('x-rate-limit-reset') ?? '' } };
    }
  }
  return { headers, rule: servedResource ? 'rate.headers' : 'platform.rate-headers-everywhere' };
}

/** A judge of one of the two header rules, over what readRateHeaders makes of the answer. */
function headersJudge(rule: 'rate.headers' | 'platform.rate-headers-everywhere'): (exchange: Exchange, context: JudgeContext) => Judgement {
  return (exchange, context) => {
    const read = readRateHeaders(exchange, context.clock);
    return read.rule === rule ? (read.broken ?? null) : undefined;
  };
}

/**
 * THE judge of Retry-After (rate.retry-after, platform.retry-after-reset) on a 429 sent at `sentMs`
 * and received at `receivedMs`: present and readable, naming X-Rate-Limit-Reset `resetMs` within a
 * second and the clock's slack where that is known (`apartMs`: how far it is), and not broken by
 * `block`: a refusal of a request sent once the wait of the 429 before had passed, nothing sent meanwhile.
 */
function judgeRetryAfter(
  exchange: Exchange,
  sentMs: number,
  receivedMs: number,
  at: { readonly reset?: { readonly resetMs: number; readonly slackMs: number }; readonly block?: Block; readonly date?: string } = {},
): { breaches: Breach[]; retry: Result<RetryAfterTime>; apartMs?: number } {
  const { reset, block } = at;
  const breaches: Breach[] = [];
  if (honours(block, sentMs)) {
    breaches.push({
      rule: 'rate.retry-after',
      expected: `a request sent ${((sentMs - block.refusedAtMs) / 1000).toFixed(1)} s after a 429 whose Retry-After said "${block.retryAfter}", nothing sent in between, to be served`,
      got: '429 again',
    });
  }
  const retry = retryAfterTime(exchange.header('retry-after'), sentMs, receivedMs, at.date);
  if (!retry.ok) breaches.push({ rule: 'rate.retry-after', expected: 'the 429 to carry Retry-After (delta-seconds or an HTTP-date)', got: retry.error });
  if (!retry.ok || reset === undefined) return { breaches, retry };
  const apartMs = Math.max(0, retry.value.earliestMs - reset.resetMs, reset.resetMs - retry.value.latestMs);
  if (apartMs > RETRY_AFTER_RESOLUTION_MS + reset.slackMs) {
    breaches.push({
      rule: 'platform.retry-after-reset',
      expected: `Retry-After to name X-Rate-Limit-Reset ${iso(reset.resetMs)} within ${RETRY_AFTER_RESOLUTION_MS + reset.slackMs} ms`,
      got: `"${retry.value.value}", an instant ${(apartMs / 1000).toFixed(1)} s ${retry.value.latestMs < reset.resetMs ? 'before' : 'after'} it`,
    });
  }
  return { breaches, retry, apartMs };
}

/** Whether a request sent at `sentMs` is owed an answer by the block before it: it honoured a Retry-After, nothing sent meanwhile. */
function honours(block: Block | undefined, sentMs: number): block is Block {
  return block !== undefined && block.retryAfter !== undefined && !block.disturbed && sentMs >= block.namedMs;
}

/** Requests of the client between two responses, neither included. */
interface Between {
  /** Served requests of a resource endpoint: certainly counted. */
  readonly counted: number;
  /** Requests that may or may not be counted: token requests, refusals, answers not read. */
  readonly uncertain: number;
}

/**
 * THE judge of X-Rate-Limit-Remaining from one response to the next (rate.remaining, and rate.429 for
 * a request served once the budget was spent): within a window it falls by one per counted request.
 * `returned`: the budget that may have come back between the two (`'reset'`: not judged; undefined:
 * unknown). `across`: what the step crosses that must not renew or spend the budget (a new token,
 * another client's requests): a broken step then breaks per-client counting.
 */
function judgeRemainingStep(
  before: RateLimitHeaders,
  after: RateLimitHeaders,
  afterServed: boolean,
  between: Between,
  returned: number | 'reset' | undefined,
  across?: string,
): { judged: boolean; breach?: Breach } {
  if (returned === undefined) {
    // By the headers alone: a Reset moved by more than its resolution is a new window; one moved
    // less may be a sliding window forgetting a request, so only a fall too large is certain.
    if (after.resetMs - before.resetMs > Math.max(resetResolutionMs(before), resetResolutionMs(after))) returned = 'reset';
    else returned = after.resetMs > before.resetMs ? Number.POSITIVE_INFINITY : 0;
  }
  if (returned === 'reset') return { judged: false };
  const atLeast = between.counted + (afterServed ? 1 : 0);
  const atMost = atLeast + between.uncertain + (afterServed ? 0 : 1);
  const spent = atLeast === atMost ? requests(atLeast) : `${atLeast} to ${requests(atMost)}`;
  const got = `X-Rate-Limit-Remaining went from ${before.remaining} to ${after.remaining} over ${spent} counted${across ? `, across ${across}` : ''}`;
  const rule = (fallback: RateRuleId): RateRuleId => (across === undefined ? fallback : 'rate.per-client');
  if (afterServed && before.remaining - atLeast + returned < 0)
    return { judged: true, breach: { rule: rule('rate.429'), expected: 'a 429: the budget was spent', got } };
  const low = Math.max(0, before.remaining - atMost);
  const high = Math.max(0, before.remaining - atLeast + returned);
  if (after.remaining >= low && after.remaining <= high) return { judged: true };
  const lapsed = returned > 0 && returned !== Number.POSITIVE_INFINITY ? `, ${requests(returned)} of a period earlier possibly forgotten` : '';
  const expected = high === Number.POSITIVE_INFINITY ? `at least ${low}` : low === high ? String(low) : `${low} to ${high}`;
  return { judged: true, breach: { rule: rule('rate.remaining'), expected: `X-Rate-Limit-Remaining ${expected}${lapsed}`, got } };
}

/**
 * THE judge of X-Rate-Limit-Reset (rate.reset): a request sent once the Reset of the answer before
 * it had passed (that answer said Remaining 0, nothing sent in between) is not refused.
 */
function judgeReset(last: RateLimitHeaders, between: Between, resetCame: boolean): Breach | undefined {
  if (!resetCame || between.counted + between.uncertain > 0 || last.remaining > 0) return undefined;
  return {
    rule: 'rate.reset',
    expected: `a request sent once X-Rate-Limit-Reset ${iso(last.resetMs)} of the answer before had passed to be served`,
    got: '429',
  };
}

/**
 * THE judge of the period (rate.period): `opened` and `next` each opened a window, `next` sent once
 * `opened`'s Reset had passed: in any kind of window the new one resets at least one period later.
 */
export function judgeWindowPeriod(opened: RateLimitHeaders, next: RateLimitHeaders): Breach | undefined {
  const apartMs = next.resetMs - opened.resetMs;
  if (apartMs >= opened.periodSeconds * 1000 - resetResolutionMs(opened) - resetResolutionMs(next)) return undefined;
  return {
    rule: 'rate.period',
    expected: `a window opened once X-Rate-Limit-Reset ${iso(opened.resetMs)} had passed to reset at least X-Rate-Limit-Limit ${opened.period} later`,
    got: `a reset at ${iso(next.resetMs)}, ${(apartMs / 1000).toFixed(1)} s later`,
  };
}

/**
 * The rate in force against the expected one (rate.budget, or platform.default-rate when the expected
 * rate is only the document's default): the period of X-Rate-Limit-Limit, and the budget, first
 * Remaining + 1 of a window seen from its first request (`fresh`); any later Remaining can only be lower.
 */
function judgeRateInForce(headers: RateLimitHeaders, expected: ExpectedRate, fresh: boolean): Breach | undefined {
  const rule: RuleId = expected.explicit ? 'rate.budget' : 'platform.default-rate';
  const name = `${expected.explicit ? 'the configured rate' : "the document's default rate"} ${expected.rate.requests}/${expected.rate.period}`;
  if (headers.periodSeconds !== expected.rate.periodSeconds)
    return { rule, expected: `X-Rate-Limit-Limit ${expected.rate.period} (${name})`, got: headers.period };
  const budget = headers.remaining + 1;
  if (budget <= expected.rate.requests && (!fresh || budget === expected.rate.requests)) return undefined;
  const seen = fresh ? 'the first request of a window' : 'a request';
  return {
    rule,
    expected: `a budget of ${expected.rate.requests} (${name})`,
    got: `${seen} left X-Rate-Limit-Remaining ${headers.remaining}, a budget of ${fresh ? '' : 'at least '}${budget}`,
  };
}

export interface RateObserverOptions {
  /** The rate the client expects; without it the budget is reported, not compared. */
  readonly expected?: ExpectedRate;
  /** The client sent nothing for at least one period before the first exchange. Default false. */
  readonly idleBefore?: boolean;
  /** How far the target's clock (X-Rate-Limit-Reset's) may be from the exchanges' times. Default TARGET_CLOCK_SLACK_MS; 0 when they are read from the target's clock. */
  readonly clockSlackMs?: number;
  /** Narrow the clock difference with each response's Date header (when the target made it, to the second). Default false. */
  readonly dateHeaders?: boolean;
  /** Others may send with the key meanwhile: only a fall of Remaining too small or a request served past the budget is judged. Default false. */
  readonly shared?: boolean;
}

/** What the observer made of the latest exchange, for the code that drives the requests. */
export interface RateSeen {
  readonly headers?: RateLimitHeaders;
  /** It opened a window: nothing else of the client counted within a period before it. */
  readonly fresh: boolean;
  /** The rules it was judged by, held or broken: a rule no exchange was judged by is "not checked". */
  readonly checked: readonly RuleId[];
  /** A 429's Retry-After, when readable. */
  readonly retry?: RetryAfterTime;
  /** On the first 429 of a window seen from its first request: requests served before it, and what the first Remaining promised. */
  readonly budget?: { readonly served: number; readonly promised: number };
  /** How far a 429's Retry-After lies from X-Rate-Limit-Reset, in seconds. */
  readonly retryAfterApartSeconds?: number;
  /** On the first request sent once a 429's Retry-After had passed with nothing sent meanwhile: served or not. */
  readonly honoured?: boolean;
}

interface Sent {
  readonly sentMs: number;
  readonly receivedMs: number;
  /** Served resource requests are counted; anything else may be. */
  readonly counted: boolean;
}

interface Block {
  /** When the client may send again: the instant named plus Retry-After's resolution (retryAllowedAtMs), or a backoff. */
  readonly retryAtMs: number;
  /** The latest instant Retry-After can name (an HTTP-date's with the clock slack): a request sent from then on is owed an answer. */
  readonly namedMs: number;
  /** Retry-After as sent; undefined where it was not read: the wait was only a backoff, and a refusal after it proves nothing. */
  readonly retryAfter: string | undefined;
  readonly refusedAtMs: number;
  /** A request was sent before namedMs: it may have extended the block. */
  disturbed: boolean;
  readonly attempt: number;
}

/** Requests kept for the sliding-window arithmetic: more than any window of a probe or spec holds. */
const MAX_HISTORY = 5000;

/**
 * One client's rate limit judged over its exchanges, fed in the order the target counted them (one
 * request at a time, or a batch in its order), token requests too (origin `auth`: they may count).
 */
export class RateObserver implements Observer {
  /** What it made of the latest exchange. */
  seen: RateSeen = { fresh: false, checked: [] };
  private readonly slackMs: number;
  /** Bounds of (target clock - caller clock), ms. */
  private offsetLow: number;
  private offsetHigh: number;
  private history: Sent[] = [];
  /** Requests since the last answer with headers. */
  private since: { counted: number; uncertain: number } = { counted: 0, uncertain: 0 };
  /** Requests before this instant may be unknown to the observer; undefined: none are; infinite until the first exchange. */
  private unknownBeforeMs: number | undefined;
  /** Requests before this instant no longer count (a window opened after them). */
  private forgottenBeforeMs = Number.NEGATIVE_INFINITY;
  /** The last answer with headers, and when its request was sent. */
  private last: { readonly headers: RateLimitHeaders; readonly sentMs: number } | undefined;
  private opened: RateLimitHeaders | undefined;
  private block: Block | undefined;
  private measure: { readonly promised: number; remaining: number; served: number } | undefined;
  private across: string | undefined;

  constructor(private readonly options: RateObserverOptions = {}) {
    this.slackMs = options.clockSlackMs ?? TARGET_CLOCK_SLACK_MS;
    this.offsetLow = -this.slackMs;
    this.offsetHigh = this.slackMs;
    this.unknownBeforeMs = options.idleBefore ? undefined : Number.POSITIVE_INFINITY;
  }

  /** When the next request may be sent after the latest 429 (epoch ms); undefined when nothing holds it back. */
  retryAllowedAtMs(): number | undefined {
    return this.block?.retryAtMs;
  }

  /** The latest instant the latest 429's Retry-After names: a request sent then, nothing sent meanwhile, must be served. */
  retryNamedAtMs(): number | undefined {
    return this.block?.namedMs;
  }

  /**
   * The next request crosses `what` (a new token of the client, another client's requests): neither
   * renews nor spends the budget, so its step of Remaining judges per-client counting.
   */
  crossing(what: string): void {
    this.across = what;
  }

  observe(exchange: Exchange): readonly Finding[] {
    const sentMs = exchange.sentMs ?? exchange.receivedMs ?? 0;
    const receivedMs = exchange.receivedMs ?? sentMs;
    const served = isServed(exchange);
    const refused = exchange.status === 429;
    const request = `${exchange.request.method} ${exchange.request.url}`;
    if (this.unknownBeforeMs === Number.POSITIVE_INFINITY) this.unknownBeforeMs = sentMs;
    if (this.block !== undefined && sentMs < this.block.namedMs) this.block.disturbed = true;
    if (exchange.origin === 'auth') {
      this.push({ sentMs, receivedMs, counted: false });
      this.seen = { fresh: false, checked: [] };
      return [];
    }
    if (this.options.dateHeaders) this.narrowClock(exchange.header('date'), sentMs, receivedMs);
    const slackMs = Math.max(-this.offsetLow, this.offsetHigh);
    const breaches: Breach[] = [];
    const checked = new Set<RuleId>();
    const seen: { -readonly [K in keyof RateSeen]?: RateSeen[K] } = {};
    const add = (breach: Breach | undefined) => {
      if (breach !== undefined) breaches.push(breach);
    };

    const read = readRateHeaders(exchange, { nowMs: receivedMs, slackMs: slackMs + (receivedMs - sentMs) });
    if (read.rule !== undefined) checked.add(read.rule);
    if (read.broken !== undefined && read.rule !== undefined) add({ rule: read.rule, ...read.broken });
    const headers = read.headers;
    const last = this.last;
    const between = this.since;
    // A step across a new token or another client's requests, or onto the users endpoint, judges per-client counting.
    const crossed = this.across;
    const across = crossed ?? (exchange.list === 'users' ? 'GET /api/v2/users' : undefined);
    this.across = undefined;
    const resetMayHaveCome = last !== undefined && receivedMs + this.offsetHigh >= last.headers.resetMs - resetResolutionMs(last.headers);

    if (last !== undefined && headers !== undefined && (served || refused)) {
      // Across what the caller names, before the reset the answer before announced nothing comes back, whatever the kind of window.
      const returned = resetMayHaveCome ? 'reset' : crossed !== undefined ? 0 : this.forgotten(last, receivedMs);
      const unseen = this.options.shared && crossed === undefined ? Number.POSITIVE_INFINITY : 0;
      const step = judgeRemainingStep(last.headers, headers, served, { ...between, uncertain: between.uncertain + unseen }, returned, across);
      if (step.judged) checked.add(across === undefined ? 'rate.remaining' : 'rate.per-client').add('rate.429');
      add(step.breach);
    }

    const block = this.block;
    if (refused) {
      checked.add('rate.429').add('rate.reset').add('rate.retry-after');
      if (block === undefined && last !== undefined) {
        // The first refusal after a served response: budget must have run out, and a passed reset renews it.
        const left = last.headers.remaining - between.counted - between.uncertain;
        if (left > 0)
          add({
            rule: 'rate.429',
            expected: `no 429 while budget remained (the answer before said X-Rate-Limit-Remaining ${last.headers.remaining}, at most ${requests(between.counted + between.uncertain)} counted since)`,
            got: '429',
          });
        add(judgeReset(last.headers, between, sentMs + this.offsetLow >= last.headers.resetMs + resetResolutionMs(last.headers)));
      }
      if (block === undefined && headers !== undefined && headers.remaining > 0)
        add({ rule: 'rate.429', expected: 'no 429 while budget remained', got: `a 429 whose own X-Rate-Limit-Remaining says ${headers.remaining}` });
      const resetMs = headers?.resetMs ?? (last !== undefined && !resetMayHaveCome ? last.headers.resetMs : undefined);
      const {
        breaches: retryBreaches,
        retry,
        apartMs,
      } = judgeRetryAfter(exchange, sentMs, receivedMs, {
        reset: resetMs === undefined ? undefined : { resetMs, slackMs },
        block,
        date: this.options.dateHeaders ? exchange.header('date') : undefined,
      });
      breaches.push(...retryBreaches);
      if (honours(block, sentMs)) seen.honoured = false;
      if (retry.ok) seen.retry = retry.value;
      if (apartMs !== undefined) {
        checked.add('platform.retry-after-reset');
        seen.retryAfterApartSeconds = apartMs / 1000;
      }
      const attempt = (block?.attempt ?? 0) + 1;
      this.block = {
        retryAtMs: retry.ok ? retryAllowedAtMs(retry.value) : receivedMs + retryDelayMs(attempt, undefined, () => 0.5),
        // Delta-seconds count from the answer, on no one's clock: only an HTTP-date needs the clocks' slack.
        namedMs: retry.ok ? retry.value.latestMs + (/^\s*\d+\s*$/.test(retry.value.value) ? 0 : slackMs) : Number.POSITIVE_INFINITY,
        retryAfter: retry.ok ? retry.value.value : undefined,
        refusedAtMs: receivedMs,
        disturbed: false,
        attempt,
      };
      if (this.measure !== undefined && between.uncertain === 0) seen.budget = { served: this.measure.served, promised: this.measure.promised };
      this.measure = undefined;
    } else if (served) {
      if (honours(block, sentMs)) {
        seen.honoured = true;
        checked.add('rate.retry-after');
      }
      this.block = undefined;
    }

    const fresh = served && headers !== undefined && this.isFresh(headers, sentMs);
    const { expected } = this.options;
    if (served && headers !== undefined && expected !== undefined) {
      checked.add(expected.explicit ? 'rate.budget' : 'platform.default-rate');
      add(judgeRateInForce(headers, expected, fresh));
    }
    if (fresh && headers !== undefined) {
      if (this.opened !== undefined && sentMs + this.offsetLow >= this.opened.resetMs + resetResolutionMs(this.opened)) {
        checked.add('rate.period');
        add(judgeWindowPeriod(this.opened, headers));
      }
      this.opened = headers;
      this.forgottenBeforeMs = sentMs;
      this.unknownBeforeMs = undefined;
    }
    this.track(served, fresh, headers, between);
    this.push({ sentMs, receivedMs, counted: served });
    if (headers !== undefined) {
      this.last = { headers, sentMs };
      this.since = { counted: 0, uncertain: 0 };
    }
    for (const breach of breaches) checked.add(breach.rule);
    this.seen = { ...seen, ...(headers === undefined ? {} : { headers }), fresh, checked: [...checked] };
    return breaches.map(({ rule, expected, got }) => ({ rule, level: RATE_LIMIT_RULES[rule].level, expected, got, request, atMs: receivedMs }));
  }

  private push(sent: Sent): void {
    this.history.push(sent);
    if (sent.counted) this.since.counted++;
    else this.since.uncertain++;
    if (this.history.length <= MAX_HISTORY) return;
    const dropped = this.history.splice(0, this.history.length - MAX_HISTORY);
    this.unknownBeforeMs = Math.max(this.unknownBeforeMs ?? Number.NEGATIVE_INFINITY, dropped[dropped.length - 1]?.receivedMs ?? 0);
  }

  /** Requests a sliding window may have forgotten since the last response; undefined where requests it never saw may be among them. */
  private forgotten(last: NonNullable<RateObserver['last']>, receivedMs: number): number | undefined {
    const periodMs = last.headers.periodSeconds * 1000;
    if (this.unknownBeforeMs !== undefined && last.sentMs < this.unknownBeforeMs + periodMs) return undefined;
    return this.history.filter(
      (sent) => sent.sentMs >= this.forgottenBeforeMs && !stillCounts(sent.sentMs, receivedMs, periodMs) && stillCounts(sent.receivedMs, last.sentMs, periodMs),
    ).length;
  }

  /** Nothing else of the client counted within a period before this request: by the expected budget, or by what the observer saw. */
  private isFresh(headers: RateLimitHeaders, sentMs: number): boolean {
    if (headers.remaining + 1 === this.options.expected?.rate.requests) return true;
    // Requests of others with the key (or token requests the caller does not show) may have counted unseen.
    if (this.options.shared) return false;
    const periodMs = headers.periodSeconds * 1000;
    if (this.unknownBeforeMs !== undefined && sentMs < this.unknownBeforeMs + periodMs) return false;
    return this.history.every((sent) => sent.sentMs < this.forgottenBeforeMs || !stillCounts(sent.receivedMs, sentMs, periodMs));
  }

  /**
   * The window measured from its first request, for the budget reported at its first 429; a Remaining
   * that does not fall or a request that may have counted unseen ends the measurement.
   */
  private track(served: boolean, fresh: boolean, headers: RateLimitHeaders | undefined, between: Between): void {
    if (fresh && headers !== undefined) {
      this.measure = { promised: headers.remaining + 1, remaining: headers.remaining, served: 1 };
      return;
    }
    const measure = this.measure;
    if (measure === undefined || !served) return;
    if (headers === undefined || between.uncertain > 0 || headers.remaining >= measure.remaining) {
      this.measure = undefined;
      return;
    }
    measure.served += 1 + between.counted;
    measure.remaining = headers.remaining;
  }

  /** Date says when the target made the response, to the second; that was between sending and receiving. */
  private narrowClock(date: string | undefined, sentMs: number, receivedMs: number): void {
    const at = date === undefined ? Number.NaN : parseHttpDate(date);
    if (Number.isNaN(at)) return;
    const low = at - receivedMs;
    const high = at + 1000 - sentMs;
    // Inconsistent with what came before (a clock moved): start over from this response.
    const restart = low > this.offsetHigh || high < this.offsetLow;
    this.offsetLow = Math.max(low, restart ? -this.slackMs : this.offsetLow);
    this.offsetHigh = Math.min(high, restart ? this.slackMs : this.offsetHigh);
  }
}
