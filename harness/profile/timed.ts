/**
 * The probes that wait (rateLimit.window, rateLimit.rate, pagination.obsoleteStatus), run first, before
 * anything else spends the budget. The prober stays silent for one period (and one snapshot lifetime),
 * so that whatever the kind of window, the next request starts afresh; then three requests at chosen
 * instants tell the kinds apart:
 *
 * - A, at a quarter past the start of a period (phase P/4): a fresh window. Its Remaining is the rate
 *   less one, and its Reset is a multiple of the period only if windows are aligned to the clock.
 * - C, at A + 3P/4: in A's window.
 * - B, once A's window has ended (A + 5P/4, and after A's Reset): a window from the first request
 *   starts afresh (Remaining as A's); a sliding window still counts C (one less than A's).
 *
 * A also follows a links.next taken before the silence: the snapshot is then obsolete, and A's status
 * is the one an obsolete next value gets. Without a control plane to move the clock, waits over
 * SHORT_WAIT_MS need LP_FULL=1 and leave the options unknown otherwise.
 */
import { headerLookup, parseRateLimitHeaders, RESET_RESOLUTION_MS } from '../../contracts/rate-limit.ts';
import { isAlignedBoundary } from '../../contracts/rate-limit-window.ts';
import type { ApiResponse } from '../client/transport.ts';
import { fractionDigits } from './classify.ts';
import { nextUrl, type Probe, SHORT_WAIT_MS, sleep, statusIn } from './session.ts';

/** Room left around each instant for the time a request takes and the reset's rounding. */
const SLACK_MS = 300;

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
  if (snapshot !== undefined) {
    const what = 'the next value of a snapshot left alone for its lifetime (LP_SNAPSHOT_LIFETIME)';
    p.settle('pagination.obsoleteStatus', what, statusIn(a, [400, 404, 410]), a);
  }
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
  if (tB - tA > (7 * period) / 4 - SLACK_MS) {
    return p.unknown('rateLimit.window', `the third request came ${tB - tA} ms after the first, too late to find the second still counted`, ...abc);
  }
  const rB = readB.value.remaining;
  if (isAlignedBoundary(readA.value.resetMs, period) && isAlignedBoundary(readB.value.resetMs, period)) {
    return p.decide('rateLimit.window', 'clock-aligned', 'both resets are multiples of the period, for requests made a quarter and a half past', ...abc);
  }
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
  if (digits === 0 || digits === 3 || digits === 7) return p.decide('rateLimit.resetFractionDigits', digits, `X-Rate-Limit-Reset is ${reset}`, first);
  p.unknown('rateLimit.resetFractionDigits', `X-Rate-Limit-Reset ${reset} has ${digits ?? 'no readable'} fractional digits, not 0, 3 or 7`, first);
}

/** Whether the reset is written to the second: a decision between two resets must then allow a second. */
export function resetResolution(p: Probe): number {
  return p.value('rateLimit.resetFractionDigits') === 0 ? RESET_RESOLUTION_MS : 1;
}
