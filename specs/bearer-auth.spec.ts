/**
 * Document, Authentication 6: calls to resource endpoints carry `Authorization: Bearer <ACCESS_TOKEN>`.
 * Without a valid one the call must not succeed; the status is not shown: 401 per the reference
 * notes, 403 accepted (contracts/open-behaviours.ts).
 */
import { RESOURCE_ENDPOINTS } from '../contracts/endpoints.ts';
import { UNAUTHENTICATED_STATUSES } from '../contracts/open-behaviours.ts';
import type { ResourceEndpointId } from './fixtures/api.ts';
import { expect, test } from './fixtures/index.ts';
import type { Tokens } from './fixtures/tokens.ts';

interface BadAuthorization {
  readonly title: string;
  /** The Authorization header to send; null: none. */
  readonly header: (tokens: Tokens) => Promise<string | null>;
}

const BAD_AUTHORIZATIONS: readonly BadAuthorization[] = [
  { title: 'no Authorization header', header: async () => null },
  { title: 'a malformed header (Bearer without a token)', header: async () => 'Bearer' },
  { title: 'a malformed header (another scheme)', header: async (tokens) => `Basic ${Buffer.from(`${tokens.key().clientId}:x`).toString('base64')}` },
  { title: 'an unknown token', header: async () => `Bearer ${'unknown0'.repeat(5)}` },
  { title: 'a valid token with one character changed', header: async (tokens) => `Bearer ${changeOneCharacter((await tokens.issue()).accessToken)}` },
];

for (const endpoint of RESOURCE_ENDPOINTS) {
  test.describe(`${endpoint.method} ${endpoint.path} refuses (401 or 403, never 2xx)`, () => {
    for (const bad of BAD_AUTHORIZATIONS) {
      test(bad.title, async ({ api, tokens }) => {
        const response = await api.list(endpoint.id as ResourceEndpointId, { limit: 1 }, { authorization: await bad.header(tokens) });
        expect(response).toHaveStatus(UNAUTHENTICATED_STATUSES);
      });
    }
  });
}

/** The token with its middle character replaced by a different character of the same alphabet. */
function changeOneCharacter(token: string): string {
  const at = Math.floor(token.length / 2);
  const replacement = token[at] === 'A' ? 'B' : 'A';
  return `${token.slice(0, at)}${replacement}${token.slice(at + 1)}`;
}
