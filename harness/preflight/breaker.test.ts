/**
 * The run's breaker (harness/run/breaker.ts) as two workers share it through its files: it trips on
 * consecutive connection failures or refusals of the key, across workers and their restarts, never on
 * failures an answer came between, and the first sentence stays.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { BREAKER_LIMIT, Breaker, resetBreaker, trippedSentence } from '../run/breaker.ts';

const TARGET = { authUrl: 'http://127.0.0.1:4010', baseUrl: 'http://127.0.0.1:4011', authSetting: 'LP_AUTH_URL', baseSetting: 'LP_BASE_URL' };

function freshDir(): string {
  return mkdtempSync(path.join(tmpdir(), 'lp-breaker-'));
}

test('consecutive connection failures across workers trip it, naming the setting of the URL', () => {
  const dir = freshDir();
  const [a, b] = [new Breaker(dir, TARGET), new Breaker(dir, TARGET)];
  a.answered();
  for (let i = 0; i < BREAKER_LIMIT - 1; i++) (i % 2 === 0 ? a : b).connectionFailed(`${TARGET.baseUrl}/api/v2/content`, 'ECONNREFUSED');
  expect(a.tripped()).toBeUndefined();
  // A worker restarted after a failure starts with a breaker of its own: the count lives in the file.
  new Breaker(dir, TARGET).connectionFailed(`${TARGET.baseUrl}/api/v2/users`, 'ECONNREFUSED');
  expect(trippedSentence(dir)).toMatch(/^LP_BASE_URL: http:\/\/127\.0\.0\.1:4011 stopped answering .*no new token is requested\.$/);
  expect(b.tripped()).toBe(trippedSentence(dir));
});

test('an answer between failures keeps it closed', () => {
  const dir = freshDir();
  const a = new Breaker(dir, TARGET);
  for (let i = 0; i < BREAKER_LIMIT * 2; i++) {
    a.connectionFailed(`${TARGET.authUrl}/oauth/token`, 'ECONNRESET');
    if (i % 2 === 1) a.answered();
  }
  expect(a.tripped()).toBeUndefined();
});

test('consecutive refusals of the key trip it with LP_CLIENT_ID or LP_CLIENT_SECRET; a token between them keeps it closed', () => {
  const dir = freshDir();
  const a = new Breaker(dir, TARGET);
  a.credentialRefused('401 {"error":"invalid_client"}');
  a.credentialAccepted();
  for (let i = 0; i < BREAKER_LIMIT - 1; i++) a.credentialRefused('401 {"error":"invalid_client"}');
  expect(a.tripped()).toBeUndefined();
  a.credentialRefused('401 {"error":"invalid_client"}');
  expect(a.tripped()).toMatch(/^LP_CLIENT_ID or LP_CLIENT_SECRET: the token endpoint refused the key 3 times in a row/);
  // The first sentence stays; a new run starts closed.
  a.connectionFailed(`${TARGET.baseUrl}/x`, 'x');
  expect(a.tripped()).toMatch(/^LP_CLIENT_ID/);
  resetBreaker(dir);
  expect(a.tripped()).toBeUndefined();
});
