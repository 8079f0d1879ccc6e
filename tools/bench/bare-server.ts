/**
 * The baseline: a bare node:http server answering with replies captured from the mock (status, the headers the mock set, body), so both servers write the same
 * bytes; nothing is parsed or built per request. The file maps a kind of request to its reply: the load generator names the kind in the KIND_HEADER header (the
 * mock ignores it); a request without one gets the `default` reply. `node --import tsx tools/bench/bare-server.ts <replies.json>` prints {"url"} once
 * listening.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export const KIND_HEADER = 'x-bench-kind';

export interface CapturedReply {
  readonly status: number;
  /** Names and values alternating, as writeHead takes them. */
  readonly headers: string[];
  readonly body: string;
}

if (require.main === module) {
  const file = JSON.parse(readFileSync(process.argv[2] ?? '', 'utf8')) as Record<string, CapturedReply>;
  const replies = new Map(Object.entries(file).map(([kind, r]) => [kind, { ...r, body: Buffer.from(r.body) }]));
  // A request of no known kind is the bench's own bug: a 500 makes the load generator count it as one.
  const unknown = { status: 500, headers: ['content-length', '0'], body: Buffer.alloc(0) };
  const server = createServer((req, res) => {
    const kind = req.headers[KIND_HEADER];
    const reply = replies.get(typeof kind === 'string' ? kind : 'default') ?? unknown;
    res.writeHead(reply.status, reply.headers);
    res.end(reply.body);
  });
  server.listen(0, '127.0.0.1', () => process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })}\n`));
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
}
