/**
 * Probes of the rate limit that need no wait (profile group `rateLimit`; the window's kind and the rate
 * are read in harness/profile/timed.ts): whether token requests spend the budget, and, with LP_QUOTA=1
 * only, the 429: how Retry-After is written and whether requests during the block extend it. The 429
 * probe spends what is left of the window it runs in (a fresh one when that is about to end), and
 * three refused requests at most.
 */
import { parseRate } from '../../contracts/duration.ts';
import { headerLookup, parseRateLimitHeaders } from '../../contracts/rate-limit.ts';
import { RateObserver } from '../../contracts/rules/rate-limit.ts';
import type { ApiResponse } from '../client/transport.ts';
import { rateExchange } from '../rate/spend-budget.ts';
import { type Probe, sleep } from './session.ts';
import { resetResolution } from './timed.ts';

/** Refused requests the 429 probe may send: the first 429, one during the block, one spare. */
const REFUSED_REQUESTS = 3;
/** The longest the prober waits for a block to end before its last logout, in periods. */
const MAX_BLOCK_PERIODS = 2;

export async function probeCountsTokenRequests(p: Probe, token: string): Promise<void> {
  const withHeaders = p.tokenAnswers.find((a) => a.headers['x-rate-limit-remaining'] !== undefined);
  if (withHeaders !== undefined) return p.decide('rateLimit.countsTokenRequests', true, 'a token answer carries the rate headers', withHeaders);
  // No headers on token answers: Remaining before and after one token request tells whether it was counted.
  const before = p.seen(await p.api.list('listContent', { limit: 1 }, { token }));
  await p.issue();
  const after = p.seen(await p.api.list('listContent', { limit: 1 }, { token }));
  const b = parseRateLimitHeaders(headerLookup(before.headers));
  const a = parseRateLimitHeaders(headerLookup(after.headers));
  if (!b.ok || !a.ok) return p.unknown('rateLimit.countsTokenRequests', 'the answers around a token request carry no readable rate headers', before, after);
  if (b.value.resetMs !== a.value.resetMs) {
    return p.unknown('rateLimit.countsTokenRequests', 'the window changed between the two answers around a token request', before, after);
  }
  const spent = b.value.remaining - a.value.remaining;
  if (spent === 2) return p.decide('rateLimit.countsTokenRequests', true, 'Remaining fell by 2 across a token request and a list request', before, after);
  if (spent === 1) return p.decide('rateLimit.countsTokenRequests', false, 'Remaining fell by 1 across a token request and a list request', before, after);
  p.unknown(
    'rateLimit.countsTokenRequests',
    `Remaining fell by ${spent} across a token request and a list request (another client of the key?)`,
    before,
    after,
  );
}

/** rateLimit.rate where the timed probe could not read it: LP_RATE, when the headers agree with it. */
export function decideRateFromSettings(p: Probe): void {
  if (p.decided('rateLimit.rate')) return;
  const first = p.rated[0];
  const read = first === undefined ? undefined : parseRateLimitHeaders(headerLookup(first.headers));
  const rate = p.settings.rate;
  if (read === undefined || !read.ok) return p.unknown('rateLimit.rate', 'no answer carried readable rate headers');
  if (rate && rate.periodSeconds === read.value.periodSeconds && read.value.remaining < rate.requests) {
    return p.decide(
      'rateLimit.rate',
      `${rate.requests}/${read.value.period}`,
      'LP_RATE, which the period and Remaining of the headers agree with',
      first as ApiResponse,
    );
  }
  p.unknown(
    'rateLimit.rate',
    'the rate is read on a fresh window, which needs a wait of one period (see rateLimit.window); LP_RATE is not set or disagrees',
    first as ApiResponse,
  );
}

/**
 * With LP_QUOTA=1: spends the rest of the window to meet a 429, reads Retry-After, and sends one
 * request during the block. Returns when the block ends (at most MAX_BLOCK_PERIODS periods).
 */
export async function probeQuota(p: Probe, token: string): Promise<void> {
  const why = 'it needs a 429, which is met only by spending a whole window (LP_QUOTA=1)';
  const unknown = (reason: string) => (['rateLimit.retryAfter', 'rateLimit.retryDuringBlock'] as const).forEach((key) => p.unknown(key, reason));
  if (!p.settings.quota) return unknown(why);
  const last = p.rated.at(-1);
  const read = last === undefined ? undefined : parseRateLimitHeaders(headerLookup(last.headers));
  if (read === undefined || !read.ok) return unknown('no answer carried readable rate headers to plan the 429 probe with');
  const periodMs = read.value.periodSeconds * 1000;
  const rate = parseRate(p.value<string>('rateLimit.rate') ?? '');
  const requests = rate?.requests ?? p.settings.windowRequests;
  p.counter.cap = p.counter.sent + requests + 2 + REFUSED_REQUESTS;
  // Every answer is read by the rate rules' observer: the headers, Retry-After and when the block ends are its reading.
  const observer = new RateObserver();
  const list = async () => {
    const sentMs = Date.now();
    const answer = p.seen(await p.rawApi.list('listContent', { limit: 1 }, { token }));
    observer.observe(rateExchange(answer, sentMs, Date.now()));
    return { answer, sentMs, endMs: observer.seen.headers?.resetMs ?? observer.seen.retry?.earliestMs ?? sentMs + periodMs };
  };
  // A window about to end would end under the probe, which would then spend the next one too: start on a fresh one instead.
  const sample = await list();
  const latencyMs = Date.now() - sample.sentMs;
  const now = observer.seen.headers;
  if (now && now.resetMs - Date.now() < (now.remaining + 1) * latencyMs * 1.5 + 250) await sleep(now.resetMs - Date.now() + 50);
  let refused = sample.answer.status === 429 ? sample : undefined;
  const spend = requests + 1;
  for (let i = 0; i < spend && refused === undefined; i++) {
    const answer = await list();
    if (answer.answer.status === 429) refused = answer;
  }
  if (refused === undefined) return unknown(`no 429 came within ${spend} requests`);
  const retryAfter = (refused.answer.headers['retry-after'] ?? '').trim();
  if (!observer.seen.retry)
    p.unknown('rateLimit.retryAfter', `Retry-After ${JSON.stringify(retryAfter)} is neither delta-seconds nor an HTTP-date`, refused.answer);
  else p.decide('rateLimit.retryAfter', /^\d+$/.test(retryAfter) ? 'seconds' : 'http-date', `Retry-After: ${retryAfter}`, refused.answer);

  const end = await duringBlock(p, refused, list, periodMs);
  const wait = Math.min(end - Date.now(), MAX_BLOCK_PERIODS * periodMs);
  // Honour the block before the last logout: requests during it may extend it.
  await sleep(wait + 200);
}

/** An answer of the 429 probe: when it was sent, and when the block it names ends (X-Rate-Limit-Reset, else Retry-After, else a period on). */
interface Answer {
  readonly answer: ApiResponse;
  readonly sentMs: number;
  readonly endMs: number;
}

/** Decides retryDuringBlock; returns when the block ends, epoch ms. */
async function duringBlock(p: Probe, refused: Answer, list: () => Promise<Answer>, periodMs: number): Promise<number> {
  const { endMs: r1, sentMs: t1 } = refused;
  const resolution = resetResolution(p);
  // A block that ends well before one period after the refused request was not moved by it (a tenth: clocks differ).
  if (r1 < t1 + periodMs - Math.max(100, periodMs / 10)) {
    p.decide('rateLimit.retryDuringBlock', 'ignored', `the block ends ${r1 - t1} ms after a refused request, less than a period`, refused.answer);
    return r1;
  }
  const gap = resolution > 1 ? 1100 : 300;
  if (r1 - Date.now() < gap + 200) {
    p.unknown('rateLimit.retryDuringBlock', 'the block ends too soon to send a request during it', refused.answer);
    return r1;
  }
  await sleep(gap);
  const { answer: again, sentMs: t2, endMs: r2 } = await list();
  if (again.status !== 429) {
    p.unknown('rateLimit.retryDuringBlock', `a request during the block got ${again.status}`, refused.answer, again);
    return t2;
  }
  const both = [refused.answer, again] as const;
  if (r2 > r1) p.decide('rateLimit.retryDuringBlock', 'extends-block', `a request ${t2 - t1} ms into the block moved its end by ${r2 - r1} ms`, ...both);
  else if (r2 === r1) p.decide('rateLimit.retryDuringBlock', 'ignored', 'a request during the block left its end where it was', ...both);
  else p.unknown('rateLimit.retryDuringBlock', `a request during the block brought its end ${r1 - r2} ms forward`, ...both);
  return Math.max(r1, r2);
}
