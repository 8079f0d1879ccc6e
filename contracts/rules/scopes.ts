/** The rules of Scopes. */
import { inArea } from './rule.ts';

export const SCOPES_RULES = inArea('scopes', {
  'scopes.limit-token': {
    level: 'contract',
    statement: 'a token whose scopes name only another resource is refused by a resource endpoint (4xx, no data)',
    section: 'Endpoints, 1. Request an access token; Authentication 5',
    quote:
      'The token is valid only for the operations and resources named by the scopes of the request. — Scopes control the sets of operations and resources that a token permits.',
  },
  'platform.endpoint-scopes': {
    level: 'platform',
    statement: 'content:read or content:write lists content; users:read or users:write lists users',
    basis: 'platform-docs',
    note: 'The document shows neither the scope names nor which scope each endpoint requires.',
  },
  'platform.missing-scope-status': {
    level: 'platform',
    statement: 'a token without the scope an endpoint needs is refused with 403',
    basis: 'platform-docs',
    note: 'The document shows no status for a missing scope; the platform documents 403.',
  },
});
