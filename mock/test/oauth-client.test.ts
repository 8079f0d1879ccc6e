/**
 * Acceptance: a standard OAuth 2.0 client library (oauth4webapi) gets a token from the mock with the
 * client-credentials grant, by both client authentication methods, and the token lists content.
 */
import * as oauth from 'oauth4webapi';
import { api, expect, json, ORG, test } from './http-fixtures.ts';

const client: oauth.Client = { client_id: ORG.id };

function authorizationServer(authUrl: string): oauth.AuthorizationServer {
  // No discovery document: the mock has none, so the metadata is given as the document's endpoint.
  return { issuer: authUrl, token_endpoint: `${authUrl}/oauth/token` };
}

// The mock is plain http on 127.0.0.1; the library refuses that unless told it is intended.
const options = { [oauth.allowInsecureRequests]: true };

for (const { name, auth } of [
  { name: 'client_secret_post', auth: oauth.ClientSecretPost(ORG.secret) },
  { name: 'client_secret_basic', auth: oauth.ClientSecretBasic(ORG.secret) },
]) {
  test(`oauth4webapi client-credentials grant (${name}) gets a bearer token that lists content`, async ({ mock }) => {
    const as = authorizationServer(mock.authUrl);
    const response = await oauth.clientCredentialsGrantRequest(as, client, auth, { scope: 'content:read' }, options);
    const token = await oauth.processClientCredentialsResponse(as, client, response);
    expect(token.token_type).toBe('bearer');
    expect(token.expires_in).toBe(60 * 86_400);
    const res = await api(mock, '/api/v2/content?limit=3', token.access_token);
    expect(res.status).toBe(200);
    expect((await json(res)).data).toHaveLength(3);
  });
}

test('oauth4webapi sees a refusal as an OAuth error, not a token', async ({ mock }) => {
  const as = authorizationServer(mock.authUrl);
  const response = await oauth.clientCredentialsGrantRequest(as, client, oauth.ClientSecretPost('wrong'), { scope: 'content:read' }, options);
  const refused = oauth.processClientCredentialsResponse(as, client, response);
  await expect(refused).rejects.toMatchObject({ error: 'invalid_client', status: 403 });
});

test('oauth4webapi refresh-token grant works with the mock’s refresh token', async ({ mock }) => {
  const as = authorizationServer(mock.authUrl);
  const auth = oauth.ClientSecretPost(ORG.secret);
  const first = await oauth.processClientCredentialsResponse(
    as,
    client,
    await oauth.clientCredentialsGrantRequest(as, client, auth, { scope: 'users:read' }, options),
  );
  const refreshed = await oauth.processRefreshTokenResponse(
    as,
    client,
    await oauth.refreshTokenGrantRequest(as, client, auth, first.refresh_token as string, options),
  );
  expect((await api(mock, '/api/v2/users?limit=1', refreshed.access_token)).status).toBe(200);
});
