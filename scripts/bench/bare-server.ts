/**
 * The throughput baseline: a bare node:http server that answers every request with one reply captured
 * from the mock (status, the headers the mock sets, body), so both write the same bytes. Nothing is
 * parsed or built per request; the body is a ready Buffer. Run by the bench in a child process:
 * `tsx scripts/bench/bare-server.ts <reply.json>`; prints {"url"} once listening.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the bench captures from the mock and hands to this server. */
export interface CapturedReply {
  readonly status: number;
  /** Header names and values alternating, as writeHead takes them. */
  readonly headers: string[];
  readonly body: string;
}

const file = process.argv[2];
if (file === undefined) {
  process.stderr.write('usage: tsx scripts/bench/bare-server.ts <reply.json>\n');
  process.exit(2);
}
const reply = JSON.parse(readFileSync(file, 'utf8')) as CapturedReply;
const body = Buffer.from(reply.body, 'utf8');
const { status, headers } = reply;

const server = createServer((_req, res) => {
  res.writeHead(status, headers);
  res.end(body);
});
// The mock's keep-alive timeout (mock/app.ts), so both treat idle connections alike.
server.keepAliveTimeout = 5_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })}\n`);
});
const stop = () => server.close(() => process.exit(0)).closeAllConnections();
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
