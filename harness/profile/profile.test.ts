/**
 * The prober's pieces that need no server: its refusals before any request (a production host, an
 * --out inside the repository but outside reports/), drift, and the shapes it reads off answers.
 */
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { BUILT_IN_PROFILES } from '../../mock/profile.ts';
import type { ProfileFile } from '../../schemas/types.ts';
import { ROOT } from '../../common/root.ts';
import { apiErrorShape, tokenErrorShape } from './auth.ts';
import { cursorForm, fractionDigits } from './content.ts';
import { compareProfiles } from './compare.ts';
import { runProfile } from './cli-run.ts';

const PRODUCTION = {
  LP_TARGET: 'remote',
  LP_AUTH_URL: 'https://degreed.com',
  LP_BASE_URL: 'https://api.degreed.com',
  LP_CLIENT_ID: 'id',
  LP_CLIENT_SECRET: 'secret-value',
};

test('a production host is refused before any request unless LP_ALLOW_PRODUCTION=1', async () => {
  const run = await runProfile([], { ...PRODUCTION, LP_QUOTA: '' });
  expect(run.code, run.log).toBe(2);
  expect(run.log).toContain('The target https://api.degreed.com is production');
  expect(run.log).toContain('LP_ALLOW_PRODUCTION=1');
  expect(run.log).not.toContain('secret-value');
});

test('--out inside the repository must be under reports/', async () => {
  const run = await runProfile(['--out', path.join(ROOT, 'docs', 'profile.json')], { ...PRODUCTION });
  expect(run.code, run.log).toBe(2);
  expect(run.log).toContain('--out must be under reports/');
});

test('drift: only options both profiles name are compared', () => {
  const saved = { ...BUILT_IN_PROFILES.strict } as ProfileFile;
  const observed: ProfileFile = {
    name: 'observed',
    pagination: { finalPage: 'null', self: 'with-query' },
    auth: { contentScopes: ['content:write', 'content:read'] },
  };
  const { drift, undecided } = compareProfiles(saved, observed);
  expect(drift).toEqual([{ option: 'pagination.finalPage', rule: 'envelope.shape', saved: 'absent', observed: 'null' }]);
  expect(undecided).toContain('tokens.badCredentialsStatus');
  expect(undecided).not.toContain('pagination.self');
  expect(compareProfiles({ name: 'x', query: { limitMax: 1000 } }, observed)).toEqual({ drift: [], undecided: ['query.limitMax'] });
});

const answer = (text: string, contentType = 'application/json') => {
  let body: unknown;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { text, body, headers: { 'content-type': contentType } };
};

test('error bodies are read as the shape a profile names', () => {
  const table: { body: ReturnType<typeof answer>; api: string | undefined; token: string | undefined }[] = [
    { body: answer('{"errors":[{"id":"1","code":"x","status":401,"title":"t","detail":"d"}]}'), api: 'errors-array', token: 'errors-array' },
    { body: answer('{"error":"invalid_token","error_description":"d"}'), api: 'rfc6750', token: 'oauth' },
    { body: answer('{"type":"about:blank","title":"Unauthorized","status":401,"detail":"d"}'), api: 'problem-json', token: 'problem-json' },
    { body: answer(''), api: 'empty', token: 'empty' },
    { body: answer('Unauthorized.', 'text/plain'), api: 'text', token: 'text' },
    { body: answer('<html><head><title>401</title></head></html>', 'text/html'), api: 'html', token: 'html' },
    { body: answer('[1,2]'), api: undefined, token: undefined },
  ];
  for (const row of table) {
    expect(apiErrorShape(row.body), row.body.text).toBe(row.api);
    expect(tokenErrorShape(row.body), row.body.text).toBe(row.token);
  }
  const validation = answer(
    '{"type":"https://tools.ietf.org/html/rfc9110#section-15.5.1","title":"One or more validation errors occurred.","status":400,"errors":{"limit":["bad"]}}',
  );
  const problem = answer('{"type":"https://tools.ietf.org/html/rfc9110#section-15.5.2","title":"Unauthorized","status":401,"detail":"d"}');
  expect(apiErrorShape(problem, validation)).toBe('aspnet-validation');
});

test('fractional digits and cursor forms', () => {
  expect(fractionDigits('2022-03-13T21:31:12.44')).toBe(2);
  expect(fractionDigits('2022-03-13T21:31:12')).toBe(0);
  expect(fractionDigits('2021-10-26T20:39:22.1494434Z')).toBe(7);
  expect(fractionDigits('not a time')).toBeUndefined();
  expect(cursorForm('plErSUabcd')).toBe('letters');
  expect(cursorForm('AbC-_0123456789abcdefg')).toBe('base64url');
  expect(cursorForm('plErSU')).toBeUndefined();
});
