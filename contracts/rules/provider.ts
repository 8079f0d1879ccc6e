/** The rules of Provider keys. */
import type { Rule } from './rule.ts';

export const PROVIDER_RULES = {
  'provider.isolation': {
    level: 'contract',
    area: 'provider',
    statement: 'a provider key lists only content items associated with its provider',
    section: 'Authentication 3',
    quote: 'A key may be associated with a provider (provider key): it then reaches only data associated with that provider',
  },
} as const satisfies Record<string, Rule>;
