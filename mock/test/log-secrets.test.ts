/**
 * The mock's log holds no secret, token or cursor, tested as a user runs it: the CLI with
 * --log, every kind of request that carries one (form and Basic credentials, wrong secrets, bearer
 * tokens, refresh tokens in forms and logout bodies, cursors, credentials misplaced in the query,
 * refused and malformed requests), then everything the process wrote is searched for each of them.
 * It spawns the CLI itself rather than through mock/test/mock-process.ts, which keeps only the request
 * lines and the tail of stderr: a secret in any other line would go unseen.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { json } from './http-fixtures.ts';
import { rawExchange } from './raw-http.ts';
import { ROOT, tsNodeArgs } from '../../common/root.ts';

const CLIENT = { id: 'log-check-client', secret: 'log-check-secret-3f9a1c', scopes: ['content:read', 'users:read'] };
const WRONG_SECRET = 'wrong-secret-b7e2d4';

test('nothing the CLI writes with --log holds a secret, a token or a cursor', async () => {
  test.setTimeout(120_000);
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'mock-log-')), 'clients.json');
  writeFileSync(file, JSON.stringify([CLIENT]));
  const child = spawn(process.execPath, tsNodeArgs('mock/cli.ts', ['--log', '--clients', file]), {
    cwd: ROOT,
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  const secrets: string[] = [CLIENT.secret, WRONG_SECRET];
  try {
    // Starting through tsx takes 4 to 5 s on a loaded 2-core machine: the limit is the one mock/test/mock-process.ts gives a start.
    await expect.poll(() => stdout.includes('\n'), { message: `the mock never printed its URLs; stderr: ${stderr}`, timeout: 60_000 }).toBe(true);
    const { authUrl, baseUrl } = JSON.parse(stdout.slice(0, stdout.indexOf('\n')));
    const form = (fields: Record<string, string>) =>
      fetch(`${authUrl}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) });
    const cc = { grant_type: 'client_credentials', client_id: CLIENT.id, client_secret: CLIENT.secret, scope: 'content:read' };

    const issued = await json(await form(cc));
    const basic = `Basic ${Buffer.from(`${CLIENT.id}:${CLIENT.secret}`).toString('base64')}`;
    const viaBasic = await json(
      await fetch(`${authUrl}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic },
        body: 'grant_type=client_credentials&scope=users:read',
      }),
    );
    secrets.push(issued.access_token, issued.refresh_token, viaBasic.access_token, viaBasic.refresh_token, basic.slice(6));
    expect((await form({ ...cc, client_secret: WRONG_SECRET })).status).toBe(403);
    const refreshed = await json(
      await form({ grant_type: 'refresh_token', client_id: CLIENT.id, client_secret: CLIENT.secret, refresh_token: issued.refresh_token }),
    );
    secrets.push(refreshed.access_token, refreshed.refresh_token);

    const bearer = { authorization: `Bearer ${refreshed.access_token}` };
    const first = await json(await fetch(`${baseUrl}/api/v2/content?limit=1`, { headers: bearer }));
    const cursor = new URL(first.links.next).searchParams.get('next') as string;
    secrets.push(cursor);
    const second = await json(await fetch(first.links.next, { headers: bearer }));
    secrets.push(new URL(second.links.next).searchParams.get('next') as string);
    // Credentials where they do not belong: in the query, in a refused request, in a too-long target.
    await fetch(`${baseUrl}/api/v2/users?access_token=${refreshed.access_token}&client_secret=${CLIENT.secret}`);
    await fetch(`${baseUrl}/api/v2/content?limit=1&next=${cursor}`, { headers: { authorization: `Bearer ${viaBasic.access_token}x` } });
    await rawExchange(baseUrl, Buffer.from(`GET /api/v2/content?next=${cursor}${'x'.repeat(9_000)} HTTP/1.1\r\nHost: x\r\n\r\n`), { timeoutMs: 5_000 });
    await rawExchange(authUrl, Buffer.from(`POST /oauth/token HTTP/1.1\r\nAuthorization: ${basic}\r\nContent-Length: x\r\n\r\n`), { timeoutMs: 5_000 });
    const logout = await fetch(`${baseUrl}/oauth/token`, {
      method: 'POST',
      headers: { ...bearer, 'content-type': 'application/json' },
      body: JSON.stringify({ refresh_token: refreshed.refresh_token }),
    });
    expect(logout.status).toBe(204);
    await expect.poll(() => stderr.split('\n').filter((l) => l.startsWith('api POST /oauth/token 204')).length).toBe(1);
  } finally {
    child.kill('SIGTERM');
  }
  expect(await exited).toBe(0);
  const written = `${stdout}\n${stderr}`;
  expect(written).toMatch(/^auth POST \/oauth\/token 403 /m);
  expect(written).toMatch(/^api GET \/api\/v2\/content 200 /m);
  for (const secret of secrets) {
    expect(typeof secret === 'string' && secret.length >= 8, 'every secret collected is a real value').toBe(true);
    expect(written.includes(secret), `the log holds a value it must not (${secret.slice(0, 4)}…)`).toBe(false);
  }
});
