/**
 * The throughput baseline: a bare node:http server that answers with replies captured from the mock
 * (status, the headers the mock sets, body), so both write the same bytes. Nothing is parsed or built
 * per request; each body is a ready Buffer. Run by the bench in a child process:
 * `tsx scripts/bench/bare-server.ts <reply.json>`; prints {"url"} once listening.
 *
 * The file holds either one reply, given to every request, or a reply table for a mixed workload: the
 * load generator names on each request, in a header, which kind of request it is (a first page, a
 * token, a refusal...), and the server answers with that kind's reply. The mock gets the same header
 * and ignores it, so both servers read the same bytes; one header lookup is all the baseline does.
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the bench captures from the mock and hands to this server. */
export interface CapturedReply {
  readonly status: number;
  /** Header names and values alternating, as writeHead takes them. */
  readonly headers: string[];
  readonly body: string;
}

/** Replies by the kind of request, named in the request header `header` (lower case). */
export interface ReplyTable {
  readonly header: string;
  readonly replies: Readonly<Record<string, CapturedReply>>;
}

interface Ready {
  readonly status: number;
  readonly headers: string[];
  readonly body: Buffer;
}

function ready(reply: CapturedReply): Ready {
  return { status: reply.status, headers: reply.headers, body: Buffer.from(reply.body, 'utf8') };
}

function send(res: ServerResponse, reply: Ready): void {
  res.writeHead(reply.status, reply.headers);
  res.end(reply.body);
}

function handlerOf(file: CapturedReply | ReplyTable): (req: IncomingMessage, res: ServerResponse) => void {
  if ('status' in file) {
    const reply = ready(file);
    return (_req, res) => send(res, reply);
  }
  const table = new Map(Object.entries(file.replies).map(([kind, reply]) => [kind, ready(reply)]));
  const { header } = file;
  // A request of no known kind is the bench's own bug: a 500 makes the load generator count it as one.
  const unknown = ready({ status: 500, headers: ['content-type', 'text/plain'], body: `no reply for this ${header}` });
  return (req, res) => {
    const kind = req.headers[header];
    send(res, (typeof kind === 'string' ? table.get(kind) : undefined) ?? unknown);
  };
}

const file = process.argv[2];
if (file === undefined) {
  process.stderr.write('usage: tsx scripts/bench/bare-server.ts <reply.json>\n');
  process.exit(2);
}

const server = createServer(handlerOf(JSON.parse(readFileSync(file, 'utf8')) as CapturedReply | ReplyTable));
// The mock's keep-alive timeout (mock/app.ts), so both treat idle connections alike.
server.keepAliveTimeout = 5_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })}\n`);
});
const stop = () => server.close(() => process.exit(0)).closeAllConnections();
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
