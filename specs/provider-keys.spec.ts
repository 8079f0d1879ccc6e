/**
 * Document, Authentication 3: a key associated with a provider reaches only data associated with
 * that provider. Needs a provider key (LP_PROVIDER_*; the embedded mock has one).
 */
import { checks, test } from './fixtures/index.ts';
import { largestPageLimit } from '../harness/walks/list-walk.ts';
import { walk } from '../harness/walks/pages.ts';

/** Pages after which the walk counts as endless: far above any test data set, even in default-sized pages. */
const MAX_PAGES = 500;

test.describe('a provider key', () => {
  test(
    'sees only content items whose provider is its own',
    checks(['provider.isolation'], { needs: ['provider'] }),
    async ({ api, tokens, target, verdict }) => {
      const provider = target.provider?.name;
      // Every scope the key holds (LP_PROVIDER_SCOPES): which of them lists content is not shown.
      const own = api.as(await tokens.forScopes(undefined, 'provider'));
      const limit = await largestPageLimit(own);
      const pages = await walk(own, api.url('listContent', limit === undefined ? {} : { limit }), { maxPages: MAX_PAGES });
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
