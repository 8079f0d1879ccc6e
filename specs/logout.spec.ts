/**
 * Logout. These tests end tokens of their own and run alone (@serial): a service may hand the same live token to every
 * request for the same scopes, so a logout here could end a token other tests are using.
 */
import { RESOURCE_ENDPOINTS } from '../contracts/endpoints.ts';
import { probeQuery, type ResourceEndpointId } from '../harness/client/api.ts';
import { checks, test } from './fixtures/index.ts';
import { isRefusal } from '../contracts/rules/exchange.ts';

test.describe('logout', checks([], { serial: true }), () => {
  test(
    'refuses the logged-out token at once on every resource endpoint',
    checks('logout.expires-access', 'platform.logout-response'),
    async ({ api, tokens, verdict }) => {
      const token = await tokens.own();
      // With its refresh token, as a client ending its session sends it: a run leaves no token valid.
      const answer = await api.logout({ token: token.accessToken }, token.refreshToken);
      const served = answer.status >= 200 && answer.status <= 299;
      verdict.platform('platform.logout-response', served, `expected a 2xx, got ${answer.status} (POST ${answer.request.url})`);
      for (const endpoint of RESOURCE_ENDPOINTS) {
        const id = endpoint.id as ResourceEndpointId;
        verdict.refusal('logout.expires-access', await api.list(id, probeQuery(id), { token: token.accessToken }));
      }
    },
  );
  test('leaves another token of the same client working', checks('platform.logout-scoped'), async ({ api, tokens, target, verdict }) => {
    const scopes = target.client.scopes;
    // Tokens of different scope sets where the key holds two: a service that re-issues its live token for the same scopes still gives two.
    const [leaving, staying] = await Promise.all([tokens.own(scopes.slice(0, 1)), tokens.own(scopes.length > 1 ? scopes.slice(1) : scopes)]);
    const why = 'The service handed back the same token for both requests: there is no other token to keep working.';
    test.skip(leaving.accessToken === staying.accessToken, why);
    await api.logout({ token: leaving.accessToken }, leaving.refreshToken);
    const endpoint = staying.scopes.some((s) => s.startsWith('users:')) ? 'listUsers' : 'listContent';
    const response = await api.list(endpoint, probeQuery(endpoint), { token: staying.accessToken });
    const message = `expected the other token served after the logout, got ${response.status} (GET ${response.request.url})`;
    verdict.platform('platform.logout-scoped', response.status === 200, message);
  });
  test(
    'expires the refresh token given with it: it no longer refreshes',
    checks(['logout.expires-refresh'], { needs: ['refresh-grant'] }),
    async ({ api, tokens, target, verdict }) => {
      const scopes = target.client.scopes;
      // Tokens of different scope sets where the key holds two: a service that re-issues its live token for the same scopes still gives two.
      const [leaving, witness] = await Promise.all([tokens.own(scopes.slice(0, 1)), tokens.own(scopes.length > 1 ? scopes.slice(1) : scopes)]);
      // One token (and one refresh token) for both: refreshing the witness could end what the logout is to end, and prove nothing.
      const oneToken = 'The service handed back the same token for both requests: there is no second refresh token to show that the refresh grant works.';
      test.skip(leaving.refreshToken === witness.refreshToken, oneToken);
      // The witness shows the refresh grant works at all, so a refusal below is the logout's doing.
      const refreshedWitness = await tokens.refresh(witness.refreshToken);
      const noGrant = `Refreshing a token that was not logged out got ${refreshedWitness.status}: the refresh grant does not work here.`;
      test.skip(refreshedWitness.status !== 200, noGrant);
      await api.logout({ token: leaving.accessToken }, leaving.refreshToken);
      const refreshed = await tokens.refresh(leaving.refreshToken);
      verdict.contract(
        'logout.expires-refresh',
        isRefusal(refreshed) && (refreshed.body as { access_token?: unknown } | undefined)?.access_token === undefined,
        `expected refreshing a logged-out refresh token to get a 4xx without a token, got ${refreshed.status} (POST ${refreshed.request.url})`,
      );
    },
  );
  test('without a token is refused', checks('platform.logout-response'), async ({ api, verdict }) => {
    const response = await api.logout({ authorization: null });
    const refused = response.status >= 400 && response.status <= 499;
    verdict.platform('platform.logout-response', refused, `expected a 4xx for a logout without a token, got ${response.status}`);
  });
});
