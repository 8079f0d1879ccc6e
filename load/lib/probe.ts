/**
 * The rate-limit probe's course (document, Limits and Errors), pure so that Node tests drive it: it
 * says when to send the next request, and hands every answer to the rule engine of
 * contracts/rate-limit-judge.ts, which decides. One window at a time:
 *
 * 1. start: a request in a window nobody else has spent (the first one, or after resting a period);
 * 2. spend: requests back to back until the first 429 (at most spendBound of the promised budget):
 *    Remaining must fall by one, the 429 must come exactly when it runs out;
 * 3. honour: nothing is sent until Retry-After has passed (the document warns that retrying at once
 *    can extend the limiting), then one request, which must be served;
 * 4. rest: a period after its last request nothing of the key counts any more on any kind of window,
 *    and the next window starts fresh; when the honoured request itself opened a new window (its
 *    Remaining + 1 is the budget), the next window starts there without resting.
 *
 * It sends one request at a time (one VU), so the order of the answers is the order the target
 * counted them, which the engine's decisions need. It assumes it is the key's only user.
 */
import { RESET_RESOLUTION_MS } from '../../contracts/rate-limit.ts';
import { type Exchange, type JudgedFinding, RateLimitJudge, type Verdict } from '../../contracts/rate-limit-judge.ts';
import { type ExpectedRate, RATE_RULES, type RateRule, SPEND_PAST_BUDGET } from '../../contracts/rate-limit-rules.ts';

export interface ProbeCourse {
  readonly expected: ExpectedRate;
  /** Windows to measure from their first request to their first 429 (LP_PROBE_WINDOWS). */
  readonly windows: number;
  /** Epoch ms after which nothing more is sent. */
  readonly deadlineMs: number;
}

export type ProbePhase = 'start' | 'spend' | 'honour' | 'rest';

export type ProbeStep = { readonly kind: 'send'; readonly atMs: number; readonly phase: ProbePhase } | { readonly kind: 'done'; readonly reason: string };

/** A verdict of the engine, with what the probe makes of it. */
export interface ProbeEvent extends Verdict {
  readonly status: number;
  readonly phase: ProbePhase;
  /** Findings of the probe itself (a 429 that never came). */
  readonly own: readonly JudgedFinding[];
}

export interface ProbeSummary {
  readonly responses: number;
  readonly counts: Readonly<Record<RateRule, number>>;
  /** The first findings of each rule. */
  readonly findings: readonly JudgedFinding[];
  readonly budgets: readonly number[];
  readonly honoured: number;
  readonly refusedAfterHonouring: number;
  readonly refusals: number;
}

/**
 * The rules one answer was checked against, held or broken, mirroring when the engine
 * (contracts/rate-limit-judge.ts) judges each: the reports call a rule that no answer was checked
 * against "not checked", never "ok" (no 429 seen: nothing said about Retry-After).
 */
export function judgedRules(event: ProbeEvent, expected: ExpectedRate): RateRule[] {
  const served = event.status >= 200 && event.status < 300;
  const refused = event.status === 429;
  const rules = new Set<RateRule>();
  // Headers are required on a served resource response, and judged wherever present; a 429 without them is a platform matter.
  if (served || event.headers !== undefined) rules.add('rate.headers');
  if (refused) rules.add('platform.rate-headers-everywhere');
  if (event.judgedStep) rules.add('rate.remaining').add('rate.429');
  // Every 429 is checked for coming after the budget ran out and before the reset, and for its Retry-After.
  if (refused) rules.add('rate.429').add('rate.reset').add('rate.retry-after');
  if (event.honoured !== undefined) rules.add('rate.retry-after');
  if (served && event.headers !== undefined) rules.add(expected.explicit ? 'rate.budget' : 'platform.default-rate');
  if (event.retryAfterApartSeconds !== undefined) rules.add('platform.retry-after-reset');
  for (const finding of [...event.findings, ...event.own]) rules.add(finding.rule);
  return RATE_RULES.filter((rule) => rules.has(rule));
}

/**
 * Requests spent in one window before the probe stops waiting for its 429: two budgets (a window that
 * renews while it is spent gives a second one) and SPEND_PAST_BUDGET more.
 */
function spendBound(budget: number): number {
  return 2 * budget + SPEND_PAST_BUDGET;
}

/** Findings kept per rule for the reports; all are counted. */
const KEEP_PER_RULE = 20;
/** Refusals in a row after honouring Retry-After before the probe stops (each one is already a finding). */
const MAX_REFUSED_RETRIES = 3;
/** Start attempts (a request, then a period's rest) before the probe spends a window it could not see start. */
const MAX_STARTS = 2;

export class RateLimitProbe {
  private readonly judge: RateLimitJudge;
  private readonly course: ProbeCourse;
  private phase: ProbePhase = 'start';
  private restUntilMs = 0;
  private starts = 0;
  private cycles = 0;
  private spent = 0;
  private spendStartMs = 0;
  /** The engine already found a request served past the budget in this window. */
  private flagged = false;
  private promised: number | undefined;
  private refusedRetries = 0;
  private lastSentMs: number | undefined;
  private stopped: string | undefined;
  private responses = 0;
  private refusals = 0;
  private honoured = 0;
  private refusedAfterHonouring = 0;
  private readonly budgets: number[] = [];
  private readonly kept: JudgedFinding[] = [];
  private readonly ruleCounts: Record<RateRule, number>;

  constructor(course: ProbeCourse) {
    this.course = course;
    // Date headers narrow the clock difference: the probe compares its send times with X-Rate-Limit-Reset.
    this.judge = new RateLimitJudge({ expected: course.expected, dateHeaders: true });
    this.ruleCounts = {} as Record<RateRule, number>;
    for (const rule of RATE_RULES) this.ruleCounts[rule] = 0;
  }

  /** Requests of the key made before the probe started (setup's token and first request): they may still count. */
  before(sentMs: number, receivedMs: number): void {
    this.judge.elsewhere(sentMs, receivedMs);
    this.lastSentMs = Math.max(this.lastSentMs ?? 0, sentMs);
  }

  /** What to do next at `nowMs`. */
  next(nowMs: number): ProbeStep {
    if (this.stopped !== undefined) return { kind: 'done', reason: this.stopped };
    let atMs = nowMs;
    if (this.phase === 'honour') atMs = Math.max(nowMs, this.judge.retryAllowedAtMs() ?? nowMs);
    if (this.phase === 'rest') atMs = Math.max(nowMs, this.restUntilMs);
    if (atMs > this.course.deadlineMs) return this.stop(`the probe's time ran out in phase ${this.phase}`);
    return { kind: 'send', atMs, phase: this.phase === 'rest' ? 'start' : this.phase };
  }

  /** Feeds one answer; the probe moves on. */
  observe(exchange: Exchange): ProbeEvent {
    const phase: ProbePhase = this.phase === 'rest' ? 'start' : this.phase;
    const verdict = this.judge.observe(exchange);
    const own: JudgedFinding[] = [];
    this.responses++;
    this.lastSentMs = exchange.sentMs;
    const served = exchange.status >= 200 && exchange.status < 300;
    const refused = exchange.status === 429;
    if (refused) this.refusals++;
    if (verdict.honoured === true) this.honoured++;
    if (verdict.honoured === false) this.refusedAfterHonouring++;
    if (verdict.budget !== undefined) this.budgets.push(verdict.budget.served);

    if (!served && !refused) {
      // Neither served nor refused for the rate (an expired token, a server error): the run cannot judge the limit.
      this.stop(`${exchange.request} answered ${exchange.status}: the probe needs 2xx or 429`);
    } else if (phase === 'start' || (phase === 'honour' && served)) {
      if (verdict.fresh || (phase === 'start' && this.starts + 1 >= MAX_STARTS)) this.beginWindow(verdict);
      else if (phase === 'start') {
        this.starts++;
        this.rest();
      } else this.rest();
      if (refused) this.phase = 'honour';
    } else if (phase === 'spend') {
      this.spent++;
      if (verdict.findings.some((f) => f.rule === 'rate.429')) this.flagged = true;
      if (refused) {
        this.phase = 'honour';
        this.refusedRetries = 0;
      } else if (this.spent >= spendBound(this.promised ?? this.course.expected.rate.requests)) {
        // Within less than a period, at most two windows overlap: more served than two budgets is a 429
        // that never came, whatever the kind of window. Slower than that, nothing is certain.
        const periodMs = this.course.expected.rate.periodSeconds * 1000;
        if (!this.flagged && exchange.receivedMs - this.spendStartMs < periodMs - RESET_RESOLUTION_MS) {
          own.push({
            rule: 'rate.429',
            reason: `no 429 in ${this.spent} requests served within ${((exchange.receivedMs - this.spendStartMs) / 1000).toFixed(1)} s, more than two budgets of ${this.promised ?? this.course.expected.rate.requests}`,
            request: exchange.request,
            atMs: exchange.receivedMs,
          });
        }
        this.rest();
      }
    } else if (phase === 'honour' && refused) {
      this.refusedRetries++;
      if (this.refusedRetries >= MAX_REFUSED_RETRIES) this.stop(`${MAX_REFUSED_RETRIES} requests in a row were refused after honouring Retry-After`);
    }
    for (const finding of [...verdict.findings, ...own]) {
      this.ruleCounts[finding.rule]++;
      if (this.ruleCounts[finding.rule] <= KEEP_PER_RULE) this.kept.push(finding);
    }
    return { ...verdict, findings: verdict.findings, status: exchange.status, phase, own };
  }

  private beginWindow(verdict: Verdict): void {
    if (this.cycles >= this.course.windows + 1 || this.budgets.length >= this.course.windows) {
      this.stop(`${this.budgets.length} of ${this.course.windows} window(s) measured`);
      return;
    }
    this.cycles++;
    this.phase = 'spend';
    this.spent = 1;
    this.flagged = false;
    this.spendStartMs = this.lastSentMs ?? 0;
    this.promised = verdict.headers === undefined ? undefined : verdict.headers.remaining + 1;
  }

  /** Rests until a period after the last request (plus Reset's resolution): nothing of the key counts then on any window. */
  private rest(): void {
    if (this.budgets.length >= this.course.windows) {
      this.stop(`${this.budgets.length} of ${this.course.windows} window(s) measured`);
      return;
    }
    this.phase = 'rest';
    this.restUntilMs = (this.lastSentMs ?? 0) + this.course.expected.rate.periodSeconds * 1000 + RESET_RESOLUTION_MS;
  }

  private stop(reason: string): ProbeStep {
    this.stopped = this.stopped ?? reason;
    return { kind: 'done', reason: this.stopped };
  }

  get counts(): Readonly<Record<RateRule, number>> {
    return { ...this.ruleCounts };
  }

  summary(): ProbeSummary {
    return {
      responses: this.responses,
      counts: this.counts,
      findings: [...this.kept],
      budgets: [...this.budgets],
      honoured: this.honoured,
      refusedAfterHonouring: this.refusedAfterHonouring,
      refusals: this.refusals,
    };
  }
}
