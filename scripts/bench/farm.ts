/**
 * A busy SDK test farm as a load generator: many virtual clients at once, each one an SDK test that
 * takes a token, walks a few snapshots page by page with the newest `next` cursor, trips over a key
 * with a small custom rate (429), sends a bad token and a bad parameter, and logs out; then again.
 *
 * Why a driver of its own and not autocannon: an autocannon connection talks to one origin and sends
 * requests from a list fixed before the run, while one client of this API spans two origins (the
 * token at {auth_url}, everything else at {base_url}) and every request depends on the reply before it
 * (the token it was issued, the cursor of the page before). This driver is node:http with keep-alive
 * agents, one request in flight per virtual client (closed loop), bounded in time.
 *
 * Every request names its kind in the KIND_HEADER header. The mock ignores it; the bare baseline
 * (scripts/bench/bare-server.ts) answers with the reply the mock gave to that kind, so both servers
 * get the same requests and write the same reply sizes and statuses in the same mix.
 *
 * One file: the virtual client's script, its keep-alive agents and the tally of what came back are
 * one loop's state; apart, each would take the others' as parameters.
 *
 * One file for the request builders, the driver and its tally: together they are the one definition of
 * the workload, and the capture (scripts/bench/mixed.ts) sends the very requests the driver sends.
 */
import { Agent, type OutgoingHttpHeaders, request } from 'node:http';
import { ENDPOINTS } from '../../contracts/endpoints.ts';
import type { ClientConfig } from '../../mock/clients.ts';
import { type Credentials, HEAD_BYTES, nextPathOf, tokenForm } from './http-client.ts';

/** The kinds of request of the farm: one captured reply each for the baseline. */
export const KINDS = ['token', 'first-100', 'next-100', 'first-10', 'next-10', 'throttled', 'bad-token', 'bad-parameter', 'logout'] as const;
export type Kind = (typeof KINDS)[number];

/** The request header naming the kind (lower case, as node:http hands headers over). */
export const KIND_HEADER = 'x-bench-kind';

/** Keys the farm's tests share: tokens of one key are independent, so a few keys serve many clients. */
const WALKER_KEYS = 8;
/** Keys with a small custom rate, like an organisation that asked for one: their requests meet 429s. */
const THROTTLED_KEYS = 3;
/** The custom rate of the throttled keys: spent by the capture before the first round, so nearly every request of theirs gets a 429. */
export const THROTTLED_RATE = '10/1m';
const SCOPE = 'content:read';

/** Snapshots walked per test, and pages per walk (a first page and `next` pages): never the last page of 10,000 items. */
const WALKS = 3;
const PAGES_PER_WALK = 5;
/** limit=100 (the platform's default) for half of the clients, limit=10 for the others. */
const LIMITS = [100, 10] as const;
/** A value of `limit` out of range: a 400 where the profile refuses it, a clamped page where it clamps. */
export const BAD_LIMIT = '0';
/** A bearer token the mock never issued. */
const BAD_TOKEN = 'not-a-token-of-this-mock';

function key(kind: 'walker' | 'throttled', n: number): ClientConfig {
  // Mock-only keys, written to the clients file of this run only.
  return { id: `farm-${kind}-${n}`, secret: `farm-${kind}-${n}-secret`, scopes: [SCOPE], rate: kind === 'walker' ? '0' : THROTTLED_RATE };
}

export const WALKERS: readonly ClientConfig[] = Array.from({ length: WALKER_KEYS }, (_, n) => key('walker', n + 1));
export const THROTTLED: readonly ClientConfig[] = Array.from({ length: THROTTLED_KEYS }, (_, n) => key('throttled', n + 1));

export function credentials(config: ClientConfig): Credentials {
  return { id: config.id, secret: config.secret };
}

export function firstPagePath(limit: number | string): string {
  return `${ENDPOINTS.listContent.path}?limit=${limit}`;
}

/** One request of the farm, as sent to either server. */
export interface FarmRequest {
  readonly kind: Kind;
  readonly origin: 'auth' | 'api';
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly headers: OutgoingHttpHeaders;
  readonly body?: string;
}

/** Every request of one kind but the cursor walk, for a given token: what the capture and the farm send alike. */
export const REQUESTS = {
  token: (client: Credentials): FarmRequest => ({
    kind: 'token',
    origin: 'auth',
    method: 'POST',
    path: ENDPOINTS.token.path,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: tokenForm(client, SCOPE),
  }),
  first: (limit: (typeof LIMITS)[number], token: string): FarmRequest => ({
    kind: limit === 100 ? 'first-100' : 'first-10',
    origin: 'api',
    method: 'GET',
    path: firstPagePath(limit),
    headers: { authorization: `Bearer ${token}` },
  }),
  next: (limit: (typeof LIMITS)[number], path: string, token: string): FarmRequest => ({
    kind: limit === 100 ? 'next-100' : 'next-10',
    origin: 'api',
    method: 'GET',
    path,
    headers: { authorization: `Bearer ${token}` },
  }),
  throttled: (token: string): FarmRequest => ({
    kind: 'throttled',
    origin: 'api',
    method: 'GET',
    path: firstPagePath(10),
    headers: { authorization: `Bearer ${token}` },
  }),
  badToken: (): FarmRequest => ({
    kind: 'bad-token',
    origin: 'api',
    method: 'GET',
    path: firstPagePath(10),
    headers: { authorization: `Bearer ${BAD_TOKEN}` },
  }),
  badParameter: (token: string): FarmRequest => ({
    kind: 'bad-parameter',
    origin: 'api',
    method: 'GET',
    path: firstPagePath(BAD_LIMIT),
    headers: { authorization: `Bearer ${token}` },
  }),
  logout: (token: string): FarmRequest => ({
    kind: 'logout',
    origin: 'api',
    method: 'POST',
    path: ENDPOINTS.logout.path,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
  }),
} as const;

export interface Origins {
  readonly auth: string;
  readonly api: string;
}

export interface Reply {
  readonly status: number;
  /** The start of the body (at least HEAD_BYTES, or all of a shorter body). */
  readonly head: string;
  readonly bytes: number;
}

/** Replies slower than this are failures. */
const REQUEST_TIMEOUT_MS = 10_000;

/** Sends one request over `agent`; rejects only on a transport error or timeout. */
export function send(agent: Agent, origins: Origins, req: FarmRequest): Promise<Reply> {
  const url = new URL(origins[req.origin]);
  const body = req.body ?? '';
  const headers: OutgoingHttpHeaders = { ...req.headers, [KIND_HEADER]: req.kind };
  if (req.method === 'POST') headers['content-length'] = Buffer.byteLength(body);
  return new Promise((resolve, reject) => {
    const r = request({ host: url.hostname, port: url.port, method: req.method, path: req.path, agent, headers, timeout: REQUEST_TIMEOUT_MS }, (res) => {
      const head: Buffer[] = [];
      let headBytes = 0;
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        // The rest of a page is read and dropped: decoding every 70 kB page would make the client's work most of the round.
        if (headBytes < HEAD_BYTES) {
          head.push(chunk);
          headBytes += chunk.length;
        }
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, head: Buffer.concat(head, headBytes).toString('utf8', 0, HEAD_BYTES), bytes }));
      res.on('error', reject);
    });
    r.on('timeout', () => r.destroy(new Error(`no reply within ${REQUEST_TIMEOUT_MS} ms`)));
    r.on('error', reject);
    r.end(body);
  });
}

/** The access_token of a token reply's body, or undefined. */
export function accessTokenOf(head: string): string | undefined {
  try {
    const token = (JSON.parse(head) as { access_token?: unknown }).access_token;
    return typeof token === 'string' ? token : undefined;
  } catch {
    return undefined;
  }
}

/** What one kind of request got in a round. */
export interface KindTally {
  count: number;
  bytes: number;
  /** Replies by status. */
  readonly statuses: Record<string, number>;
}

export interface FarmTally {
  readonly kinds: Record<Kind, KindTally>;
  /** Replies of any kind. */
  replies: number;
  /** Transport errors, timeouts, and steps the farm could not take (no token, no links.next). */
  failures: number;
  readonly reasons: string[];
  /** From the first request sent to the last reply, ms. */
  elapsedMs: number;
}

export interface FarmOptions {
  readonly origins: Origins;
  /** Virtual clients, each with one request in flight. */
  readonly clients: number;
  readonly durationMs: number;
  /** Tokens of the throttled keys, one per key, taken before the round. */
  readonly throttledTokens: readonly string[];
}

const MAX_REASONS = 5;

function emptyTally(): FarmTally {
  const kinds = Object.fromEntries(KINDS.map((k) => [k, { count: 0, bytes: 0, statuses: {} }])) as unknown as Record<Kind, KindTally>;
  return { kinds, replies: 0, failures: 0, reasons: [], elapsedMs: 0 };
}

/** Runs the farm against one server for `durationMs` (no new request after that) and tallies every reply. */
export async function runFarm(o: FarmOptions): Promise<FarmTally> {
  // Twice the clients: against the mock each client may hold one connection per origin.
  const agent = new Agent({ keepAlive: true, maxSockets: o.clients, maxTotalSockets: o.clients * 2 });
  const tally = emptyTally();
  const started = performance.now();
  const deadline = started + o.durationMs;
  const failed = (reason: string) => {
    tally.failures++;
    if (tally.reasons.length < MAX_REASONS) tally.reasons.push(reason);
  };
  /** The reply, or undefined when time is up or the request failed (then counted as a failure). */
  const step = async (req: FarmRequest): Promise<Reply | undefined> => {
    if (performance.now() >= deadline) return undefined;
    try {
      const reply = await send(agent, o.origins, req);
      const k = tally.kinds[req.kind];
      k.count++;
      k.bytes += reply.bytes;
      k.statuses[reply.status] = (k.statuses[reply.status] ?? 0) + 1;
      tally.replies++;
      return reply;
    } catch (error) {
      failed(`${req.method} ${req.path.split('?')[0]} (${req.kind}): ${(error as Error).message}`);
      return undefined;
    }
  };

  const client = async (index: number): Promise<void> => {
    const walker = credentials(WALKERS[index % WALKERS.length] as ClientConfig);
    const limit = LIMITS[index % LIMITS.length] as (typeof LIMITS)[number];
    const throttledToken = o.throttledTokens[index % o.throttledTokens.length] ?? BAD_TOKEN;
    // One test per pass, bounded by the deadline (every step returns undefined once it passed).
    while (performance.now() < deadline) {
      const issued = await step(REQUESTS.token(walker));
      if (issued === undefined) continue;
      const token = accessTokenOf(issued.head);
      if (token === undefined) {
        failed(`token request for ${walker.id}: got ${issued.status} without an access_token`);
        continue;
      }
      for (let walk = 0; walk < WALKS; walk++) {
        let page = await step(REQUESTS.first(limit, token));
        for (let n = 1; n < PAGES_PER_WALK && page !== undefined; n++) {
          const next = page.status === 200 ? nextPathOf(page.head) : undefined;
          if (next === undefined) {
            failed(`page ${n} of a walk with limit=${limit}: got ${page.status} without links.next`);
            break;
          }
          page = await step(REQUESTS.next(limit, next, token));
        }
        // The odd requests of a test, one after each walk.
        if (walk === 0) await step(REQUESTS.throttled(throttledToken));
        else if (walk === 1) await step(REQUESTS.badToken());
        else await step(REQUESTS.badParameter(token));
      }
      await step(REQUESTS.logout(token));
    }
  };
  try {
    await Promise.all(Array.from({ length: o.clients }, (_, i) => client(i)));
  } finally {
    agent.destroy();
  }
  tally.elapsedMs = performance.now() - started;
  return tally;
}

/** One pass of a farm test in words, for the bench's heading. */
export const FARM_TEST = `a token, ${WALKS} cursor walks of ${PAGES_PER_WALK} pages (limit=${LIMITS.join(' or ')}), a 429 (key rate ${THROTTLED_RATE}), a bad token, a bad parameter (limit=${BAD_LIMIT}) and a logout`;
