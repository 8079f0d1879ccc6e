/**
 * One client's rate limit judged over the whole sequence of its responses (document, Limits and
 * Errors), with the rules of rate-limit-rules.ts: fed one exchange at a time (when the request was
 * sent, when the answer came, status, headers), it keeps what the judgement needs of the past.
 *
 * It must see every request of the client in the order the target counted them: the callers send one
 * request at a time (the k6 probe runs one VU; a spec awaits each response), and report the client's
 * requests it does not judge (token requests to {auth_url}) with `elsewhere`.
 *
 * What it knows of time: X-Rate-Limit-Reset is on the target's clock; the exchanges' times are on the
 * caller's. `clockSlackMs` bounds the difference, and with `dateHeaders` each response's Date header
 * (RFC 9110: when the target made the response, to the second) narrows it. What it knows of the past:
 * nothing before the first exchange unless `idleBefore` says the client sent nothing for a period; a
 * response whose Remaining + 1 is the expected budget proves the same from then on.
 *
 * k6-safe and pure.
 *
 * One file, longer than most, on purpose: it is one class whose state (the requests sent, the last
 * response, the current block, the budget measured) every step reads and updates; split into
 * modules, that state would have to be handed around, and the order of the checks would be hidden.
 */
import { asLookup, type HeaderLookup, parseHttpDate, type RateLimitHeaders, resetResolutionMs } from './rate-limit.ts';
import { DEFAULT_RETRY_POLICY, type RetryAfterTime, retryAfterTime, retryAllowedAtMs, retryDelayMs } from './rate-limit-retry.ts';
import { stillCounts } from './rate-limit-window.ts';
import {
  type Between,
  type ExpectedRate,
  judgeRateHeaders,
  judgeRateInForce,
  judgeRefusal,
  judgeRemainingStep,
  judgeRetryAfterReset,
  RATE_RULES,
  type RateFinding,
  type RateRule,
  TARGET_CLOCK_SLACK_MS,
} from './rate-limit-rules.ts';

export interface JudgeOptions {
  /** The rate the client expects; without it the budget is reported, not compared. */
  readonly expected?: ExpectedRate;
  /** The client sent nothing for at least one period before the first exchange. Default false. */
  readonly idleBefore?: boolean;
  /** How far the target's clock may be from the exchanges' times. Default TARGET_CLOCK_SLACK_MS; 0 when they are read from the target's clock. */
  readonly clockSlackMs?: number;
  /** Narrow the clock difference with Date headers. Default false. */
  readonly dateHeaders?: boolean;
  /** Randomness of the backoff after a 429 without Retry-After. Default: none (the middle of the jitter). */
  readonly random?: () => number;
}

export interface Exchange {
  /** The request in a few words, for reasons: `GET /api/v2/content?limit=1`. Never a token. */
  readonly request: string;
  readonly sentMs: number;
  readonly receivedMs: number;
  readonly status: number;
  readonly headers: HeaderLookup | Readonly<Record<string, string | undefined>>;
  /** A resource endpoint's response (default) or logout's. */
  readonly resource?: boolean;
}

export interface JudgedFinding extends RateFinding {
  readonly request: string;
  /** Epoch ms when the answer came. */
  readonly atMs: number;
}

export interface Verdict {
  readonly findings: readonly JudgedFinding[];
  readonly headers: RateLimitHeaders | undefined;
  /** This response opened a window: nothing else of the client counted within a period before it. */
  readonly fresh: boolean;
  /** Whether its X-Rate-Limit-Remaining was compared with the previous response's. */
  readonly judgedStep: boolean;
  /** A 429's Retry-After, when readable. */
  readonly retry?: RetryAfterTime;
  /** On the first 429 of a window seen from its first request: requests served before it, and what the first Remaining promised. */
  readonly budget?: { readonly served: number; readonly promised: number };
  /** How far a 429's Retry-After lies from X-Rate-Limit-Reset, in seconds. */
  readonly retryAfterApartSeconds?: number;
  /** Set on the first request sent once a 429's Retry-After had passed with nothing sent meanwhile: served or not. */
  readonly honoured?: boolean;
}

interface Sent {
  readonly sentMs: number;
  readonly receivedMs: number;
  /** Served resource requests are counted; anything else may be. */
  readonly counted: boolean;
}

interface Last {
  readonly headers: RateLimitHeaders;
  readonly sentMs: number;
  /** Index in `history` of its exchange. */
  readonly at: number;
}

interface Block {
  readonly retryAtMs: number;
  /** Retry-After was read; without it the wait was only a backoff, and a refusal after it proves nothing. */
  readonly promised: boolean;
  readonly retryAfter: string;
  readonly refusedAtMs: number;
  /** A request was sent before retryAtMs: it may have extended the block. */
  disturbed: boolean;
  readonly attempt: number;
}

interface Measure {
  readonly promised: number;
  remaining: number;
  served: number;
}

/** Requests kept for the sliding-window arithmetic: more than any window of a probe or spec holds. */
const MAX_HISTORY = 5000;

export class RateLimitJudge {
  private readonly expected: ExpectedRate | undefined;
  private readonly dateHeaders: boolean;
  private readonly random: () => number;
  /** Bounds of (target clock - caller clock), ms. */
  private offsetLow: number;
  private offsetHigh: number;
  private readonly slackMs: number;
  private history: Sent[] = [];
  /** Requests before this instant may be unknown to the judge; undefined: none are. */
  private unknownBeforeMs: number | undefined;
  /** Requests before this instant no longer count (a window opened after them). */
  private forgottenBeforeMs = Number.NEGATIVE_INFINITY;
  private last: Last | undefined;
  private block: Block | undefined;
  private measure: Measure | undefined;
  private readonly ruleCounts: Record<RateRule, number>;
  private first = true;

  constructor(options: JudgeOptions = {}) {
    this.expected = options.expected;
    this.dateHeaders = options.dateHeaders ?? false;
    this.random = options.random ?? (() => 0.5);
    this.slackMs = options.clockSlackMs ?? TARGET_CLOCK_SLACK_MS;
    this.offsetLow = -this.slackMs;
    this.offsetHigh = this.slackMs;
    this.unknownBeforeMs = options.idleBefore ? undefined : Number.POSITIVE_INFINITY;
    this.ruleCounts = {} as Record<RateRule, number>;
    for (const rule of RATE_RULES) this.ruleCounts[rule] = 0;
  }

  /** Findings so far, by rule. */
  get counts(): Readonly<Record<RateRule, number>> {
    return { ...this.ruleCounts };
  }

  /** When the next request may be sent after the latest 429 (epoch ms); undefined when nothing holds it back. */
  retryAllowedAtMs(): number | undefined {
    return this.block?.retryAtMs;
  }

  /** A request of the client whose answer is judged elsewhere (a token request): it may spend the budget. */
  elsewhere(sentMs: number, receivedMs: number): void {
    this.note(sentMs);
    this.push({ sentMs, receivedMs, counted: false });
  }

  observe(exchange: Exchange): Verdict {
    const get = asLookup(exchange.headers);
    const { sentMs, receivedMs, status, request } = exchange;
    const served = status >= 200 && status < 300;
    const refused = status === 429;
    this.note(sentMs);
    if (this.dateHeaders) this.narrowClock(get('date'), sentMs, receivedMs);
    const findings: JudgedFinding[] = [];
    const add = (finding: RateFinding | undefined) => {
      if (finding === undefined) return;
      findings.push({ ...finding, request, atMs: receivedMs });
      this.ruleCounts[finding.rule]++;
    };

    const judged = judgeRateHeaders(get, {
      status,
      resource: exchange.resource,
      nowMs: receivedMs,
      clockSlackMs: Math.max(-this.offsetLow, this.offsetHigh) + (receivedMs - sentMs),
    });
    for (const finding of judged.findings) add(finding);
    const headers = judged.headers;
    const last = this.last;
    const between = this.between(last);
    const resetMayHaveCome = last !== undefined && receivedMs + this.offsetHigh >= last.headers.resetMs - resetResolutionMs(last.headers);
    const resetCame = last !== undefined && sentMs + this.offsetLow >= last.headers.resetMs + resetResolutionMs(last.headers);
    const verdict: { -readonly [K in keyof Verdict]?: Verdict[K] } = {};

    let judgedStep = false;
    if (last !== undefined && headers !== undefined && (served || refused)) {
      const returned = resetMayHaveCome ? 'reset' : this.forgotten(last, receivedMs);
      const step = judgeRemainingStep({ before: last.headers, after: headers, afterServed: served, between, returned });
      judgedStep = step.judged;
      add(step.finding);
    }

    const block = this.block;
    if (refused) {
      if (block === undefined) {
        // The first refusal after a served response: budget must have run out, and a passed reset renews it.
        add(judgeRefusal(last?.headers, between, headers));
        if (resetCame && between.counted + between.uncertain === 0 && last !== undefined && last.headers.remaining === 0) {
          add({
            rule: 'rate.reset',
            reason: `429 for a request sent after X-Rate-Limit-Reset ${new Date(last.headers.resetMs).toISOString()} of the previous response had passed`,
          });
        }
      } else if (block.promised && !block.disturbed && sentMs >= block.retryAtMs) {
        add({
          rule: 'rate.retry-after',
          reason: `a request sent ${seconds(sentMs - block.refusedAtMs)} s after a 429 whose Retry-After said "${block.retryAfter}", nothing sent in between, was refused again`,
        });
        verdict.honoured = false;
      }
      const retry = retryAfterTime(get('retry-after'), sentMs, receivedMs, this.dateHeaders ? get('date') : undefined);
      if (!retry.ok) add({ rule: 'rate.retry-after', reason: `429: ${retry.error}` });
      else {
        verdict.retry = retry.value;
        const resetMs = headers?.resetMs ?? (last !== undefined && !resetMayHaveCome ? last.headers.resetMs : undefined);
        if (resetMs !== undefined) {
          const apart = judgeRetryAfterReset(retry.value, resetMs, Math.max(-this.offsetLow, this.offsetHigh));
          verdict.retryAfterApartSeconds = apart.apartMs / 1000;
          add(apart.finding);
        }
      }
      const attempt = block === undefined ? 1 : block.attempt + 1;
      this.block = {
        retryAtMs: retry.ok ? retryAllowedAtMs(retry.value) : receivedMs + retryDelayMs(attempt, undefined, this.random, DEFAULT_RETRY_POLICY),
        promised: retry.ok,
        retryAfter: retry.ok ? retry.value.value : '',
        refusedAtMs: receivedMs,
        disturbed: false,
        attempt,
      };
      const measure = this.measure;
      if (measure !== undefined && between.uncertain === 0) verdict.budget = { served: measure.served, promised: measure.promised };
      this.measure = undefined;
    } else if (served) {
      if (block !== undefined && block.promised && !block.disturbed && sentMs >= block.retryAtMs) verdict.honoured = true;
      this.block = undefined;
    }

    const fresh = served && headers !== undefined && this.isFresh(headers, sentMs);
    if (served && headers !== undefined && this.expected !== undefined) add(judgeRateInForce(headers, this.expected, fresh));
    if (fresh) {
      this.forgottenBeforeMs = sentMs;
      this.unknownBeforeMs = undefined;
    }
    this.track(served, fresh, headers, between);
    this.push({ sentMs, receivedMs, counted: served });
    if (headers !== undefined) this.last = { headers, sentMs, at: this.history.length - 1 };
    return { findings, headers, fresh, judgedStep, ...verdict };
  }

  private note(sentMs: number): void {
    if (this.first) {
      this.first = false;
      if (this.unknownBeforeMs !== undefined) this.unknownBeforeMs = sentMs;
    }
    if (this.block !== undefined && sentMs < this.block.retryAtMs) this.block.disturbed = true;
  }

  private push(sent: Sent): void {
    this.history.push(sent);
    if (this.history.length > MAX_HISTORY) {
      const dropped = this.history.splice(0, this.history.length - MAX_HISTORY);
      const newest = dropped[dropped.length - 1];
      if (newest !== undefined) this.unknownBeforeMs = Math.max(this.unknownBeforeMs ?? Number.NEGATIVE_INFINITY, newest.receivedMs);
      this.last = this.last && this.last.at >= dropped.length ? { ...this.last, at: this.last.at - dropped.length } : undefined;
    }
  }

  /** Requests between the last response with headers and now. */
  private between(last: Last | undefined): Between {
    let counted = 0;
    let uncertain = 0;
    for (let i = last === undefined ? this.history.length : last.at + 1; i < this.history.length; i++) {
      if (this.history[i]?.counted) counted++;
      else uncertain++;
    }
    return { counted, uncertain };
  }

  /**
   * Requests of the client a sliding window may have forgotten between the last response and one
   * received at `receivedMs`: those made a period before, counted when the last one was and possibly
   * not any more. Undefined when requests the judge never saw may be among them.
   */
  private forgotten(last: Last, receivedMs: number): number | undefined {
    const periodMs = last.headers.periodSeconds * 1000;
    if (this.unknownBeforeMs !== undefined && last.sentMs < this.unknownBeforeMs + periodMs) return undefined;
    let count = 0;
    for (const sent of this.history) {
      if (sent.sentMs < this.forgottenBeforeMs) continue;
      if (!stillCounts(sent.sentMs, receivedMs, periodMs) && stillCounts(sent.receivedMs, last.sentMs, periodMs)) count++;
    }
    return count;
  }

  /** Nothing else of the client counted within a period before this request: by the expected budget, or by what the judge saw. */
  private isFresh(headers: RateLimitHeaders, sentMs: number): boolean {
    if (this.expected !== undefined && headers.remaining + 1 === this.expected.rate.requests) return true;
    const periodMs = headers.periodSeconds * 1000;
    if (this.unknownBeforeMs !== undefined && sentMs < this.unknownBeforeMs + periodMs) return false;
    return this.history.every((sent) => sent.sentMs < this.forgottenBeforeMs || !stillCounts(sent.receivedMs, sentMs, periodMs));
  }

  /**
   * The window measured from its first request, for the budget reported at its first 429. It needs no
   * clock: while Remaining falls request by request, the budget being spent is the same one; a
   * Remaining that does not fall (a renewal, a sliding window forgetting) or a request that may have
   * counted unseen ends the measurement without a result.
   */
  private track(served: boolean, fresh: boolean, headers: RateLimitHeaders | undefined, between: Between): void {
    if (fresh && headers !== undefined) {
      this.measure = { promised: headers.remaining + 1, remaining: headers.remaining, served: 1 };
      return;
    }
    const measure = this.measure;
    if (measure === undefined || !served) return;
    const sameWindow = headers !== undefined && between.uncertain === 0 && headers.remaining < measure.remaining;
    if (!sameWindow) {
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
    if (low > this.offsetHigh || high < this.offsetLow) {
      // Inconsistent with what came before (a clock moved): start over from this response.
      this.offsetLow = Math.max(low, -this.slackMs);
      this.offsetHigh = Math.min(high, this.slackMs);
      return;
    }
    this.offsetLow = Math.max(this.offsetLow, low);
    this.offsetHigh = Math.min(this.offsetHigh, high);
  }
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(1);
}
