/**
 * Probes of the rate limit (profile group `rateLimit`), and of `pagination.obsoleteStatus`, which also needs a silent wait. The probes that wait run first,
 * before anything else spends the budget: the prober stays silent for one period (and one snapshot lifetime), so that whatever the kind of window, the next
 * request starts afresh; then three requests at chosen instants tell the kinds apart:
 *
 * - A, at a quarter past the start of a period (phase P/4): a fresh window. Its Remaining is the rate
 *   less one, and its Reset is a multiple of the period only if windows are aligned to the clock.
 * - C, at A + 3P/4: in A's window.
 * - B, once A's window has ended (A + 5P/4, and after A's Reset): a window from the first request
 *   starts afresh (Remaining as A's); a sliding window still counts C (one less than A's).
 *
 * A also follows a links.next taken before the silence: the snapshot is then obsolete, and A's status is the one an obsolete next value gets. Without a control
 * plane to move the clock, waits over SHORT_WAIT_MS need LP_FULL=1 and leave the options unknown otherwise. Then, without waits, whether token requests spend
 * the budget, and, with LP_QUOTA=1 only, the 429.
 */
import { parseRate } from '../../contracts/duration.ts';
import { headerLookup, parseRateLimitHeaders } from '../../contracts/rate-limit.ts';
import { isAlignedBoundary } from '../../contracts/rate-limit-window.ts';
import { RateObserver } from '../../contracts/rules/rate-limit.ts';
import { type ApiResponse, sleep } from '../client/transport.ts';
import { rateExchange } from '../rate/spend-budget.ts';
import { fractionDigits } from './content.ts';
import { nextUrl } from '../walks/list-walk.ts';
import { isSuccess, type Probe, SHORT_WAIT_MS, statusIn } from './session.ts';

/** Room left around each instant for the time a request takes and the reset's rounding. */
const SLACK_MS = 300;
/** Refused requests the 429 probe may send: the first 429, one during the block, one spare. */
const REFUSED_REQUESTS = 3;
/** The longest the prober waits for a block to end before its last logout, in periods. */
const MAX_BLOCK_PERIODS = 2;

const rateOf = (response: ApiResponse) => parseRateLimitHeaders(headerLookup(response.headers));

export async function probeTimed(p: Probe, token: string): Promise<void> {
  const list = () => p.rawApi.list('listContent', { limit: 1 }, { token });
  const opening = await list();
  const headers = rateOf(opening);
  const periodMs = headers.ok ? headers.value.periodSeconds * 1000 : undefined;
  const snapshotMs = p.settings.snapshotLifetimeSeconds * 1000;
  const next = nextUrl(opening);
  const tooLong = (ms: number) => ms > SHORT_WAIT_MS && !p.settings.full;
  const longWait = (ms: number) => `${Math.round(ms / 1000)} s is longer than ${SHORT_WAIT_MS / 1000} s: LP_FULL=1 allows it`;
  if (periodMs === undefined) p.unknown('rateLimit.window', `the first answer has no readable rate headers (${headers.ok ? '' : headers.error})`, opening);
  else if (tooLong(periodMs)) p.unknown('rateLimit.window', `waiting out a window of ${longWait(periodMs)}`, opening);
  if (next === undefined) p.unknown('pagination.obsoleteStatus', 'the first page has no links.next', opening);
  else if (tooLong(snapshotMs))
    p.unknown('pagination.obsoleteStatus', `waiting out the snapshot lifetime (LP_SNAPSHOT_LIFETIME) of ${longWait(snapshotMs)}`, opening);
  const period = periodMs === undefined || tooLong(periodMs) ? undefined : periodMs;
  const snapshot = next === undefined || tooLong(snapshotMs) ? undefined : next;
  if (period === undefined && snapshot === undefined) return;
  await sleep(Math.max(period ?? 0, snapshot === undefined ? 0 : snapshotMs) + SLACK_MS);
  if (period !== undefined) await sleep((((period / 4 - (Date.now() % period)) % period) + period) % period);
  const tA = Date.now();
  const a = await (snapshot === undefined ? list() : p.rawApi.get(snapshot, { token }));
  if (snapshot !== undefined)
    p.settle('pagination.obsoleteStatus', 'the next value of a snapshot left alone for its lifetime (LP_SNAPSHOT_LIFETIME)', statusIn(a, [400, 404, 410]), a);
  if (period === undefined) return;
  const readA = rateOf(a);
  if (!readA.ok) return p.unknown('rateLimit.window', `the answer after the silence has no readable rate headers: ${readA.error}`, a);
  const rA = readA.value.remaining;
  p.decide('rateLimit.rate', `${rA + 1}/${readA.value.period}`, `Remaining ${rA} on the first request of a fresh window`, a);
  await sleep(tA + (3 * period) / 4 - Date.now());
  const c = await list();
  await sleep(Math.max(tA + (5 * period) / 4, readA.value.resetMs + SLACK_MS / 3) - Date.now());
  const tB = Date.now();
  const b = await list();
  const readB = rateOf(b);
  const abc = [a, c, b] as const;
  if (!readB.ok) return p.unknown('rateLimit.window', `the third request's answer has no readable rate headers: ${readB.error}`, ...abc);
  if (tB - tA > (7 * period) / 4 - SLACK_MS)
    return p.unknown('rateLimit.window', `the third request came ${tB - tA} ms after the first, too late to find the second still counted`, ...abc);
  const rB = readB.value.remaining;
  if (isAlignedBoundary(readA.value.resetMs, period) && isAlignedBoundary(readB.value.resetMs, period))
    return p.decide('rateLimit.window', 'clock-aligned', 'both resets are multiples of the period, for requests made a quarter and a half past', ...abc);
  if (rB === rA) return p.decide('rateLimit.window', 'first-request', `once the first window ended, Remaining was back at ${rB}`, ...abc);
  if (rB === rA - 1)
    return p.decide('rateLimit.window', 'sliding', `once the first request left the period, the second still counted (Remaining ${rB})`, ...abc);
  p.unknown('rateLimit.window', `Remaining went ${rA}, then ${rB} a period later: no kind of window explains it (another client of the key?)`, ...abc);
}

/** The digits of X-Rate-Limit-Reset's fraction, from the first answer that carried it. */
export function decideResetDigits(p: Probe): void {
  const first = p.rated[0];
  const reset = first?.headers['x-rate-limit-reset'];
  if (first === undefined || reset === undefined) return p.unknown('rateLimit.resetFractionDigits', 'no answer carried X-Rate-Limit-Reset');
  const digits = fractionDigits(reset.trim());
  const named = digits === 0 || digits === 3 || digits === 7;
  p.decide('rateLimit.resetFractionDigits', named ? digits : undefined, `X-Rate-Limit-Reset ${reset} has ${digits ?? 'no readable'} fractional digits`, first);
}

export async function probeCountsTokenRequests(p: Probe, token: string): Promise<void> {
  const option = 'rateLimit.countsTokenRequests';
  const withHeaders = p.rated.find((a) => isSuccess(a) && typeof (a.body as { access_token?: unknown } | undefined)?.access_token === 'string');
  if (withHeaders !== undefined) return p.decide(option, true, 'a token answer carries the rate headers', withHeaders);
  // No headers on token answers: Remaining before and after one token request tells whether it was counted. A window
  // that ends or slides between the two answers (a busy machine stretches the gap) tells nothing: a few tries.
  for (let tries = 1; ; tries++) {
    const before = await p.api.list('listContent', { limit: 1 }, { token });
    await p.tokens.issue();
    const after = await p.api.list('listContent', { limit: 1 }, { token });
    const [b, a] = [rateOf(before), rateOf(after)];
    if (!b.ok || !a.ok) return p.unknown(option, 'the answers around a token request carry no readable rate headers', before, after);
    if (b.value.resetMs !== a.value.resetMs) {
      if (tries < 3) continue;
      return p.unknown(option, `the window changed between the two answers around a token request, ${tries} times`, before, after);
    }
    const spent = b.value.remaining - a.value.remaining;
    const basis = `Remaining fell by ${spent} across a token request and a list request${spent === 1 || spent === 2 ? '' : ' (another client of the key?)'}`;
    return p.decide(option, spent === 2 ? true : spent === 1 ? false : undefined, basis, before, after);
  }
}

/** rateLimit.rate where the timed probe could not read it: the key's rate (LP_RATE, or the embedded mock's), when the headers agree with it. */
export function decideRateFromSettings(p: Probe): void {
  if (p.value('rateLimit.rate') !== undefined) return;
  const first = p.rated[0];
  const read = first === undefined ? undefined : rateOf(first);
  if (read === undefined || !read.ok) return p.unknown('rateLimit.rate', 'no answer carried readable rate headers');
  const rate = p.target.rate;
  const agrees = rate && rate.periodSeconds === read.value.periodSeconds && read.value.remaining < rate.requests;
  const basis = agrees
    ? "the key's rate (LP_RATE, or the embedded mock's), which the period and Remaining of the headers agree with"
    : 'the rate is read on a fresh window, which needs a wait of one period (see rateLimit.window); LP_RATE is not set or disagrees';
  p.decide('rateLimit.rate', agrees ? `${rate.requests}/${read.value.period}` : undefined, basis, first!);
}

/**
 * With LP_QUOTA=1: spends the rest of the window (a fresh one when that is about to end) to meet a 429, reads Retry-After,
 * and sends one request during the block. Returns when the block ends (at most MAX_BLOCK_PERIODS periods).
 */
export async function probeQuota(p: Probe, token: string): Promise<void> {
  const unknown = (reason: string) => p.unknown(['rateLimit.retryAfter', 'rateLimit.retryDuringBlock'], reason);
  if (!p.settings.quota) return unknown('it needs a 429, which is met only by spending a whole window (LP_QUOTA=1)');
  const last = p.rated.at(-1);
  const read = last === undefined ? undefined : rateOf(last);
  if (read === undefined || !read.ok) return unknown('no answer carried readable rate headers to plan the 429 probe with');
  const periodMs = read.value.periodSeconds * 1000;
  const requests = parseRate(p.value<string>('rateLimit.rate') ?? '')?.requests ?? p.windowRequests;
  p.counter.cap = p.counter.sent + requests + 2 + REFUSED_REQUESTS;
  // Every answer is read by the rate rules' observer: the headers, Retry-After and when the block ends are its reading.
  const observer = new RateObserver();
  const list = async () => {
    const sentMs = Date.now();
    const answer = await p.rawApi.list('listContent', { limit: 1 }, { token });
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
  // The observer read the 429's Retry-After with the one reader (contracts/rate-limit.ts): its form is the choice.
  const retry = observer.seen.retry;
  if (retry) p.decide('rateLimit.retryAfter', retry.form, `Retry-After: ${retry.value}`, refused.answer);
  else {
    const why = `Retry-After ${JSON.stringify(refused.answer.headers['retry-after'] ?? '')} is neither delta-seconds nor an HTTP-date`;
    p.unknown('rateLimit.retryAfter', why, refused.answer);
  }
  const end = await duringBlock(p, refused, list, periodMs);
  // Honour the block before the last logout: requests during it may extend it.
  await sleep(Math.min(end - Date.now(), MAX_BLOCK_PERIODS * periodMs) + 200);
}

/** An answer of the 429 probe: when it was sent, and when the block it names ends (X-Rate-Limit-Reset, else Retry-After, else a period on). */
type Answer = { readonly answer: ApiResponse; readonly sentMs: number; readonly endMs: number };

/** Decides retryDuringBlock; returns when the block ends, epoch ms. */
async function duringBlock(p: Probe, refused: Answer, list: () => Promise<Answer>, periodMs: number): Promise<number> {
  const { endMs: r1, sentMs: t1 } = refused;
  // A block that ends well before one period after the refused request was not moved by it (a tenth: clocks differ).
  if (r1 < t1 + periodMs - Math.max(100, periodMs / 10)) {
    p.decide('rateLimit.retryDuringBlock', 'ignored', `the block ends ${r1 - t1} ms after a refused request, less than a period`, refused.answer);
    return r1;
  }
  // A reset written to the second moves by a whole second at least.
  const gap = p.value('rateLimit.resetFractionDigits') === 0 ? 1100 : 300;
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
