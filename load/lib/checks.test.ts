import { expect, test } from '@playwright/test';
import type { SchemaValidators } from '../../contracts/rules/exchange.ts';
import { judgeRules, type K6Exchange, type StandaloneValidator, schemaProblem } from './checks.ts';

/** rate.headers validates nothing: validators that would fail loudly if it did. */
const never = () => {
  throw new Error('no schema is needed');
};
const NO_SCHEMAS: SchemaValidators = { tokenResponse: never, listEnvelope: never, resourceObject: never, contentAttributes: never, errorBody: never };

test('schema verdicts name the schema and the first errors by path, never the values', () => {
  const failing: StandaloneValidator = Object.assign(() => false, {
    errors: [
      { instancePath: '', keyword: 'required', message: "must have required property 'links'" },
      { instancePath: '/data/0/attributes/is-obsolete', keyword: 'type', message: 'must be boolean' },
      { instancePath: '/data/1', keyword: 'type' },
      { instancePath: '/data/2', keyword: 'type' },
    ],
  });
  expect(schemaProblem('content list', failing, { secret: 'value' })).toBe(
    "does not match the content list schema: (root) must have required property 'links'; /data/0/attributes/is-obsolete must be boolean; /data/1 type; and 1 more",
  );
  expect(schemaProblem('content list', () => true, {})).toBeUndefined();
});

test('rate.headers is judged by the contract judge: headers read in any case, required on a served page, well formed wherever they come', () => {
  const headers = { 'X-Rate-Limit-Limit': '10s', 'X-Rate-Limit-Remaining': '3', 'X-Rate-Limit-Reset': '2026-01-01T00:00:10.1234567Z' };
  const page = { origin: 'api', list: 'content', method: 'GET', url: 'http://api.test/api/v2/content', status: 200, headers, body: '' } as const;
  const rate = (answer: K6Exchange) => judgeRules(answer, NO_SCHEMAS, ['rate.headers']);
  expect(rate(page)).toEqual({ checked: ['rate.headers'], findings: [] });
  expect(rate({ ...page, headers: { ...headers, 'X-Rate-Limit-Remaining': 'many' } }).findings[0]?.message).toMatch(
    /Remaining "many" is not a non-negative integer \(GET http:\/\/api\.test\/api\/v2\/content\)$/,
  );
  // Which refusals carry the headers is the platform's choice; what they say, where they come, is not.
  expect(rate({ ...page, status: 429, headers: {} }).checked).toEqual([]);
  expect(rate({ ...page, status: 429, headers: { ...headers, 'X-Rate-Limit-Remaining': '-1' } }).findings.map((f) => f.rule)).toEqual(['rate.headers']);
});
