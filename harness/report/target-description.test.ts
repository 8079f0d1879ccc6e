/**
 * The target description every report carries: each kind of target named with what the settings
 * say of it, and no secret in it, whatever the settings hold.
 */
import { expect, test } from '@playwright/test';
import { type Env, readConfig } from '../run/config.ts';
import { describeTarget, WITHHELD } from './target-description.ts';

const SECRET = 's3cr3t-of-the-key-9f2c';
const PROVIDER_SECRET = 'provider-s3cr3t-77ab';
const REMOTE: Env = { LP_TARGET: 'remote', LP_CLIENT_ID: 'ci-client-42', LP_CLIENT_SECRET: SECRET };

function everyText(env: Env): string {
  return JSON.stringify(describeTarget(readConfig(env)));
}

test.describe('the target description', () => {
  test('names the embedded mock with its profile, faults, client id and control plane', () => {
    const d = describeTarget(readConfig({ LP_MOCK_PROFILE: 'lenient', LP_MOCK_FAULTS: 'token-expires-in-string', LP_FULL: '1' }));
    expect(d).toBe(
      'embedded mock (profile lenient, faults token-expires-in-string, control plane), client id mock-org-client · LP_QUOTA=0 LP_FULL=1 LP_STRICT=0',
    );
  });

  test('names the default embedded mock as the strict profile without faults', () => {
    const d = describeTarget(readConfig({}));
    expect(d).toBe('embedded mock (profile strict, no faults, control plane), client id mock-org-client · LP_QUOTA=0 LP_FULL=0 LP_STRICT=0');
  });

  test('names betatest with its environment, data center, origins and client id, without a control plane', () => {
    const d = describeTarget(readConfig({ ...REMOTE, LP_ENVIRONMENT: 'betatest', LP_DATA_CENTER: 'eu', LP_QUOTA: '1', LP_STRICT: '1' }));
    expect(d).toBe(
      'remote https://api.eu.betatest.degreed.com (auth https://eu.betatest.degreed.com; betatest, data center eu), client id ci-client-42, no control plane · LP_QUOTA=1 LP_FULL=0 LP_STRICT=1',
    );
  });

  test('names a mock started from its CLI by its origins and control plane, with no environment', () => {
    const d = describeTarget(
      readConfig({ ...REMOTE, LP_AUTH_URL: 'http://127.0.0.1:4010/', LP_BASE_URL: 'http://127.0.0.1:4011', LP_CONTROL_URL: 'http://127.0.0.1:4011/_mock' }),
    );
    expect(d).toBe('remote http://127.0.0.1:4011 (auth http://127.0.0.1:4010), client id ci-client-42, control plane · LP_QUOTA=0 LP_FULL=0 LP_STRICT=0');
  });

  test('names an organization host as production, its data center unknown', () => {
    // A production host is refused unless allowed: the description is of a run that was allowed.
    const d = describeTarget(readConfig({ ...REMOTE, LP_ORG_HOST: 'acme', LP_ALLOW_PRODUCTION: '1' }));
    expect(d).toMatch(/^remote https:\/\/api\.acme\.degreed\.com \(auth [^;]*; production\), client id/);
  });

  test('holds no secret: not the keys’, not one in a URL’s user information, path or query', () => {
    const config = readConfig({
      ...REMOTE,
      LP_ENVIRONMENT: 'betatest',
      LP_PROVIDER_CLIENT_ID: 'provider-id',
      LP_PROVIDER_CLIENT_SECRET: PROVIDER_SECRET,
      LP_PROVIDER_NAME: 'Academy',
    });
    if (config.target.kind !== 'remote') throw new Error('expected a remote target');
    // The settings refuse credentials in a URL; the description does not count on it.
    const target = {
      ...config.target,
      authUrl: `https://user:${SECRET}@auth.example.test/oauth?client_secret=${SECRET}`,
      baseUrl: `https://api.example.test/${SECRET}/v2?key=${SECRET}`,
      controlUrl: `http://127.0.0.1:1/_mock?token=${SECRET}`,
    };
    const text = JSON.stringify(describeTarget({ ...config, target }));
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(PROVIDER_SECRET);
    expect(text).toContain('https://auth.example.test');
    expect(text).toContain('provider-id');
  });

  test('withholds a value that contains a secret (a client id set to the secret)', () => {
    const d = describeTarget(
      readConfig({ ...REMOTE, LP_BASE_URL: 'https://api.example.test', LP_AUTH_URL: 'https://auth.example.test', LP_CLIENT_ID: SECRET }),
    );
    expect(JSON.stringify(d)).not.toContain(SECRET);
    expect(d).toContain(`client id ${WITHHELD}`);
  });

  test('holds none of the embedded mock’s secrets', () => {
    expect(everyText({})).not.toMatch(/mock-(org|provider)-secret/);
  });
});
