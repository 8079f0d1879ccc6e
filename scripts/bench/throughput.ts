/**
 * Throughput of GET /api/v2/content?limit=100 with a valid token and rate limiting off, at fixed
 * concurrency (autocannon), for the servers side by side: the mock, a bare node:http server writing
 * the same bytes (baseline), and Prism mocking this project's OpenAPI document (peer). Then the token
 * endpoint of the same mock.
 *
 * Rounds alternate between the servers, and each ratio is the median of per-round ratios of adjacent
 * rounds: a neighbour's build job slowing the machine for ten seconds then slows both sides of a pair.
 * Each round also records the CPU time the server used per request: unlike requests per second, that
 * figure does not depend on how much of the machine the server got, so it says where a gap comes from.
 *
 * One file: the three servers are measured by one schedule of paired rounds, and the ratios are only
 * meaningful read from that one schedule.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { ENDPOINTS } from '../../contracts/endpoints.ts';
import { buildOpenApiDocument } from '../../contracts/openapi.ts';
import { DEFAULT_CLIENTS } from '../../mock/clients.ts';
import { type Child, type MockChild, machineTicks, startBare, startMock, startPrism } from './children.ts';
import { type Credentials, captureReply, fetchToken, tokenForm } from './http-client.ts';
import { formatCount, formatRatio, median, pairedMedian, type Target, unmeasured } from './report.ts';

export interface ThroughputOptions {
  /** Measured rounds of the mock and of the bare baseline each. */
  readonly rounds: number;
  /** Measured rounds of each Prism setting (slow to answer, so fewer suffice). */
  readonly prismRounds: number;
  /** Also measure Prism with its logging silenced (informative; the target is judged on Prism as it starts by default). */
  readonly prismSilent: boolean;
  /** Measured rounds of the token endpoint. */
  readonly tokenRounds: number;
  /** Seconds per round. */
  readonly roundSeconds: number;
  /** Seconds of unmeasured load per server before its first round (JIT, caches, connections). */
  readonly warmupSeconds: number;
  /** Concurrent connections of the load generator (pipelining 1). */
  readonly connections: number;
  /** Seeded items of the mock: enough that limit=100 is never the last page. */
  readonly items: number;
}

/** One measured round. */
export interface Round {
  /** 200s per second. */
  readonly rps: number;
  /** Share of one core the server used during the round (1 = one core busy all the time). */
  readonly serverCpu: number;
  /** CPU time of the server per answered request, in microseconds. */
  readonly serverMicrosPerRequest: number;
  /** Share of one core the load generator (this process) used. */
  readonly clientCpu: number;
  /** Share of all cores busy with anything during the round (other processes of the machine included). */
  readonly machineBusy: number;
  /** Non-200 answers, errors and timeouts: any of them makes the round invalid. */
  readonly problem: string | undefined;
  readonly bytesPerRequest: number;
}

export interface ServerFigures {
  readonly label: string;
  readonly rounds: readonly Round[];
  /** Median of the rounds' rates. */
  readonly rps: number;
  /** Median of the rounds' server CPU per request, µs. */
  readonly microsPerRequest: number;
}

export interface ThroughputResult {
  readonly servers: readonly ServerFigures[];
  readonly targets: Target[];
  /** Lines for the reader, printed as the piece goes. */
  readonly notes: string[];
}

const CONTENT_PATH = `${ENDPOINTS.listContent.path}?limit=100`;
const ORG: Credentials = { id: DEFAULT_CLIENTS[0]?.id ?? '', secret: DEFAULT_CLIENTS[0]?.secret ?? '' };
/** Prism checks only that a bearer token is present, so a placeholder does; the mock's token stays with the mock. */
const PRISM_HEADERS = { authorization: 'Bearer bench-placeholder' };

export const TARGET_NAMES = {
  bare: 'throughput: mock ÷ bare node:http',
  prism: 'throughput: mock ÷ Prism',
} as const;
export const BARE_BOUND = 0.7;
export const PRISM_BOUND = 10;

interface LoadSpec {
  readonly label: string;
  readonly url: string;
  readonly server: Child;
  readonly method?: 'POST';
  readonly headers: Record<string, string>;
  readonly body?: string;
}

async function load(spec: LoadSpec, seconds: number, connections: number): Promise<Round> {
  const serverBefore = spec.server.cpuSeconds();
  const clientBefore = process.cpuUsage();
  const machineBefore = machineTicks();
  const result = await autocannon({
    url: spec.url,
    method: spec.method ?? 'GET',
    headers: spec.headers,
    ...(spec.body !== undefined ? { body: spec.body } : {}),
    connections,
    pipelining: 1,
    duration: seconds,
  });
  const serverSeconds = spec.server.cpuSeconds() - serverBefore;
  const client = process.cpuUsage(clientBefore);
  const machineAfter = machineTicks();
  const ok = result.statusCodeStats['200']?.count ?? 0;
  const others = Object.entries(result.statusCodeStats)
    .filter(([status]) => status !== '200')
    .map(([status, { count }]) => `${count}× ${status}`);
  const problem =
    others.length > 0 || result.errors > 0 || result.timeouts > 0
      ? `${spec.label}: expected only 200s from ${spec.method ?? 'GET'} ${new URL(spec.url).pathname}, got ${[...others, `${result.errors} errors`, `${result.timeouts} timeouts`].join(', ')}`
      : undefined;
  return {
    rps: ok / result.duration,
    serverCpu: serverSeconds / result.duration,
    serverMicrosPerRequest: ok > 0 ? (serverSeconds * 1e6) / ok : Number.NaN,
    clientCpu: (client.user + client.system) / 1e6 / result.duration,
    machineBusy: (machineAfter.busy - machineBefore.busy) / (machineAfter.total - machineBefore.total),
    problem,
    bytesPerRequest: result.requests.total > 0 ? result.throughput.total / result.requests.total : 0,
  };
}

function figures(label: string, rounds: readonly Round[]): ServerFigures {
  return { label, rounds, rps: median(rounds.map((r) => r.rps)), microsPerRequest: median(rounds.map((r) => r.serverMicrosPerRequest)) };
}

function describeServer(f: ServerFigures): string {
  const share = (pick: (r: Round) => number) => {
    const value = median(f.rounds.map(pick));
    return Number.isFinite(value) ? `${Math.round(value * 100)}%` : 'n/a';
  };
  const bytes = median(f.rounds.map((r) => r.bytesPerRequest));
  return (
    `${f.label}: ${formatCount(f.rps)} req/s (rounds: ${f.rounds.map((r) => formatCount(r.rps)).join(', ')}); ${formatCount(bytes)} bytes per reply; ` +
    `server CPU ${Number.isFinite(f.microsPerRequest) ? `${formatCount(f.microsPerRequest)} µs` : 'n/a'} per request, ${share((r) => r.serverCpu)} of a core; ` +
    `load generator ${share((r) => r.clientCpu)} of a core; machine ${share((r) => r.machineBusy)} busy`
  );
}

/** The median of a/b over paired rounds, of requests per second unless told. */
function pairedRatio(a: readonly Round[], b: readonly Round[], pick: (r: Round) => number = (r) => r.rps): number {
  return pairedMedian(a, b, pick);
}

function firstProblem(...series: ReadonlyArray<readonly Round[]>): string | undefined {
  for (const rounds of series) for (const r of rounds) if (r.problem) return r.problem;
  return undefined;
}

/** A Prism setting under measurement, each of its rounds paired with the mock round just before. */
interface Peer {
  readonly label: string;
  readonly spec: LoadSpec | undefined;
  readonly error: string | undefined;
  readonly rounds: Round[];
  readonly mockBefore: Round[];
}

export async function measureThroughput(o: ThroughputOptions, print: (line: string) => void): Promise<ThroughputResult> {
  const notes: string[] = [];
  const note = (line: string) => {
    notes.push(line);
    print(line);
  };
  const scratch = mkdtempSync(path.join(tmpdir(), 'lp-bench-'));
  const children: Child[] = [];
  try {
    const mock: MockChild = await startMock(`mock (${formatCount(o.items)} items)`, o.items);
    children.push(mock);
    const token = await fetchToken(mock.authUrl, ORG, 'content:read');
    const contentUrl = `${mock.baseUrl}${CONTENT_PATH}`;
    const reply = await captureReply(contentUrl, token);
    const replyFile = path.join(scratch, 'reply.json');
    writeFileSync(replyFile, JSON.stringify(reply));
    const bare = await startBare(replyFile);
    children.push(bare);
    note(
      `captured from the mock: ${reply.status}, ${formatCount(Buffer.byteLength(reply.body))} bytes of body, headers ${reply.headers.filter((_, i) => i % 2 === 0).join(', ')}`,
    );

    const mockSpec: LoadSpec = { label: 'mock', url: contentUrl, server: mock, headers: { authorization: `Bearer ${token}` } };
    const bareSpec: LoadSpec = { label: 'bare node:http', url: `${bare.url}${CONTENT_PATH}`, server: bare, headers: { authorization: `Bearer ${token}` } };
    const tokenSpec: LoadSpec = {
      label: 'mock token endpoint',
      url: `${mock.authUrl}${ENDPOINTS.token.path}`,
      server: mock,
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: tokenForm(ORG, 'content:read'),
    };

    // The document as `npm run openapi` writes it, unchanged: Prism serves its paths at its own root
    // because every server URL in it is absolute. A copy in a scratch folder, so dist/ is not touched.
    const documentFile = path.join(scratch, 'openapi.json');
    writeFileSync(documentFile, JSON.stringify(buildOpenApiDocument()));
    const settings: Array<{ label: string; args: string[] }> = [{ label: 'Prism (`prism mock`, default settings)', args: [] }];
    if (o.prismSilent) settings.push({ label: 'Prism (--verboseLevel silent)', args: ['--verboseLevel', 'silent'] });
    const peers: Peer[] = [];
    for (const setting of settings) {
      try {
        const prism = await startPrism(
          setting.label,
          documentFile,
          setting.args,
          async (url) => (await fetch(`${url}${CONTENT_PATH}`, { headers: PRISM_HEADERS })).status === 200,
        );
        children.push(prism);
        const spec = { label: setting.label, url: `${prism.url}${CONTENT_PATH}`, server: prism, headers: PRISM_HEADERS };
        peers.push({ label: setting.label, spec, error: undefined, rounds: [], mockBefore: [] });
      } catch (error) {
        note(`${setting.label} could not be measured: ${(error as Error).message}`);
        peers.push({ label: setting.label, spec: undefined, error: (error as Error).message, rounds: [], mockBefore: [] });
      }
    }

    const seconds = o.roundSeconds;
    for (const spec of [bareSpec, mockSpec, ...peers.map((p) => p.spec)]) if (spec) await load(spec, o.warmupSeconds, o.connections);

    const bareRounds: Round[] = [];
    const mockRounds: Round[] = [];
    for (let i = 0; i < o.rounds; i++) {
      // ABBA order, so that neither side always runs second (a warmer or cooler machine).
      if (i % 2 === 0) {
        bareRounds.push(await load(bareSpec, seconds, o.connections));
        mockRounds.push(await load(mockSpec, seconds, o.connections));
      } else {
        mockRounds.push(await load(mockSpec, seconds, o.connections));
        bareRounds.push(await load(bareSpec, seconds, o.connections));
      }
      if (i < o.prismRounds) {
        for (const peer of peers) {
          if (!peer.spec) continue;
          peer.rounds.push(await load(peer.spec, seconds, o.connections));
          peer.mockBefore.push(mockRounds[mockRounds.length - 1] as Round);
        }
      }
    }
    // Last: every token request adds two entries to the mock's token store, which would grow its heap under the content rounds.
    await load(tokenSpec, o.warmupSeconds, o.connections);
    const tokenRounds: Round[] = [];
    const mockBeforeToken: Round[] = [];
    for (let i = 0; i < o.tokenRounds; i++) {
      mockBeforeToken.push(await load(mockSpec, seconds, o.connections));
      tokenRounds.push(await load(tokenSpec, seconds, o.connections));
    }

    const bareFigures = figures('bare node:http', bareRounds);
    const mockFigures = figures('mock', mockRounds);
    const servers = [
      bareFigures,
      mockFigures,
      ...peers.filter((p) => p.spec).map((p) => figures(p.label, p.rounds)),
      figures('mock token endpoint', tokenRounds),
    ];
    for (const f of servers) note(describeServer(f));
    const cpu = (rounds: readonly Round[]) => median(rounds.map((r) => r.serverMicrosPerRequest));
    note(
      `server CPU per request, mock ÷ bare: ${formatRatio(pairedRatio(mockRounds, bareRounds, (r) => r.serverMicrosPerRequest))}; ` +
        `Prism ÷ mock: ${peers
          .filter((p) => p.spec)
          .map((p) => `${formatRatio(cpu(p.rounds) / cpu(p.mockBefore))} for ${p.label}`)
          .join(', ')}; ` +
        `bare ÷ Prism throughput (the ceiling of the Prism ratio in this setup): ${peers
          .filter((p) => p.spec)
          .map((p) => `${formatRatio(bareFigures.rps / median(p.rounds.map((r) => r.rps)))} for ${p.label}`)
          .join(', ')}`,
    );
    const tokenProblem = firstProblem(tokenRounds, mockBeforeToken);
    note(
      tokenProblem
        ? `token endpoint rounds were not clean: ${tokenProblem}`
        : `token endpoint ÷ content endpoint: ${formatRatio(pairedRatio(tokenRounds, mockBeforeToken))} (paired rounds; reported, no target)`,
    );

    const targets: Target[] = [];
    const bareProblem = firstProblem(bareRounds, mockRounds);
    targets.push(
      bareProblem
        ? unmeasured(TARGET_NAMES.bare, BARE_BOUND, 'min', bareProblem)
        : {
            name: TARGET_NAMES.bare,
            measured: pairedRatio(mockRounds, bareRounds),
            bound: BARE_BOUND,
            kind: 'min',
            detail: `mock ${formatCount(mockFigures.rps)} req/s, bare ${formatCount(bareFigures.rps)} req/s; median of ${o.rounds} paired round${o.rounds === 1 ? '' : 's'}`,
          },
    );
    peers.forEach((peer, index) => {
      const name = index === 0 ? TARGET_NAMES.prism : `${TARGET_NAMES.prism} (--verboseLevel silent, reported only)`;
      const problem = peer.error ?? firstProblem(peer.rounds, peer.mockBefore);
      if (index > 0) {
        // Informative: the target is judged against Prism as started by default (first setting).
        note(
          problem
            ? `${name}: not measured: ${problem}`
            : `${name}: ${formatRatio(pairedRatio(peer.mockBefore, peer.rounds))} (mock ${formatCount(median(peer.mockBefore.map((r) => r.rps)))} req/s, Prism ${formatCount(median(peer.rounds.map((r) => r.rps)))} req/s)`,
        );
        return;
      }
      targets.push(
        problem
          ? unmeasured(name, PRISM_BOUND, 'min', problem)
          : {
              name,
              measured: pairedRatio(peer.mockBefore, peer.rounds),
              bound: PRISM_BOUND,
              kind: 'min',
              detail: `mock ${formatCount(median(peer.mockBefore.map((r) => r.rps)))} req/s, ${peer.label} ${formatCount(median(peer.rounds.map((r) => r.rps)))} req/s; median of ${peer.rounds.length} paired rounds`,
            },
      );
    });
    return { servers, targets, notes };
  } finally {
    await Promise.all(children.map((c) => c.stop()));
    rmSync(scratch, { recursive: true, force: true });
  }
}
