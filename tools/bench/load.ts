/**
 * The bench's load generator: `connections` virtual clients, each with one request in flight over keep-alive connections, until a time or a request count
 * is reached; the servers it measures run in child processes of their own, not sharing its event loop. HTTP/1.1 on node:net, not node:http, whose client
 * topped out at a third of this one's rate and so, not the server, set the figure. It speaks only what the servers here answer: Content-Length, keep-alive.
 */
import { connect, type Socket } from 'node:net';

/** A reply slower than this is an error, not a sample. */
const REQUEST_TIMEOUT_MS = 10_000;
/** Bytes of a body handed back to the caller (a token reply, a page's links); the rest is counted and dropped. */
const HEAD_BYTES = 4096;

/** One request; `read`: the caller reads the body's first HEAD_BYTES (a token, a page's links), handed back as `head`. */
export interface Shot {
  readonly method: 'GET' | 'POST';
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly read?: boolean;
}

type Answer = { readonly status: number; readonly head: string };

export interface Tally {
  readonly statuses: Map<number, number>;
  replies: number;
  errors: number;
  firstError: string | undefined;
  /** From the first request to the last reply. */
  seconds: number;
}

/** The bytes of a shot's request; a shot sent again and again is encoded once. */
const encoded = new WeakMap<Shot, { origin: string; bytes: Buffer }>();

function encode(shot: Shot): { origin: string; bytes: Buffer } {
  const known = encoded.get(shot);
  if (known !== undefined) return known;
  const url = new URL(shot.url);
  let text = `${shot.method} ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\n`;
  for (const [name, value] of Object.entries(shot.headers)) text += `${name}: ${value}\r\n`;
  if (shot.body !== undefined) text += `Content-Length: ${Buffer.byteLength(shot.body)}\r\n`;
  const request = { origin: url.host, bytes: Buffer.from(`${text}\r\n${shot.body ?? ''}`) };
  encoded.set(shot, request);
  return request;
}

/** One keep-alive connection with at most one request in flight; replies framed by Content-Length (or a 204). */
class Connection {
  readonly #socket: Socket;
  readonly #tally: Tally;
  #waiting: { resolve: (a: Answer) => void; reject: (e: Error) => void; read: boolean } | undefined;
  #partial: Buffer | undefined;
  /** Body bytes still to come; -1 while a head is read. */
  #need = -1;
  #status = 0;
  /** The body's first bytes, kept when the caller reads them. */
  #head = Buffer.alloc(0);
  #closing = false;
  closed = false;

  constructor(origin: string, tally: Tally) {
    const [host, port] = [origin.slice(0, origin.lastIndexOf(':')), Number(origin.slice(origin.lastIndexOf(':') + 1))];
    this.#tally = tally;
    this.#socket = connect({ host, port, noDelay: true });
    this.#socket.setTimeout(REQUEST_TIMEOUT_MS, () => this.#fail(new Error(`no reply within ${REQUEST_TIMEOUT_MS} ms`)));
    this.#socket.on('data', (chunk: Buffer) => this.#data(chunk));
    this.#socket.on('error', (error) => this.#fail(error));
    this.#socket.on('close', () => this.#fail(new Error('the server closed the connection')));
  }

  send(bytes: Buffer, read: boolean): Promise<Answer> {
    return new Promise((resolve, reject) => {
      this.#waiting = { resolve, reject, read };
      this.#socket.write(bytes);
    });
  }

  destroy(): void {
    this.closed = true;
    this.#socket.destroy();
  }

  #fail(error: Error): void {
    this.destroy();
    const waiting = this.#waiting;
    this.#waiting = undefined;
    waiting?.reject(error);
  }

  #data(chunk: Buffer): void {
    let rest = chunk;
    while (rest.length > 0) {
      if (this.#need < 0) {
        const buffer = this.#partial === undefined ? rest : Buffer.concat([this.#partial, rest]);
        const end = buffer.indexOf('\r\n\r\n');
        if (end < 0) return void (this.#partial = buffer);
        this.#partial = undefined;
        const head = buffer.toString('latin1', 0, end);
        this.#status = Number(head.slice(9, 12));
        const length = /\r\ncontent-length: *(\d+)/i.exec(head)?.[1];
        if (length === undefined && this.#status !== 204) return this.#fail(new Error(`a ${this.#status} without Content-Length`));
        this.#need = Number(length ?? 0);
        this.#closing = /\r\nconnection: *close/i.test(head);
        rest = buffer.subarray(end + 4);
      }
      const body = rest.subarray(0, this.#need);
      this.#need -= body.length;
      if (this.#waiting?.read === true && this.#head.length < HEAD_BYTES && body.length > 0) this.#head = Buffer.concat([this.#head, body]);
      rest = rest.subarray(body.length);
      if (this.#need === 0) this.#done();
    }
  }

  #done(): void {
    const status = this.#status;
    const head = this.#head.toString('utf8', 0, HEAD_BYTES);
    this.#need = -1;
    this.#head = Buffer.alloc(0);
    this.#tally.replies++;
    this.#tally.statuses.set(status, (this.#tally.statuses.get(status) ?? 0) + 1);
    const waiting = this.#waiting;
    this.#waiting = undefined;
    if (this.#closing) this.destroy();
    waiting?.resolve({ status, head });
  }
}

export interface LoadOptions {
  /** Virtual clients, each with one request in flight (and one connection per origin). */
  readonly connections: number;
  readonly seconds: number;
  readonly maxRequests?: number;
  /** One virtual client's work, called again and again until time or count runs out; `send` rejects when they did. */
  readonly script: (send: (shot: Shot) => Promise<Answer>) => Promise<void>;
}

class Stop extends Error {}

export async function runLoad(o: LoadOptions): Promise<Tally> {
  const tally: Tally = { statuses: new Map(), replies: 0, errors: 0, firstError: undefined, seconds: 0 };
  const started = performance.now();
  const deadline = started + o.seconds * 1000;
  const open: Connection[] = [];
  let sent = 0;
  const client = async () => {
    const connections = new Map<string, Connection>();
    const send = (shot: Shot): Promise<Answer> => {
      if (performance.now() >= deadline || sent >= (o.maxRequests ?? Infinity)) return Promise.reject(new Stop());
      sent++;
      const { origin, bytes } = encode(shot);
      let connection = connections.get(origin);
      if (connection === undefined || connection.closed) {
        connection = new Connection(origin, tally);
        connections.set(origin, connection);
        open.push(connection);
      }
      return connection.send(bytes, shot.read === true);
    };
    for (;;) {
      try {
        await o.script(send);
      } catch (error) {
        if (error instanceof Stop) return;
        tally.errors++;
        tally.firstError ??= (error as Error).message;
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: o.connections }, client));
  } finally {
    for (const connection of open) connection.destroy();
  }
  tally.seconds = (performance.now() - started) / 1000;
  return tally;
}

export function repeat(shot: Shot): LoadOptions['script'] {
  return (send) => send(shot).then(() => undefined);
}
