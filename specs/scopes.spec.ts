/**
 * Document, Endpoints 1 ("the token is valid only for the operations and resources named by the
 * scopes of the request") and Authentication 5. Which scope each endpoint needs comes from the
 * reference notes, written once in contracts/endpoints.ts `acceptedScopes`; this table is built from it.
 * A missing scope: 403 per the notes, 401 accepted.
 */
import { RESOURCE_ENDPOINTS } from '../contracts/endpoints.ts';
import { MISSING_SCOPE_STATUSES } from '../contracts/open-behaviours.ts';
import type { ResourceEndpointId } from './fixtures/api.ts';
import { expect, test } from './fixtures/index.ts';

/** Every scope some resource endpoint accepts: each is tried alone against each endpoint. */
const SCOPES_TRIED = [...new Set(RESOURCE_ENDPOINTS.flatMap((e) => e.acceptedScopes))];

const CASES = RESOURCE_ENDPOINTS.flatMap((endpoint) =>
  SCOPES_TRIED.map((scope) => ({ endpoint, scope, accepted: (endpoint.acceptedScopes as readonly string[]).includes(scope) })),
);

test.describe('a token with a single scope', () => {
  for (const { endpoint, scope, accepted } of CASES) {
    test(`${scope} ${accepted ? 'can' : 'cannot'} call ${endpoint.method} ${endpoint.path}`, async ({ api, tokens, target }) => {
      test.skip(!target.client.scopes.includes(scope), `The key does not hold ${scope} (LP_SCOPES), so no token with it can be requested.`);
      const token = await tokens.issue([scope]);
      const response = await api.as(token.accessToken).list(endpoint.id as ResourceEndpointId, { limit: 1 });
      expect(response).toHaveStatus(accepted ? 200 : MISSING_SCOPE_STATUSES);
    });
  }
});
