/**
 * Document, Authentication 3: a key associated with a provider reaches only data associated with
 * that provider. Needs a provider key (LP_PROVIDER_*; the embedded mock has one).
 */
import { PAGE_LIMIT } from '../contracts/limits.ts';
import { expect, test } from './fixtures/index.ts';
import { walk } from './fixtures/pages.ts';

/** Pages of the largest size after which the walk counts as endless: far above any test data set. */
const MAX_PAGES = 50;

test.describe('a provider key', () => {
  test('sees only content items whose provider is its own', async ({ api, tokens, target }) => {
    const provider = target.provider;
    test.skip(!provider, 'No provider key is configured (LP_PROVIDER_CLIENT_ID, LP_PROVIDER_CLIENT_SECRET, LP_PROVIDER_NAME).');
    const token = await tokens.issue(['content:read'], 'provider');
    const pages = await walk(api.as(token.accessToken), api.url('listContent', { limit: PAGE_LIMIT.max }), { maxPages: MAX_PAGES });
    const others = pages
      .flatMap((page) => page.data as { id?: unknown; attributes?: { provider?: unknown } }[])
      .filter((item) => item.attributes?.provider !== provider?.name)
      .map((item) => `${String(item.id)} (provider ${JSON.stringify(item.attributes?.provider)})`);
    expect(others, `items of other providers seen by the key of "${provider?.name}"`).toEqual([]);
  });
});
