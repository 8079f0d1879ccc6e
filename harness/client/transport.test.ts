/**
 * The transport against a server that resets the connection under the first request, as a server
 * does when its keep-alive timeout closes the connection a request was just written on.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { RateGovernor } from './throttle.ts';
import { Transport } from './transport.ts';

let server: Server;
let origin: string;
/** Requests the server has read, per method. */
const seen: string[] = [];

test.beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(req.method ?? '');
    // The first request of each method is reset unanswered; the next one is answered.
    if (seen.filter((m) => m === req.method).length === 1) {
      req.socket.destroy();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

test('a GET reset before any answer is sent once more, and answered', async () => {
  const transport = new Transport({ governor: new RateGovernor() });
  const response = await transport.send({ method: 'GET', url: `${origin}/api/v2/content` });
  expect(response.status).toBe(200);
  expect(seen.filter((m) => m === 'GET')).toHaveLength(2);
});

test('a POST reset before any answer is not sent again: the error names the request, not the service', async () => {
  const transport = new Transport({ governor: new RateGovernor() });
  await expect(transport.send({ method: 'POST', url: `${origin}/oauth/token`, body: 'grant_type=client_credentials' })).rejects.toThrow(
    /^POST http:\/\/127\.0\.0\.1:\d+\/oauth\/token got no response: /,
  );
  expect(seen.filter((m) => m === 'POST')).toHaveLength(1);
});
