/** Faults of the rate limit, over HTTP with a budget of 3 per 10 s. */
import type { MockServer } from '../../app.ts';
import { api, expect, getToken, PROVIDER, test } from './fixtures.ts';

const RATE = { requests: 3, periodSeconds: 10, period: '10s' };

async function spend(mock: MockServer, count: number, path = '/api/v2/content?limit=1', fresh = false): Promise<Response[]> {
  const shared = (await getToken(mock)).access_token;
  const out: Response[] = [];
  for (let i = 0; i < count; i++) out.push(await api(mock, path, fresh ? (await getToken(mock)).access_token : shared));
  return out;
}

const header = (res: Response | undefined, name: string) => res?.headers.get(name) ?? null;

for (const { fault, check } of [
  { fault: 'rate-header-limit-missing', check: (r: Response[]) => expect(header(r[0], 'x-rate-limit-limit')).toBeNull() },
  { fault: 'rate-header-remaining-missing', check: (r: Response[]) => expect(header(r[0], 'x-rate-limit-remaining')).toBeNull() },
  { fault: 'rate-header-reset-missing', check: (r: Response[]) => expect(header(r[0], 'x-rate-limit-reset')).toBeNull() },
  { fault: 'rate-header-reset-malformed', check: (r: Response[]) => expect(header(r[0], 'x-rate-limit-reset')).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/) },
  {
    fault: 'rate-remaining-constant',
    check: (r: Response[]) => expect(r.slice(0, 3).map((x) => header(x, 'x-rate-limit-remaining'))).toEqual(['3', '3', '3']),
  },
  { fault: 'rate-no-429', check: (r: Response[]) => expect(r.map((x) => x.status)).toEqual([200, 200, 200, 200]) },
  { fault: 'rate-429-early', check: (r: Response[]) => expect(r.map((x) => x.status)).toEqual([200, 200, 429, 429]) },
  { fault: 'retry-after-missing', check: (r: Response[]) => expect([r[3]?.status, header(r[3], 'retry-after')]).toEqual([429, null]) },
  { fault: 'retry-after-short', check: (r: Response[]) => expect(header(r[3], 'retry-after')).toBe('5') },
  { fault: 'rate-budget-wrong', check: (r: Response[]) => expect([header(r[0], 'x-rate-limit-remaining'), r[1]?.status]).toEqual(['0', 429]) },
  {
    fault: 'rate-reset-header-early',
    check: (r: Response[]) => expect(Date.parse(header(r[0], 'x-rate-limit-reset') ?? '')).toBe(Date.UTC(2026, 0, 1) + 5_000),
  },
  {
    fault: 'rate-reset-hours-late',
    check: (r: Response[]) => expect(Date.parse(header(r[0], 'x-rate-limit-reset') ?? '')).toBe(Date.UTC(2026, 0, 1) + 10_000 + 2 * 3600_000),
  },
  {
    fault: 'retry-after-hours',
    check: (r: Response[]) => expect([r[2]?.status, header(r[2], 'retry-after'), header(r[3], 'retry-after')]).toEqual([200, null, '30000']),
  },
] as const) {
  test.describe(fault, () => {
    test.use({ faults: [fault], mockOptions: { rate: RATE } });
    test('four requests break its rule', async ({ mock }) => check(await spend(mock, 4)));
  });
}

test.describe('rate-budget-per-token', () => {
  test.use({ faults: ['rate-budget-per-token'], mockOptions: { rate: RATE } });
  test('a new token for each request is never limited', async ({ mock }) => {
    expect((await spend(mock, 5, '/api/v2/content?limit=1', true)).map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
  });
});

test.describe('rate-headers-missing-users', () => {
  test.use({ faults: ['rate-headers-missing-users'], mockOptions: { rate: RATE } });
  test('users answers lack the headers; content answers keep them', async ({ mock }) => {
    const [users] = await spend(mock, 1, '/api/v2/users?limit=1');
    expect(header(users, 'x-rate-limit-limit')).toBeNull();
    const [content] = await spend(mock, 1);
    expect(header(content, 'x-rate-limit-limit')).toBe('10s');
  });
});

test.describe('rate-budget-wrong with a key of its own rate', () => {
  test.use({
    faults: ['rate-budget-wrong'],
    mockOptions: { clients: [{ id: 'mock-org-client', secret: 'mock-org-secret', scopes: ['content:read', 'users:read'], rate: '10/1m' }] },
  });
  test('the key’s rate is halved too', async ({ mock }) => expect(header((await spend(mock, 1))[0], 'x-rate-limit-remaining')).toBe('4'));
});

test.describe('rate-remaining-negative', () => {
  test.use({ faults: ['rate-remaining-negative'], mockOptions: { rate: RATE } });
  test('the 429 says -1 remain; served answers are unchanged', async ({ mock }) => {
    const r = await spend(mock, 4);
    expect(r.map((x) => [x.status, header(x, 'x-rate-limit-remaining')])).toEqual([
      [200, '2'],
      [200, '1'],
      [200, '0'],
      [429, '-1'],
    ]);
  });
});

for (const [fault, period] of [
  ['rate-period-longer', '10m'],
  ['rate-period-hour', '1h'],
] as const) {
  test.describe(fault, () => {
    test.use({ faults: [fault], mockOptions: { rate: RATE } });
    test(`X-Rate-Limit-Limit names ${period}; the window still resets after its period`, async ({ mock }) => {
      const [first] = await spend(mock, 1);
      expect(header(first, 'x-rate-limit-limit')).toBe(period);
      expect(Date.parse(header(first, 'x-rate-limit-reset') ?? '')).toBe(Date.UTC(2026, 0, 1) + 10_000);
    });
  });
}

test.describe('rate-users-never-429', () => {
  test.use({ faults: ['rate-users-never-429'], mockOptions: { rate: RATE } });
  test('users is served past the budget; content is refused', async ({ mock }) => {
    expect((await spend(mock, 4, '/api/v2/users?limit=1')).map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect((await spend(mock, 1))[0]?.status).toBe(429);
  });
});

test.describe('rate-budget-shared-across-clients', () => {
  test.use({ faults: ['rate-budget-shared-across-clients'], mockOptions: { rate: RATE } });
  test('the provider key is refused once the organization spent the budget', async ({ mock }) => {
    await spend(mock, 3);
    const provider = (await getToken(mock, 'content:read', PROVIDER)).access_token;
    expect((await api(mock, '/api/v2/content?limit=1', provider)).status).toBe(429);
  });
});

test.describe('rate-provider-spends-organization', () => {
  test.use({ faults: ['rate-provider-spends-organization'], mockOptions: { rate: RATE } });
  test("the provider key's requests spend the organization's budget, not the other way round", async ({ mock }) => {
    const provider = (await getToken(mock, 'content:read', PROVIDER)).access_token;
    for (let i = 0; i < 3; i++) expect((await api(mock, '/api/v2/content?limit=1', provider)).status).toBe(200);
    expect((await spend(mock, 1))[0]?.status).toBe(429);
  });
});
