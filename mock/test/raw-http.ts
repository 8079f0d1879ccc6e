/**
 * One HTTP/1.1 exchange over a bare socket: the bytes go out as given (fetch would fix a missing Host, a doubled Content-Length, a raw space), half-closed
 * after, so a request the server awaits ends; node's HTTP client parses the first final response, within a timeout (past it the server has hung).
 */
import { type IncomingMessage, request } from 'node:http';
import { connect } from 'node:net';
import { Duplex } from 'node:stream';

/** A response (header names lower case, repeats joined with ", "), or instead: nothing complete in time, a close or reset, nobody listening, not HTTP. */
export type RawOutcome =
  | { readonly kind: 'response'; readonly status: number; readonly headers: Readonly<Record<string, string>>; readonly body: Buffer }
  | { readonly kind: 'hang' | 'closed' | 'refused' | 'garbled'; readonly detail: string };
export type RawResponse = Extract<RawOutcome, { kind: 'response' }>;

/** Sends `bytes` to `origin` (`http://host:port`) and reads one final response within `timeoutMs`; `head`: it carries no body. */
export function rawExchange(origin: string, bytes: Buffer, options: { timeoutMs: number; head?: boolean }): Promise<RawOutcome> {
  const { hostname, port } = new URL(origin);
  const socket = connect({ host: hostname, port: Number(port) }, () => socket.end(bytes));
  // The client's parser reads what the server sends; what the client would write itself is dropped: `bytes` are the request.
  const wire = new Duplex({ read: () => {}, write: (_chunk, _encoding, done) => done() });
  socket.on('data', (chunk: Buffer) => wire.push(chunk));
  socket.on('end', () => wire.push(null));
  socket.on('error', (error) => wire.destroy(error));
  return new Promise((resolve) => {
    let res: IncomingMessage | undefined;
    const finish = (outcome: RawOutcome) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(outcome);
    };
    const failed = (error: NodeJS.ErrnoException) => {
      const kind = error.code === 'ECONNREFUSED' ? 'refused' : error.code?.startsWith('HPE_') ? 'garbled' : 'closed';
      finish({ kind, detail: `${error.message} after ${socket.bytesRead} bytes` });
    };
    const timer = setTimeout(
      () => finish({ kind: 'hang', detail: `no complete response within ${options.timeoutMs} ms (${socket.bytesRead} bytes received)` }),
      options.timeoutMs,
    );
    const req = request(origin, { method: options.head === true ? 'HEAD' : 'GET', createConnection: () => wire }, (response) => {
      res = response;
      const parts: Buffer[] = [];
      response.on('data', (chunk: Buffer) => parts.push(chunk));
      response.on('error', failed);
      response.on('end', () => {
        const headers = Object.fromEntries(Object.entries(response.headersDistinct).map(([name, values]) => [name, (values ?? []).join(', ')]));
        finish({ kind: 'response', status: response.statusCode ?? 0, headers, body: Buffer.concat(parts) });
      });
    });
    // A reset may still follow a complete answer (the server closed with our unread bytes in its buffer).
    req.on('error', (error) => {
      if (!res?.complete) failed(error);
    });
    req.end();
  });
}
