/**
 * The mock's limits have clear answers: a body over 64 KiB gets 413, a request-target
 * over 8 KiB 414, a head over 16 KiB 431, each with the origin's JSON error body; and a slow or
 * idle client cannot hold a connection: the timeouts close it. The timeouts are shortened through
 * MockOptions so that these tests take a second; they assert only that the socket was closed.
 */
import { connect, type Socket } from 'node:net';
import { createMock } from '../app.ts';
import { MAX_BODY_BYTES } from '../http.ts';
import { expect, getToken, START_MS, test } from './http-fixtures.ts';
import { type RawOutcome, type RawResponse, rawExchange } from './raw-http.ts';

const send = (origin: string, request: string | Buffer) =>
  rawExchange(origin, Buffer.isBuffer(request) ? request : Buffer.from(request, 'latin1'), { timeoutMs: 5_000 });

function response(outcome: RawOutcome): RawResponse {
  if (outcome.kind !== 'response') throw new Error(`expected a response, got ${outcome.kind}: ${outcome.detail}`);
  return outcome;
}

/** The api origin's error, checked to be one; returns errors[0]. */
function apiError(outcome: RawOutcome, status: number): Record<string, unknown> {
  const res = response(outcome);
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const error = JSON.parse(res.body.toString('utf8')).errors[0];
  expect(error).toMatchObject({ status, code: expect.any(String), detail: expect.any(String) });
  return error;
}

/** The auth origin's OAuth error, checked to be one. */
function oauthError(outcome: RawOutcome, status: number): { error: string; error_description: string } {
  const res = response(outcome);
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const body = JSON.parse(res.body.toString('utf8'));
  expect(body).toEqual({ error: 'invalid_request', error_description: expect.any(String) });
  return body;
}

const FORM_HEAD = (length: number | 'chunked') =>
  `POST /oauth/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n${length === 'chunked' ? 'Transfer-Encoding: chunked' : `Content-Length: ${length}`}\r\n\r\n`;

test.describe('body size: 413', () => {
  test('a declared Content-Length over the cap is refused before the body is read', async ({ mock }) => {
    const body = oauthError(await send(mock.authUrl, FORM_HEAD(MAX_BODY_BYTES + 1)), 413);
    expect(body.error_description).toContain(`larger than ${MAX_BODY_BYTES} bytes`);
  });

  test('a chunked body that grows past the cap is refused, and the connection closed', async ({ mock }) => {
    const chunk = 'a'.repeat(16 * 1024);
    const chunks = Array.from({ length: 5 }, () => `${chunk.length.toString(16)}\r\n${chunk}\r\n`).join('');
    const outcome = await send(mock.authUrl, `${FORM_HEAD('chunked')}${chunks}0\r\n\r\n`);
    oauthError(outcome, 413);
    expect(response(outcome).headers.connection).toBe('close');
  });

  test('a body at the cap is read (and refused for what it says, not for its size)', async ({ mock }) => {
    const body = 'x'.repeat(MAX_BODY_BYTES);
    const error = oauthError(await send(mock.authUrl, `${FORM_HEAD(body.length)}${body}`), 400);
    expect(error.error_description).toContain('grant_type is missing');
  });

  test('control plane: 413 in the api shape', async ({ mock }) => {
    const body = 'x'.repeat(MAX_BODY_BYTES + 10);
    apiError(await send(mock.baseUrl, `POST /_mock/content HTTP/1.1\r\nHost: x\r\nContent-Length: ${body.length}\r\n\r\n${body}`), 413);
  });
});

test.describe('request-target length: 414', () => {
  for (const length of [9 * 1024, 20 * 1024]) {
    test(`a ${length / 1024} KiB target, on both origins`, async ({ mock }) => {
      const target = `/api/v2/content?limit=${'1'.repeat(length)}`;
      const error = apiError(await send(mock.baseUrl, `GET ${target} HTTP/1.1\r\nHost: x\r\n\r\n`), 414);
      expect(error.detail).toContain('request target is longer than 8192 bytes');
      oauthError(await send(mock.authUrl, `POST /oauth/token?${'x'.repeat(length)} HTTP/1.1\r\nHost: x\r\n\r\n`), 414);
    });
  }

  test('a long target within the limit is read, and answered for what it says', async ({ mock }) => {
    const { access_token } = await getToken(mock);
    const target = `/api/v2/content?limit=${'0'.repeat(7_000)}1`;
    const error = apiError(await send(mock.baseUrl, `GET ${target} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${access_token}\r\n\r\n`), 400);
    expect(error.source).toEqual({ parameter: 'limit' });
  });
});

test.describe('head size: 431', () => {
  test('one huge header, on both origins', async ({ mock }) => {
    const huge = `X-Huge: ${'h'.repeat(20_000)}\r\n`;
    apiError(await send(mock.baseUrl, `GET /api/v2/content HTTP/1.1\r\nHost: x\r\n${huge}\r\n`), 431);
    oauthError(await send(mock.authUrl, `POST /oauth/token HTTP/1.1\r\nHost: x\r\n${huge}\r\n`), 431);
  });

  test('many small headers adding up', async ({ mock }) => {
    const many = Array.from({ length: 1_000 }, (_, i) => `X-Many-${i}: vvvvvvvvvv\r\n`).join('');
    apiError(await send(mock.baseUrl, `GET /api/v2/content HTTP/1.1\r\nHost: x\r\n${many}\r\n`), 431);
  });
});

test.describe('what node would answer without a body gets one', () => {
  test('an HTTP/1.1 request without Host: 400 naming Host; HTTP/1.0 needs none', async ({ mock }) => {
    const error = apiError(await send(mock.baseUrl, 'GET /api/v2/content HTTP/1.1\r\n\r\n'), 400);
    expect(error.detail).toContain('Host header');
    oauthError(await send(mock.authUrl, 'POST /oauth/token HTTP/1.1\r\n\r\n'), 400);
    expect(response(await send(mock.baseUrl, 'GET /api/v2/content HTTP/1.0\r\n\r\n')).status).toBe(401);
  });

  test('CONNECT: 405 on both origins', async ({ mock }) => {
    apiError(await send(mock.baseUrl, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n'), 405);
    const auth = response(await send(mock.authUrl, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n'));
    expect(JSON.parse(auth.body.toString('utf8'))).toMatchObject({ error: 'invalid_request' });
  });

  test('an Expect other than 100-continue: 417; 100-continue goes on', async ({ mock }) => {
    apiError(await send(mock.baseUrl, 'POST /oauth/token HTTP/1.1\r\nHost: x\r\nExpect: nothing-else\r\nContent-Length: 0\r\n\r\n'), 417);
    const form = 'grant_type=client_credentials&client_id=mock-org-client&client_secret=mock-org-secret&scope=content:read';
    const outcome = await send(mock.authUrl, `${FORM_HEAD(form.length).replace('\r\n\r\n', '\r\nExpect: 100-continue\r\n\r\n')}${form}`);
    expect(response(outcome).status).toBe(200);
  });
});

/** Resolves once the server closes `socket` (end or reset); the writer stops then. */
function closedByServer(socket: Socket): Promise<string> {
  let received = '';
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => {
    received += chunk;
  });
  return new Promise((resolve) => {
    socket.on('close', () => resolve(received));
    socket.on('error', () => {});
  });
}

/** Writes `pieces` one at a time, `gapMs` apart, while the socket is open; at most `pieces.length` writes. */
async function trickle(socket: Socket, pieces: string[], gapMs: number): Promise<void> {
  for (const piece of pieces) {
    if (socket.destroyed || !socket.writable) return;
    socket.write(piece);
    await new Promise((r) => setTimeout(r, gapMs));
  }
}

test.describe('a slow or idle client cannot hold the server', () => {
  test.use({ mockOptions: { timeouts: { headersMs: 300, requestMs: 600, keepAliveMs: 300, checkIntervalMs: 50 } } });

  const open = (url: string) => {
    const { hostname, port } = new URL(url);
    return new Promise<Socket>((resolve, reject) => {
      const socket = connect(Number(port), hostname, () => resolve(socket));
      socket.once('error', reject);
    });
  };

  test('slowloris: a head sent a few bytes at a time, never finished, is cut off (408)', async ({ mock }) => {
    const socket = await open(mock.baseUrl);
    const closed = closedByServer(socket);
    // 200 pieces 50 ms apart would take 10 s: the server must close the socket long before.
    const pieces = ['GET /api/v2/content HTTP/1.1\r\n', 'Host: x\r\n', ...Array.from({ length: 198 }, (_, i) => `X-${i}: y\r\n`)];
    await Promise.race([trickle(socket, pieces, 50), closed]);
    const received = await closed;
    expect(socket.destroyed).toBe(true);
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
    socket.destroy();
  });

  test('a body sent a byte at a time is cut off', async ({ mock }) => {
    const socket = await open(mock.authUrl);
    const closed = closedByServer(socket);
    socket.write(FORM_HEAD(200));
    await Promise.race([
      trickle(
        socket,
        Array.from({ length: 200 }, () => 'a'),
        50,
      ),
      closed,
    ]);
    await closed;
    expect(socket.destroyed).toBe(true);
  });

  test('a connection that sends nothing is closed', async ({ mock }) => {
    const socket = await open(mock.baseUrl);
    await closedByServer(socket);
    expect(socket.destroyed).toBe(true);
  });

  test('an idle keep-alive connection is closed after its answer', async ({ mock }) => {
    const socket = await open(mock.baseUrl);
    const closed = closedByServer(socket);
    socket.write('GET /api/v2/content HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(await closed).toMatch(/^HTTP\/1\.1 401 /);
  });
});

test('timeouts are checked: headersMs over requestMs is refused', () => {
  expect(() => createMock({ timeSource: () => START_MS, timeouts: { headersMs: 2_000, requestMs: 1_000 } })).toThrow(
    /timeouts.requestMs must be an integer from 2000/,
  );
});
