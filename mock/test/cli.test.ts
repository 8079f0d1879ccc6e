/**
 * The CLI as a user runs it (`npm run mock -- …` is `tsx mock/cli.ts …`): one JSON
 * line once listening, a working token and listing, a clean stop on SIGTERM, exit 2 on a bad flag.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { json } from './http-fixtures.ts';
import { httpsRequest, httpsToken } from './tls-client.ts';
import { makeCertificate } from '../certificate.ts';
import { ROOT, tsNodeArgs } from '../../common/root.ts';

// Each test starts a CLI process: one at a time keeps the machine free for the other workers.
test.describe.configure({ mode: 'serial' });

function start(args: string[]): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, tsNodeArgs('mock/cli.ts', args), { cwd: ROOT, env: { ...process.env, NODE_OPTIONS: '' } });
}

/** The first stdout line, or the process's exit with its stderr when it stops first. */
function firstLine(child: ChildProcessWithoutNullStreams): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk;
    });
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk;
      const newline = out.indexOf('\n');
      if (newline >= 0) resolve(out.slice(0, newline));
    });
    child.on('exit', (code) => reject(new Error(`the mock exited with ${code} before printing its line; stderr: ${err}`)));
  });
}

function exited(child: ChildProcessWithoutNullStreams): Promise<{ code: number | null; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk;
  });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

test('prints one JSON line, serves a token and both listings, and exits 0 on SIGTERM', async () => {
  const child = start(['--auth-port', '0', '--api-port', '0', '--log']);
  const done = exited(child);
  try {
    const line = await firstLine(child);
    const urls = JSON.parse(line);
    expect(Object.keys(urls)).toEqual(['authUrl', 'baseUrl', 'controlUrl', 'profile']);
    expect(urls.profile).toBe('strict');
    expect(urls.authUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(urls.controlUrl).toBe(`${urls.baseUrl}/_mock`);

    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: 'mock-org-client',
      client_secret: 'mock-org-secret',
      scope: 'content:read,users:read',
    });
    const tokenRes = await fetch(`${urls.authUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
    });
    expect(tokenRes.status).toBe(200);
    const { access_token } = await json(tokenRes);
    for (const resource of ['content', 'users']) {
      const res = await fetch(`${urls.baseUrl}/api/v2/${resource}?limit=2`, { headers: { authorization: `Bearer ${access_token}` } });
      expect(res.status, resource).toBe(200);
      expect((await json(res)).data).toHaveLength(2);
    }
  } finally {
    child.kill('SIGTERM');
  }
  const { code, stdout, stderr } = await done;
  expect(code).toBe(0);
  expect(stdout.trim().split('\n')).toHaveLength(1);
  // --log: one line per request on stderr, without the token or the secret.
  expect(stderr).toMatch(/^auth POST \/oauth\/token 200 /m);
  expect(stderr).toMatch(/^api GET \/api\/v2\/users 200 /m);
  expect(stderr).not.toContain('mock-org-secret');
});

test('a clients file replaces the default keys; --no-control prints controlUrl null', async () => {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'mock-cli-')), 'clients.json');
  writeFileSync(file, JSON.stringify([{ id: 'file-key', secret: 'file-secret', scopes: ['users:read'], rate: '5/1m' }]));
  const child = start(['--clients', file, '--no-control']);
  const done = exited(child);
  try {
    const urls = JSON.parse(await firstLine(child));
    expect(urls.controlUrl).toBeNull();
    const form = (id: string, secret: string) =>
      new URLSearchParams({ grant_type: 'client_credentials', client_id: id, client_secret: secret, scope: 'users:read' });
    const post = (body: URLSearchParams) =>
      fetch(`${urls.authUrl}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
    expect((await post(form('file-key', 'file-secret'))).status).toBe(200);
    expect((await post(form('mock-org-client', 'mock-org-secret'))).status).toBe(403);
  } finally {
    child.kill('SIGINT');
  }
  expect((await done).code).toBe(0);
});

test('--profile lenient: the control plane reports it, and flags override its options', async () => {
  const child = start(['--profile', 'lenient', '--rate', '9/1m']);
  const done = exited(child);
  try {
    const urls = JSON.parse(await firstLine(child));
    expect(urls.profile).toBe('lenient');
    const profile = await json(await fetch(`${urls.controlUrl}/profile`));
    expect(profile).toMatchObject({ name: 'lenient', pagination: { nextLink: 'cursor-only' }, rateLimit: { rate: '9/1m', window: 'sliding' } });
  } finally {
    child.kill('SIGTERM');
  }
  expect((await done).code).toBe(0);
});

test('--tls --host-name: one https port for both names, the CA file in the line, removed when the mock stops', async () => {
  const child = start(['--tls', '--host-name', 'mock.test', '--log']);
  const done = exited(child);
  let caFile: string | undefined;
  try {
    const line = JSON.parse(await firstLine(child));
    expect(Object.keys(line)).toEqual(['authUrl', 'baseUrl', 'controlUrl', 'profile', 'caFile', 'address']);
    const port = new URL(line.authUrl).port;
    expect(line).toMatchObject({ authUrl: `https://mock.test:${port}`, baseUrl: `https://api.mock.test:${port}`, address: `127.0.0.1:${port}` });
    caFile = line.caFile;
    const ca = readFileSync(line.caFile, 'utf8');
    expect(new X509Certificate(ca).ca).toBe(true);
    const token = await httpsToken(line.authUrl, ca);
    const page = await httpsRequest(`${line.baseUrl}/api/v2/content?limit=1`, { ca, headers: { authorization: `Bearer ${token}` } });
    expect(page.status).toBe(200);
    expect((await httpsRequest(`${line.controlUrl}/clock`, { ca })).status).toBe(200);
  } finally {
    child.kill('SIGTERM');
  }
  const { code, stderr } = await done;
  expect(code).toBe(0);
  expect(caFile).toBeDefined();
  expect(existsSync(caFile as string)).toBe(false);
  // Each request is logged under the origin its Host named.
  expect(stderr).toMatch(/^auth POST \/oauth\/token 200 /m);
  expect(stderr).toMatch(/^api GET \/api\/v2\/content 200 /m);
  expect(stderr).toMatch(/^api GET \/_mock\/clock 200 /m);
});

test('--cert and --key: the certificate given is served, and caFile is null', async () => {
  const folder = mkdtempSync(path.join(tmpdir(), 'mock-cli-tls-'));
  const made = await makeCertificate(['localhost', '127.0.0.1'], Date.now());
  writeFileSync(path.join(folder, 'cert.pem'), made.cert);
  writeFileSync(path.join(folder, 'key.pem'), made.key);
  const child = start(['--cert', path.join(folder, 'cert.pem'), '--key', path.join(folder, 'key.pem')]);
  const done = exited(child);
  try {
    const line = JSON.parse(await firstLine(child));
    expect(line.caFile).toBeNull();
    expect(line.authUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    await httpsToken(line.authUrl, made.caCert);
  } finally {
    child.kill('SIGTERM');
  }
  expect((await done).code).toBe(0);
});

// A fixed path: the test's title names it, and titles must be the same in every worker.
const badProfile = path.join(tmpdir(), 'lp-mock-cli-bad-profile.json');
writeFileSync(badProfile, JSON.stringify({ extends: 'platform', pagination: { finalPage: 'last' } }));

test.describe('refusing to start', () => {
  for (const { args, message, code } of [
    {
      args: ['--profile', badProfile],
      message: new RegExp(
        `^Profile file ${badProfile.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: pagination\\.finalPage must be one of "absent", "null", "empty-string", "trailing-empty-page", got "last"\\.$`,
      ),
      code: 2,
    },
    {
      args: ['--profile', 'betatest'],
      message: /^Profile "betatest" is neither a built-in profile \(strict, platform, lenient\) nor a readable file \(no such file\)\.$/,
      code: 2,
    },
    { args: ['--auth-port', 'x'], message: /^--auth-port must be an integer from 0 to 65535, got "x"\.$/, code: 2 },
    { args: ['--bogus'], message: /^Unknown flag "--bogus"; run with --help for the list of flags\.$/, code: 2 },
    { args: ['--cert', '/nonexistent/cert.pem', '--key', '/nonexistent/key.pem'], message: /^--cert \/nonexistent\/cert\.pem: no such file\.$/, code: 2 },
    { args: ['--clients', '/nonexistent/clients.json'], message: /^Cannot read the clients file \/nonexistent\/clients\.json \(ENOENT\)\.$/, code: 2 },
  ]) {
    test(`${args.join(' ')}: exit ${code} with one sentence`, async () => {
      const result = await exited(start(args));
      expect(result.code).toBe(code);
      expect(result.stdout).toBe('');
      expect(result.stderr.trimEnd()).toMatch(message);
    });
  }
});
