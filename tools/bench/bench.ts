/**
 * `npm run bench`: the mock's headline figures (PIECES; docs/benchmarks.md reads them), each a ratio against a baseline measured in the same run: absolute
 * numbers on a shared 2-core machine drift between minutes, two things measured side by side drift together. Full mode enforces the bounds (exit code 1 when
 * one does not hold); --quick measures briefly and only reports them. Exit code 2: a figure could not be measured at all.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { ENDPOINTS } from '../../contracts/endpoints.ts';
import { parseCommandLine, runMain } from '../../common/flags.ts';
import { DEFAULT_CLIENTS } from '../../mock/clients.ts';
import { PROFILE_NAMES } from '../../mock/profile.ts';
import { type CapturedReply, KIND_HEADER } from './bare-server.ts';
import { compare, CONTENT_PATH } from './compare.ts';
import { ROOT } from '../../common/root.ts';
import { type NodeChild, startMockProcess, startNode, stopAll } from '../../mock/test/mock-process.ts';
import { type LoadOptions, repeat, runLoad, type Shot, type Tally } from './load.ts';

/** Each piece measures its figures (function declarations below, hoisted). */
const PIECES = { content, mixed, start, memory };

const USAGE = `Usage: npm run bench -- [--quick] [--only <pieces>] [--compare]

  --quick          a few seconds per figure (CI): bounds printed, not enforced
  --only <pieces>  comma-separated subset of ${Object.keys(PIECES).join(', ')} (default: all)
  --compare        with the content figure, also the mock against Prism, and autocannon as the load
                   generator; installs both into tools/bench/.cache first (git-ignored)
  --help, -h       this text`;

const SIZES = {
  quick: { rounds: 2, seconds: 1, warmup: 0.5, starts: 3, storm: 5_000, profiles: ['strict'] as readonly string[] },
  full: { rounds: 6, seconds: 4, warmup: 2, starts: 15, storm: 50_000, profiles: PROFILE_NAMES as readonly string[] },
};
type Size = (typeof SIZES)['full'];

const CONNECTIONS = 32;
const ITEMS = 10_000;
const ORG = DEFAULT_CLIENTS[0] as { id: string; secret: string };
const TOKEN_FORM = new URLSearchParams({ grant_type: 'client_credentials', client_id: ORG.id, client_secret: ORG.secret, scope: 'content:read' }).toString();
/** Headers node:http writes by itself; the bare server's node writes them the same way. */
const AUTOMATIC = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

/** One headline figure: a ratio, its bound, and both sides in words. */
export interface Figure {
  readonly name: string;
  readonly ratio: number;
  readonly bound: number;
  readonly kind: 'min' | 'max';
  /** The mock's side and the baseline's, e.g. `mock 18,094 req/s; bare node:http 18,630 req/s`. */
  readonly sides: string;
  readonly error?: string;
}

export const holds = (f: Figure): boolean => f.error === undefined && (f.kind === 'min' ? f.ratio >= f.bound : f.ratio <= f.bound);

export function formatFigure(f: Figure): string {
  const bound = `${f.kind === 'min' ? '≥' : '≤'} ${f.bound}`;
  if (f.error !== undefined) return `ERROR ${f.name}: not measured: ${f.error}`;
  return `${holds(f) ? 'PASS ' : 'FAIL '} ${f.name} ${bound}: ${f.ratio.toFixed(3)} (${f.sides})`;
}

export function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length === 0 ? Number.NaN : s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

const count = (n: number) => Math.round(n).toLocaleString('en-US');
const mb = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`;
const print = (line: string) => process.stdout.write(`${line}\n`);
const peakRss = (child: NodeChild) => child.memoryKiB('VmHWM') * 1024;

const startMock = (args: readonly string[] = []) => startMockProcess(['--rate', '0', '--items', String(ITEMS), ...args]);

async function startBare(scratch: string, replies: Record<string, CapturedReply>): Promise<NodeChild & { url: string }> {
  const file = path.join(scratch, `replies-${Date.now()}.json`);
  writeFileSync(file, JSON.stringify(replies));
  const child = await startNode('the bare node:http server', ['--import', 'tsx', 'tools/bench/bare-server.ts', file]);
  return { ...child, url: (JSON.parse(child.ready) as { url: string }).url };
}

/** One exchange with the mock, kept whole for the bare server to replay. */
async function capture(shot: Shot): Promise<CapturedReply> {
  const res = await fetch(shot.url, { method: shot.method, headers: shot.headers as Record<string, string>, ...(shot.body ? { body: shot.body } : {}) });
  const headers = [...res.headers].filter(([name]) => !AUTOMATIC.has(name)).flat();
  return { status: res.status, headers, body: await res.text() };
}

const TOKEN_HEADERS = { 'content-type': 'application/x-www-form-urlencoded', [KIND_HEADER]: 'token' };
const tokenShot = (auth: string): Shot => ({ method: 'POST', url: `${auth}${ENDPOINTS.token.path}`, headers: TOKEN_HEADERS, body: TOKEN_FORM, read: true });

function accessToken(reply: { status: number; head?: string; body?: string }): string {
  const token = (JSON.parse(reply.head ?? reply.body ?? '') as { access_token?: unknown }).access_token;
  if (reply.status !== 200 || typeof token !== 'string') throw new Error(`expected a 200 with an access_token from the token endpoint, got ${reply.status}`);
  return token;
}

/** A page's links.next as a path, read from the start of the body. */
export function nextPathOf(head: string): string | undefined {
  const next = /"next":"([^"]+)"/.exec(head.slice(0, head.indexOf('"data"')))?.[1];
  return next === undefined ? undefined : new URL(next).pathname + new URL(next).search;
}

type Side = { server: NodeChild; script: LoadOptions['script'] };
type Send = Parameters<LoadOptions['script']>[0];
type Round = Awaited<ReturnType<typeof round>>;

/** One round of a side: replies per second, its CPU per reply, the load generator's share of a core, and what went wrong. */
async function round({ server, script }: Side, seconds: number, expected?: number) {
  const cpu = server.cpuSeconds();
  const own = process.cpuUsage();
  const t: Tally = await runLoad({ connections: CONNECTIONS, seconds, script });
  const client = process.cpuUsage(own);
  const others = [...t.statuses].filter(([status]) => expected !== undefined && status !== expected);
  const problem =
    t.errors > 0 ? `${t.errors} errors, e.g. ${t.firstError}` : others.length > 0 ? `statuses ${others.map(([s, n]) => `${n}× ${s}`).join(', ')}` : undefined;
  return {
    rate: t.replies / t.seconds,
    cpuMicros: ((server.cpuSeconds() - cpu) * 1e6) / t.replies,
    // Near 1, the load generator (this process), not the server, set the rate.
    client: (client.user + client.system) / 1e6 / t.seconds,
    problem,
  };
}

/** Rounds of the mock and the baseline in ABBA order (neither always runs second), after a warm-up of each; the figure is the median of the paired ratios. */
async function paired(size: Size, name: string, bound: number, mock: Side, bare: Side, expected?: number): Promise<Figure> {
  await round(bare, size.warmup);
  await round(mock, size.warmup);
  const m: Round[] = [];
  const b: Round[] = [];
  for (let i = 0; i < size.rounds; i++)
    for (const side of i % 2 === 0 ? [bare, mock] : [mock, bare]) (side === mock ? m : b).push(await round(side, size.seconds, expected));
  const problem = [...m, ...b].find((r) => r.problem)?.problem;
  const rates = (rs: Round[]) =>
    `${count(median(rs.map((r) => r.rate)))} req/s (${rs.map((r) => count(r.rate)).join(', ')}), ${count(median(rs.map((r) => r.cpuMicros)))} µs CPU per reply, load generator at ${median(rs.map((r) => r.client)).toFixed(2)} of a core`;
  const cpu = (median(b.map((r) => r.cpuMicros)) / median(m.map((r) => r.cpuMicros))).toFixed(2);
  const sides = `mock ${rates(m)}; bare node:http ${rates(b)}; median of ${size.rounds} paired rounds; CPU per reply, bare ÷ mock: ${cpu}`;
  return { name, bound, kind: 'min', ratio: median(m.map((r, i) => r.rate / (b[i] as Round).rate)), sides, error: problem };
}

/** The mock and a bare server sending the content page the mock sent, asked with one token. */
async function content(size: Size, scratch: string, compareToo: boolean): Promise<Figure[]> {
  const mock = await startMock();
  const headers = { authorization: `Bearer ${accessToken(await capture(tokenShot(mock.authUrl)))}` };
  const reply = await capture({ method: 'GET', url: `${mock.baseUrl}${CONTENT_PATH}`, headers });
  print(`  captured: ${reply.status}, ${count(Buffer.byteLength(reply.body))} bytes of body`);
  const bare = await startBare(scratch, { default: reply });
  const shot = (origin: string): Shot => ({ method: 'GET', url: `${origin}${CONTENT_PATH}`, headers });
  const name = `content page (GET ${CONTENT_PATH}, ${count(ITEMS)} items, rate limit off, ${CONNECTIONS} connections), mock ÷ bare node:http`;
  const figure = await paired(size, name, 0.9, { server: mock, script: repeat(shot(mock.baseUrl)) }, { server: bare, script: repeat(shot(bare.url)) }, 200);
  if (compareToo) await compare(size, { mock: mock.baseUrl, bare: bare.url, headers });
  return [figure];
}

/** An SDK test's requests, each named by its kind for the bare server; a kind's status must be the one `expected` names. */
async function sdkTest({ authUrl, baseUrl }: { authUrl: string; baseUrl: string }, expected: Record<string, number>, send: Send) {
  const ask = async (kind: string, shot: Omit<Shot, 'headers'> & { headers?: Shot['headers'] }) => {
    const answer = await send({ ...shot, headers: { ...shot.headers, [KIND_HEADER]: kind } });
    if (expected[kind] !== undefined && answer.status !== expected[kind])
      throw new Error(`${kind}: expected ${expected[kind]} as captured, got ${answer.status}`);
    return answer;
  };
  const token = accessToken(await send(tokenShot(authUrl)));
  const auth = { authorization: `Bearer ${token}` };
  let page = await ask('first', { method: 'GET', url: `${baseUrl}${CONTENT_PATH}`, headers: auth, read: true });
  for (let i = 0; i < 3; i++)
    page = await ask('next', { method: 'GET', url: `${baseUrl}${nextPathOf(page.head) ?? '/no-next-link'}`, headers: auth, read: true });
  await ask('bad-token', { method: 'GET', url: `${baseUrl}${CONTENT_PATH}`, headers: { authorization: 'Bearer not-a-token-of-this-mock' } });
  await ask('bad-parameter', { method: 'GET', url: `${baseUrl}${ENDPOINTS.listContent.path}?limit=0`, headers: auth });
  await ask('logout', { method: 'POST', url: `${baseUrl}${ENDPOINTS.logout.path}`, headers: { ...auth, 'content-type': 'application/json' } });
}

async function mixed(size: Size, scratch: string): Promise<Figure[]> {
  print(`  an SDK test again and again on ${CONNECTIONS} clients: a token, a first page and 3 next pages (limit=100), a bad token, limit=0, a logout`);
  const figures: Figure[] = [];
  for (const profile of size.profiles) {
    const mock = await startMock(['--profile', profile]);
    // One test sent by hand, every reply kept: the bare server's table, and the status each kind must get.
    const replies: Record<string, CapturedReply> = {};
    await sdkTest(mock, {}, async (shot) => {
      const reply = await capture(shot);
      replies[String(shot.headers[KIND_HEADER])] = reply;
      return { status: reply.status, head: reply.body.slice(0, 4096) };
    });
    const captured = Object.entries(replies).map(([kind, r]) => `${kind} ${r.status}`);
    print(`  ${profile}: captured ${captured.join(', ')}`);
    const expected = Object.fromEntries(Object.entries(replies).map(([kind, r]) => [kind, r.status]));
    const bare = await startBare(scratch, replies);
    const script = (origins: { authUrl: string; baseUrl: string }) => (send: Send) => sdkTest(origins, expected, send);
    const name = `mixed workload (${profile} profile), mock ÷ bare node:http`;
    const bareSide = { server: bare, script: script({ authUrl: bare.url, baseUrl: bare.url }) };
    figures.push(await paired(size, name, 0.5, { server: mock, script: script(mock) }, bareSide));
    await Promise.all([mock.stop(), bare.stop()]);
  }
  return figures;
}

async function start(size: Size): Promise<Figure[]> {
  // The npm script, whatever builds it: the bundle as its users install it, in dist/mock/.
  execFileSync('npm', ['run', '--silent', 'build:mock'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  const bin = path.join(ROOT, 'dist', 'mock', 'bin', 'lp-mock.js');
  const mock: number[] = [];
  const node: number[] = [];
  for (let i = 0; i < size.starts; i++) {
    // From spawn to the ready line, and from spawn to the exit.
    let started = performance.now();
    const child = await startNode('the mock bundle', [bin, '--auth-port', '0', '--api-port', '0']);
    mock.push(performance.now() - started);
    await child.stop();
    started = performance.now();
    if (spawnSync(process.execPath, ['-e', '']).status !== 0) throw new Error("node -e '' did not exit cleanly");
    node.push(performance.now() - started);
  }
  const ms = (xs: number[]) => `median ${median(xs).toFixed(0)} ms (${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)})`;
  const ratio = median(mock.map((m, i) => m / (node[i] as number)));
  const sides = `mock ${ms(mock)}; node -e '' ${ms(node)}; median of ${size.starts} paired runs`;
  return [{ name: `start-up, dist/mock/bin/lp-mock.js to its ready line ÷ node -e ''`, ratio, bound: 3, kind: 'max', sides }];
}

async function memory(size: Size, scratch: string): Promise<Figure[]> {
  const mock = await startMock();
  const bare = await startBare(scratch, { token: await capture(tokenShot(mock.authUrl)) });
  const idle = { mock: peakRss(mock), bare: peakRss(bare) };
  // Bounded by count, so both servers answer the same storm; the time bound only stops a stuck one.
  const storm = async (server: NodeChild, auth: string) => {
    const t = await runLoad({ connections: CONNECTIONS, seconds: 120, maxRequests: size.storm, script: repeat(tokenShot(auth)) });
    if (t.errors > 0 || t.statuses.get(200) !== t.replies)
      throw new Error(`the storm got ${[...t.statuses].map(([s, n]) => `${n}× ${s}`).join(', ')}, ${t.errors} errors`);
    return { rss: peakRss(server), rate: t.replies / t.seconds };
  };
  const m = await storm(mock, mock.authUrl);
  const b = await storm(bare, bare.url);
  const held = (await (await fetch(`${mock.baseUrl}/_mock/stats`)).json()) as { accessTokens?: number };
  const name = `memory, peak resident memory under a storm of ${count(size.storm)} token requests, mock ÷ bare node:http`;
  const sides = `mock ${mb(m.rss)} (${mb(idle.mock)} idle, ${count(held.accessTokens ?? Number.NaN)} tokens held, ${count(m.rate)} tokens/s); bare node:http ${mb(b.rss)} (${mb(idle.bare)} idle)`;
  return [{ name, ratio: m.rss / b.rss, bound: 3, kind: 'max', sides }];
}

async function main(argv: string[]): Promise<number> {
  const options = { quick: { type: 'boolean' }, only: { type: 'string' }, compare: { type: 'boolean' } } as const;
  const { values } = parseCommandLine('bench', USAGE, { args: argv, options, strict: true });
  const only = values.only?.split(',').map((s) => s.trim()) ?? Object.keys(PIECES);
  const unknown = only.find((p) => !Object.hasOwn(PIECES, p));
  if (unknown !== undefined)
    return (process.stderr.write(`bench: --only: "${unknown}" is not a piece; expected some of ${Object.keys(PIECES).join(', ')}.\n`), 2);
  const quick = values.quick === true;
  const size = quick ? SIZES.quick : SIZES.full;
  const [cpu, load] = [cpus(), loadavg().map((l) => l.toFixed(2))];
  print(`npm run bench: ${cpu.length} cores (${cpu[0]?.model.trim()}), Node ${process.version}, load average ${load.join(' ')}`);
  print(quick ? 'Quick mode: bounds reported, NOT enforced (shared CI machines are too noisy for that).' : 'Full mode: every bound is enforced.');
  const scratch = mkdtempSync(path.join(tmpdir(), 'lp-bench-'));
  const figures: Figure[] = [];
  const started = performance.now();
  try {
    for (const [piece, measure] of Object.entries(PIECES).filter(([p]) => only.includes(p))) {
      print(`\n== ${piece}`);
      const pieceStarted = performance.now();
      const got = await measure(size, scratch, values.compare === true)
        .catch((error: Error): Figure[] => [{ name: piece, ratio: Number.NaN, bound: Number.NaN, kind: 'min', sides: '', error: error.message }])
        .finally(stopAll);
      for (const f of got) print(`  ${formatFigure(f)}`);
      figures.push(...got);
      print(`  (${((performance.now() - pieceStarted) / 1000).toFixed(0)} s)`);
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  print(`\n== Figures (${quick ? 'reported, not enforced' : 'enforced'}), ${((performance.now() - started) / 1000).toFixed(0)} s`);
  for (const f of figures) print(`  ${formatFigure(f)}`);
  if (figures.some((f) => f.error !== undefined)) return (print('A figure could not be measured: exit code 2.'), 2);
  if (quick || figures.every(holds)) return 0;
  return (print('A bound did not hold: exit code 1.'), 1);
}

if (require.main === module) {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void stopAll().finally(() => process.exit(130)));
  runMain(() => main(process.argv.slice(2)).finally(stopAll), 'bench: ', 2);
}
