import { expect, test } from '@playwright/test';
import { RULE_VALIDATORS as VALIDATORS } from '../../schemas/index.ts';
import { headerLookup } from '../rate-limit.ts';
import type { Exchange } from './exchange.ts';
import { AREA_IDS, RESPONSE_RULE_IDS, type Rule, RULE_IDS, RULES, type RuleId } from './index.ts';
import { judgeExchange } from './judge.ts';

const URL_OF_PAGE = 'http://127.0.0.1:4011/api/v2/content?limit=2';
const HEADERS = { 'x-rate-limit-limit': '1m', 'x-rate-limit-remaining': '3', 'x-rate-limit-reset': '2026-01-01T00:01:00Z' };

function item(id: string) {
  return { type: 'content', id, attributes: {} };
}

function exchange(over: Partial<Omit<Exchange, 'header'>> & { headers?: Record<string, string> } = {}): Exchange {
  const body = over.body ?? { links: { self: URL_OF_PAGE }, data: [item('a')] };
  return {
    origin: 'api',
    list: 'content',
    request: { method: 'GET', url: URL_OF_PAGE },
    status: 200,
    header: headerLookup(over.headers ?? HEADERS),
    text: JSON.stringify(body),
    ...over,
    body,
  };
}

function judged(x: Exchange, rules: readonly RuleId[]) {
  return judgeExchange(x, { validators: VALIDATORS }, rules);
}

test.describe('the catalogue (contracts/rules/)', () => {
  test('lists every rule once, area by area in report order', () => {
    expect(RULE_IDS.length).toBeGreaterThanOrEqual(56);
    expect(new Set(RULE_IDS).size).toBe(Object.keys(RULES).length);
    const areas = RULE_IDS.map((id) => AREA_IDS.indexOf(RULES[id].area));
    expect(areas).toEqual([...areas].sort((a, b) => a - b));
  });

  test('says where a rule is judged exactly when it has a judge', () => {
    for (const id of RULE_IDS) {
      const rule: Rule = RULES[id];
      expect(rule.judged === undefined, id).toBe(rule.judge === undefined);
    }
    expect(RESPONSE_RULE_IDS).toContain('rate.headers');
  });
});

test.describe('the per-response judges', () => {
  test('lifetime.expires-in is a positive whole number of seconds always; lifetime.expires-in-bound only where the configured lifetime is known', () => {
    const token = (expiresIn: number) =>
      exchange({ origin: 'auth', list: undefined, request: { method: 'POST', url: 'http://127.0.0.1:4010/oauth/token' }, body: { expires_in: expiresIn } });
    const RULES_OF_IT: RuleId[] = ['lifetime.expires-in', 'lifetime.expires-in-bound'];
    const judge = (expiresIn: number, lifetimeSeconds?: number) => judgeExchange(token(expiresIn), { validators: VALIDATORS, lifetimeSeconds }, RULES_OF_IT);
    // A lifetime an organization set (365 days) above the default is no finding when the lifetime is unknown: the bound is not judged.
    expect(judge(31_536_000)).toEqual({ checked: ['lifetime.expires-in'], findings: [] });
    expect(judge(0).findings.map((f) => f.expected)).toEqual(['expires_in a positive whole number of seconds']);
    expect(judge(2.5).findings.map((f) => f.rule)).toEqual(['lifetime.expires-in']);
    expect(judge(31_536_000, 31_536_000)).toEqual({ checked: RULES_OF_IT, findings: [] });
    expect(judge(31_536_001, 31_536_000).findings.map((f) => `${f.rule}: ${f.expected}`)).toEqual([
      'lifetime.expires-in-bound: expires_in not above the configured lifetime 31536000',
    ]);
  });

  test('content.limit bounds a page by one limit of 1 or more, and nothing else', () => {
    const three = { links: { self: URL_OF_PAGE }, data: [item('a'), item('b'), item('c')] };
    expect(judged(exchange({ body: three }), ['content.limit']).findings).toEqual([
      { rule: 'content.limit', level: 'contract', expected: 'at most 2 items', got: '3', request: `GET ${URL_OF_PAGE}` },
    ]);
    const open = exchange({ body: three, request: { method: 'GET', url: 'http://127.0.0.1:4011/api/v2/content?limit=2&limit=5' } });
    expect(judged(open, ['content.limit']).checked).toEqual([]);
  });

  test('links.self names the origin as URL would: case and default port do not matter, the path does', () => {
    const request = { method: 'GET', url: 'https://api.example.com/api/v2/content' };
    const self = (text: string) => exchange({ request, body: { links: { self: text }, data: [] } });
    expect(judged(self('HTTPS://API.example.com:443/api/v2/content/'), ['envelope.self']).findings).toEqual([]);
    expect(judged(self('https://api.example.com/api/v1/content'), ['envelope.self']).findings.map((f) => f.rule)).toEqual(['envelope.self']);
    // A relative links.self is no list envelope (its schema asks for a URL): envelope.shape says so, and the page rules stand aside.
    expect(judged(self('/api/v2/content'), ['envelope.shape', 'envelope.self']).findings.map((f) => f.rule)).toEqual(['envelope.shape']);
  });

  test('X-Rate-Limit-*: required on a served page, well formed wherever they come, on other answers the platform’s', () => {
    const rules: RuleId[] = ['rate.headers', 'platform.rate-headers-everywhere'];
    const rulesOf = (x: Exchange) => judged(x, rules).findings.map((f) => f.rule);
    expect(rulesOf(exchange({ headers: {} }))).toEqual(['rate.headers']);
    expect(rulesOf(exchange({ status: 429, headers: {}, body: undefined }))).toEqual(['platform.rate-headers-everywhere']);
    expect(rulesOf(exchange({ status: 429, headers: { ...HEADERS, 'x-rate-limit-remaining': '-1' }, body: undefined }))).toEqual(['rate.headers']);
    expect(rulesOf(exchange({ list: undefined, request: { method: 'POST', url: 'http://127.0.0.1:4011/oauth/token' }, headers: {} }))).toEqual([
      'platform.rate-headers-everywhere',
    ]);
    // A refused token names no client whose budget could be counted.
    expect(judged(exchange({ status: 401, headers: {}, body: undefined }), rules).checked).toEqual([]);
    expect(judged(exchange({ origin: 'auth', list: undefined, status: 429, headers: {}, body: undefined }), rules).checked).toEqual([]);
  });
});
