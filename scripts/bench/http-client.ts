/**
 * The bench's own HTTP client side: a token, a captured reply, and a closed-loop latency runner.
 *
 * Latency is timed here rather than with autocannon because autocannon's histogram counts whole
 * milliseconds, and a loopback page of the mock takes well under one: the scale targets compare
 * sub-millisecond medians. Every sample is kept, so rounds can be merged before taking percentiles.
 */
import { Agent, request } from 'node:http';
import { ENDPOINTS } from '../../contracts/endpoints.ts';
import type { CapturedReply } from './bare-server.ts';

/** An API key of the mock's defaults (mock/clients.ts): a fixture, yet never printed either. */
export interface Credentials {
  readonly id: string;
  readonly secret: string;
}

/** The form of a client-credentials token request, as the load generator sends it too. */
export function tokenForm(client: Credentials, scope: string): string {
  return new URLSearchParams({ grant_type: 'client_credentials', client_id: client.id, client_secret: client.secret, scope }).toString();
}

/** An access token of `client`; the error names the request and status, never the token or the secret. */
export async function fetchToken(authUrl: string, client: Credentials, scope: string): Promise<string> {
  const url = `${authUrl}${ENDPOINTS.token.path}`;
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: tokenForm(client, scope) });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`POST ${url} (client_credentials for ${client.id}, scope ${scope}): expected 200, got ${res.status}`);
  const token = (JSON.parse(text) as { access_token?: unknown }).access_token;
  if (typeof token !== 'string') throw new Error(`POST ${url}: expected a JSON body with access_token, got a 200 without one`);
  return token;
}

/** Headers node:http adds by itself on every reply; the bare server's node adds them the same way. */
export const AUTOMATIC_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

/** One real reply of the mock to `url`, to be served byte for byte by the bare baseline. */
export async function captureReply(url: string, token: string): Promise<CapturedReply> {
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  const body = await res.text();
  if (res.status !== 200) throw new Error(`GET ${url}: expected 200 to capture for the baseline, got ${res.status}`);
  const headers: string[] = [];
  for (const [name, value] of res.headers) if (!AUTOMATIC_HEADERS.has(name)) headers.push(name, value);
  return { status: res.status, headers, body };
}

export interface LoopOptions {
  /** Origin, e.g. http://127.0.0.1:4011. */
  readonly origin: string;
  readonly headers: Record<string, string>;
  /** Requests in flight at once (one per connection, no pipelining). */
  readonly connections: number;
  /** Stop starting requests after this long. */
  readonly durationMs: number;
  /** The path (with query) of the next request, or undefined when there is nothing left to ask. */
  nextPath(): string | undefined;
  /**
   * Given the start of each 200 body (at least its first HEAD_BYTES bytes, or all of a shorter body),
   * e.g. to read the page's links.next. The rest of the body is read and dropped: keeping and decoding
   * every 70 kB page would make the client's work, not the server's, most of each latency.
   */
  onHead?(head: string): void;
}

export interface LoopResult {
  /** Milliseconds per request, in completion order. */
  readonly samples: number[];
  /** Requests that did not get a 200, with the first few reasons. */
  readonly failures: number;
  readonly reasons: string[];
}

/** How much of a body `onHead` gets at least: links come first in a page and take a few hundred bytes. */
export const HEAD_BYTES = 4096;

/** Replies slower than this are failures, not samples. */
const REQUEST_TIMEOUT_MS = 10_000;
const MAX_REASONS = 5;

/**
 * `connections` loops, each sending one request and waiting for the whole reply before the next
 * (closed loop), over keep-alive connections, until `durationMs` passed or `nextPath` runs dry.
 */
export async function closedLoop(options: LoopOptions): Promise<LoopResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections });
  const url = new URL(options.origin);
  const samples: number[] = [];
  const reasons: string[] = [];
  let failures = 0;
  const deadline = performance.now() + options.durationMs;

  const once = (path: string): Promise<void> =>
    new Promise((resolve) => {
      const started = performance.now();
      const fail = (reason: string) => {
        failures++;
        if (reasons.length < MAX_REASONS) reasons.push(`GET ${path.split('?')[0]}: ${reason}`);
        resolve();
      };
      const req = request({ host: url.hostname, port: url.port, path, agent, headers: options.headers, timeout: REQUEST_TIMEOUT_MS }, (res) => {
        const head: Buffer[] = [];
        let headBytes = 0;
        res.on('data', (chunk: Buffer) => {
          if (headBytes < HEAD_BYTES) {
            head.push(chunk);
            headBytes += chunk.length;
          }
        });
        res.on('end', () => {
          const elapsed = performance.now() - started;
          if (res.statusCode !== 200) return fail(`expected 200, got ${res.statusCode}`);
          samples.push(elapsed);
          options.onHead?.(Buffer.concat(head, headBytes).toString('utf8', 0, HEAD_BYTES));
          resolve();
        });
        res.on('error', (error) => fail(error.message));
      });
      req.on('timeout', () => req.destroy(new Error(`no reply within ${REQUEST_TIMEOUT_MS} ms`)));
      req.on('error', (error) => fail(error.message));
      req.end();
    });

  const worker = async () => {
    while (performance.now() < deadline) {
      const path = options.nextPath();
      if (path === undefined) return;
      await once(path);
    }
  };
  try {
    await Promise.all(Array.from({ length: options.connections }, worker));
  } finally {
    agent.destroy();
  }
  return { samples, failures, reasons };
}

/** The path and query of a page's links.next, read from the start of the body (links come before data). */
export function nextPathOf(body: string): string | undefined {
  const end = body.indexOf('"data"');
  if (end < 0) return undefined;
  const head = body.slice(0, end);
  const match = /"next":"([^"]+)"/.exec(head);
  if (!match) return undefined;
  const next = new URL(match[1] as string);
  return `${next.pathname}${next.search}`;
}
