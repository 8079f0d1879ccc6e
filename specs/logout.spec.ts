/**
 * Document, Endpoints 2 "Log out", Authentication 9, and the state table (token valid → logout →
 * token expired: the access token, and the refresh token if provided, expire immediately). The
 * response is not shown: any 2xx is success. Refusals of a logged-out token: 401 or 403.
 */
import { RESOURCE_ENDPOINTS } from '../contracts/endpoints.ts';
import { UNAUTHENTICATED_STATUSES } from '../contracts/open-behaviours.ts';
import type { ResourceEndpointId } from './fixtures/api.ts';
import { expect, test } from './fixtures/index.ts';

const SUCCESS = [200, 201, 202, 204] as const;

test.describe('logout', () => {
  test('refuses the logged-out token at once on every resource endpoint', async ({ api, tokens }) => {
    const token = await tokens.issue();
    expect(await api.logout({ token: token.accessToken })).toHaveStatus(SUCCESS);
    for (const endpoint of RESOURCE_ENDPOINTS) {
      const response = await api.as(token.accessToken).list(endpoint.id as ResourceEndpointId, { limit: 1 });
      expect(response).toHaveStatus(UNAUTHENTICATED_STATUSES);
    }
  });

  test('leaves another token of the same client working', async ({ api, tokens }) => {
    const [leaving, staying] = await Promise.all([tokens.issue(), tokens.issue()]);
    expect(await api.logout({ token: leaving.accessToken })).toHaveStatus(SUCCESS);
    expect(await api.as(staying.accessToken).list('listContent', { limit: 1 })).toHaveStatus(200);
  });

  test('expires the refresh token given with it: it no longer refreshes', async ({ api, tokens, target }) => {
    test.skip(!target.capabilities.refreshGrant, 'The target does not offer grant_type=refresh_token (LP_REFRESH_GRANT=1 says it does).');
    const [leaving, witness] = await Promise.all([tokens.issue(), tokens.issue()]);
    // The witness shows the refresh grant works at all, so a refusal below is the logout's doing.
    expect(await tokens.refresh(witness.refreshToken), 'refreshing a token that was not logged out').toHaveStatus(200);
    expect(await api.logout({ token: leaving.accessToken }, leaving.refreshToken)).toHaveStatus(SUCCESS);
    const refreshed = await tokens.refresh(leaving.refreshToken);
    expect(refreshed).toHaveStatus('4xx');
    expect(
      (refreshed.body as { access_token?: unknown } | undefined)?.access_token,
      'access_token after refreshing a logged-out refresh token',
    ).toBeUndefined();
  });

  test('without a token is refused', async ({ api }) => {
    expect(await api.logout({ authorization: null })).toHaveStatus('4xx');
  });
});
