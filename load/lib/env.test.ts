import { expect, test } from '@playwright/test';
import { DEFAULT_RATE } from '../../contracts/limits.ts';
import { readDefaulted } from '../../common/settings.ts';
import { readTargetHosts } from '../../common/target-settings.ts';
import { EnvError, type EnvRecord, readLoadEnv, readRate } from './env.ts';

const readTarget = (env: EnvRecord) => readTargetHosts(env, (name) => `${name} is not set.`);

const MOCK: EnvRecord = {
  LP_AUTH_URL: 'http://127.0.0.1:4010',
  LP_BASE_URL: 'http://127.0.0.1:4011/',
  LP_CLIENT_ID: 'mock-org-client',
  LP_CLIENT_SECRET: 'mock-org-secret',
};

function failure(env: EnvRecord): string {
  try {
    readLoadEnv(env);
  } catch (error) {
    expect(error).toBeInstanceOf(EnvError);
    return (error as Error).message;
  }
  throw new Error('expected readLoadEnv to throw');
}

test.describe('the LP_* reader', () => {
  test('explicit URLs, defaults for scopes and rate', () => {
    expect(readLoadEnv(MOCK)).toEqual({
      authUrl: 'http://127.0.0.1:4010',
      baseUrl: 'http://127.0.0.1:4011',
      production: false,
      clientId: 'mock-org-client',
      clientSecret: 'mock-org-secret',
      scopes: ['content:read', 'users:read'],
      rate: DEFAULT_RATE,
      reportDir: 'reports/load',
    });
  });

  test('environment and data center resolve through the host table; an org host through its scheme', () => {
    expect(readTarget({ LP_ENVIRONMENT: 'betatest', LP_DATA_CENTER: 'EU' })).toEqual({
      authUrl: 'https://eu.betatest.degreed.com',
      baseUrl: 'https://api.eu.betatest.degreed.com',
      production: false,
    });
    expect(readTarget({ LP_ORG_HOST: 'acme' })).toEqual({ authUrl: 'https://acme.degreed.com', baseUrl: 'https://api.acme.degreed.com', production: true });
  });

  test('LP_SCOPES and LP_RATE are read', () => {
    expect(readLoadEnv({ ...MOCK, LP_SCOPES: 'content:read content:write' }).scopes).toEqual(['content:read', 'content:write']);
    expect(readRate({ LP_RATE: '20/10s' })).toEqual({ requests: 20, periodSeconds: 10, period: '10s' });
    expect(readRate({ LP_RATE: '0' })).toBeNull();
  });

  for (const { name, env, message } of [
    { name: 'no target', env: { LP_CLIENT_ID: 'a', LP_CLIENT_SECRET: 'b' }, message: /^LP_BASE_URL is not set/ },
    { name: 'no client id', env: { ...MOCK, LP_CLIENT_ID: ' ' }, message: /^LP_CLIENT_ID is not set/ },
    { name: 'no client secret', env: { ...MOCK, LP_CLIENT_SECRET: undefined }, message: /^LP_CLIENT_SECRET is not set/ },
    { name: 'a relative URL', env: { ...MOCK, LP_BASE_URL: '/api' }, message: /^LP_BASE_URL must be an absolute http\(s\) URL/ },
    {
      name: 'an unknown environment',
      env: { ...MOCK, LP_ENVIRONMENT: 'staging' },
      message: /^LP_ENVIRONMENT must be one of betatest, production, got "staging"/,
    },
    {
      name: 'an unknown data center',
      env: { LP_ENVIRONMENT: 'betatest', LP_DATA_CENTER: 'ap' },
      message: /^LP_DATA_CENTER must be one of us, eu, ca, got "ap"/,
    },
    { name: 'a malformed rate', env: { ...MOCK, LP_RATE: '20 per 10s' }, message: /^LP_RATE must be a rate like 200\/1m/ },
    { name: 'empty scopes', env: { ...MOCK, LP_SCOPES: ' , ' }, message: /^LP_SCOPES must be a comma-delimited list of scopes/ },
    { name: 'a vague production flag', env: { ...MOCK, LP_ALLOW_PRODUCTION: 'yes' }, message: /^LP_ALLOW_PRODUCTION must be 1 or 0, got "yes"/ },
  ]) {
    test(`${name} is refused with a sentence naming the variable`, () => expect(failure(env)).toMatch(message));
  }

  test('the client secret never appears in a message', () => {
    const secret = 'super-secret-value';
    for (const env of [
      { ...MOCK, LP_CLIENT_SECRET: secret, LP_RATE: 'bad' },
      { ...MOCK, LP_CLIENT_SECRET: secret, LP_BASE_URL: 'https://api.degreed.com' },
    ]) {
      expect(failure(env)).not.toContain(secret);
    }
  });
});

test.describe('the production guard', () => {
  for (const { name, env } of [
    { name: 'LP_ENVIRONMENT=production', env: { ...MOCK, LP_AUTH_URL: undefined, LP_BASE_URL: undefined, LP_ENVIRONMENT: 'production' } },
    { name: 'a production API host', env: { ...MOCK, LP_BASE_URL: 'https://api.eu.degreed.com' } },
    { name: 'a production token host', env: { ...MOCK, LP_AUTH_URL: 'https://degreed.com' } },
    { name: 'an organization host', env: { ...MOCK, LP_AUTH_URL: undefined, LP_BASE_URL: undefined, LP_ORG_HOST: 'acme' } },
  ]) {
    test(`refuses ${name} without LP_ALLOW_PRODUCTION=1`, () => {
      expect(failure(env)).toMatch(/is production: .* refused unless LP_ALLOW_PRODUCTION=1/);
      expect(readLoadEnv({ ...env, LP_ALLOW_PRODUCTION: '1' }).production).toBe(true);
    });
  }

  test('betatest and local targets need no flag', () => {
    expect(readLoadEnv({ ...MOCK, LP_AUTH_URL: undefined, LP_BASE_URL: undefined, LP_ENVIRONMENT: 'betatest' }).production).toBe(false);
  });
});

test('numbers and flags are read as the suite reads them', () => {
  // The default is the table's (common/settings.ts), the only one.
  expect(readDefaulted({}, 'LP_VUS')).toBe(5);
  expect(readDefaulted({}, 'LP_ITERATIONS')).toBe(3);
  expect(readDefaulted({ LP_VUS: '7' }, 'LP_VUS')).toBe(7);
  expect(() => readDefaulted({ LP_ITERATIONS: '700' }, 'LP_ITERATIONS')).toThrow(/^LP_ITERATIONS must be a whole number from 1 to 100/);
  expect(() => readDefaulted({ LP_VUS: '1.5' }, 'LP_VUS')).toThrow(/^LP_VUS must be a whole number/);
  // `true` is yes for both.
  expect(readLoadEnv({ ...MOCK, LP_AUTH_URL: 'https://degreed.com', LP_ALLOW_PRODUCTION: 'true' }).production).toBe(true);
  expect(() => readLoadEnv({ ...MOCK, LP_AUTH_URL: 'https://degreed.com', LP_ALLOW_PRODUCTION: '' })).toThrow(/LP_ALLOW_PRODUCTION=1/);
  expect(() => readLoadEnv({ ...MOCK, LP_ALLOW_PRODUCTION: 'yes' })).toThrow(/^LP_ALLOW_PRODUCTION must be 1 or 0/);
});
