/**
 * Spending the quota safely: the production guard of tests that spend the rate budget, and the configuration reader's refusals (one sentence naming the
 * variable). Both are tested as functions: nothing here calls a real service.
 */
import { ConfigError, type Env, productionRefusal, readConfig } from '../../harness/run/config.ts';
import { expect, TAGS, test } from '../fixtures/index.ts';

const REMOTE: Env = {
  LP_TARGET: 'remote',
  LP_AUTH_URL: 'http://127.0.0.1:1',
  LP_BASE_URL: 'http://127.0.0.1:2',
  LP_CLIENT_ID: 'id',
  LP_CLIENT_SECRET: 'secret-value',
};

test.describe('the production guard', { tag: TAGS.self }, () => {
  for (const { urls, allow, refused } of [
    { urls: { authUrl: 'https://degreed.com', baseUrl: 'https://api.degreed.com' }, allow: false, refused: true },
    { urls: { authUrl: 'https://acme.degreed.com', baseUrl: 'https://api.acme.degreed.com' }, allow: false, refused: true },
    { urls: { authUrl: 'https://eu.degreed.com', baseUrl: 'https://api.eu.degreed.com' }, allow: true, refused: false },
    { urls: { authUrl: 'https://betatest.degreed.com', baseUrl: 'https://api.betatest.degreed.com' }, allow: false, refused: false },
    { urls: { authUrl: 'http://127.0.0.1:4010', baseUrl: 'http://127.0.0.1:4011' }, allow: false, refused: false },
  ])
    test(`${refused ? 'refuses' : 'allows'} ${urls.baseUrl}${allow ? ' with LP_ALLOW_PRODUCTION=1' : ''}`, () => {
      const refusal = productionRefusal(urls, allow);
      if (refused) expect(refusal).toMatch(/LP_ALLOW_PRODUCTION=1/);
      else expect(refusal).toBeUndefined();
    });
  test('stops any run against production without LP_ALLOW_PRODUCTION=1, budget-spending or not', () => {
    const env = { ...REMOTE, LP_AUTH_URL: undefined, LP_BASE_URL: undefined, LP_ENVIRONMENT: 'production', LP_DATA_CENTER: 'eu' };
    expect(() => readConfig(env)).toThrow(/^The target https:\/\/api\.eu\.degreed\.com is production: .*LP_ALLOW_PRODUCTION=1\.$/);
    expect(() => readConfig({ ...env, LP_QUOTA: '1' })).toThrow(/LP_ALLOW_PRODUCTION=1\.$/);
    expect(readConfig({ ...env, LP_ALLOW_PRODUCTION: '1' }).target.kind).toBe('remote');
  });
  test('refuses remote settings without LP_TARGET instead of testing the embedded mock', () => {
    const { LP_TARGET: _target, ...env } = REMOTE;
    expect(() => readConfig(env)).toThrow(/^LP_TARGET is not set but .*LP_CLIENT_ID.* set LP_TARGET=remote to test it, or LP_TARGET=mock/);
    expect(readConfig({ ...env, LP_TARGET: 'mock' }).target.kind).toBe('mock');
  });
  test('refuses a scope declared both held and unheld', () => {
    expect(() => readConfig({ ...REMOTE, LP_SCOPES: 'content:read', LP_UNHELD_SCOPES: 'content:read' })).toThrow(/^LP_UNHELD_SCOPES names content:read/);
  });
});

test.describe('a missing or malformed setting stops the run with one sentence naming the variable', { tag: TAGS.self }, () => {
  for (const { variable, env } of [
    { variable: 'LP_TARGET', env: { LP_TARGET: 'staging' } },
    { variable: 'LP_CLIENT_ID', env: { ...REMOTE, LP_CLIENT_ID: undefined } },
    { variable: 'LP_CLIENT_SECRET', env: { ...REMOTE, LP_CLIENT_SECRET: '' } },
    { variable: 'LP_BASE_URL', env: { ...REMOTE, LP_BASE_URL: undefined } },
    { variable: 'LP_AUTH_URL', env: { ...REMOTE, LP_AUTH_URL: 'ftp://example.com' } },
    { variable: 'LP_ENVIRONMENT', env: { ...REMOTE, LP_ENVIRONMENT: 'prod' } },
    { variable: 'LP_DATA_CENTER', env: { ...REMOTE, LP_DATA_CENTER: 'asia' } },
    { variable: 'LP_SCOPES', env: { ...REMOTE, LP_SCOPES: 'content read' } },
    { variable: 'LP_PROVIDER_NAME', env: { ...REMOTE, LP_PROVIDER_CLIENT_ID: 'p', LP_PROVIDER_CLIENT_SECRET: 'ps' } },
    { variable: 'LP_QUOTA', env: { LP_QUOTA: 'yes' } },
    { variable: 'LP_TOKEN_LIFETIME', env: { ...REMOTE, LP_TOKEN_LIFETIME: '60 days' } },
    { variable: 'LP_PROPERTY_RUNS', env: { LP_PROPERTY_RUNS: '0' } },
    { variable: 'LP_MOCK_FAULTS', env: { LP_MOCK_FAULTS: 'no-such-fault' } },
  ])
    test(variable, () => {
      let error: unknown;
      try {
        readConfig(env);
      } catch (thrown) {
        error = thrown;
      }
      expect(error).toBeInstanceOf(ConfigError);
      const message = (error as Error).message;
      expect(message.startsWith(variable), `"${message}" starts with ${variable}`).toBe(true);
      expect(message, 'one sentence').toMatch(/^[^\n]+\.$/);
      expect(message, 'the secret is never quoted').not.toContain(REMOTE.LP_CLIENT_SECRET);
    });
  test('the defaults need no setting at all: the embedded mock', () => {
    expect(readConfig({}).target).toEqual({ kind: 'mock', faults: [] });
  });
});
