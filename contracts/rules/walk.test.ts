import { expect, test } from '@playwright/test';
import { createFaultyMock, type FaultName } from '../../mock/faults/index.ts';
import { type ProfileFile, resolveProfile } from '../../mock/profile.ts';
import { RULE_VALIDATORS } from '../../schemas/index.ts';
import { headerLookup } from '../rate-limit.ts';
import type { Exchange } from './exchange.ts';
import type { Finding } from './finding.ts';
import type { RuleId } from './index.ts';
import { judgeExchange } from './judge.ts';
import { PaginationWalk, WALK_RULE_IDS, type WalkOptions } from './walk.ts';

const FIRST = 'https://api.example.com/api/v2/content?limit=2';

function page(ids: string[], next?: string | null, type = 'content'): string {
  const links: Record<string, unknown> = { self: FIRST };
  if (next !== undefined) links.next = next;
  return JSON.stringify({ links, data: ids.map((id) => ({ type, id, attributes: {} })) });
}

function answer(url: string, status: number, text: string): Exchange {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { origin: 'api', list: 'content', request: { method: 'GET', url }, status, header: headerLookup({}), body, text };
}

/** Feeds canned pages, answering each request with the following page; the walk and the URLs requested. */
function walkOver(pages: Array<[number, string]>, options: Partial<WalkOptions> = {}): { walk: PaginationWalk; urls: string[] } {
  const walk = new PaginationWalk(FIRST, { limit: 2, ...options });
  const urls: string[] = [];
  for (const [status, text] of pages) {
    const url = walk.next;
    if (url === undefined) break;
    urls.push(url);
    walk.observe(answer(url, status, text));
  }
  walk.end();
  return { walk, urls };
}

const rulesOf = (findings: readonly Finding[]) => findings.map((f) => f.rule);

test.describe('a walk, fed by hand', () => {
  test('follows next as "the same request with next set", and ends on a page without next', () => {
    const { walk, urls } = walkOver([
      [200, page(['a', 'b'], 'https://elsewhere.example/api/v2/content?limit=2&next=c1')],
      [200, page(['c', 'd'], 'https://elsewhere.example/api/v2/content?limit=2&next=c2')],
      [200, page(['e'])],
    ]);
    expect(urls).toEqual([FIRST, `${FIRST}&next=c1`, `${FIRST}&next=c2`]);
    expect(walk).toMatchObject({ complete: true, pages: 3, findings: [], next: undefined });
    expect([...walk.items.keys()]).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  for (const finalNext of [null, '']) {
    test(`a final page with next ${JSON.stringify(finalNext)} ends the walk`, () => {
      expect(walkOver([[200, page(['a'], finalNext)]]).walk).toMatchObject({ findings: [], complete: true, pages: 1 });
    });
  }

  test('a trailing empty page ends the walk within the slack', () => {
    const { walk } = walkOver([
      [200, page(['a', 'b'], `${FIRST}&next=c1`)],
      [200, page([], `${FIRST}&next=c2`)],
    ]);
    expect(walk).toMatchObject({ findings: [], complete: true, pages: 2 });
  });

  for (const { name, pages, options, rule } of [
    {
      name: 'an item seen twice',
      pages: [
        [200, page(['a', 'b'], `${FIRST}&next=c1`)],
        [200, page(['b', 'c'])],
      ],
      rule: 'snapshot.traversal',
    },
    {
      name: 'a next value handed out twice',
      pages: [
        [200, page(['a', 'b'], `${FIRST}&next=c1`)],
        [200, page(['c', 'd'], `${FIRST}&next=c1`)],
      ],
      rule: 'snapshot.next',
    },
    { name: 'links.next without a next value', pages: [[200, page(['a', 'b'], 'https://api.example.com/api/v2/content?limit=2')]], rule: 'envelope.next-link' },
    {
      name: 'an obsolete snapshot mid-walk',
      pages: [
        [200, page(['a', 'b'], `${FIRST}&next=c1`)],
        [410, '{}'],
      ],
      rule: 'snapshot.next',
    },
    { name: 'a body that is not JSON', pages: [[200, '<html>']], rule: 'envelope.shape' },
    {
      name: 'a walk that does not end',
      pages: [
        [200, page(['a', 'b'], `${FIRST}&next=c1`)],
        [200, page(['c', 'd'], `${FIRST}&next=c2`)],
      ],
      options: { maxPages: 2 },
      rule: 'snapshot.traversal',
    },
    { name: 'fewer items than the data set holds', pages: [[200, page(['a', 'b'])]], options: { expectedCount: 3 }, rule: 'snapshot.traversal' },
  ] as Array<{ name: string; pages: Array<[number, string]>; options?: Partial<WalkOptions>; rule: RuleId }>) {
    test(`${name} breaks ${rule}`, () => {
      const { walk } = walkOver(pages, options);
      expect(walk.next).toBeUndefined();
      expect(rulesOf(walk.findings)).toContain(rule);
      for (const f of walk.findings) expect(f.request).toMatch(/GET https:|walk from GET https:/);
    });
  }

  test('a cursor leading back to the first page ends the walk on that page, not at maxPages', () => {
    const { walk } = walkOver([
      [200, page(['a', 'b'], `${FIRST}&next=c1`)],
      [200, page(['a', 'b'], `${FIRST}&next=c2`)],
    ]);
    expect(walk).toMatchObject({ complete: false, pages: 2 });
    expect(walk.findings).toEqual([
      {
        rule: 'snapshot.traversal',
        level: 'contract',
        expected: 'every item of the snapshot once',
        got: 'item a, b again on page 2, reached with next=c1',
        request: `GET ${FIRST}&next=c1`,
      },
    ]);
  });

  test('a next value handed out again after others is a loop', () => {
    const { walk } = walkOver([
      [200, page(['a', 'b'], `${FIRST}&next=c1`)],
      [200, page(['c', 'd'], `${FIRST}&next=c2`)],
      [200, page(['e', 'f'], `${FIRST}&next=c1`)],
    ]);
    expect(walk.findings.map((f) => [f.rule, f.got])).toEqual([['snapshot.traversal', 'next=c1, first handed out on page 1: the walk would loop']]);
  });

  test('a walk whose limit is open bounds its length by maxPages only, and takes a page of any size', () => {
    const open = { limit: undefined, maxPages: 3 };
    expect(
      walkOver(
        [
          [200, page(['a', 'b', 'c'], `${FIRST}&next=c1`)],
          [200, page(['d'])],
        ],
        open,
      ).walk,
    ).toMatchObject({ findings: [], complete: true });
    const ids = Array.from({ length: 1001 }, (_, i) => `i${i}`);
    expect(walkOver([[200, page(ids)]], { limit: undefined }).walk.items.size).toBe(1001);
  });

  test('stopAfter samples a large data set without a finding', () => {
    const pages: Array<[number, string]> = [
      [200, page(['a', 'b'], `${FIRST}&next=c1`)],
      [200, page(['c', 'd'], `${FIRST}&next=c2`)],
    ];
    expect(walkOver(pages, { stopAfter: 2, expectedCount: 9 }).walk).toMatchObject({ findings: [], complete: false, pages: 2 });
  });

  test('a walk says which rules it judged: only those a response was checked against', () => {
    expect([...walkOver([[401, '{}']]).walk.judged]).toEqual(['snapshot.next']);
    expect([...walkOver([[200, page(['a'])]]).walk.judged].sort()).toEqual(['envelope.shape', 'snapshot.next', 'snapshot.traversal']);
  });

  test('the rules with an observer of its steps are the four a walk judges', () => {
    expect(WALK_RULE_IDS).toEqual(['snapshot.next', 'snapshot.traversal', 'envelope.shape', 'envelope.next-link']);
  });

  test('the first request may not carry next', () => {
    expect(() => new PaginationWalk(`${FIRST}&next=x`, { limit: 2 })).toThrow(/carries no next/);
  });
});

// ---------------------------------------------------------------------------------------------
// Against the real mock (250 content items, 50 users; no rate limit: walks only), each page judged
// by the walk and by the per-response rules, as every driver does.

async function walkMock(options: { faults?: FaultName[]; profile?: ProfileFile; path?: string; limit?: number; expected?: number }) {
  const profile = resolveProfile(options.profile ?? {});
  if (!profile.ok) throw new Error(profile.error);
  const mock = createFaultyMock({ rate: null, profile: profile.value }, options.faults ?? []);
  await mock.listen();
  try {
    const tokenResponse = await fetch(`${mock.authUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials&client_id=mock-org-client&client_secret=mock-org-secret&scope=content:read,users:read',
    });
    const { access_token: token } = (await tokenResponse.json()) as { access_token: string };
    const path = options.path ?? '/api/v2/content';
    const limit = options.limit ?? 50;
    const walk = new PaginationWalk(`${mock.baseUrl}${path}?limit=${limit}`, {
      limit,
      maxPages: 100,
      ...(options.expected === undefined ? {} : { expectedCount: options.expected }),
    });
    const findings: Finding[] = [];
    for (let url = walk.next; url !== undefined; url = walk.next) {
      const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
      const text = await response.text();
      const list = path.endsWith('users') ? ('users' as const) : ('content' as const);
      const exchange = { ...answer(url, response.status, text), list, header: headerLookup(Object.fromEntries(response.headers)) };
      // This mock has no rate limit, so no rate headers: the rate rules stand aside.
      const judged = judgeExchange(exchange, { validators: RULE_VALIDATORS }).findings.filter((f) => f.level === 'contract' && !f.rule.startsWith('rate.'));
      findings.push(...judged, ...walk.observe(exchange));
    }
    findings.push(...walk.end());
    return { walk, findings };
  } finally {
    await mock.close();
  }
}

test.describe('walks over the mock', () => {
  for (const pagination of [
    {},
    { finalPage: 'null' },
    { finalPage: 'empty-string' },
    { finalPage: 'trailing-empty-page' },
    { cursor: 'letters', extraMembers: true },
    { nextLink: 'cursor-only', nextWithoutQuery: 'accept', olderCursors: 'valid-while-active', self: 'without-query' },
  ] as const) {
    const label = Object.entries(pagination)
      .map(([option, value]) => `${option} ${String(value)}`)
      .join(', ');
    test(`content in pages of 50${label ? ` (${label})` : ''}: every item once, schema-valid, ending where it should`, async () => {
      const { walk, findings } = await walkMock({ profile: { pagination }, expected: 250 });
      expect(findings).toEqual([]);
      expect(walk).toMatchObject({ complete: true, pages: 'finalPage' in pagination && pagination.finalPage === 'trailing-empty-page' ? 6 : 5 });
      expect(walk.items.size).toBe(250);
    });
  }

  test('users in pages of 7', async () => {
    const { walk, findings } = await walkMock({ path: '/api/v2/users', limit: 7, expected: 50 });
    expect(findings).toEqual([]);
    expect(walk).toMatchObject({ complete: true, pages: 8 });
  });

  for (const { fault, rule } of [
    { fault: 'item-repeated-across-pages', rule: 'snapshot.traversal' },
    { fault: 'item-dropped-across-pages', rule: 'snapshot.traversal' },
    { fault: 'limit-off-by-one', rule: 'content.limit' },
    { fault: 'next-unchanged', rule: 'snapshot.next' },
    { fault: 'attribute-wrong-type', rule: 'content.attributes' },
    { fault: 'content-negative-duration', rule: 'content.attributes' },
    { fault: 'content-negative-learning-minutes', rule: 'content.attributes' },
    { fault: 'publish-date-empty-string', rule: 'content.attributes' },
    { fault: 'item-id-empty', rule: 'envelope.shape' },
    { fault: 'type-wrong', rule: 'content.type' },
  ] as const) {
    test(`fault ${fault} breaks ${rule}`, async () => {
      expect(rulesOf((await walkMock({ faults: [fault], expected: 250 })).findings)).toContain(rule);
    });
  }
});
