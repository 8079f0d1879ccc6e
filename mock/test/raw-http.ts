/**
 * One HTTP/1.1 exchange over a bare TCP socket: the bytes go out exactly as given (fetch and
 * Playwright would fix a missing Host, a duplicated Content-Length or a raw space in the path before
 * sending), the socket is half-closed after them so that a request the server is still waiting on
 * ends, and the first final response is parsed. Every exchange is bounded by a timeout: a server
 * that neither answers nor closes within it has hung.
 */
import { connect } from 'node:net';

export interface RawResponse {
  readonly kind: 'response';
  readonly status: number;
  /** Header names lower case; repeated headers joined with ", ". */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
}

/** Instead of a response: nothing complete within the timeout, a close or reset first, nobody listening, or bytes not HTTP. */
interface RawFailure {
  readonly kind: 'hang' | 'closed' | 'refused' | 'garbled';
  readonly detail: string;
}

export type RawOutcome = RawResponse | RawFailure;

const HEAD_END = Buffer.from('\r\n\r\n');

/** Sends `bytes` to `origin` (`http://host:port`) and reads one final response within `timeoutMs`; `head`: it carries no body. */
export function rawExchange(origin: string, bytes: Buffer, options: { timeoutMs: number; head?: boolean }): Promise<RawOutcome> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve) => {
    let settled = false;
    let received: Buffer = Buffer.alloc(0);
    const socket = connect({ host: hostname, port: Number(port) });
    const finish = (outcome: RawOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(outcome);
    };
    const timer = setTimeout(
      () => finish({ kind: 'hang', detail: `no complete response within ${options.timeoutMs} ms (${received.length} bytes received)` }),
      options.timeoutMs,
    );
    socket.on('connect', () => socket.end(bytes));
    const head = options.head === true;
    // At the end a reset may still follow a complete answer (the server closed with our unread bytes in its buffer).
    const ended = (why: string) => finish(parseResponse(received, head, true) ?? { kind: 'closed', detail: `${why} after ${received.length} bytes` });
    socket.on('data', (chunk: Buffer) => {
      received = received.length === 0 ? chunk : Buffer.concat([received, chunk]);
      const parsed = parseResponse(received, head, false);
      if (parsed !== undefined) finish(parsed);
    });
    socket.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'ECONNREFUSED' ? finish({ kind: 'refused', detail: `connection refused by ${origin}` }) : ended(error.code ?? error.message),
    );
    socket.on('close', () => ended('closed without a complete response'));
  });
}

/** The first final (non-1xx) response in `data`; undefined while incomplete (at `eof`, incomplete is garbled or closed). */
function parseResponse(data: Buffer, head: boolean, eof: boolean): RawOutcome | undefined {
  let offset = 0;
  for (;;) {
    const end = data.indexOf(HEAD_END, offset);
    if (end < 0) return eof && data.length > offset ? { kind: 'garbled', detail: `incomplete head: ${preview(data.subarray(offset))}` } : undefined;
    const lines = data.subarray(offset, end).toString('latin1').split('\r\n');
    const match = /^HTTP\/1\.[01] (\d{3})(?: |$)/.exec(lines[0] ?? '');
    if (!match) return { kind: 'garbled', detail: `not a status line: ${preview(data.subarray(offset, end))}` };
    const status = Number(match[1]);
    const headers: Record<string, string> = {};
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      if (colon <= 0) return { kind: 'garbled', detail: `bad header line: ${JSON.stringify(line.slice(0, 80))}` };
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
    }
    const bodyStart = end + HEAD_END.length;
    // Interim responses (100 Continue) come before the final one.
    if (status >= 100 && status < 200) {
      offset = bodyStart;
      continue;
    }
    if (head || status === 204 || status === 304) return { kind: 'response', status, headers, body: Buffer.alloc(0) };
    const length = headers['content-length'];
    if (length !== undefined) {
      const n = Number(length);
      if (!Number.isSafeInteger(n) || n < 0) return { kind: 'garbled', detail: `Content-Length ${length}` };
      if (data.length - bodyStart < n) return undefined;
      return { kind: 'response', status, headers, body: data.subarray(bodyStart, bodyStart + n) };
    }
    if (headers['transfer-encoding']?.toLowerCase() === 'chunked') return dechunk(data.subarray(bodyStart), status, headers, eof);
    return eof ? { kind: 'response', status, headers, body: data.subarray(bodyStart) } : undefined;
  }
}

function dechunk(data: Buffer, status: number, headers: Record<string, string>, eof: boolean): RawOutcome | undefined {
  const parts: Buffer[] = [];
  let offset = 0;
  for (;;) {
    const eol = data.indexOf('\r\n', offset);
    if (eol < 0) return eof ? { kind: 'garbled', detail: 'truncated chunked body' } : undefined;
    const size = Number.parseInt(data.subarray(offset, eol).toString('latin1'), 16);
    if (!Number.isFinite(size)) return { kind: 'garbled', detail: 'bad chunk size' };
    if (size === 0) return { kind: 'response', status, headers, body: Buffer.concat(parts) };
    if (data.length < eol + 2 + size + 2) return eof ? { kind: 'garbled', detail: 'truncated chunk' } : undefined;
    parts.push(data.subarray(eol + 2, eol + 2 + size));
    offset = eol + 2 + size + 2;
  }
}

function preview(data: Buffer): string {
  return JSON.stringify(data.subarray(0, 80).toString('latin1'));
}
