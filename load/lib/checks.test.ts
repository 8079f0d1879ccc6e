import { expect, test } from '@playwright/test';
import type { SchemaValidators } from '../../contracts/rules/exchange.ts';
import { judgeExchange } from '../../contracts/rules/judge.ts';
import { exchangeOf } from './checks.ts';

/** rate.headers validates nothing: validators that would fail loudly if it did. */
const never = () => {
  throw new Error('no schema is needed');
};
const NO_SCHEMAS: SchemaValidators = {
  validateTokenResponse: never,
  validateListEnvelope: never,
  validateResourceObject: never,
  validateContentAttributes: never,
  validateErrorBody: never,
};

test('rate.headers is judged by the contract judge: headers read in any case, required on a served page, well formed wherever they come', () => {
  const headers = { 'X-Rate-Limit-Limit': '10s', 'X-Rate-Limit-Remaining': '3', 'X-Rate-Limit-Reset': '2026-01-01T00:00:10.1234567Z' };
  const page = { request: { method: 'GET', url: 'http://api.test/api/v2/content' }, status: 200, headers, body: '' };
  const rate = (answer: Omit<typeof page, 'headers'> & { headers: Record<string, string> }) =>
    judgeExchange(exchangeOf(answer, 'api', 'content'), { validators: NO_SCHEMAS }, ['rate.headers']);
  expect(rate(page)).toEqual({ checked: ['rate.headers'], findings: [] });
  expect(rate({ ...page, headers: { ...headers, 'X-Rate-Limit-Remaining': 'many' } }).findings[0]).toMatchObject({
    got: expect.stringMatching(/Remaining "many" is not a non-negative integer$/),
    request: 'GET http://api.test/api/v2/content',
  });
  // Which refusals carry the headers is the platform's choice; what they say, where they come, is not.
  expect(rate({ ...page, status: 429, headers: {} }).checked).toEqual([]);
  expect(rate({ ...page, status: 429, headers: { ...headers, 'X-Rate-Limit-Remaining': '-1' } }).findings.map((f) => f.rule)).toEqual(['rate.headers']);
});
