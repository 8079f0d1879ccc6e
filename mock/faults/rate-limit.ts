/** Faults at the `rateLimit` seam: the outcome of counting a request, its headers and its 429. */
import { formatPeriod } from '../../contracts/duration.ts';
import { resetFormat, retryAfterSeconds } from '../../contracts/rate-limit-window.ts';
import { DEFAULT_CLIENTS } from '../app.ts';
import type { RateOutcome, RatePrincipal, SeamContext } from '../seams.ts';
import type { RuleId } from '../../contracts/rules/index.ts';
import { headerOf } from '../http.ts';
import { type Fault, fault, withHeader, withoutHeader } from './fault.ts';

/** A fault whose rate limiter's outcomes `change` edits (a client without a rate has none to edit). */
function outcomes(rule: RuleId, breaks: string, change: (outcome: RateOutcome, core: SeamContext, who: RatePrincipal) => RateOutcome): Fault {
  return fault(rule, breaks, () => ({
    rateLimit: (inner, core) => ({
      take: (who) => {
        const outcome = inner.take(who);
        return outcome.headers.length === 0 ? outcome : change(outcome, core, who);
      },
    }),
  }));
}

const dropping =
  (name: string) =>
  (o: RateOutcome): RateOutcome => ({ ...o, headers: withoutHeader(o.headers, name) });

const served = (o: RateOutcome): RateOutcome => ({ ...o, refused: false, headers: withoutHeader(o.headers, 'Retry-After') });

/** Half of what Retry-After asks, whichever form it has. */
function halfWait(value: string, now: number): string {
  if (/^\d+$/.test(value)) return String(Math.floor(Number(value) / 2));
  const at = Date.parse(value);
  return new Date(now + Math.max(0, at - now) / 2).toUTCString();
}

/** How late `rate-reset-hours-late` names the reset. */
const HOURS_LATE_MS = 2 * 3600_000;
/** The wait `retry-after-hours` asks for: over eight hours. */
const LONG_RETRY_AFTER_SECONDS = 30_000;

export const RATE_FAULTS = {
  'rate-header-limit-missing': outcomes('rate.headers', 'responses lack X-Rate-Limit-Limit', dropping('X-Rate-Limit-Limit')),
  'rate-header-remaining-missing': outcomes('rate.headers', 'responses lack X-Rate-Limit-Remaining', dropping('X-Rate-Limit-Remaining')),
  'rate-header-reset-missing': outcomes('rate.headers', 'responses lack X-Rate-Limit-Reset', dropping('X-Rate-Limit-Reset')),
  // A local-looking time without zone or `T`: not ISO 8601 UTC.
  'rate-header-reset-malformed': outcomes('rate.headers', 'X-Rate-Limit-Reset is not ISO 8601 UTC', (o) => ({
    ...o,
    headers: withHeader(o.headers, 'X-Rate-Limit-Reset', new Date(o.resetMs).toISOString().slice(0, 19).replace('T', ' ')),
  })),
  'rate-remaining-constant': outcomes('rate.remaining', 'X-Rate-Limit-Remaining stays at the budget', (o, _core, who) => ({
    ...o,
    headers: withHeader(o.headers, 'X-Rate-Limit-Remaining', String(who.client.rate?.requests ?? 0)),
  })),
  // Counted per token: a client with a new token has a new budget.
  'rate-budget-per-token': fault('rate.per-client', 'each token has a budget of its own', () => ({
    rateLimit: (inner) => ({ take: (who) => inner.take({ ...who, client: { ...who.client, id: `${who.client.id} ${who.token}` } }) }),
  })),
  'rate-reset-header-early': outcomes('rate.reset', 'X-Rate-Limit-Reset names half a period before the window really ends', (o, core, who) => {
    const early = o.resetMs - ((who.client.rate?.periodSeconds ?? 0) * 1000) / 2;
    return { ...o, headers: withHeader(o.headers, 'X-Rate-Limit-Reset', resetFormat(core.profile.rateLimit.resetFractionDigits)(early)) };
  }),
  'rate-no-429': outcomes('rate.429', 'a client past its budget is served', (o) => (o.refused ? served(o) : o)),
  // The last request of the budget is refused too.
  'rate-429-early': outcomes('rate.429', 'the last request of the budget gets 429', (o, core) => {
    if (o.refused || o.remaining > 0) return o;
    return { ...o, refused: true, headers: withHeader(o.headers, 'Retry-After', String(retryAfterSeconds(o.resetMs, core.clock.now()))) };
  }),
  'retry-after-missing': outcomes('rate.retry-after', '429 without Retry-After', (o) => ({ ...o, headers: withoutHeader(o.headers, 'Retry-After') })),
  'retry-after-short': outcomes('rate.retry-after', 'Retry-After asks for half the wait to the reset', (o, core) => {
    const value = headerOf(o.headers, 'Retry-After');
    return value === undefined ? o : { ...o, headers: withHeader(o.headers, 'Retry-After', halfWait(value, core.clock.now())) };
  }),
  // One budget for every client: whose request it is no longer matters.
  'rate-budget-shared-across-clients': fault(
    'rate.per-client',
    'every client spends one budget: the provider key’s requests count against the organization’s',
    () => ({ rateLimit: (inner) => ({ take: (who) => inner.take({ ...who, client: { ...who.client, id: 'every client' } }) }) }),
  ),
  // One way only: the organization key's requests stay its own, the provider key's are counted twice.
  'rate-provider-spends-organization': fault(
    'rate.per-client',
    'each request of a provider key is counted against the organization key’s budget as well as its own (never the other way round)',
    (o) => {
      const organization = (o.clients ?? DEFAULT_CLIENTS).find((c) => c.provider === undefined);
      return {
        rateLimit: (inner, core) => ({
          take: (who) => {
            const charged = who.client.provider !== undefined && organization ? core.clients.get(organization.id) : undefined;
            if (charged) inner.take({ ...who, client: charged });
            return inner.take(who);
          },
        }),
      };
    },
  ),
  // Counted, never refused. The rateLimit seam does not know the endpoint: listUsers' exchange seam marks its request (handlers are synchronous).
  'rate-users-never-429': fault('rate.per-client', 'GET /api/v2/users is served past the budget (never answers 429)', () => {
    let users = false;
    return {
      exchange: (endpoint, inner) =>
        endpoint !== 'listUsers'
          ? inner
          : (request) => {
              users = true;
              try {
                return inner(request);
              } finally {
                users = false;
              }
            },
      rateLimit: (inner) => ({
        take: (who) => {
          const outcome = inner.take(who);
          return users && outcome.refused ? served(outcome) : outcome;
        },
      }),
    };
  }),
  'rate-remaining-negative': outcomes('rate.headers', 'a 429 says X-Rate-Limit-Remaining: -1', (o) =>
    o.refused ? { ...o, headers: withHeader(o.headers, 'X-Rate-Limit-Remaining', '-1') } : o,
  ),
  // The windows keep their length; only the period the header names is longer.
  'rate-period-longer': outcomes(
    'rate.period',
    'X-Rate-Limit-Limit names sixty times the period the windows really last (1h for windows of a minute)',
    (o, _core, who) => ({ ...o, headers: withHeader(o.headers, 'X-Rate-Limit-Limit', formatPeriod((who.client.rate?.periodSeconds ?? 60) * 60)) }),
  ),
  // A period no run waits for, whatever the windows last: only their resets show it is not theirs.
  'rate-period-hour': outcomes('rate.period', 'X-Rate-Limit-Limit says 1h while the windows keep their period (a minute by default)', (o) => ({
    ...o,
    headers: withHeader(o.headers, 'X-Rate-Limit-Limit', '1h'),
  })),
  // The window still ends when it did; the header names two hours after that.
  'rate-reset-hours-late': outcomes('rate.headers', 'X-Rate-Limit-Reset names two hours after the window really ends', (o, core) => ({
    ...o,
    headers: withHeader(o.headers, 'X-Rate-Limit-Reset', resetFormat(core.profile.rateLimit.resetFractionDigits)(o.resetMs + HOURS_LATE_MS)),
  })),
  // A 429 asks for 30,000 s, far past its window's end: a run must judge it, not wait for it.
  'retry-after-hours': outcomes('platform.retry-after-reset', 'a 429 asks for a Retry-After of 30,000 s, far past its window', (o) =>
    o.refused ? { ...o, headers: withHeader(o.headers, 'Retry-After', String(LONG_RETRY_AFTER_SECONDS)) } : o,
  ),
};
