/**
 * Document, Endpoints 1 ("the token is valid only for the operations and resources named by the scopes of the request") and Authentication 5: a token whose
 * scopes name only another resource is refused (contract). Which scope each endpoint needs is not shown: the platform docs' table (contracts/endpoints.ts
 * `acceptedScopes`) is a platform rule, and so is the status of the refusal.
 */
import { RESOURCE_ENDPOINTS } from '../contracts/endpoints.ts';
import { probeQuery, type ResourceEndpointId } from '../harness/client/api.ts';
import { checks, test } from './fixtures/index.ts';

/** Every scope some resource endpoint accepts: each is tried alone against each endpoint. */
const SCOPES_TRIED = [...new Set(RESOURCE_ENDPOINTS.flatMap((e) => e.acceptedScopes))];

const resourceOf = (scope: string) => scope.split(':')[0];

test.describe('a token with a single scope', () => {
  for (const endpoint of RESOURCE_ENDPOINTS)
    for (const scope of SCOPES_TRIED) {
      const accepted = (endpoint.acceptedScopes as readonly string[]).includes(scope);
      const details = accepted ? checks('platform.endpoint-scopes') : checks('scopes.limit-token', 'platform.missing-scope-status');
      test(`${scope} ${accepted ? 'can' : 'cannot'} call ${endpoint.method} ${endpoint.path}`, details, async ({ api, tokens, target, verdict }) => {
        test.skip(!target.client.scopes.includes(scope), `The key does not hold ${scope} (LP_SCOPES), so no token with it can be requested.`);
        const id = endpoint.id as ResourceEndpointId;
        const response = await api.as(await tokens.forScopes([scope])).list(id, probeQuery(id));
        const message = `expected 200 for a token of ${scope}, got ${response.status} (GET ${response.request.url})`;
        if (accepted) verdict.platform('platform.endpoint-scopes', response.status === 200, message);
        else if (resourceOf(scope) !== resourceOf(endpoint.acceptedScopes[0] ?? '')) verdict.refusal('scopes.limit-token', response);
      });
    }
});
