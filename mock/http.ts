/**
 * The mock's HTTP plumbing: reading a body under a size cap, and the replies handlers build. A handler returns a Reply (status, flat header list, body) instead
 * of writing the response, so each rule is unit-tested without a socket and the hot path writes the head in one `writeHead`.
 */
import { fail, type Result } from '../util/result.ts';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiErrorBodyShape, TokenErrorBodyShape } from '../schemas/types.ts';
import { type ApiError, apiErrorBody, type ErrorBody, JSON_TYPE, type OAuthError, tokenErrorBody } from './error-bodies.ts';

/** Longest request target (414 past it): below the largest head, so a long URL gets its own answer; the mock's links.next stay well under 1 KiB. */
export const MAX_URL_BYTES = 8 * 1024;

export const URL_TOO_LONG = `The request target is longer than ${MAX_URL_BYTES} bytes.`;

export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void;

/** Largest request body the mock reads (token forms, logout, control plane): far above any legal request. */
export const MAX_BODY_BYTES = 64 * 1024;

/** A response: header names and values alternate in one flat list (what `writeHead` takes without copying). */
export interface Reply {
  readonly status: number;
  readonly headers: string[];
  /** Text, or text and the bytes after it (a list page: its links, then its items as cached). */
  readonly body: string | readonly [head: string, tail: Buffer];
}

export function bodyText(body: Reply['body']): string {
  return typeof body === 'string' ? body : body[0] + body[1].toString('utf8');
}

export type BodyResult = { ok: true; body: Buffer } | { ok: false; status: 400 | 413; reason: string };

const EMPTY = Buffer.alloc(0);
const TOO_LARGE: BodyResult = { ok: false, status: 413, reason: `the request body is larger than ${MAX_BODY_BYTES} bytes` };

/** The whole body, or why not: a Content-Length over MAX_BODY_BYTES, or a body growing past it, is refused at once (413); an aborted upload is a 400. */
export function readBody(req: IncomingMessage): Promise<BodyResult> {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > MAX_BODY_BYTES) return Promise.resolve(TOO_LARGE);
  if (req.readableEnded) return Promise.resolve({ ok: true, body: EMPTY });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (result: BodyResult) => {
      for (const [event, listener] of listeners) req.off(event, listener);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        // Stop buffering; the reply carries `Connection: close`, so the rest is never read.
        req.pause();
        finish(TOO_LARGE);
      } else chunks.push(chunk);
    };
    const onEnd = () => finish({ ok: true, body: chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size) });
    const onError = () => finish({ ok: false, status: 400, reason: 'the request body was not received completely' });
    const listeners = Object.entries({ data: onData, end: onEnd, error: onError, aborted: onError });
    for (const [event, listener] of listeners) req.on(event, listener);
  });
}

/** Writes a reply in one head and one body write; `date` is the Date header's value (mock/clock.ts httpDate), not node's. */
export function send(res: ServerResponse, reply: Reply, date: string): void {
  if (res.headersSent || res.destroyed) return;
  res.sendDate = false;
  res.writeHead(reply.status, [...reply.headers, 'Date', date]);
  const body = reply.body;
  // A list page in one tick: node joins the text to the response head and corks the socket, so both leave in one writev, the bytes not copied.
  if (typeof body !== 'string') res.write(body[0]);
  res.end(typeof body === 'string' ? body : body[1]);
}

/** The value of `name` (any case) in a flat header list. */
export function headerOf(headers: readonly string[], name: string): string | undefined {
  const lower = name.toLowerCase();
  for (let i = 0; i < headers.length - 1; i += 2) {
    const key = headers[i] as string;
    // Lengths rule out most names before anything is lowered.
    if (key.length === lower.length && key.toLowerCase() === lower) return headers[i + 1];
  }
  return undefined;
}

/** Media type of a Content-Type header, lower case, without parameters; '' when absent. */
export function mediaType(header: string | undefined): string {
  return header?.split(';', 1)[0]?.trim().toLowerCase() ?? '';
}

/** Body shapes of the errors of each origin (a profile's `errors.body` and `tokens.errorBody`). */
export type ErrorShapes = { readonly api: ApiErrorBodyShape; readonly token: TokenErrorBodyShape };

/** The shapes of the mock's own interface (the control plane) and of the strict profile. */
const PLATFORM_SHAPES: ErrorShapes = { api: 'errors-array', token: 'oauth' };

/** Builds replies: every error goes through `api` or `oauth`, so a profile's body shape is applied in one place. Each takes over the `headers` it is given. */
export class Replies {
  constructor(readonly shapes: ErrorShapes = PLATFORM_SHAPES) {}

  json(status: number, body: Reply['body'], headers: string[] = []): Reply {
    const length = typeof body === 'string' ? Buffer.byteLength(body) : Buffer.byteLength(body[0]) + body[1].length;
    headers.push('Content-Type', JSON_TYPE, 'Content-Length', String(length));
    return { status, headers, body };
  }

  empty(status: number, headers: string[] = []): Reply {
    // 204 must not carry Content-Length (RFC 9110 §8.6); other empty replies say 0 so keep-alive clients do not wait.
    if (status !== 204 && status !== 304) headers.push('Content-Length', '0');
    return { status, headers, body: '' };
  }

  /** An error of the `api` origin, in the profile's shape. */
  api(error: ApiError, headers: string[] = []): Reply {
    return this.#error(error.status, apiErrorBody(this.shapes.api, error), headers);
  }

  /** An error of the `auth` origin, in the profile's shape (RFC 6749 §5.2 by default). */
  oauth(error: OAuthError, headers: string[] = []): Reply {
    return this.#error(error.status, tokenErrorBody(this.shapes.token, error), headers);
  }

  #error(status: number, body: ErrorBody, headers: string[]): Reply {
    if (body.text === '') return this.empty(status, headers);
    headers.push('Content-Type', body.contentType, 'Content-Length', String(Buffer.byteLength(body.text)));
    return { status, headers, body: body.text };
  }
}

/** Parses a JSON request body; an empty body is `undefined`. */
export function parseJsonBody(body: Buffer): Result<unknown> {
  if (body.length === 0) return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(body.toString('utf8')) };
  } catch {
    // V8's message quotes the input, which may hold a token: say only what is wrong.
    return fail('the body is not valid JSON');
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
