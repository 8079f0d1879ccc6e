/**
 * Document, Authentication 3: a key associated with a provider reaches only data associated with
 * that provider. Needs a provider key (LP_PROVIDER_*; the embedded mock has one).
 */
import { PAGE_LIMIT } from '../contracts/limits.ts';
import { checks, test } from './fixtures/index.ts';
import { walk } from './fixtures/pages.ts';

/** Pages of the largest size after which the walk counts as endless: far above any test data set. */
const MAX_PAGES = 50;

test.describe('a provider key', () => {
  test(
    'sees only content items whose provider is its own',
    checks(['provider.isolation'], { needs: ['provider'] }),
    async ({ api, tokens, target, verdict }) => {
      const provider = target.provider?.name;
      const own = api.as(await tokens.forScopes(['content:read'], 'provider'));
      const pages = await walk(own, api.url('listContent', { limit: PAGE_LIMIT.max }), { maxPages: MAX_PAGES });
      const others = pages
        .flatMap((page) => page.data as { id?: unknown; attributes?: { provider?: unknown } }[])
        .filter((item) => item.attributes?.provider !== provider)
        .map((item) => `${String(item.id)} (provider ${JSON.stringify(item.attributes?.provider)})`);
      verdict.contract(
        'provider.isolation',
        others.length === 0,
        () => `items of other providers seen by the key of "${provider}": ${others.slice(0, 5).join(', ')}`,
      );
    },
  );
});
