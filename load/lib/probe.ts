/**
 * The rate-limit probe's course (document, Limits and Errors), pure so that Node tests drive it: it says when to send the next request, and hands every answer
 * to the rate rules' observer (contracts/rules/rate-limit.ts), which decides. One window at a time:
 * 1. start: a request in a window nobody else has spent (the first one, or after resting a period);
 * 2. spend: requests back to back until the first 429: Remaining must fall by one, the 429 must come exactly when it runs out;
 * 3. honour: nothing is sent until Retry-After has passed (the document warns that retrying at once can extend the limiting), then one request, to be served;
 * 4. rest: a period after its last request nothing of the key counts any more on any kind of window, and the next window starts fresh; when the honoured
 *    request itself opened a new window (its Remaining + 1 is the budget), the next window starts there without resting.
 * It sends one request at a time (one VU), so the answers come in the order the target counted them; it assumes it is the key's only user.
 */
import { RESET_RESOLUTION_MS } from '../../contracts/rate-limit.ts';
import { type Exchange, isServed } from '../../contracts/rules/exchange.ts';
import { finding, type Finding } from '../../contracts/rules/finding.ts';
import { type ExpectedRate, RateObserver, type RateSeen, SPEND_PAST_BUDGET } from '../../contracts/rules/rate-limit.ts';
import { exchangeOf } from './checks.ts';

export interface ProbeCourse {
  readonly expected: ExpectedRate;
  /** Windows to measure from their first request to their first 429 (LP_PROBE_WINDOWS). */
  readonly windows: number;
  /** Epoch ms after which nothing more is sent. */
  readonly deadlineMs: number;
}

export type ProbePhase = 'start' | 'spend' | 'honour' | 'rest';

export type ProbeStep = { readonly kind: 'send'; readonly atMs: number; readonly phase: ProbePhase } | { readonly kind: 'done'; readonly reason: string };

/** Refusals in a row after honouring Retry-After before the probe stops (each one is already a finding). */
const MAX_REFUSED_RETRIES = 3;
/** Start attempts (a request, then a period's rest) before the probe spends a window it could not see start. */
const MAX_STARTS = 2;

export class RateLimitProbe {
  /** Date headers narrow the clock difference: the probe compares its send times with X-Rate-Limit-Reset. */
  readonly observer: RateObserver;
  /** Every finding so far, the probe's own among them. */
  readonly findings: Finding[] = [];
  /** Requests served in each window measured from its first request to its first 429. */
  readonly budgets: number[] = [];
  honoured = 0;
  refusedAfterHonouring = 0;
  private phase: ProbePhase = 'start';
  private restUntilMs = 0;
  private starts = 0;
  private cycles = 0;
  private spent = 0;
  private spendStartMs = 0;
  /** The observer already found a request served past the budget in this window. */
  private flagged = false;
  private promised: number | undefined;
  private refusedRetries = 0;
  private lastSentMs: number | undefined;
  private stopped: string | undefined;

  constructor(private readonly course: ProbeCourse) {
    this.observer = new RateObserver({ expected: course.expected, dateHeaders: true });
  }

  next(nowMs: number): ProbeStep {
    if (this.stopped !== undefined) return { kind: 'done', reason: this.stopped };
    let atMs = nowMs;
    if (this.phase === 'honour') atMs = Math.max(nowMs, this.observer.retryAllowedAtMs() ?? nowMs);
    if (this.phase === 'rest') atMs = Math.max(nowMs, this.restUntilMs);
    if (atMs > this.course.deadlineMs) return this.stop(`the probe's time ran out in phase ${this.phase}`);
    return { kind: 'send', atMs, phase: this.phase === 'rest' ? 'start' : this.phase };
  }

  /** Feeds one exchange of the key (setup's token request and first request too: they may still count), returns its findings; the probe moves on. */
  observe(exchange: Exchange): Finding[] {
    const found: Finding[] = [...this.observer.observe(exchange)];
    const seen = this.observer.seen;
    const sentMs = exchange.sentMs ?? 0;
    const receivedMs = exchange.receivedMs ?? sentMs;
    this.lastSentMs = Math.max(this.lastSentMs ?? 0, sentMs);
    if (exchange.origin === 'auth' || this.stopped !== undefined) return this.keep(found);
    const phase: ProbePhase = this.phase === 'rest' ? 'start' : this.phase;
    const served = isServed(exchange);
    const refused = exchange.status === 429;
    if (seen.honoured === true) this.honoured++;
    if (seen.honoured === false) this.refusedAfterHonouring++;
    if (seen.budget !== undefined) this.budgets.push(seen.budget.served);
    if (!served && !refused) {
      // Neither served nor refused for the rate (an expired token, a server error): the run cannot judge the limit.
      this.stop(`${exchange.request.method} ${exchange.request.url} answered ${exchange.status}: the probe needs 2xx or 429`);
    } else if (phase === 'start' || (phase === 'honour' && served)) {
      if (seen.fresh || (phase === 'start' && this.starts + 1 >= MAX_STARTS)) this.beginWindow(seen);
      else {
        if (phase === 'start') this.starts++;
        this.rest();
      }
      if (refused) this.phase = 'honour';
    } else if (phase === 'spend') {
      this.spent++;
      // The probe waits for the 429 through two budgets (a window that renews while it is spent gives a second one) and SPEND_PAST_BUDGET more.
      const budget = this.promised ?? this.course.expected.rate.requests;
      if (found.some((f) => f.rule === 'rate.429')) this.flagged = true;
      if (refused) {
        this.phase = 'honour';
        this.refusedRetries = 0;
      } else if (this.spent >= 2 * budget + SPEND_PAST_BUDGET) {
        // Within less than a period, at most two windows overlap: more served than two budgets is a 429 that never came, whatever the kind of window. Slower
        // than that, nothing is certain.
        const tookMs = receivedMs - this.spendStartMs;
        if (!this.flagged && tookMs < this.course.expected.rate.periodSeconds * 1000 - RESET_RESOLUTION_MS) {
          const broken = { expected: `a 429 within two budgets of ${budget}`, got: `${this.spent} requests served within ${(tookMs / 1000).toFixed(1)} s` };
          found.push(finding('rate.429', broken, `${exchange.request.method} ${exchange.request.url}`, receivedMs));
        }
        this.rest();
      }
    } else if (phase === 'honour' && refused) {
      this.refusedRetries++;
      if (this.refusedRetries >= MAX_REFUSED_RETRIES) this.stop(`${MAX_REFUSED_RETRIES} requests in a row were refused after honouring Retry-After`);
    }
    return this.keep(found);
  }

  private keep(found: Finding[]): Finding[] {
    this.findings.push(...found);
    return found;
  }

  private beginWindow(seen: RateSeen): void {
    if (this.cycles > this.course.windows || this.budgets.length >= this.course.windows) return void this.stop(this.measured());
    this.cycles++;
    this.phase = 'spend';
    this.spent = 1;
    this.flagged = false;
    this.spendStartMs = this.lastSentMs ?? 0;
    this.promised = seen.headers === undefined ? undefined : seen.headers.remaining + 1;
  }

  /** Rests until a period after the last request (plus Reset's resolution): nothing of the key counts then on any window. */
  private rest(): void {
    if (this.budgets.length >= this.course.windows) return void this.stop(this.measured());
    this.phase = 'rest';
    this.restUntilMs = (this.lastSentMs ?? 0) + this.course.expected.rate.periodSeconds * 1000 + RESET_RESOLUTION_MS;
  }

  private measured(): string {
    return `${this.budgets.length} of ${this.course.windows} window(s) measured`;
  }

  private stop(reason: string): ProbeStep {
    this.stopped = this.stopped ?? reason;
    return { kind: 'done', reason: this.stopped };
  }
}

type ProbeAnswer = { readonly status: number; readonly headers: Readonly<Record<string, string>> };

/** One exchange of the probe's key, as the observer reads it: a GET of `list` on the api origin, or the token request (`list` undefined). */
export function probeExchange(url: string, list: Exchange['list'], answer: ProbeAnswer, sentMs: number, receivedMs: number): Exchange {
  const request = { method: list === undefined ? 'POST' : 'GET', url };
  return { ...exchangeOf({ ...answer, request, body: '' }, list === undefined ? 'auth' : 'api', list), sentMs, receivedMs };
}
