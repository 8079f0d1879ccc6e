import { expect, test } from '@playwright/test';
import { PaginationWalk, type WalkOptions, type WalkRule, type WalkStep } from '../../contracts/pagination.ts';
import { createFaultyMock, type FaultName } from '../../mock/faults/index.ts';
import { type ProfileFile, resolveProfile } from '../../mock/profile.ts';
import { check, validateContentList, validateUsersList } from '../../schemas/index.ts';

const FIRST = 'https://api.example.com/api/v2/content?limit=2';

function page(ids: string[], next?: string | null, type = 'content'): string {
  const links: Record<string, unknown> = { self: FIRST };
  if (next !== undefined) links.next = next;
  return JSON.stringify({ links, data: ids.map((id) => ({ type, id, attributes: {} })) });
}

/** Feeds canned pages, answering each `next` with the following page; returns the final step and the URLs requested. */
function walkOver(pages: Array<[number, string]>, options: Partial<WalkOptions> = {}): { step: WalkStep; urls: string[] } {
  const walk = new PaginationWalk(FIRST, { limit: 2, resourceType: 'content', ...options });
  const urls: string[] = [];
  let step: WalkStep = { kind: 'next', url: walk.url };
  for (const [status, body] of pages) {
    if (step.kind === 'done') break;
    urls.push(walk.url);
    step = walk.page(status, body);
  }
  return { step, urls };
}

function rulesOf(step: WalkStep): WalkRule[] {
  return step.kind === 'done' ? step.findings.map((f) => f.rule) : [];
}

test.describe('a walk, fed by hand', () => {
  test('follows next as "the same request with next set", and ends on a page without next', () => {
    const { step, urls } = walkOver([
      [200, page(['a', 'b'], 'https://elsewhere.example/api/v2/content?limit=2&next=c1')],
      [200, page(['c', 'd'], 'https://elsewhere.example/api/v2/content?limit=2&next=c2')],
      [200, page(['e'])],
    ]);
    expect(urls).toEqual([FIRST, `${FIRST}&next=c1`, `${FIRST}&next=c2`]);
    expect(step).toEqual({ kind: 'done', ok: true, complete: true, pages: 3, items: 5, findings: [] });
  });

  for (const finalNext of [null, '']) {
    test(`a final page with next ${JSON.stringify(finalNext)} ends the walk`, () => {
      expect(walkOver([[200, page(['a'], finalNext)]]).step).toMatchObject({ ok: true, complete: true, pages: 1 });
    });
  }

  test('a trailing empty page ends the walk within the slack', () => {
    const { step } = walkOver([
      [200, page(['a', 'b'], `${FIRST}&next=c1`)],
      [200, page([], `${FIRST}&next=c2`)],
    ]);
    expect(step).toMatchObject({ ok: true, complete: true, pages: 2, items: 2 });
  });

  for (const { name, pages, options, rule } of [
    {
      name: 'an item seen twice',
      pages: [
        [200, page(['a', 'b'], `${FIRST}&next=c1`)],
        [200, page(['b', 'c'])],
      ],
      rule: 'duplicate-id',
    },
    { name: 'a page over the limit', pages: [[200, page(['a', 'b', 'c'])]], rule: 'page-size' },
    {
      name: 'a next value handed out twice',
      pages: [
        [200, page(['a', 'b'], `${FIRST}&next=c1`)],
        [200, page(['c', 'd'], `${FIRST}&next=c1`)],
      ],
      rule: 'next-renewed',
    },
    { name: 'links.next without a next value', pages: [[200, page(['a', 'b'], 'https://api.example.com/api/v2/content?limit=2')]], rule: 'next-cursor' },
    {
      name: 'an obsolete snapshot mid-walk',
      pages: [
        [200, page(['a', 'b'], `${FIRST}&next=c1`)],
        [410, '{}'],
      ],
      rule: 'status',
    },
    { name: 'a body that is not JSON', pages: [[200, '<html>']], rule: 'json-body' },
    { name: 'an item of another type', pages: [[200, page(['a'], undefined, 'users')]], rule: 'resource-type' },
    {
      name: 'a walk that does not end',
      pages: [
        [200, page(['a', 'b'], `${FIRST}&next=c1`)],
        [200, page(['c', 'd'], `${FIRST}&next=c2`)],
      ],
      options: { maxPages: 2 },
      rule: 'walk-ends',
    },
    { name: 'fewer items than the data set holds', pages: [[200, page(['a', 'b'])]], options: { expectedCount: 3 }, rule: 'item-count' },
    { name: 'a page failing its schema', pages: [[200, page(['a'])]], options: { validate: () => 'does not match' }, rule: 'schema' },
  ] as Array<{ name: string; pages: Array<[number, string]>; options?: Partial<WalkOptions>; rule: WalkRule }>) {
    test(`${name} breaks ${rule}`, () => {
      const { step } = walkOver(pages, options);
      expect(step.kind).toBe('done');
      expect(rulesOf(step)).toContain(rule);
      if (step.kind === 'done') for (const finding of step.findings) expect(finding.reason).toMatch(/GET https:|walk from https:/);
    });
  }

  test('stopAfter samples a large data set without a finding', () => {
    const { step } = walkOver(
      [
        [200, page(['a', 'b'], `${FIRST}&next=c1`)],
        [200, page(['c', 'd'], `${FIRST}&next=c2`)],
      ],
      { stopAfter: 2 },
    );
    expect(step).toMatchObject({ kind: 'done', ok: true, complete: false, pages: 2 });
  });

  test('a walk says which rules it judged: only those a response was checked against', () => {
    const judgedOver = (pages: Array<[number, string]>, options: Partial<WalkOptions> = {}) => {
      const walk = new PaginationWalk(FIRST, { limit: 2, resourceType: 'content', ...options });
      for (const [status, body] of pages) if (walk.page(status, body).kind === 'done') break;
      return [...walk.judged].sort();
    };
    // A refused first page: only its status was checked.
    expect(judgedOver([[401, '{}']])).toEqual(['status']);
    // One whole page, no next, no schema, no expected count: neither the cursor rules nor the count.
    expect(judgedOver([[200, page(['a'])]])).toEqual(['duplicate-id', 'json-body', 'page-size', 'resource-type', 'status', 'walk-ends']);
    const whole = judgedOver(
      [
        [200, page(['a', 'b'], `${FIRST}&next=c1`)],
        [200, page(['c'])],
      ],
      { expectedCount: 3, validate: () => undefined },
    );
    expect(whole).toEqual([
      'cursor-loop',
      'duplicate-id',
      'item-count',
      'json-body',
      'next-cursor',
      'next-renewed',
      'page-size',
      'resource-type',
      'schema',
      'status',
      'walk-ends',
    ]);
    // A sample stopped by stopAfter never reaches the end: its length and count are not judged.
    expect(judgedOver([[200, page(['a', 'b'], `${FIRST}&next=c1`)]], { stopAfter: 1, expectedCount: 9 })).not.toContain('item-count');
  });

  test('the first request may not carry next', () => {
    expect(() => new PaginationWalk(`${FIRST}&next=x`, { limit: 2 })).toThrow(/carries no next/);
  });
});

// ---------------------------------------------------------------------------------------------
// Against the real mock (250 content items, 50 users; no rate limit: walks only).

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
    const validate = (body: unknown) => {
      const checked = path.endsWith('users') ? check(validateUsersList, body) : check(validateContentList, body);
      return checked.ok ? undefined : checked.error;
    };
    const walk = new PaginationWalk(`${mock.baseUrl}${path}?limit=${limit}`, {
      limit,
      maxPages: 100,
      resourceType: path.endsWith('users') ? 'users' : 'content',
      ...(options.expected === undefined ? {} : { expectedCount: options.expected }),
      validate,
    });
    for (let i = 0; i < 100; i++) {
      const response = await fetch(walk.url, { headers: { authorization: `Bearer ${token}` } });
      const step = walk.page(response.status, await response.text());
      if (step.kind === 'done') return step;
    }
    throw new Error('the walk did not end within 100 pages');
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
      const step = await walkMock({ profile: { pagination }, expected: 250 });
      expect(step).toMatchObject({ ok: true, complete: true, items: 250 });
      expect(step.pages).toBe('finalPage' in pagination && pagination.finalPage === 'trailing-empty-page' ? 6 : 5);
    });
  }

  test('users in pages of 7', async () => {
    expect(await walkMock({ path: '/api/v2/users', limit: 7, expected: 50 })).toMatchObject({ ok: true, complete: true, items: 50, pages: 8 });
  });

  for (const { fault, rule } of [
    { fault: 'item-repeated-across-pages', rule: 'duplicate-id' },
    { fault: 'item-dropped-across-pages', rule: 'item-count' },
    { fault: 'limit-off-by-one', rule: 'page-size' },
    { fault: 'next-unchanged', rule: 'next-renewed' },
    { fault: 'attribute-wrong-type', rule: 'schema' },
    { fault: 'type-wrong', rule: 'resource-type' },
  ] as const) {
    test(`fault ${fault} breaks ${rule}`, async () => {
      const step = await walkMock({ faults: [fault], expected: 250 });
      expect(step.findings.map((f) => f.rule)).toContain(rule);
    });
  }
});
