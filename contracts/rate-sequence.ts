/**
 * One client's requests within its rate windows, kept for the sequence rules of the rate limit (contracts/rules/rate-limit.ts): fed the client's exchanges in
 * the order the target counted them (one request at a time, or a batch in its order), token requests too (origin `auth`: they may count), it turns each into
 * one immutable step of facts: the headers read, the requests between it and the answer before, what may have come back since, the block after a 429, whether
 * it opened a window, the clocks' slack. The rules judge the step; the driver then commits it here. Pure and k6-safe.
 */
import type { Rate } from './duration.ts';
import {
  parseHttpDate,
  parseRateLimitHeaders,
  type RateLimitHeaders,
  resetResolutionMs,
  retryAfterTime,
  retryAllowedAtMs,
  retryDelayMs,
} from './rate-limit.ts';
import { stillCounts } from './rate-limit-window.ts';
import { type Exchange, isServed } from './rules/exchange.ts';
import type { Sequence } from './rules/observe.ts';

/** The rate the client expects: LP_RATE when set (a contract check), else the document's default (a platform one). */
export interface ExpectedRate {
  readonly rate: Rate;
  /** Set by the user for this key: the headers must reflect it ("headers reflect the limit in force"). */
  readonly explicit: boolean;
}

/** How far a target's clock may be from the client's when nothing narrows it (Date headers, a control plane's clock). */
export const TARGET_CLOCK_SLACK_MS = 5000;

export interface RateSequenceOptions {
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

/** Requests of the client between two responses, neither included: `counted`, served resource requests; `uncertain` (token requests, refusals…) may count. */
type Between = Readonly<Record<'counted' | 'uncertain', number>>;

interface Block {
  /** When the client may send again: the instant named plus Retry-After's resolution (retryAllowedAtMs), or a backoff. */
  readonly retryAtMs: number;
  /** The latest instant Retry-After can name (an HTTP-date's with the clock slack): a request sent from then on is owed an answer. */
  readonly namedMs: number;
  /** Retry-After as sent; undefined where it was not read: the wait was only a backoff, and a refusal after it proves nothing. */
  readonly retryAfter: string | undefined;
  readonly refusedAtMs: number;
  /** A request was sent before namedMs: it may have extended the block. */
  readonly disturbed: boolean;
  readonly attempt: number;
}

export type RateStep = NonNullable<ReturnType<RateSequence['step']>>;

/** Requests kept for the sliding-window arithmetic: more than any window of a probe or spec holds. */
const MAX_HISTORY = 5000;

export class RateSequence implements Sequence<RateStep> {
  private readonly slackMs: number;
  /** Bounds of (target clock - caller clock), ms. */
  private offsetLow: number;
  private offsetHigh: number;
  /** Requests sent: served resource requests are counted, anything else may be. */
  private history: { readonly sentMs: number; readonly receivedMs: number; readonly counted: boolean }[] = [];
  /** Requests since the last answer with headers. */
  private since: Between = { counted: 0, uncertain: 0 };
  /** Requests before this instant may be unknown to the observer; undefined: none are; infinite until the first exchange. */
  private unknownBeforeMs: number | undefined;
  /** Requests before this instant no longer count (a window opened after them). */
  private forgottenBeforeMs = Number.NEGATIVE_INFINITY;
  /** The last answer with headers, and when its request was sent. */
  private last: { readonly headers: RateLimitHeaders; readonly sentMs: number } | undefined;
  private opened: RateLimitHeaders | undefined;
  block: Block | undefined;
  private measure: { readonly promised: number; remaining: number; served: number } | undefined;
  private across: string | undefined;

  constructor(private readonly options: RateSequenceOptions = {}) {
    this.slackMs = options.clockSlackMs ?? TARGET_CLOCK_SLACK_MS;
    this.offsetLow = -this.slackMs;
    this.offsetHigh = this.slackMs;
    this.unknownBeforeMs = options.idleBefore ? undefined : Number.POSITIVE_INFINITY;
  }

  /** The next request crosses `what` (a new token of the client, another client's requests): neither renews nor spends the budget. */
  crossing(what: string): void {
    this.across = what;
  }

  step(exchange: Exchange) {
    const sentMs = exchange.sentMs ?? exchange.receivedMs ?? 0;
    const receivedMs = exchange.receivedMs ?? sentMs;
    if (this.unknownBeforeMs === Number.POSITIVE_INFINITY) this.unknownBeforeMs = sentMs;
    const before = this.block;
    const block = before !== undefined && sentMs < before.namedMs ? { ...before, disturbed: true } : before;
    if (exchange.origin === 'auth') {
      this.block = block;
      this.push({ sentMs, receivedMs, counted: false });
      return undefined;
    }
    const served = isServed(exchange);
    const refused = exchange.status === 429;
    const [offsetLow, offsetHigh] = this.options.dateHeaders
      ? this.narrowClock(exchange.header('date'), sentMs, receivedMs)
      : [this.offsetLow, this.offsetHigh];
    const slackMs = Math.max(-offsetLow, offsetHigh);
    // A refused token (401, 403) names no client whose budget could be counted.
    const parsed = exchange.status === 401 || exchange.status === 403 ? undefined : parseRateLimitHeaders(exchange.header);
    const headers = parsed?.ok ? parsed.value : undefined;
    const { last, across: crossed } = this;
    const between = { ...this.since };
    const resetMayHaveCome = last !== undefined && receivedMs + offsetHigh >= last.headers.resetMs - resetResolutionMs(last.headers);
    // Across what the caller names, before the reset the answer before announced nothing comes back, whatever the kind of window.
    const returned: number | 'reset' | undefined = resetMayHaveCome ? 'reset' : crossed !== undefined ? 0 : last && this.forgotten(last, receivedMs);
    const honours = block !== undefined && block.retryAfter !== undefined && !block.disturbed && sentMs >= block.namedMs;
    const retryAfter = refused
      ? retryAfterTime(exchange.header('retry-after'), sentMs, receivedMs, this.options.dateHeaders ? exchange.header('date') : undefined)
      : undefined;
    const retryResetMs = headers?.resetMs ?? (last !== undefined && !resetMayHaveCome ? last.headers.resetMs : undefined);
    const retry = retryAfter?.ok ? retryAfter.value : undefined;
    const retryApartMs = retry && retryResetMs !== undefined ? Math.max(0, retry.earliestMs - retryResetMs, retryResetMs - retry.latestMs) : undefined;
    const fresh = served && headers !== undefined && this.isFresh(headers, sentMs);
    return {
      exchange,
      sentMs,
      receivedMs,
      served,
      refused,
      /** The headers read; undefined where the answer names no client's budget. */
      parsed,
      headers,
      offsetLow,
      offsetHigh,
      slackMs,
      /** The target's time when it answered, as well as it is known. */
      clock: { nowMs: receivedMs, slackMs: slackMs + (receivedMs - sentMs) },
      /** The last answer with headers, and the requests since. */
      last,
      between,
      /** What the step of Remaining crosses: what the caller said, or the users endpoint. */
      across: crossed ?? (exchange.list === 'users' ? 'GET /api/v2/users' : undefined),
      /** The step of Remaining since `last`, where it is judged: the budget that may have come back meanwhile, requests others may have sent. */
      remaining:
        last !== undefined && headers !== undefined && (served || refused)
          ? { before: last.headers, after: headers, returned, unseen: this.options.shared && crossed === undefined ? Number.POSITIVE_INFINITY : 0 }
          : undefined,
      /** The block of the 429 before, and whether this request honoured it. */
      block,
      honours,
      /** On the first request sent once a 429's Retry-After had passed with nothing sent meanwhile: served or not. */
      honoured: honours && (served || refused) ? served : undefined,
      /** A 429's Retry-After read, and how far the instant it names lies from the Reset it should name. */
      retryAfter,
      retry,
      retryApartMs,
      retryAfterApartSeconds: retryApartMs === undefined ? undefined : retryApartMs / 1000,
      retryResetMs,
      /** It opened a window: nothing else of the client counted within a period before it. */
      fresh,
      opened: this.opened,
      expected: this.options.expected,
      /** On the first 429 of a window seen from its first request: requests served before it, and what the first Remaining promised. */
      budget: refused && this.measure !== undefined && between.uncertain === 0 ? { served: this.measure.served, promised: this.measure.promised } : undefined,
    } as const;
  }

  commit(step: RateStep): void {
    const { sentMs, receivedMs, served, refused, headers, fresh, between, retry } = step;
    this.offsetLow = step.offsetLow;
    this.offsetHigh = step.offsetHigh;
    this.across = undefined;
    this.block = step.block;
    if (refused) {
      const attempt = (step.block?.attempt ?? 0) + 1;
      this.block = {
        retryAtMs: retry ? retryAllowedAtMs(retry) : receivedMs + retryDelayMs(attempt, undefined, () => 0.5),
        // Delta-seconds count from the answer, on no one's clock: only an HTTP-date needs the clocks' slack.
        namedMs: retry ? retry.latestMs + (retry.form === 'seconds' ? 0 : step.slackMs) : Number.POSITIVE_INFINITY,
        retryAfter: retry?.value,
        refusedAtMs: receivedMs,
        disturbed: false,
        attempt,
      };
      this.measure = undefined;
    } else if (served) this.block = undefined;
    if (fresh && headers !== undefined) {
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
  }

  private push(sent: RateSequence['history'][number]): void {
    this.history.push(sent);
    this.since = sent.counted ? { ...this.since, counted: this.since.counted + 1 } : { ...this.since, uncertain: this.since.uncertain + 1 };
    if (this.history.length <= MAX_HISTORY) return;
    const dropped = this.history.splice(0, this.history.length - MAX_HISTORY);
    this.unknownBeforeMs = Math.max(this.unknownBeforeMs ?? Number.NEGATIVE_INFINITY, dropped[dropped.length - 1]?.receivedMs ?? 0);
  }

  /** Requests a sliding window may have forgotten since the last response; undefined where requests it never saw may be among them. */
  private forgotten(last: NonNullable<RateSequence['last']>, receivedMs: number): number | undefined {
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

  /** The window measured from its first request, for the budget of its first 429; a Remaining not falling, or a request maybe counted unseen, ends it. */
  private track(served: boolean, fresh: boolean, headers: RateLimitHeaders | undefined, between: Between): void {
    const measure = this.measure;
    if (fresh && headers !== undefined) this.measure = { promised: headers.remaining + 1, remaining: headers.remaining, served: 1 };
    else if (measure !== undefined && served) {
      if (headers === undefined || between.uncertain > 0 || headers.remaining >= measure.remaining) this.measure = undefined;
      else Object.assign(measure, { served: measure.served + 1 + between.counted, remaining: headers.remaining });
    }
  }

  /** Date says when the target made the response, to the second; that was between sending and receiving: the bounds it leaves. */
  private narrowClock(date: string | undefined, sentMs: number, receivedMs: number): [number, number] {
    const at = date === undefined ? Number.NaN : parseHttpDate(date);
    if (Number.isNaN(at)) return [this.offsetLow, this.offsetHigh];
    const low = at - receivedMs;
    const high = at + 1000 - sentMs;
    // Inconsistent with what came before (a clock moved): start over from this response.
    const restart = low > this.offsetHigh || high < this.offsetLow;
    return [Math.max(low, restart ? -this.slackMs : this.offsetLow), Math.min(high, restart ? this.slackMs : this.offsetHigh)];
  }
}
