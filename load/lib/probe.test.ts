import { expect, test } from '@playwright/test';
import { createMock, type MockServer } from '../../mock/app.ts';
import type { FaultName } from '../../mock/faults.ts';
import type { VariantName } from '../../mock/variants.ts';
import { type ProbeEvent, type ProbeRule, RateLimitProbe } from './probe.ts';

const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);
const RATE = { requests: 20, periodSeconds: 10, period: '10s' } as const;

/** Headers of a fixed window [start, start + 10 s) with `remaining` left. */
function window(startMs: number, remaining: number, extra: Record<string, string> = {}): Record<string, string> {
  return {
    'X-Rate-Limit-Limit': '10s',
    'X-Rate-Limit-Remaining': String(remaining),
    'X-Rate-Limit-Reset': new Date(startMs + 10_000).toISOString(),
    ...extra,
  };
}

test.describe('the probe, fed by hand', () => {
  test('a healthy window: 20 × 2xx falling by one, 429 with an accurate Retry-After, then a successful retry', () => {
    const probe = new RateLimitProbe({ budget: 20 });
    const events: ProbeEvent[] = [];
    for (let i = 0; i < 20; i++) events.push(probe.observe({ receivedMs: T0 + i * 100, status: 200, headers: window(T0, 19 - i) }));
    const refused = probe.observe({ receivedMs: T0 + 2500, status: 429, headers: window(T0, 0, { 'Retry-After': '8' }) });
    expect(refused.budget).toEqual({ count: 20, promised: 20, fromWindowStart: true });
    expect(refused.timeToFirst429Ms).toBe(2500);
    expect(refused.retryAfterErrorSeconds).toBeCloseTo(0.5, 5);
    // Before Retry-After elapsed: still refused, no finding.
    expect(probe.observe({ sentMs: T0 + 9000, receivedMs: T0 + 9001, status: 429, headers: window(T0, 0, { 'Retry-After': '1' }) }).findings).toEqual([]);
    const retry = probe.observe({ sentMs: T0 + 10_001, receivedMs: T0 + 10_002, status: 200, headers: window(T0 + 10_001, 19) });
    expect(retry).toMatchObject({ window: 1, retryHonoured: true, findings: [] });
    expect(probe.violations).toBe(0);
    expect(probe.summary().retries).toEqual({ honoured: 1, refused: 0 });
  });

  test('a window joined late is measured against its first Remaining, not the budget', () => {
    const probe = new RateLimitProbe({ budget: 20 });
    for (let i = 0; i < 5; i++) probe.observe({ receivedMs: T0 + i, status: 200, headers: window(T0, 4 - i) });
    expect(probe.observe({ receivedMs: T0 + 9, status: 429, headers: window(T0, 0, { 'Retry-After': '10' }) }).budget).toEqual({
      count: 5,
      promised: 5,
      fromWindowStart: false,
    });
    expect(probe.violations).toBe(0);
  });

  test('fractions of X-Rate-Limit-Reset may jitter within a window; Remaining going up opens a new one', () => {
    const probe = new RateLimitProbe();
    probe.observe({ receivedMs: T0, status: 200, headers: { ...window(T0, 19), 'X-Rate-Limit-Reset': '2026-01-01T12:00:10.1234567Z' } });
    const same = probe.observe({ receivedMs: T0 + 1, status: 200, headers: { ...window(T0, 18), 'X-Rate-Limit-Reset': '2026-01-01T12:00:10.5Z' } });
    expect(same).toMatchObject({ window: 0, findings: [] });
    expect(probe.observe({ receivedMs: T0 + 2, status: 200, headers: window(T0, 19) }).window).toBe(1);
  });

  for (const { name, feed, rule } of [
    {
      name: 'Remaining that does not fall',
      feed: (p: RateLimitProbe) => [
        p.observe({ receivedMs: T0, status: 200, headers: window(T0, 19) }),
        p.observe({ receivedMs: T0 + 1, status: 200, headers: window(T0, 19) }),
      ],
      rule: 'remaining-falls',
    },
    {
      name: 'a 429 while requests remain',
      feed: (p: RateLimitProbe) => [
        p.observe({ receivedMs: T0, status: 200, headers: window(T0, 3) }),
        p.observe({ receivedMs: T0 + 1, status: 429, headers: window(T0, 0, { 'Retry-After': '10' }) }),
      ],
      rule: 'no-early-429',
    },
    {
      name: 'a 2xx after Remaining reached 0',
      feed: (p: RateLimitProbe) => [
        p.observe({ receivedMs: T0, status: 200, headers: window(T0, 0) }),
        p.observe({ receivedMs: T0 + 1, status: 200, headers: window(T0, 0) }),
      ],
      rule: 'limit-enforced',
    },
    {
      name: 'a 429 without Retry-After',
      feed: (p: RateLimitProbe) => [
        p.observe({ receivedMs: T0, status: 200, headers: window(T0, 0) }),
        p.observe({ receivedMs: T0 + 1, status: 429, headers: window(T0, 0) }),
      ],
      rule: 'retry-after-present',
    },
    {
      name: 'a Retry-After far from X-Rate-Limit-Reset',
      feed: (p: RateLimitProbe) => [
        p.observe({ receivedMs: T0, status: 200, headers: window(T0, 0) }),
        p.observe({ receivedMs: T0 + 1000, status: 429, headers: window(T0, 0, { 'Retry-After': '3' }) }),
      ],
      rule: 'retry-after-accurate',
    },
    {
      name: 'a refusal after honouring Retry-After (plus the tolerance)',
      feed: (p: RateLimitProbe) => [
        p.observe({ receivedMs: T0, status: 200, headers: window(T0, 0) }),
        p.observe({ receivedMs: T0 + 9000, status: 429, headers: window(T0, 0, { 'Retry-After': '1' }) }),
        p.observe({ sentMs: T0 + 11_000, receivedMs: T0 + 11_001, status: 429, headers: window(T0, 0, { 'Retry-After': '1' }) }),
      ],
      rule: 'retry-succeeds',
    },
    {
      name: 'a malformed X-Rate-Limit-Reset',
      feed: (p: RateLimitProbe) => [p.observe({ receivedMs: T0, status: 200, headers: window(T0, 19, { 'X-Rate-Limit-Reset': '2026-01-01 12:00:10' }) })],
      rule: 'headers-well-formed',
    },
    {
      name: 'a status other than 2xx or 429',
      feed: (p: RateLimitProbe) => [p.observe({ receivedMs: T0, status: 503, headers: {} })],
      rule: 'status-expected',
    },
  ] as const) {
    test(`${name} breaks ${rule}`, () => {
      const probe = new RateLimitProbe({ budget: 20 });
      const findings = feed(probe).flatMap((event) => event.findings);
      expect(findings.map((f) => f.rule)).toContain(rule);
      expect(probe.counts[rule as ProbeRule]).toBeGreaterThan(0);
      for (const f of findings) expect(f.reason.length).toBeGreaterThan(10);
    });
  }

  test('a 429 without rate-limit headers is judged by its window; a refusal just inside the tolerance is not a finding', () => {
    const probe = new RateLimitProbe({ budget: 20 });
    probe.observe({ receivedMs: T0, status: 200, headers: window(T0, 0) });
    const bare = probe.observe({ receivedMs: T0 + 9000, status: 429, headers: { 'Retry-After': '1' } });
    expect(bare.findings).toEqual([]);
    expect(bare.retryAfterErrorSeconds).toBeCloseTo(0, 5);
    expect(probe.observe({ sentMs: T0 + 10_500, receivedMs: T0 + 10_501, status: 429, headers: { 'Retry-After': '1' } }).findings).toEqual([]);
  });

  test('findings are counted in full but kept only up to keepPerRule', () => {
    const probe = new RateLimitProbe({ keepPerRule: 2 });
    for (let i = 0; i < 5; i++) probe.observe({ receivedMs: T0 + i, status: 500, headers: {} });
    expect(probe.counts['status-expected']).toBe(5);
    expect(probe.summary().findings).toHaveLength(2);
  });
});

// ---------------------------------------------------------------------------------------------
// Against the real mock: 20 requests per 10 s; time moves only through the control plane.

interface Probed {
  readonly mock: MockServer;
  readonly probe: RateLimitProbe;
  /** Sends one probe request and feeds its response to the probe. */
  send(): Promise<ProbeEvent>;
  /** Moves the mock's clock forward through POST /_mock/clock. */
  advance(seconds: number): Promise<void>;
}

async function probed(options: { faults?: FaultName[]; variants?: VariantName[] } = {}): Promise<Probed> {
  // A frozen wall clock: only the control plane moves time, so nothing depends on how fast the test runs.
  const mock = createMock({ rate: RATE, timeSource: () => T0, faults: options.faults ?? [], variants: options.variants ?? [] });
  await mock.listen();
  const tokenResponse = await fetch(`${mock.authUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials&client_id=mock-org-client&client_secret=mock-org-secret&scope=content:read',
  });
  expect(tokenResponse.status).toBe(200);
  const { access_token: token } = (await tokenResponse.json()) as { access_token: string };
  const probe = new RateLimitProbe({ budget: RATE.requests, toleranceSeconds: 1 });
  return {
    mock,
    probe,
    async send() {
      const sentMs = mock.clock.now();
      const response = await fetch(`${mock.baseUrl}/api/v2/content?limit=1`, { headers: { authorization: `Bearer ${token}` } });
      await response.arrayBuffer();
      return probe.observe({ sentMs, receivedMs: mock.clock.now(), status: response.status, headers: Object.fromEntries(response.headers) });
    },
    async advance(seconds) {
      const response = await fetch(`${mock.controlUrl}/clock`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ advanceSeconds: seconds }),
      });
      expect(response.status).toBe(200);
    },
  };
}

async function sendMany(p: Probed, count: number): Promise<ProbeEvent[]> {
  const events: ProbeEvent[] = [];
  for (let i = 0; i < count; i++) events.push(await p.send());
  return events;
}

test.describe('the probe against the mock (20/10s)', () => {
  for (const variants of [[], ['retry-after-http-date'], ['seven-digit-fractions']] as VariantName[][]) {
    test(`a conforming mock${variants.length ? ` (${variants.join(', ')})` : ''} breaks no rule over two windows`, async () => {
      const p = await probed({ variants });
      try {
        const first = await sendMany(p, 25);
        expect(first.map((e) => e.status)).toEqual([...Array(20).fill(200), ...Array(5).fill(429)]);
        const firstRefusal = first[20];
        expect(firstRefusal?.budget).toEqual({ count: 20, promised: 20, fromWindowStart: true });
        expect(Math.abs(firstRefusal?.retryAfterErrorSeconds ?? 99)).toBeLessThanOrEqual(1);
        // Honour Retry-After: move the clock by what the last 429 asked for, rounded up to whole seconds.
        await p.advance(Math.ceil(first[24]?.retryAfterSeconds ?? 0));
        const second = await sendMany(p, 22);
        expect(second[0]).toMatchObject({ window: 1, status: 200, remaining: 19, retryHonoured: true });
        expect(second[20]?.budget).toEqual({ count: 20, promised: 20, fromWindowStart: true });
        expect(p.probe.counts).toEqual(Object.fromEntries(Object.keys(p.probe.counts).map((rule) => [rule, 0])));
        expect(p.probe.summary().retries).toEqual({ honoured: 1, refused: 0 });
      } finally {
        await p.mock.close();
      }
    });
  }

  for (const { fault, rules } of [
    { fault: 'retry-after-missing', rules: ['retry-after-present'] },
    { fault: 'rate-remaining-constant', rules: ['remaining-falls', 'no-early-429'] },
    { fault: 'rate-429-early', rules: ['no-early-429'] },
    { fault: 'rate-no-429', rules: ['limit-enforced'] },
    { fault: 'retry-after-short', rules: ['retry-after-accurate', 'retry-succeeds'] },
    { fault: 'rate-header-reset-malformed', rules: ['headers-well-formed'] },
    { fault: 'rate-header-remaining-missing', rules: ['headers-well-formed'] },
    { fault: 'rate-header-limit-missing', rules: ['headers-well-formed'] },
  ] as const) {
    test(`fault ${fault} breaks ${rules.join(' and ')}`, async () => {
      const p = await probed({ faults: [fault] });
      try {
        const events = await sendMany(p, 24);
        const last429 = [...events].reverse().find((e) => e.retryAfterSeconds !== undefined);
        // Honour what the mock said (at least the tolerance past it), then try again.
        await p.advance(Math.ceil(last429?.retryAfterSeconds ?? 10) + 1);
        await sendMany(p, 2);
        for (const rule of rules) expect(p.probe.counts[rule], `${rule} in ${JSON.stringify(p.probe.summary().findings.slice(0, 3))}`).toBeGreaterThan(0);
      } finally {
        await p.mock.close();
      }
    });
  }
});
