import { expect, test } from '@playwright/test';
import type { Rate } from '../../contracts/duration.ts';
import type { RuleId } from '../../contracts/rules/index.ts';
import { createFaultyMock, type FaultName } from '../../mock/faults/index.ts';
import { BUILT_IN_PROFILES } from '../../mock/profile.ts';
import type { Profile } from '../../schemas/types.ts';
import { LimiterModel, type LimiterModelOptions } from './limiter-model.ts';
import { probeExchange, RateLimitProbe } from './probe.ts';

const T0 = Date.UTC(2026, 0, 1, 12, 0, 3, 250);
const RATE: Rate = { requests: 10, periodSeconds: 3, period: '3s' };
const REQUEST = 'GET /api/v2/content?limit=1';

interface Target {
  /** Sends one request arriving at `arriveMs`; resolves with status and headers. */
  send(arriveMs: number): Promise<{ status: number; headers: Record<string, string> }>;
  token(atMs: number): void;
}

/**
 * The k6 loop of load/rate-limit.ts on a virtual clock: setup's token request and first request,
 * then the probe's course, each request taking 4 ms there and back.
 */
async function runProbe(target: Target, windows = 2): Promise<RateLimitProbe> {
  let now = T0;
  const probe = new RateLimitProbe({ expected: { rate: RATE, explicit: true }, windows, deadlineMs: T0 + 120_000 });
  target.token(now + 1);
  probe.observe(probeExchange('POST /oauth/token', undefined, { status: 200, headers: {} }, now, now + 2));
  now += 5;
  const first = await target.send(now + 2);
  probe.observe(probeExchange(REQUEST, 'content', first, now, now + 4));
  now += 5;
  for (let i = 0; i < 200; i++) {
    const step = probe.next(now);
    if (step.kind === 'done') return probe;
    now = Math.max(now, step.atMs);
    const sentMs = now;
    const response = await target.send(now + 2);
    now += 4;
    probe.observe(probeExchange(REQUEST, 'content', response, sentMs, now));
  }
  throw new Error('the probe did not finish within 200 requests');
}

function modelTarget(options: Partial<LimiterModelOptions>): Target {
  const model = new LimiterModel({ budget: RATE.requests, periodMs: RATE.periodSeconds * 1000, window: 'first-request', ...options });
  return { send: async (at) => model.request(at), token: (at) => model.token(at) };
}

const broken = (probe: RateLimitProbe, level: 'contract' | 'platform') => [...new Set(probe.findings.filter((f) => f.level === level).map((f) => f.rule))];

test.describe('the probe passes every legal limiter', () => {
  for (const options of [
    {},
    { window: 'clock-aligned' },
    { window: 'sliding' },
    { window: 'sliding', slidingReset: 'newest' },
    { countsTokenRequests: true },
    { window: 'sliding', countsTokenRequests: true },
    { retryAfter: 'http-date' },
    { resetDigits: 0 },
    { resetDigits: 7 },
    { duringBlock: 'extends-block' },
    { window: 'clock-aligned', resetDigits: 0, retryAfter: 'http-date', countsTokenRequests: true, duringBlock: 'extends-block' },
  ] as Array<Partial<LimiterModelOptions>>) {
    test(JSON.stringify(options), async () => {
      const probe = await runProbe(modelTarget(options));
      expect(broken(probe, 'contract'), JSON.stringify(probe.findings.slice(0, 3))).toEqual([]);
      expect(probe.budgets).toEqual([RATE.requests, RATE.requests]);
      expect(probe.honoured).toBeGreaterThanOrEqual(2);
      expect(probe.refusedAfterHonouring).toBe(0);
    });
  }
});

/**
 * The mock itself, on a clock the test moves: legal limiters of other profiles, and broken ones (its
 * rate-limit faults, wrapping the one model of a limiter that LimiterModel answers with too).
 */
async function mockTarget(options: { faults?: FaultName[]; rateLimit?: Partial<Profile['rateLimit']> }): Promise<Target & { close(): Promise<void> }> {
  let clockMs = T0;
  const strict = BUILT_IN_PROFILES.strict;
  const profile: Profile = { ...strict, rateLimit: { ...strict.rateLimit, ...options.rateLimit } };
  const mock = createFaultyMock({ rate: RATE, timeSource: () => clockMs, profile }, options.faults ?? []);
  await mock.listen();
  const tokenResponse = await fetch(`${mock.authUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials&client_id=mock-org-client&client_secret=mock-org-secret&scope=content:read',
  });
  const { access_token: token } = (await tokenResponse.json()) as { access_token: string };
  return {
    token: () => undefined,
    async send(at) {
      clockMs = at;
      const response = await fetch(`${mock.baseUrl}/api/v2/content?limit=1`, { headers: { authorization: `Bearer ${token}` } });
      await response.arrayBuffer();
      const headers = Object.fromEntries(response.headers);
      // Node's Date header is the wall clock's; the test's clock is virtual.
      headers.date = new Date(Math.floor(at / 1000) * 1000).toUTCString();
      return { status: response.status, headers };
    },
    close: () => mock.close(),
  };
}

test.describe('the probe against the mock', () => {
  for (const { name, faults, rateLimit, rules } of [
    { name: 'sound', rules: [] },
    { name: 'retry-after-http-date', rateLimit: { retryAfter: 'http-date' }, rules: [] },
    { name: 'seven-digit-fractions', rateLimit: { resetFractionDigits: 7 }, rules: [] },
    { name: 'rate-no-429', faults: ['rate-no-429'], rules: ['rate.429'] },
    { name: 'retry-after-missing', faults: ['retry-after-missing'], rules: ['rate.retry-after'] },
    { name: 'retry-after-short', faults: ['retry-after-short'], rules: ['rate.retry-after'] },
    { name: 'rate-remaining-constant', faults: ['rate-remaining-constant'], rules: ['rate.remaining'] },
    { name: 'rate-429-early', faults: ['rate-429-early'], rules: ['rate.429'] },
    { name: 'rate-header-reset-malformed', faults: ['rate-header-reset-malformed'], rules: ['rate.headers'] },
  ] as Array<{ name: string; faults?: FaultName[]; rateLimit?: Partial<Profile['rateLimit']>; rules: RuleId[] }>) {
    test(`${name}: ${rules.length === 0 ? 'no contract finding' : rules.join(', ')}`, async () => {
      const target = await mockTarget({ faults, rateLimit });
      try {
        const probe = await runProbe(target);
        const found = broken(probe, 'contract');
        if (rules.length === 0) expect(found, JSON.stringify(probe.findings.slice(0, 3))).toEqual([]);
        for (const rule of rules) expect(found, JSON.stringify(probe.findings.slice(0, 3))).toContain(rule);
      } finally {
        await target.close();
      }
    });
  }
});
