/** The rules of Provider keys. */
import { inArea } from './rule.ts';

export const PROVIDER_RULES = inArea('provider', {
  'provider.isolation': {
    level: 'contract',
    statement: 'a provider key lists only content items associated with its provider',
    section: 'Authentication 3',
    quote: 'A key may be associated with a provider (provider key): it then reaches only data associated with that provider',
  },
});
