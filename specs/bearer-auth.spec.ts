/**
 * Document, Authentication 6: calls to resource endpoints carry `Authorization: Bearer <ACCESS_TOKEN>`. Without a valid one the call must not succeed: a 4xx
 * and no data (contract). The status is not shown: the platform's 401 is a platform rule. A refresh token is "not useful for API access" (Resources, Access
 * token response): as a bearer token it is refused alike.
 */
import { RESOURCE_ENDPOINTS } from '../contracts/endpoints.ts';
import { probeQuery, type ResourceEndpointId } from '../harness/client/api.ts';
import { checks, test } from './fixtures/index.ts';
import type { Tokens } from '../harness/client/tokens.ts';

/** Each with the Authorization header it sends (null: none). */
const BAD_AUTHORIZATIONS: readonly { title: string; header: (tokens: Tokens) => Promise<string | null> }[] = [
  { title: 'no Authorization header', header: async () => null },
  { title: 'a malformed header (Bearer without a token)', header: async () => 'Bearer' },
  { title: 'a malformed header (another scheme)', header: async (tokens) => `Basic ${Buffer.from(`${tokens.key().clientId}:x`).toString('base64')}` },
  { title: 'an unknown token', header: async () => `Bearer ${'unknown0'.repeat(5)}` },
  { title: 'a valid token with one character changed', header: async (tokens) => `Bearer ${changeOneCharacter((await tokens.forScopes()).accessToken)}` },
];

for (const endpoint of RESOURCE_ENDPOINTS) {
  test.describe(`${endpoint.method} ${endpoint.path} refuses (a 4xx, never data)`, checks('bearer.required', 'platform.unauthenticated-status'), () => {
    for (const bad of BAD_AUTHORIZATIONS)
      test(bad.title, async ({ api, tokens, verdict }) => {
        const id = endpoint.id as ResourceEndpointId;
        verdict.refusal('bearer.required', await api.list(id, probeQuery(id), { authorization: await bad.header(tokens) }));
      });
  });
  test(
    `${endpoint.method} ${endpoint.path} refuses a refresh token as the bearer token`,
    checks('bearer.refresh-token', 'platform.unauthenticated-status'),
    async ({ api, tokens, verdict }) => {
      const { accessToken, refreshToken } = await tokens.forScopes();
      test.skip(refreshToken === '' || refreshToken === accessToken, 'Not checked: the target issued no refresh token apart from the access token.');
      const id = endpoint.id as ResourceEndpointId;
      verdict.refusal('bearer.refresh-token', await api.list(id, probeQuery(id), { authorization: `Bearer ${refreshToken}` }));
    },
  );
}

/** The token with its middle character replaced by a different character of the same alphabet. */
function changeOneCharacter(token: string): string {
  const at = Math.floor(token.length / 2);
  return `${token.slice(0, at)}${token[at] === 'A' ? 'B' : 'A'}${token.slice(at + 1)}`;
}
