/**
 * HTTPS and host names (MockOptions `tls`, `hostNames`): one port serves both origins told apart by
 * Host, as the real service's two hosts are, over a certificate for those names signed by the CA made
 * with it (mock/certificate.ts). The client trusts only that CA and resolves the names to loopback.
 */
import { X509Certificate } from 'node:crypto';
import { get } from 'node:http';
import { makeCertificate, type MockCertificate } from '../certificate.ts';
import { expect, START_MS, test } from './http-fixtures.ts';
import { httpsRequest, httpsToken, loopbackLookup } from './tls-client.ts';

const NAMES = { auth: 'mock.test', api: 'api.mock.test' } as const;

// One certificate for the file: made in tens of milliseconds, but there is no need to make it per test.
let made: MockCertificate;
test.beforeAll(async () => {
  // Valid around the wall clock: clients check it against theirs, not against the mock's.
  made = await makeCertificate([NAMES.auth, NAMES.api, 'localhost', '127.0.0.1', '::1'], Date.now());
});
/** The certificate and key as the mock's tls option, read when a test's mock starts (after beforeAll made them). */
const madeTls = {
  get cert() {
    return made.cert;
  },
  get key() {
    return made.key;
  },
};

test('the certificate is a server certificate for the names, signed by a CA certificate', () => {
  const ca = new X509Certificate(made.caCert);
  const server = new X509Certificate(made.cert);
  expect(ca.ca).toBe(true);
  expect(server.ca).toBe(false);
  expect(server.checkIssued(ca)).toBe(true);
  expect(server.verify(ca.publicKey)).toBe(true);
  for (const name of [NAMES.auth, NAMES.api, 'localhost']) expect(server.checkHost(name), name).toBe(name);
  expect(server.checkIP('127.0.0.1')).toBe('127.0.0.1');
  expect(server.checkHost('other.test')).toBeUndefined();
});

test.describe('one port, two names, over HTTPS', () => {
  test.use({
    mockOptions: { hostNames: NAMES, tls: madeTls },
  });

  test('the URLs name the two hosts on one port; a client trusting the CA gets a token and pages whose links name the api host', async ({ mock }) => {
    const port = new URL(mock.authUrl).port;
    expect(mock.authUrl).toBe(`https://mock.test:${port}`);
    expect(mock.baseUrl).toBe(`https://api.mock.test:${port}`);
    expect(mock.address).toBe(`127.0.0.1:${port}`);
    const token = await httpsToken(mock.authUrl, made.caCert);
    const page = await httpsRequest(`${mock.baseUrl}/api/v2/content?limit=2`, { ca: made.caCert, headers: { authorization: `Bearer ${token}` } });
    expect(page.status).toBe(200);
    const body = JSON.parse(page.text) as { data: unknown[]; links: { next: string } };
    expect(body.data).toHaveLength(2);
    expect(body.links.next.startsWith(`${mock.baseUrl}/api/v2/content?`)).toBe(true);
    const next = await httpsRequest(body.links.next, { ca: made.caCert, headers: { authorization: `Bearer ${token}` } });
    expect(next.status).toBe(200);
    expect(new Date(String(page.headers.date)).getTime()).toBe(START_MS);
  });

  test('each name is its origin: the token endpoint is not on the api host, the content list not on the auth host', async ({ mock }) => {
    const onApi = await httpsRequest(`${mock.baseUrl}/api/v2/content`, { ca: made.caCert });
    expect(onApi.status).toBe(401);
    const onAuth = await httpsRequest(`${mock.authUrl}/api/v2/content`, { ca: made.caCert });
    expect(onAuth.status).toBe(404);
    expect(JSON.parse(onAuth.text)).toMatchObject({ error: 'invalid_request' });
    // Host names are case-insensitive, and a trailing dot names the same host.
    const upper = await httpsRequest(`${mock.baseUrl}/api/v2/content`, { ca: made.caCert, headers: { host: `API.Mock.Test.:${new URL(mock.baseUrl).port}` } });
    expect(upper.status).toBe(401);
  });

  test('another name in Host is a 421 naming the two the port serves', async ({ mock }) => {
    const port = new URL(mock.baseUrl).port;
    const other = await httpsRequest(`https://localhost:${port}/api/v2/content`, { ca: made.caCert });
    expect(other.status).toBe(421);
    expect(JSON.parse(other.text).errors[0]).toMatchObject({
      status: 421,
      code: 'misdirected-request',
      detail: 'This port serves the auth origin as mock.test and the api origin as api.mock.test, not "localhost" (the Host header\'s name).',
    });
  });

  test('a client that does not trust the CA, or asks for a name the certificate lacks, refuses the connection', async ({ mock }) => {
    await expect(httpsRequest(`${mock.baseUrl}/api/v2/content`)).rejects.toMatchObject({ code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' });
    const port = new URL(mock.baseUrl).port;
    await expect(httpsRequest(`https://other.test:${port}/api/v2/content`, { ca: made.caCert })).rejects.toMatchObject({
      code: 'ERR_TLS_CERT_ALTNAME_INVALID',
    });
  });
});

test.describe('two ports over HTTPS (the default layout)', () => {
  test.use({
    mockOptions: { tls: madeTls },
  });

  test('both origins answer at https://127.0.0.1 on ports of their own', async ({ mock }) => {
    expect(mock.authUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(mock.baseUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(mock.baseUrl).not.toBe(mock.authUrl);
    const token = await httpsToken(mock.authUrl, made.caCert);
    const page = await httpsRequest(`${mock.baseUrl}/api/v2/users?limit=1`, { ca: made.caCert, headers: { authorization: `Bearer ${token}` } });
    expect(page.status).toBe(200);
  });
});

test('host names without TLS: plain HTTP on one port', async () => {
  const { createMock } = await import('../app.ts');
  const mock = createMock({ hostNames: NAMES, timeSource: () => START_MS });
  await mock.listen();
  try {
    expect(mock.authUrl).toMatch(/^http:\/\/mock\.test:\d+$/);
    // fetch would not send a Host of our choosing: node:http with the names resolved to loopback does.
    const status = await new Promise<number | undefined>((resolve, reject) =>
      get(`${mock.baseUrl}/api/v2/content`, { lookup: loopbackLookup, agent: false }, (res) => {
        res.resume();
        resolve(res.statusCode);
      }).on('error', reject),
    );
    expect(status).toBe(401);
  } finally {
    await mock.close();
  }
});

test('hostNames refuse the ports of two-port mode, and names that are not host names', async () => {
  const { createMock } = await import('../app.ts');
  expect(() => createMock({ hostNames: NAMES, authPort: 0 })).toThrow(/give port/);
  expect(() => createMock({ port: 4443 })).toThrow(/port is the one port of hostNames/);
  expect(() => createMock({ hostNames: { auth: 'mock.test', api: 'MOCK.test' } })).toThrow(/must differ/);
  expect(() => createMock({ hostNames: { auth: 'mock test', api: 'api.mock.test' } })).toThrow(/hostNames\.auth must be a host name/);
});
