/**
 * Document, Errors: the error body is not shown there; the reference notes give the real service's
 * shape (`{"errors":[{"status", "title"|"detail", …}]}`, schemas/error-body.schema.json). Every 4xx
 * of a resource endpoint that has a body must have that shape; a 4xx without a body is allowed,
 * and a request the target chooses to answer with 200 has nothing to check.
 */
import { validateErrorBody } from '../schemas/index.ts';
import type { ApiClient } from './fixtures/api.ts';
import { type ApiResponse, expect, test } from './fixtures/index.ts';
import type { Tokens } from './fixtures/tokens.ts';

interface ErrorCase {
  readonly title: string;
  /** A scope the key must hold for the case to be built. */
  readonly needs?: string;
  readonly request: (f: { api: ApiClient; tokens: Tokens }) => Promise<ApiResponse>;
}

const CASES: readonly ErrorCase[] = [
  { title: 'no bearer token', request: ({ api }) => api.list('listContent', { limit: 1 }, { authorization: null }) },
  { title: 'an unknown bearer token', request: ({ api }) => api.list('listUsers', { limit: 1 }, { authorization: `Bearer ${'unknown1'.repeat(5)}` }) },
  {
    title: 'a token without the scope of the endpoint',
    needs: 'content:read',
    request: async ({ api, tokens }) => api.as((await tokens.issue(['content:read'])).accessToken).list('listUsers', { limit: 1 }),
  },
  { title: 'limit=abc', request: ({ api }) => api.list('listContent', { limit: 'abc' }) },
  { title: 'an unknown filter', request: ({ api }) => api.list('listContent', { 'filter[no_such_filter]': '2024-01-01' }) },
  { title: 'a next value that no response gave', request: ({ api }) => api.list('listContent', { next: 'no-such-cursor' }) },
];

test.describe('an error body of a resource endpoint has the documented shape, for', () => {
  for (const errorCase of CASES) {
    test(errorCase.title, async ({ api, tokens, target }) => {
      const needs = errorCase.needs;
      test.skip(needs !== undefined && !target.client.scopes.includes(needs), `The key does not hold ${needs} (LP_SCOPES).`);
      const response = await errorCase.request({ api, tokens });
      test.skip(response.status < 400 || response.status >= 500, `The target answered ${response.status}: no 4xx body to check.`);
      test.skip(response.text.trim() === '', `The target answered ${response.status} without a body, which the document allows.`);
      expect(response.body).toMatchSchema(validateErrorBody, { request: response.request });
    });
  }
});
