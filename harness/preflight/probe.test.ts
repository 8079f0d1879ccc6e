/**
 * The preflight's reading of answers the document leaves open: a service may refuse a request without
 * a token with any 4xx and accept a token request with any 2xx; neither is a wrong setting. Driven by
 * an injected fetch, so nothing is sent anywhere.
 */
import { expect, test } from '@playwright/test';
import { probeRemote, type ProbeTarget } from './probe.ts';

const TARGET: ProbeTarget = {
  authUrl: 'http://127.0.0.1:9/auth',
  baseUrl: 'http://127.0.0.1:9/api',
  clientId: 'probe-client',
  clientSecret: 'probe-secret-value',
  scopes: ['content:read'],
  authSetting: 'LP_AUTH_URL',
  baseSetting: 'LP_BASE_URL',
};

/** A fetch that answers each request in turn with the next of `answers`, and records what was asked. */
function scripted(answers: ReadonlyArray<{ status: number; body?: string; headers?: Record<string, string> }>) {
  const asked: string[] = [];
  const fetch = (async (url: string | URL | Request, init?: RequestInit) => {
    asked.push(`${init?.method ?? 'GET'} ${String(url)}`);
    const next = answers[asked.length - 1];
    if (!next) throw new Error('more requests than the probe may send');
    return new Response(next.body ?? null, { status: next.status, headers: { 'content-type': 'application/json', ...next.headers } });
  }) as typeof globalThis.fetch;
  return { fetch, asked };
}

const TOKEN = JSON.stringify({ access_token: 'probe-access-token', token_type: 'bearer', expires_in: 60, refresh_token: 'probe-refresh-token' });

test('a 400 without a token and a 201 with one are a working target: three requests, the token logged out', async () => {
  const { fetch, asked } = scripted([{ status: 400 }, { status: 201, body: TOKEN }, { status: 204 }]);
  const result = await probeRemote(TARGET, { fetch });
  expect(result).toEqual({ ok: true, tokens: { issued: 1, loggedOut: 1, notLoggedOut: 0 } });
  expect(asked).toEqual([
    'GET http://127.0.0.1:9/api/api/v2/content?limit=1',
    'POST http://127.0.0.1:9/auth/oauth/token',
    'POST http://127.0.0.1:9/api/oauth/token',
  ]);
});

test('a 404 without a token names the base URL setting, and no token is requested', async () => {
  const { fetch, asked } = scripted([{ status: 404 }]);
  const result = await probeRemote(TARGET, { fetch });
  expect(result.ok).toBe(false);
  if (!result.ok) expect(result.sentence).toMatch(/^LP_BASE_URL: /);
  expect(asked).toHaveLength(1);
});

test('a refused key names the key settings and never echoes the secret', async () => {
  const { fetch } = scripted([{ status: 401 }, { status: 401, body: '{"error":"invalid_client","echo":"probe-secret-value"}' }]);
  const result = await probeRemote(TARGET, { fetch });
  expect(result.ok).toBe(false);
  if (!result.ok) {
    expect(result.sentence).toMatch(/^LP_CLIENT_ID or LP_CLIENT_SECRET: /);
    expect(result.sentence).not.toContain('probe-secret-value');
  }
});

test('a token endpoint that throttles token requests is waited out once, within the run’s bound, before the run is refused', async () => {
  const throttled = { status: 429, headers: { 'retry-after': '3' } };
  const waits: number[] = [];
  const sleep = async (ms: number) => void waits.push(ms);
  const honoured = scripted([{ status: 401 }, throttled, { status: 200, body: TOKEN }, { status: 204 }]);
  expect(await probeRemote(TARGET, { fetch: honoured.fetch, sleep })).toEqual({ ok: true, tokens: { issued: 1, loggedOut: 1, notLoggedOut: 0 } });
  expect(waits).toEqual([4000]);
  // A Retry-After beyond the bound is not waited for: the run is refused with it, at once.
  const long = scripted([{ status: 401 }, { status: 429, headers: { 'retry-after': '600' } }]);
  const refused = await probeRemote(TARGET, { fetch: long.fetch, sleep, maxWaitMs: 70_000 });
  expect(refused.ok ? '' : refused.sentence).toMatch(/answered 429, Retry-After: 600/);
  expect(waits).toEqual([4000]);
});
