/**
 * The rate-limit probe's decisions (document, Limits and Errors) as a state machine fed with one
 * response at a time: (when it was sent, when it came back, status, headers). Pure: the k6 script
 * feeds it from `http.get`, the Node tests from real responses of the mock.
 *
 * It needs to see every response of the API client in the order the server counted them, which is
 * why the probe runs in one VU (load/lib/options.ts): with requests sent one after the other, the
 * order of the responses is the order of the server's count, so "Remaining falls by one" and "no
 * 429 before the budget is spent" can be decided exactly.
 *
 * Windows: a response opens a new window when X-Rate-Limit-Reset moves forward by more than a
 * second (fractions may jitter), when Remaining goes up, or when a 2xx was sent after the current
 * window's reset time.
 */
import { type HeaderLookup, headerLookup, parseRateLimitHeaders, parseRetryAfter, type RateLimitHeaders } from '../../contracts/rate-limit.ts';

/** Each rule the probe checks, with the sentence a report shows for it. */
export const PROBE_RULES = {
  'status-expected': 'the probe gets 2xx or 429 and nothing else',
  'headers-well-formed': 'every 2xx (and every 429 that has them) carries well-formed X-Rate-Limit-Limit, -Remaining and -Reset',
  'remaining-falls': 'within a window X-Rate-Limit-Remaining falls by one per request',
  'no-early-429': 'no 429 comes before the budget is spent',
  'limit-enforced': 'a request past the budget gets 429',
  'retry-after-present': 'every 429 carries Retry-After',
  'retry-after-accurate': 'Retry-After agrees with X-Rate-Limit-Reset within the tolerance',
  'retry-succeeds': 'a request sent after honouring Retry-After succeeds',
} as const;
export type ProbeRule = keyof typeof PROBE_RULES;
export const PROBE_RULE_NAMES = Object.keys(PROBE_RULES) as ProbeRule[];

export interface ProbeFinding {
  readonly rule: ProbeRule;
  /** Epoch ms of the response that broke the rule. */
  readonly atMs: number;
  /** What was expected and what came back. */
  readonly reason: string;
}

export interface ProbeOptions {
  /** Requests per window the target should allow (LP_RATE): a first window whose Remaining is budget - 1 was seen from its first request. Default: unknown. */
  readonly budget?: number;
  /** Seconds Retry-After may differ from X-Rate-Limit-Reset, and the grace after it before a refusal counts. Default 1 (the spec suite's tolerance). */
  readonly toleranceSeconds?: number;
  /** Findings kept per rule for reports; all are counted. Default 20. */
  readonly keepPerRule?: number;
}

export interface ProbeResponse {
  /** Epoch ms when the request was sent; default `receivedMs`. */
  readonly sentMs?: number;
  /** Epoch ms when the response came back. */
  readonly receivedMs: number;
  readonly status: number;
  /** Response headers, any case, or a lookup. */
  readonly headers: HeaderLookup | Readonly<Record<string, string | undefined>>;
}

export interface BudgetMeasurement {
  /** 2xx of the window before its first 429. */
  readonly count: number;
  /** The window's first Remaining + 1: what the headers promised. */
  readonly promised: number;
  /** Whether the probe saw the window's first request: a window after one it saw end, or a first window whose Remaining was budget - 1. */
  readonly fromWindowStart: boolean;
}

/** What one response told: feed it to metrics. */
export interface ProbeEvent {
  /** 0-based window index; -1 before the first response with a window. */
  readonly window: number;
  readonly status: number;
  readonly remaining: number | undefined;
  readonly findings: readonly ProbeFinding[];
  /** On the first 429 of a window that had 2xx. */
  readonly budget?: BudgetMeasurement;
  /** On the first 429 of a window: ms since the window's first response. */
  readonly timeToFirst429Ms?: number;
  /** On a 429 with Retry-After. */
  readonly retryAfterSeconds?: number;
  /** Retry-After minus the seconds until X-Rate-Limit-Reset: positive means it asks to wait longer than needed. */
  readonly retryAfterErrorSeconds?: number;
  /** Set on the response that decides the honoured retry: true when it succeeded, false when refused again. */
  readonly retryHonoured?: boolean;
}

export interface ProbeWindow {
  readonly index: number;
  readonly firstMs: number;
  resetMs: number | undefined;
  firstRemaining: number | undefined;
  lastRemaining: number | undefined;
  successes: number;
  refusals: number;
  first429Ms: number | undefined;
  readonly fromStart: boolean;
}

export interface ProbeSummary {
  readonly responses: number;
  readonly windows: readonly ProbeWindow[];
  readonly counts: Readonly<Record<ProbeRule, number>>;
  readonly findings: readonly ProbeFinding[];
  readonly retries: { readonly honoured: number; readonly refused: number };
}

/** Reset times of one window may differ in their fractions; a move beyond this is a new window. */
const RESET_JITTER_MS = 1000;
/** Windows kept for the summary (a long run against a short window would otherwise grow without bound). */
const MAX_WINDOWS = 200;

interface PendingRetry {
  /** Index of the window of the 429 that set it. */
  readonly window: number;
  readonly retryAtMs: number;
  readonly refusedAtMs: number;
  readonly retryAfterSeconds: number;
}

export class RateLimitProbe {
  private readonly budget: number | undefined;
  private readonly toleranceMs: number;
  private readonly keep: number;
  private responses = 0;
  private windowCount = 0;
  private windows: ProbeWindow[] = [];
  private current: ProbeWindow | undefined;
  private pending: PendingRetry | undefined;
  private ruleCounts = Object.fromEntries(PROBE_RULE_NAMES.map((rule) => [rule, 0])) as Record<ProbeRule, number>;
  private findings: ProbeFinding[] = [];
  private retries = { honoured: 0, refused: 0 };

  constructor(options: ProbeOptions = {}) {
    this.budget = options.budget;
    this.toleranceMs = (options.toleranceSeconds ?? 1) * 1000;
    this.keep = options.keepPerRule ?? 20;
  }

  observe(response: ProbeResponse): ProbeEvent {
    this.responses++;
    const get = typeof response.headers === 'function' ? response.headers : headerLookup(response.headers);
    const sentMs = response.sentMs ?? response.receivedMs;
    const at = response.receivedMs;
    const { status } = response;
    const findings: ProbeFinding[] = [];
    const add = (rule: ProbeRule, reason: string) => {
      const finding = { rule, atMs: at, reason };
      findings.push(finding);
      this.ruleCounts[rule]++;
      if (this.ruleCounts[rule] <= this.keep) this.findings.push(finding);
    };
    const success = status >= 200 && status < 300;
    const refused = status === 429;
    if (!success && !refused) {
      add('status-expected', `expected 2xx or 429, got ${status}`);
      return { window: this.current?.index ?? -1, status, remaining: undefined, findings };
    }

    const parsed = parseRateLimitHeaders(get);
    const headers: RateLimitHeaders | undefined = parsed.ok ? parsed.value : undefined;
    if (!parsed.ok && (success || hasAnyRateHeader(get))) add('headers-well-formed', `${status} response: ${parsed.reason}`);

    const window = this.windowFor(success, sentMs, at, headers);
    const opened = window.successes === 0 && window.refusals === 0;
    let event: Omit<ProbeEvent, 'window' | 'status' | 'remaining' | 'findings'> = {};

    // The honoured retry is decided by the first request sent once Retry-After has elapsed. It
    // succeeds, or a window has opened since the 429 (the limit did lift; the probe's own requests
    // may have spent the new budget meanwhile): honoured. Refused in the same window, past the
    // tolerance: broken. Refused within the tolerance: not decided yet.
    const pending = this.pending;
    if (pending && sentMs >= pending.retryAtMs) {
      if (success || window.index !== pending.window) {
        event = { ...event, retryHonoured: true };
        this.retries.honoured++;
        this.pending = undefined;
      } else if (sentMs >= pending.retryAtMs + this.toleranceMs) {
        add(
          'retry-succeeds',
          `a request sent ${round((sentMs - pending.refusedAtMs) / 1000)} s after a 429 that said Retry-After ${round(pending.retryAfterSeconds)} s was refused again, in the same window`,
        );
        event = { ...event, retryHonoured: false };
        this.retries.refused++;
        this.pending = undefined;
      }
    }

    if (success) {
      if (!opened) {
        if (window.first429Ms !== undefined) {
          add('limit-enforced', 'a request succeeded after a 429 of the same window (X-Rate-Limit-Reset unchanged, Remaining not restored)');
        } else if (window.lastRemaining === 0) {
          add('limit-enforced', 'a request succeeded after X-Rate-Limit-Remaining reached 0 in this window; expected 429');
        } else if (headers && window.lastRemaining !== undefined && headers.remaining !== window.lastRemaining - 1) {
          add('remaining-falls', `X-Rate-Limit-Remaining went from ${window.lastRemaining} to ${headers.remaining}; expected ${window.lastRemaining - 1}`);
        }
      }
      window.successes++;
      if (headers) {
        if (window.firstRemaining === undefined) window.firstRemaining = headers.remaining;
        window.lastRemaining = headers.remaining;
        window.resetMs = headers.resetMs;
      }
    } else {
      window.refusals++;
      const retryAfter = parseRetryAfter(get('retry-after'), at);
      if (!retryAfter.ok) add('retry-after-present', `429: ${retryAfter.reason}`);
      if (window.first429Ms === undefined) {
        window.first429Ms = at;
        if (window.lastRemaining !== undefined && window.lastRemaining > 0) {
          add('no-early-429', `429 while the previous response of this window said ${window.lastRemaining} request(s) remained`);
        } else if (headers && headers.remaining > 0) {
          add('no-early-429', `429 whose own X-Rate-Limit-Remaining says ${headers.remaining} request(s) remain`);
        }
        if (window.successes > 0) {
          event = {
            ...event,
            budget: { count: window.successes, promised: (window.firstRemaining ?? 0) + 1, fromWindowStart: window.fromStart },
            timeToFirst429Ms: at - window.firstMs,
          };
        }
      }
      if (retryAfter.ok) {
        event = { ...event, retryAfterSeconds: retryAfter.value };
        // Without its own headers a 429 is judged by its window's reset, unless that has already passed.
        const resetMs = headers?.resetMs ?? (window.resetMs !== undefined && window.resetMs > at ? window.resetMs : undefined);
        if (resetMs !== undefined) {
          const untilReset = (resetMs - at) / 1000;
          const error = retryAfter.value - untilReset;
          event = { ...event, retryAfterErrorSeconds: error };
          if (Math.abs(error) * 1000 > this.toleranceMs) {
            add('retry-after-accurate', `Retry-After says ${round(retryAfter.value)} s but X-Rate-Limit-Reset is ${round(untilReset)} s away`);
          }
        }
        // The latest 429 of a window sets the time to retry; one of an older window is decided first.
        if (this.pending === undefined || this.pending.window === window.index) {
          this.pending = { window: window.index, retryAtMs: at + retryAfter.value * 1000, refusedAtMs: at, retryAfterSeconds: retryAfter.value };
        }
      }
    }
    return { window: window.index, status, remaining: headers?.remaining, findings, ...event };
  }

  private windowFor(success: boolean, sentMs: number, at: number, headers: RateLimitHeaders | undefined): ProbeWindow {
    const current = this.current;
    const opens =
      current === undefined ||
      (headers !== undefined && current.resetMs !== undefined && headers.resetMs - current.resetMs > RESET_JITTER_MS) ||
      (success && headers !== undefined && current.lastRemaining !== undefined && headers.remaining > current.lastRemaining) ||
      (success && current.resetMs !== undefined && sentMs >= current.resetMs);
    if (!opens) return current;
    const window: ProbeWindow = {
      index: this.windowCount++,
      firstMs: at,
      resetMs: headers?.resetMs,
      firstRemaining: undefined,
      lastRemaining: undefined,
      successes: 0,
      refusals: 0,
      first429Ms: undefined,
      // The probe is the key's only user: after a window it saw end, its first request opens the next
      // one. The run's first window began earlier (in setup) unless Remaining says otherwise.
      fromStart: success && headers !== undefined && (current !== undefined || (this.budget !== undefined && headers.remaining === this.budget - 1)),
    };
    this.current = window;
    this.windows.push(window);
    if (this.windows.length > MAX_WINDOWS) this.windows.shift();
    return window;
  }

  /** Violations so far, by rule. */
  get counts(): Readonly<Record<ProbeRule, number>> {
    return { ...this.ruleCounts };
  }

  get violations(): number {
    let total = 0;
    for (const rule of PROBE_RULE_NAMES) total += this.ruleCounts[rule];
    return total;
  }

  summary(): ProbeSummary {
    return {
      responses: this.responses,
      windows: this.windows.map((w) => ({ ...w })),
      counts: this.counts,
      findings: [...this.findings],
      retries: { ...this.retries },
    };
  }
}

function hasAnyRateHeader(get: HeaderLookup): boolean {
  return get('x-rate-limit-limit') !== undefined || get('x-rate-limit-remaining') !== undefined || get('x-rate-limit-reset') !== undefined;
}

function round(seconds: number): number {
  return Math.round(seconds * 10) / 10;
}
