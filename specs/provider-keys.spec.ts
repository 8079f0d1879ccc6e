/**
 * Document, Authentication 3: a key associated with a provider reaches only data associated with that provider, whatever it sends: its own walk, and a next
 * value handed out to another key (what such a value yields is not shown: a refusal, or the provider's own data, is legal; another provider's items are not).
 * Needs a provider key (LP_PROVIDER_*; the embedded mock has one).
 */
import { PAGE_LIMIT } from '../contracts/limits.ts';
import { nextValue, withNext } from '../contracts/pagination.ts';
import { checks, test } from './fixtures/index.ts';
import { expectTraversal, pageOf, servedLimit, walkList } from '../harness/walks/list-walk.ts';

/** Pages after which the walk counts as endless: far above any test data set, even in default-sized pages. */
const MAX_PAGES = 500;

/** Items of the organization's first page: small, so that its walk has pages after it. */
const FIRST_PAGE_ITEMS = 5;

/** Pages of the organization's walk the provider key follows on from its next value: enough to show where it leads. */
const FOREIGN_PAGES = 5;

type Item = { id?: unknown; attributes?: { provider?: unknown } };

/** Items of `items` whose provider is not `provider`, named for a failure. */
function othersOf(items: readonly Item[], provider: string | undefined): string[] {
  return items
    .filter((item) => item.attributes?.provider !== provider)
    .map((item) => `${String(item.id)} (provider ${JSON.stringify(item.attributes?.provider)})`);
}

test.describe('a provider key', () => {
  test(
    'sees only content items whose provider is its own',
    checks(['provider.isolation'], { needs: ['provider'] }),
    async ({ api, tokens, target, verdict }) => {
      const provider = target.provider?.name;
      // Every scope the key holds (LP_PROVIDER_SCOPES): which of them lists content is not shown.
      const own = api.as(await tokens.forScopes(undefined, 'provider'));
      const limit = await servedLimit(own, PAGE_LIMIT.max);
      const walked = await walkList(own, api.url('listContent', { limit }), { limit, maxPages: MAX_PAGES });
      expectTraversal(walked);
      const others = othersOf([...walked.items.values()] as Item[], provider);
      const isolated = others.length === 0;
      verdict.contract('provider.isolation', isolated, () => `items of other providers seen by the key of "${provider}": ${others.slice(0, 5).join(', ')}`);
    },
  );
  test(
    'sent a next value issued to the organization key, reaches no other provider’s items on that page or any it leads to',
    checks(['provider.isolation'], { needs: ['provider'] }),
    async ({ api, tokens, target, verdict }) => {
      const provider = target.provider?.name;
      const own = api.as(await tokens.forScopes(undefined, 'provider'));
      // The organization key's walk, with the shared token: its first page and the next value it hands out.
      const firstUrl = api.url('listContent', { limit: await servedLimit(api, FIRST_PAGE_ITEMS) });
      const first = pageOf(await api.get(firstUrl));
      let cursor = first.next === undefined ? undefined : nextValue(first.next);
      test.skip(cursor === undefined, `The organization's first page (GET ${firstUrl}) has no next page: no next value to hand to the provider key.`);
      // The provider key sends it as rule 2 says (the first request with next), and follows on while it is served.
      const seen: Item[] = [];
      const asked: string[] = [];
      for (let page = 0; cursor !== undefined && page < FOREIGN_PAGES; page++) {
        const url = withNext(firstUrl, cursor);
        const response = await own.get(url);
        asked.push(`GET ${url} → ${response.status}`);
        // A refusal of another key's next value is legal (its form is not shown): nothing reached.
        if (response.status !== 200) break;
        const served = pageOf(response);
        seen.push(...(served.data as Item[]));
        cursor = served.next === undefined ? undefined : nextValue(served.next);
      }
      const others = othersOf(seen, provider);
      verdict.contract(
        'provider.isolation',
        others.length === 0,
        () =>
          `expected the key of "${provider}" to reach no item of another provider with the organization key's next value, got ${others.slice(0, 5).join(', ')} (${asked.join('; ')})`,
      );
    },
  );
});
