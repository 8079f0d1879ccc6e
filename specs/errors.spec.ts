/**
 * Document, Errors: the error body is not shown. The platform docs give the real platform's shape (`{"errors":[{"status", "title"|"detail", …}]}`): a platform
 * rule, judged on every 4xx of the api origin wherever it comes (harness/verdict/response-rules.ts). These requests provoke one refusal of each kind the
 * document names; a body of another shape (RFC 6750, HTML, none) is a platform deviation.
 */
import { type ApiClient, probeQuery } from '../harness/client/api.ts';
import { type ApiResponse, checks, test } from './fixtures/index.ts';
import type { Need } from '../harness/verdict/needs.ts';
import type { Target } from '../harness/run/target.ts';
import type { Tokens } from '../harness/client/tokens.ts';

const CASES: readonly { title: string; needs?: readonly Need[]; request: (f: { api: ApiClient; tokens: Tokens; target: Target }) => Promise<ApiResponse> }[] = [
  { title: 'no bearer token', request: ({ api }) => api.list('listContent', { limit: 1 }, { authorization: null }) },
  {
    title: 'an unknown bearer token',
    request: ({ api }) => api.list('listUsers', probeQuery('listUsers'), { authorization: `Bearer ${'unknown1'.repeat(5)}` }),
  },
  {
    title: 'a token without the scope of the endpoint',
    needs: ['content-scope'],
    // The key's content scopes, whichever it holds: their token names no users. Awaited: a returned promise loses the test's line (harness/verdict/step.ts).
    request: async ({ api, tokens, target }) =>
      await api.as(await tokens.forScopes(target.client.scopes.filter((scope) => scope.startsWith('content:')))).list('listUsers', probeQuery('listUsers')),
  },
  { title: 'limit=abc', request: ({ api }) => api.list('listContent', { limit: 'abc' }) },
  { title: 'an unknown filter', request: ({ api }) => api.list('listContent', { 'filter[no_such_filter]': '2024-01-01' }) },
  { title: 'a next value that no response gave', request: ({ api }) => api.list('listContent', { next: 'no-such-cursor' }) },
];

test.describe('an error body of a resource endpoint has the platform’s shape, for', () => {
  for (const errorCase of CASES)
    test(errorCase.title, checks(['platform.error-body'], { needs: errorCase.needs ?? [] }), async ({ api, tokens, target }) => {
      const response = await errorCase.request({ api, tokens, target });
      test.skip(response.status < 400 || response.status >= 500, `The target answered ${response.status}: no 4xx body to check.`);
    });
});
