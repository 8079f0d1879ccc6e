/** The rules of Logout. */
import { inArea } from './rule.ts';

export const LOGOUT_RULES = inArea('logout', {
  'logout.expires-access': {
    level: 'contract',
    statement: 'after logout the access token no longer authenticates, at once, on every resource endpoint',
    section: 'Endpoints, 2. Log out; Authentication 9; States and transitions',
    quote:
      'Effect: the access token (and the refresh token, if provided) expires immediately. — token valid | Logout request | Bearer token supplied | token expired | Access token expires immediately',
  },
  'logout.expires-refresh': {
    level: 'contract',
    statement: 'a refresh token provided with the logout no longer refreshes',
    section: 'Endpoints, 2. Log out; States and transitions',
    quote: 'the access token (and the refresh token, if provided) expires immediately. — the refresh token, if provided, expires too.',
  },
  'platform.logout-response': {
    level: 'platform',
    statement: 'a logout with a valid token is answered with a 2xx; one without a token is refused',
    basis: 'mock',
    note: 'The document shows neither the request body nor the response of logout.',
  },
  'platform.logout-scoped': {
    level: 'platform',
    statement: 'logging out one token leaves another token of the same client working',
    basis: 'mock',
    note: 'The document says the supplied token expires; a service that hands every request of a client the same live token ends them all.',
  },
});
