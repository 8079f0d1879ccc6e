import { expect, test } from '@playwright/test';
import { formatPeriod, parsePeriod, parseRate } from './duration.ts';
import { isProductionUrl } from './environments.ts';
import { snapshotObsolete, tokenExpired } from './lifecycle.ts';
import { headerLookup, parseIsoUtc, parseRateLimitHeaders, retryAfterSeconds } from './rate-limit.ts';
import { parseScopeList } from './scopes.ts';
import { readTargetHosts } from '../common/target-settings.ts';
import { formatZonelessTimestamp, namesCalendarMoment, parseDate, parseZonelessTimestamp } from './timestamps.ts';

test.describe('periods and rates', () => {
  for (const { text, seconds } of [
    { text: '1m', seconds: 60 },
    { text: '12h', seconds: 43_200 },
    { text: '1d', seconds: 86_400 },
    { text: '60d', seconds: 5_184_000 },
    { text: '10s', seconds: 10 },
  ]) {
    test(`${text} is ${seconds} s and formats back`, () => {
      expect(parsePeriod(text)).toBe(seconds);
      expect(formatPeriod(seconds)).toBe(text);
    });
  }
  for (const bad of ['', '1', 'm', '0m', '1w', '-1m', '1.5m', ' 1 m']) {
    test(`"${bad}" is not a period`, () => expect(parsePeriod(bad)).toBeUndefined());
  }
  test('rates read as requests per period; 0 turns limiting off', () => {
    expect(parseRate('200/1m')).toEqual({ requests: 200, periodSeconds: 60, period: '1m' });
    expect(parseRate('20/10s')).toEqual({ requests: 20, periodSeconds: 10, period: '10s' });
    expect(parseRate('0')).toBeNull();
    for (const bad of ['200', '/1m', '0/1m', 'x/1m', '200/1w']) expect(parseRate(bad)).toBeUndefined();
  });
});

test.describe('lifecycle boundaries', () => {
  test('a token is valid just before its lifetime and expired at it', () => {
    expect(tokenExpired(0, 60, 59_999)).toBe(false);
    expect(tokenExpired(0, 60, 60_000)).toBe(true);
  });
  test('a snapshot lives 119 s after the previous request and is obsolete at 120 s', () => {
    expect(snapshotObsolete(0, 120, 119_000)).toBe(false);
    expect(snapshotObsolete(0, 120, 120_000)).toBe(true);
  });
});

test.describe('hosts', () => {
  test('environment and data center resolve through the table; explicit URLs win', () => {
    const resolveHosts = (env: Record<string, string>) => readTargetHosts(env, (name) => `${name} is not set`);
    expect(resolveHosts({ LP_ENVIRONMENT: 'betatest', LP_DATA_CENTER: 'eu' })).toEqual({
      authUrl: 'https://eu.betatest.degreed.com',
      baseUrl: 'https://api.eu.betatest.degreed.com',
      production: false,
    });
    expect(resolveHosts({ LP_ORG_HOST: 'acme' })).toEqual({ authUrl: 'https://acme.degreed.com', baseUrl: 'https://api.acme.degreed.com', production: true });
    expect(resolveHosts({ LP_ENVIRONMENT: 'production', LP_BASE_URL: 'http://127.0.0.1:1/' })).toEqual({
      authUrl: 'https://degreed.com',
      baseUrl: 'http://127.0.0.1:1',
      production: true,
    });
    expect(() => resolveHosts({})).toThrow('LP_BASE_URL is not set');
  });
  for (const { url, production } of [
    { url: 'https://api.degreed.com', production: true },
    { url: 'https://api.eu.degreed.com/api/v2', production: true },
    { url: 'https://api.acme.degreed.com', production: true },
    { url: 'https://api.betatest.degreed.com', production: false },
    { url: 'https://ca.betatest.degreed.com', production: false },
    { url: 'http://127.0.0.1:4011', production: false },
    { url: 'https://degreed.com.evil.example', production: false },
  ]) {
    test(`${url} is ${production ? '' : 'not '}production`, () => expect(isProductionUrl(url)).toBe(production));
  }
});

test.describe('rate-limit headers', () => {
  const now = Date.parse('2021-10-26T20:38:30Z');
  test('the real service example parses (7 fractional digits)', () => {
    const parsed = parseRateLimitHeaders(
      headerLookup({ 'X-Rate-Limit-Limit': '1m', 'X-Rate-Limit-Remaining': '69', 'X-Rate-Limit-Reset': '2021-10-26T20:39:22.1494434Z' }),
    );
    expect(parsed).toEqual({ ok: true, value: { period: '1m', periodSeconds: 60, remaining: 69, resetMs: Date.parse('2021-10-26T20:39:22.149Z') } });
  });
  for (const { headers, reason } of [
    { headers: { 'x-rate-limit-remaining': '1', 'x-rate-limit-reset': '2021-10-26T20:39:22Z' }, reason: /Limit is missing/ },
    { headers: { 'x-rate-limit-limit': 'minute', 'x-rate-limit-remaining': '1', 'x-rate-limit-reset': '2021-10-26T20:39:22Z' }, reason: /not a period/ },
    { headers: { 'x-rate-limit-limit': '1m', 'x-rate-limit-remaining': '-1', 'x-rate-limit-reset': '2021-10-26T20:39:22Z' }, reason: /non-negative integer/ },
    { headers: { 'x-rate-limit-limit': '1m', 'x-rate-limit-remaining': '1', 'x-rate-limit-reset': '2021-10-26T20:39:22' }, reason: /ISO 8601 UTC/ },
  ]) {
    test(`refused: ${reason.source}`, () => {
      const parsed = parseRateLimitHeaders(headerLookup(headers));
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) expect(parsed.error).toMatch(reason);
    });
  }
  test('Retry-After is read as delta-seconds or as an HTTP-date', () => {
    expect(retryAfterSeconds('52', now)).toBe(52);
    expect(retryAfterSeconds('Tue, 26 Oct 2021 20:39:22 GMT', now)).toBe(52);
    expect(retryAfterSeconds(undefined, now)).toBeUndefined();
    expect(retryAfterSeconds('soon', now)).toBeUndefined();
    expect(retryAfterSeconds('-3', now)).toBeUndefined();
  });
  test('ISO UTC accepts Z and +00:00 and refuses other zones', () => {
    expect(parseIsoUtc('2021-10-26T20:39:22+00:00')).toBe(Date.parse('2021-10-26T20:39:22Z'));
    expect(parseIsoUtc('2021-10-26T20:39:22+02:00')).toBeNaN();
  });
  test('a Reset and a Retry-After date name a day of the calendar, not only its pattern', () => {
    expect(parseIsoUtc('2026-02-30T10:00:00Z')).toBeNaN();
    expect(parseIsoUtc('2026-11-26T24:00:00.5Z')).toBeNaN();
    expect(retryAfterSeconds('Mon, 30 Feb 2026 10:00:00 GMT', now)).toBeUndefined();
    expect(retryAfterSeconds('Mon, 26 Oct 2021 20:39:22 GMT', now)).toBe(52);
  });
});

test.describe('scopes and timestamps', () => {
  test('scope lists are comma-delimited, spaces tolerated', () => {
    expect(parseScopeList('content:read,users:read')).toEqual(['content:read', 'users:read']);
    expect(parseScopeList('content:read users:read, content:read')).toEqual(['content:read', 'users:read']);
    expect(parseScopeList(' ,')).toEqual([]);
  });
  test('zone-less timestamps round-trip with 1 to 7 fractional digits', () => {
    const ms = Date.parse('2022-03-13T21:31:12.440Z');
    expect(formatZonelessTimestamp(ms, 2)).toBe('2022-03-13T21:31:12.44');
    expect(formatZonelessTimestamp(ms, 7)).toBe('2022-03-13T21:31:12.4400000');
    expect(parseZonelessTimestamp('2022-03-13T21:31:12.44')).toBe(ms);
    expect(parseZonelessTimestamp('2022-03-13T21:31:12.4400000')).toBe(ms);
    expect(parseZonelessTimestamp('2022-03-13T21:31:12.44Z')).toBeNaN();
    expect(parseZonelessTimestamp('2022-03-13T21:31:12')).toBeNaN();
  });
  test('dates are yyyy-mm-dd days that exist', () => {
    expect(parseDate('2024-02-29')).toBe(Date.parse('2024-02-29T00:00:00Z'));
    for (const bad of ['2023-02-29', '2024-13-01', '24-01-01', '2024-1-1', '']) expect(parseDate(bad)).toBeNaN();
  });
  test('a timestamp names a moment of the calendar only where each field reads back', () => {
    for (const good of ['2024-02-29T23:59:59.9', '2016-12-31T23:59:60.0', '2022-03-13T00:00:00']) expect(namesCalendarMoment(good), good).toBe(true);
    for (const bad of ['2020-02-30T20:46:39.791', '2021-06-31T10:00:00.1', '2021-01-01T24:00:00.0', '2021-01-01T12:60:00.0', '2021-01-01T12:00:61.0'])
      expect(namesCalendarMoment(bad), bad).toBe(false);
  });
});
