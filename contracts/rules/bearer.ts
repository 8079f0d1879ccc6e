/** The rules of Bearer authentication. */
import { inArea } from './rule.ts';

export const BEARER_RULES = inArea('bearer', {
  'bearer.required': {
    level: 'contract',
    statement: 'a resource request without a valid bearer token (none, malformed, unknown, altered) is refused with a 4xx and no data',
    section: 'Authentication 6',
    quote: 'Calls to resource endpoints carry the header `Authorization: Bearer <ACCESS_TOKEN>`.',
  },
  'bearer.refresh-token': {
    level: 'contract',
    statement: 'a resource request with a refresh token as its bearer token is refused with a 4xx and no data',
    section: 'Resources, Access token response; Authentication 6 and 8',
    quote:
      'refresh_token | string | Issued, but not useful for API access by external parties. — Calls to resource endpoints carry the header `Authorization: Bearer <ACCESS_TOKEN>`.',
  },
  'platform.unauthenticated-status': {
    level: 'platform',
    statement: 'a missing, invalid, expired or logged-out bearer token is refused with 401',
    basis: 'platform-docs',
    note: 'The document shows no status for an invalid token; the platform documents 401.',
  },
});
