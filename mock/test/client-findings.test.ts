/** Client findings: the mock judging its callers by what the API document asks of a client. */
import { CLIENT_RULE_IDS, CLIENT_RULES, ClientConduct, type ClientRuleId, MAX_TRACKED } from '../../contracts/rules/client.ts';
import type { MockServer } from '../app.ts';
import { ClientFindings, type FindingsReport } from '../client-findings.ts';
import { VirtualClock } from '../clock.ts';
import type { Exchange } from '../routes.ts';
import { api, control, expect, getToken, json, ORG, postToken, START_MS, test, type TokenResponse } from './http-fixtures.ts';

const SMALL = { requests: 3, periodSeconds: 10, period: '10s' } as const;

async function findings(mock: MockServer): Promise<FindingsReport> {
  const res = await fetch(`${mock.baseUrl}/_mock/findings`);
  expect(res.status).toBe(200);
  return (await res.json()) as FindingsReport;
}

const rulesOf = (report: FindingsReport) => report.findings.map((f) => f.rule);

/** The `next` value of a list response's links.next. */
async function nextOf(res: Response): Promise<string> {
  expect(res.status).toBe(200);
  const body = await json(res);
  const next = new URL(body.links.next as string).searchParams.get('next');
  if (next === null) throw new Error('links.next carries no next value');
  return next;
}

function logout(mock: MockServer, token: string): Promise<Response> {
  return api(mock, '/oauth/token', token, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
}

test.describe('a careful client', () => {
  test.use({ mockOptions: { rate: SMALL } });

  test('newest next, Retry-After honoured, logout, token reuse and a form body: no findings', async ({ mock }) => {
    const a = await getToken(mock, 'content:read');
    const first = await nextOf(await api(mock, '/api/v2/content?limit=2', a.access_token));
    const second = await nextOf(await api(mock, `/api/v2/content?limit=2&next=${first}`, a.access_token));
    // Another process of the same client spends the rest of the window: the 429 is news to this one.
    const b = await getToken(mock, 'content:read');
    expect((await api(mock, '/api/v2/content?limit=5', b.access_token)).headers.get('x-rate-limit-remaining')).toBe('0');
    const refused = await api(mock, `/api/v2/content?limit=2&next=${second}`, a.access_token);
    expect(refused.status).toBe(429);
    mock.clock.advance(Number(refused.headers.get('retry-after')));
    const third = await nextOf(await api(mock, `/api/v2/content?limit=2&next=${second}`, a.access_token));
    expect((await api(mock, `/api/v2/content?limit=2&next=${third}`, a.access_token)).status).toBe(200);
    // The window is spent again (the response above said Remaining 0): a careful client waits for its reset.
    mock.clock.advance(10);
    expect((await logout(mock, a.access_token)).status).toBeLessThan(300);
    expect((await logout(mock, b.access_token)).status).toBeLessThan(300);
    const c = await getToken(mock, 'content:read');
    expect((await api(mock, '/api/v2/content?limit=2', c.access_token)).status).toBe(200);
    const report = await findings(mock);
    expect(report.findings).toEqual([]);
    expect(report.total).toBe(0);
    expect(report.clients).toEqual([ORG.id]);
  });
});

test.describe('a careless client', () => {
  test.use({ mockOptions: { rate: SMALL } });

  test('an immediate retry of a 429, an old next and a token sent again after its 401 are each found', async ({ mock }) => {
    const t = await getToken(mock, 'content:read');
    const first = await nextOf(await api(mock, '/api/v2/content?limit=2', t.access_token));
    await nextOf(await api(mock, `/api/v2/content?limit=2&next=${first}`, t.access_token));
    await api(mock, `/api/v2/content?limit=2&next=${first}`, t.access_token);
    expect((await api(mock, '/api/v2/content?limit=2', t.access_token)).status).toBe(429);
    expect((await api(mock, '/api/v2/content?limit=2', t.access_token)).status).toBe(429);
    mock.clock.advance(10);
    await logout(mock, t.access_token);
    expect((await api(mock, '/api/v2/content?limit=2', t.access_token)).status).toBe(401);
    await api(mock, '/api/v2/content?limit=2', t.access_token);
    const report = await findings(mock);
    expect(rulesOf(report)).toEqual(expect.arrayContaining(['client.newest-next', 'client.retry-after-honoured', 'client.new-token-after-401']));
    for (const f of report.findings) {
      expect(f.clientId).toBe(ORG.id);
      expect(f.expected.length).toBeGreaterThan(10);
    }
    const retry = report.findings.find((f) => f.rule === 'client.retry-after-honoured');
    expect(retry).toMatchObject({ atMs: START_MS, level: 'client', request: 'GET /api/v2/content?limit=2' });
    expect(retry?.got).toMatch(/Sent 0\.00 s after a 429 whose Retry-After asked to wait 10\.00 s/);
    expect(report.counts['client.new-token-after-401']).toBe(1);
  });
});

test.describe('one rule at a time', () => {
  test.describe('rate', () => {
    test.use({ mockOptions: { rate: { requests: 1, periodSeconds: 60, period: '1m' } } });

    test('retry-after-honoured: a request before Retry-After passed; none once it has', async ({ mock }) => {
      const { access_token } = await getToken(mock, 'content:read');
      await api(mock, '/api/v2/users', access_token);
      mock.clock.advance(60);
      await api(mock, '/api/v2/content?limit=1', access_token);
      // The 200 above said Remaining 0: this 429 is also within-rate.
      const refused = await api(mock, '/api/v2/content?limit=1', access_token);
      expect(refused.status).toBe(429);
      mock.clock.advance(30);
      await api(mock, '/api/v2/content?limit=1', access_token);
      mock.clock.advance(30);
      expect((await api(mock, '/api/v2/content?limit=1', access_token)).status).toBe(200);
      expect((await findings(mock)).counts).toMatchObject({ 'client.retry-after-honoured': 1, 'client.within-rate': 1 });
    });

    test('backoff-grows: a fixed wait between 429s in a row is found, a doubling one is not', async ({ mock }) => {
      const { access_token } = await getToken(mock, 'content:read');
      const call = async (advance: number) => {
        mock.clock.advance(advance);
        return (await api(mock, '/api/v2/content?limit=1', access_token)).status;
      };
      expect(await call(0)).toBe(200);
      expect([await call(0), await call(1), await call(2), await call(4)]).toEqual([429, 429, 429, 429]);
      expect((await findings(mock)).counts['client.backoff-grows']).toBe(0);
      expect([await call(4), await call(4)]).toEqual([429, 429]);
      const report = await findings(mock);
      expect(report.counts['client.backoff-grows']).toBe(2);
      expect(report.findings.find((f) => f.rule === 'client.backoff-grows')?.got).toMatch(/after a wait of 4\.00 s; the wait before was 4\.00 s/);
    });

    test('within-rate: a request after a response said Remaining 0; not the first 429 without warning', async ({ mock }) => {
      const a = await getToken(mock, 'content:read');
      const b = await getToken(mock, 'content:read');
      expect((await api(mock, '/api/v2/content?limit=1', a.access_token)).headers.get('x-rate-limit-remaining')).toBe('0');
      expect((await api(mock, '/api/v2/content?limit=1', b.access_token)).status).toBe(429);
      expect((await findings(mock)).counts['client.within-rate']).toBe(0);
      mock.clock.advance(60);
      expect((await api(mock, '/api/v2/content?limit=1', a.access_token)).status).toBe(200);
      expect((await api(mock, '/api/v2/content?limit=1', a.access_token)).status).toBe(429);
      expect((await findings(mock)).counts['client.within-rate']).toBe(1);
    });
  });

  test('newest-next and same-request-with-next: an older next, another limit, a filter dropped', async ({ mock }) => {
    const { access_token } = await getToken(mock, 'content:read');
    const first = await nextOf(await api(mock, '/api/v2/content?limit=2&filter[start_date]=2020-01-01', access_token));
    await nextOf(await api(mock, `/api/v2/content?filter[start_date]=2020-01-01&limit=2&next=${first}`, access_token));
    expect((await findings(mock)).total).toBe(0); // the order of the parameters is not a different request
    await api(mock, `/api/v2/content?limit=2&filter[start_date]=2020-01-01&next=${first}`, access_token);
    const other = await nextOf(await api(mock, '/api/v2/content?limit=2', access_token));
    await api(mock, `/api/v2/content?limit=3&next=${other}`, access_token);
    const report = await findings(mock);
    expect(report.counts).toMatchObject({ 'client.newest-next': 1, 'client.same-request-with-next': 1 });
    const same = report.findings.find((f) => f.rule === 'client.same-request-with-next');
    expect(same?.got).toBe('The query without next was "limit=3"; the snapshot was started by "limit=2".');
    expect(same?.request).toBe('GET /api/v2/content?limit=3&next=[redacted]');
  });

  test('bearer-header and refresh-not-bearer: no Authorization, Basic, a refresh token as bearer', async ({ mock }) => {
    const { refresh_token } = await getToken(mock, 'content:read');
    await api(mock, '/api/v2/content');
    await api(mock, '/api/v2/users', undefined, { headers: { authorization: 'Basic eDp5' } });
    await api(mock, '/api/v2/content', refresh_token);
    const report = await findings(mock);
    expect(report.counts).toMatchObject({ 'client.bearer-header': 2, 'client.refresh-not-bearer': 1 });
    expect(report.findings.find((f) => f.rule === 'client.refresh-not-bearer')?.clientId).toBe(ORG.id);
    expect(report.findings.find((f) => f.rule === 'client.bearer-header')?.clientId).toBe('(unknown)');
  });

  test('token-reuse: a fourth token for the same scopes with no reason, found once', async ({ mock }) => {
    const tokens: TokenResponse[] = [];
    for (let i = 0; i < 3; i++) {
      tokens.push(await getToken(mock, 'content:read'));
      await api(mock, '/api/v2/content?limit=1', tokens[i]?.access_token);
    }
    expect((await findings(mock)).counts['client.token-reuse']).toBe(0);
    await getToken(mock, 'content:read');
    await getToken(mock, 'content:read');
    const report = await findings(mock);
    expect(report.counts['client.token-reuse']).toBe(1); // once per client
    expect(report.findings[0]?.got).toBe(
      '3 new tokens for the same scopes within 3 resource requests while the one before was still good; the last time, it had 60.0 days left.',
    );
  });

  test('token-reuse: renewing after a logout or near expiry is not needless', async ({ mock }) => {
    for (let i = 0; i < 4; i++) {
      const t = await getToken(mock, 'content:read');
      await logout(mock, t.access_token);
    }
    for (let i = 0; i < 4; i++) {
      await getToken(mock, 'users:read');
      mock.clock.advance(55 * 86_400);
    }
    expect((await findings(mock)).total).toBe(0);
  });

  test('token-form-body: a JSON token request is found and named by its client_id', async ({ mock }) => {
    const body = JSON.stringify({ grant_type: 'client_credentials', client_id: ORG.id, client_secret: ORG.secret, scope: 'content:read' });
    await postToken(mock, body, { 'content-type': 'application/json' });
    const report = await findings(mock);
    expect(report.findings).toEqual([expect.objectContaining({ rule: 'client.token-form-body', clientId: ORG.id, got: 'Content-Type was application/json.' })]);
  });
});

test.describe('reading and resetting', () => {
  test('JUnit: a testcase per rule per client, a failure per finding; reset clears them', async ({ mock }) => {
    const { access_token } = await getToken(mock, 'content:read');
    await api(mock, '/api/v2/content', 'x'.repeat(20)); // an unknown token: judged as (unknown)
    await logout(mock, access_token);
    await api(mock, '/api/v2/content', access_token);
    await api(mock, '/api/v2/content', access_token);
    for (const url of [`${mock.baseUrl}/_mock/findings?format=junit`, `${mock.baseUrl}/_mock/findings.xml`]) {
      const res = await fetch(url);
      expect(res.headers.get('content-type')).toBe('application/xml; charset=utf-8');
      const xml = await res.text();
      expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="client findings" tests="20" failures="1" /);
      expect(xml).toContain(`<testsuite name="client ${ORG.id}" tests="${CLIENT_RULE_IDS.length}" failures="1" `);
      expect(xml).toMatch(
        /<testcase classname="client.mock-org-client" name="client.new-token-after-401" time="0"><failure message="The access token was sent again[^"]*" type="client.new-token-after-401">/,
      );
      expect(xml).toContain('<testcase classname="client.mock-org-client" name="client.newest-next" time="0"></testcase>');
    }
    expect((await fetch(`${mock.baseUrl}/_mock/findings`, { method: 'POST' })).status).toBe(405);
    expect((await control(mock, '/reset')).status).toBe(204);
    expect(await findings(mock)).toEqual({ findings: [], counts: Object.fromEntries(CLIENT_RULE_IDS.map((id) => [id, 0])), total: 0, dropped: 0, clients: [] });
  });

  test.describe('without findings', () => {
    test.use({ mockOptions: { findings: false } });

    test('findings: false judges nothing and serves no /_mock/findings', async ({ mock }) => {
      expect((await fetch(`${mock.baseUrl}/_mock/findings`)).status).toBe(404);
    });
  });
});

test.describe('redaction', () => {
  const lines: string[] = [];
  test.use({ mockOptions: { rate: SMALL, log: (line: string) => lines.push(line) } });

  test('no token, refresh token, secret or cursor in any finding, JUnit text or log line', async ({ mock }) => {
    lines.length = 0;
    const t = await getToken(mock, 'content:read');
    const secrets = [t.access_token, t.refresh_token, ORG.secret];
    const first = await nextOf(await api(mock, '/api/v2/content?limit=2', t.access_token));
    const second = await nextOf(await api(mock, `/api/v2/content?limit=2&next=${first}`, t.access_token));
    secrets.push(first, second);
    await api(mock, `/api/v2/content?limit=3&next=${first}&access_token=${t.access_token}&x=${t.refresh_token}`, t.access_token);
    await api(mock, '/api/v2/content', t.refresh_token);
    await api(mock, '/api/v2/content', t.access_token);
    await postToken(mock, JSON.stringify({ client_id: ORG.id, client_secret: ORG.secret }), { 'content-type': 'application/json' });
    const report = await findings(mock);
    const found = lines.filter((line) => line.startsWith('client-finding '));
    expect(found.length).toBe(report.total);
    expect(report.total).toBeGreaterThanOrEqual(5);
    const junit = await (await fetch(`${mock.baseUrl}/_mock/findings.xml`)).text();
    const text = [JSON.stringify(report), junit, ...lines].join('\n');
    for (const secret of secrets) expect(text).not.toContain(secret);
    expect(report.findings.find((f) => f.rule === 'client.newest-next')?.request).toBe(
      'GET /api/v2/content?limit=3&next=[redacted]&access_token=[redacted]&x=[redacted]',
    );
  });
});

test.describe('memory', () => {
  test('findings past the cap are counted, not kept', () => {
    const findings = new ClientFindings({ clock: new VirtualClock(() => START_MS), maxFindings: 3 });
    const handler = findings.observe('listContent', () => ({ status: 401, headers: [], body: '' }));
    const exchange: Exchange = { authorization: undefined, contentType: undefined, search: '', body: Buffer.alloc(0) };
    for (let i = 0; i < 5; i++) handler(exchange);
    const report = findings.report();
    expect(report.findings.length).toBe(3);
    expect(report).toMatchObject({ total: 5, dropped: 2, counts: { 'client.bearer-header': 5 } });
    expect(findings.junit()).toContain('<failure message="2 more findings were counted but not kept" type="client.bearer-header"></failure>');
    const rules: ClientRuleId[] = ['client.bearer-header'];
    expect(rulesOf(report)).toEqual([...rules, ...rules, ...rules]);
  });

  test('cursors are remembered for at least MAX_TRACKED / 2 newer ones and forgotten within MAX_TRACKED', () => {
    const conduct = new ClientConduct();
    let fresh = 0;
    // A page hands out one cursor in its links.next, continuing the walk of the `next` it was asked with.
    const olderNexts = (search: string) =>
      conduct
        .observe({
          origin: 'api',
          list: 'content',
          request: { method: 'GET', url: `https://api.example.com/api/v2/content?${search}`, header: () => 'Bearer unknown-token' },
          status: 200,
          header: () => undefined,
          body: { links: { next: `https://api.example.com/api/v2/content?limit=1&next=cursor-${fresh++}` } },
          text: '',
          sentMs: START_MS,
          receivedMs: START_MS,
        })
        .filter((f) => f.rule === 'client.newest-next').length;
    olderNexts('limit=1'); // cursor-0 starts a walk
    olderNexts('limit=1&next=cursor-0'); // cursor-1 is its newest
    for (let i = 2; i < MAX_TRACKED / 2; i++) olderNexts('limit=1');
    // Half of MAX_TRACKED cursors came after it: cursor-0 is still known, an older next of its walk.
    expect(olderNexts('limit=1&next=cursor-0')).toBe(1);
    for (let i = 0; i < MAX_TRACKED; i++) olderNexts('limit=1');
    // MAX_TRACKED more: forgotten, no longer judged.
    expect(olderNexts('limit=1&next=cursor-0')).toBe(0);
  });
});

test.describe('the judge alone', () => {
  test('names the client of HTTP Basic credentials (form-encoded, then base64) in any exchange', () => {
    const conduct = new ClientConduct();
    const basic = `Basic ${Buffer.from(`${encodeURIComponent('café client')}:secret`).toString('base64')}`;
    const found = conduct.observe({
      origin: 'auth',
      request: {
        method: 'POST',
        url: 'https://auth.example.com/oauth/token',
        header: (name) => (name === 'authorization' ? basic : 'application/json'),
        body: '{"grant_type":"client_credentials"}',
      },
      status: 400,
      header: () => undefined,
      body: undefined,
      text: '',
      sentMs: START_MS,
      receivedMs: START_MS,
    });
    expect(conduct.clientId).toBe('café client');
    expect(found).toEqual([
      {
        rule: 'client.token-form-body',
        level: 'client',
        expected: CLIENT_RULES['client.token-form-body'].statement,
        got: 'Content-Type was application/json.',
        request: 'POST /oauth/token',
        atMs: START_MS,
      },
    ]);
  });
});
