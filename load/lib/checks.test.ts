import { expect, test } from '@playwright/test';
import { lowerCaseHeaders, rateHeaderProblem, type StandaloneValidator, schemaProblem } from './checks.ts';

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

test('rate-limit headers are read in any case; what is wrong is named', () => {
  const headers = { 'X-Rate-Limit-Limit': '10s', 'X-Rate-Limit-Remaining': '3', 'X-Rate-Limit-Reset': '2026-01-01T00:00:10.1234567Z' };
  expect(rateHeaderProblem(headers)).toBeUndefined();
  expect(lowerCaseHeaders(headers)).toEqual({
    'x-rate-limit-limit': '10s',
    'x-rate-limit-remaining': '3',
    'x-rate-limit-reset': '2026-01-01T00:00:10.1234567Z',
  });
  expect(rateHeaderProblem({ ...headers, 'X-Rate-Limit-Remaining': 'many' })).toMatch(/Remaining "many" is not a non-negative integer/);
});
