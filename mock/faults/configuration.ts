/** Faults by configuration alone: the mock runs as always, with options other than those the suite believes it has (it knows the ones it asked for). */
import { parseRate, type Rate } from '../../contracts/duration.ts';
import { SNAPSHOT_TTL_SECONDS } from '../../contracts/limits.ts';
import { SCOPES } from '../../contracts/scopes.ts';
import { type ClientConfig, DEFAULT_CLIENTS, type MockOptions } from '../app.ts';
import { configured, profileOf } from './fault.ts';

/** A lifetime no test waits out: 100 years of virtual time. */
const NEVER_SECONDS = 100 * 365 * 86_400;

function clientsOf(options: MockOptions): readonly ClientConfig[] {
  return options.clients ?? DEFAULT_CLIENTS;
}

function halved(rate: Rate): Rate {
  return { ...rate, requests: Math.max(1, Math.floor(rate.requests / 2)) };
}

export const CONFIGURATION_FAULTS = {
  // Every key holds every scope the contract names, whatever the suite was told.
  'token-unheld-scope-granted': configured(
    'token.held-scopes',
    'a scope the key does not hold is granted (the key’s scopes widened behind the suite’s back)',
    (o) => ({ ...o, clients: clientsOf(o).map((c) => ({ ...c, scopes: [...new Set([...c.scopes, ...SCOPES])] })) }),
  ),
  // The provider key is registered as an organization key.
  'provider-isolation-broken': configured('provider.isolation', 'a provider key lists every provider’s content (registered without its provider)', (o) => ({
    ...o,
    clients: clientsOf(o).map(({ provider: _provider, ...c }) => c),
  })),
  'snapshot-never-expires': configured('snapshot.expiry', 'a snapshot never becomes obsolete', (o) => ({ ...o, snapshotTtlSeconds: NEVER_SECONDS })),
  'snapshot-expires-early': configured('snapshot.alive', 'a snapshot becomes obsolete after 1 minute instead of 2', (o) => ({
    ...o,
    snapshotTtlSeconds: Math.max(1, Math.floor((o.snapshotTtlSeconds ?? SNAPSHOT_TTL_SECONDS) / 2)),
  })),
  // Half the budget for every key, its own rate or the mock's; the headers then tell the smaller one.
  'rate-budget-wrong': configured('rate.budget', 'the budget in force is half the configured rate', (o) => {
    const rate = o.rate === undefined ? parseRate(profileOf(o).rateLimit.rate) : o.rate;
    const clients = clientsOf(o).map((c) => {
      const own = c.rate === undefined ? undefined : parseRate(c.rate);
      return own ? { ...c, rate: `${halved(own).requests}/${own.period}` } : c;
    });
    return { ...o, clients, rate: rate ? halved(rate) : (rate ?? null) };
  }),
};
