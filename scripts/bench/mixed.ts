/**
 * Mixed workload: the SDK test farm of scripts/bench/farm.ts (cursor walks over many snapshots, token
 * issuance and logout, 429s of keys with a small custom rate, refusals of a bad token and a bad
 * parameter) against the mock and against a bare node:http server replaying the mock's replies of each
 * kind, once per built-in profile: the profiles answer the same requests with other statuses, headers
 * and bodies (a clamped page or a 400, a problem+json or an errors array), so each is measured.
 *
 * Per profile: the mock starts with the profile and a clients file of the farm's keys; one request of
 * each kind is sent to it and its reply captured; the bare server gets those replies. Rounds then
 * alternate between the two in ABBA order, and the target is the median of the ratios of adjacent
 * rounds, as for the single-page throughput.
 *
 * One file for capture, rounds and figures: all three work on the captured replies and the statuses
 * they set; split apart, each part would take the others' state as parameters.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PROFILE_NAMES, type ProfileName } from '../../mock/profile.ts';
import type { CapturedReply, ReplyTable } from './bare-server.ts';
import { type Child, machineTicks, startBare, startMock } from './children.ts';
import {
  accessTokenOf,
  credentials,
  type FarmRequest,
  type FarmTally,
  KIND_HEADER,
  KINDS,
  type Kind,
  type Origins,
  REQUESTS,
  runFarm,
  THROTTLED,
  THROTTLED_RATE,
  WALKERS,
} from './farm.ts';
import { AUTOMATIC_HEADERS, nextPathOf } from './http-client.ts';
import { formatCount, formatRatio, median, pairedMedian, type Target, unmeasured } from './report.ts';

export interface MixedOptions {
  /** Measured rounds of the mock and of the bare baseline each, per profile. */
  readonly rounds: number;
  readonly roundSeconds: number;
  /** Unmeasured seconds per server before its first round. */
  readonly warmupSeconds: number;
  /** Virtual clients of the farm, each with one request in flight. */
  readonly clients: number;
  /** Seeded items: enough that no walk reaches the last page. */
  readonly items: number;
}

interface MixedRound {
  /** Replies per second, of every status. */
  readonly rps: number;
  readonly serverMicrosPerRequest: number;
  readonly clientCpu: number;
  readonly machineBusy: number;
  readonly bytesPerReply: number;
  /** Replies whose status is not the one captured for their kind. */
  readonly differing: number;
  readonly tally: FarmTally;
  /** Why the round does not count. */
  readonly problem: string | undefined;
}

export interface ProfileFigures {
  readonly profile: ProfileName;
  readonly mockRps: number;
  readonly bareRps: number;
  readonly ratio: number;
  readonly mockMicrosPerRequest: number;
  readonly bareMicrosPerRequest: number;
  readonly mockBytesPerReply: number;
  readonly bareBytesPerReply: number;
  /** Share of replies per status, over the mock's rounds. */
  readonly statuses: Record<string, number>;
  /** Captured status per kind. */
  readonly expected: Record<string, number>;
}

export interface MixedResult {
  readonly targets: Target[];
  readonly figures: ProfileFigures[];
}

export const MIXED_BOUND = 0.7;
export const mixedTargetName = (profile: string) => `mixed workload (${profile} profile): mock ÷ bare node:http`;

/**
 * Mock replies whose status differs from the captured one may be this share of a round: a throttled
 * key's window restarting lets THROTTLED_RATE requests through per minute (200 instead of 429). More
 * means the farm is not sending what it thinks, and the round does not count.
 */
const DIFFERING_SHARE = 0.01;

/** One full exchange with the mock, for the baseline to replay: status, the headers the mock set, body. */
async function capture(origins: Origins, req: FarmRequest): Promise<CapturedReply> {
  const res = await fetch(`${origins[req.origin]}${req.path}`, {
    method: req.method,
    headers: { ...(req.headers as Record<string, string>), [KIND_HEADER]: req.kind },
    ...(req.body !== undefined ? { body: req.body } : {}),
  });
  const body = await res.text();
  const headers: string[] = [];
  for (const [name, value] of res.headers) if (!AUTOMATIC_HEADERS.has(name)) headers.push(name, value);
  return { status: res.status, headers, body };
}

function expect200(kind: Kind, reply: CapturedReply): CapturedReply {
  if (reply.status !== 200) throw new Error(`capturing the ${kind} reply: expected 200, got ${reply.status}`);
  return reply;
}

function tokenOf(kind: Kind, reply: CapturedReply): string {
  const token = accessTokenOf(expect200(kind, reply).body);
  if (token === undefined) throw new Error(`capturing the ${kind} reply: a 200 without an access_token`);
  return token;
}

/**
 * One reply of each kind from the mock, and the tokens of the throttled keys. Capturing spends the
 * throttled keys' budgets, so the rounds meet them blocked.
 */
async function captureAll(origins: Origins): Promise<{ replies: Record<Kind, CapturedReply>; throttledTokens: string[] }> {
  const walker = credentials(WALKERS[0] as (typeof WALKERS)[number]);
  const token = await capture(origins, REQUESTS.token(walker));
  const access = tokenOf('token', token);
  const pages = async (limit: 100 | 10) => {
    const first = expect200(limit === 100 ? 'first-100' : 'first-10', await capture(origins, REQUESTS.first(limit, access)));
    const next = nextPathOf(first.body);
    if (next === undefined) throw new Error(`capturing a first page with limit=${limit}: no links.next`);
    return [first, expect200(limit === 100 ? 'next-100' : 'next-10', await capture(origins, REQUESTS.next(limit, next, access)))] as const;
  };
  const [first100, next100] = await pages(100);
  const [first10, next10] = await pages(10);
  const badToken = await capture(origins, REQUESTS.badToken());
  const badParameter = await capture(origins, REQUESTS.badParameter(access));

  const throttledTokens: string[] = [];
  let throttled: CapturedReply | undefined;
  const budget = Number(THROTTLED_RATE.split('/')[0]);
  for (const key of THROTTLED) {
    const t = tokenOf('token', await capture(origins, REQUESTS.token(credentials(key))));
    throttledTokens.push(t);
    let reply: CapturedReply | undefined;
    for (let i = 0; i <= budget + 1 && reply?.status !== 429; i++) reply = await capture(origins, REQUESTS.throttled(t));
    if (reply?.status !== 429) throw new Error(`key ${key.id} (rate ${THROTTLED_RATE}) got no 429 after ${budget + 2} requests`);
    throttled ??= reply;
  }
  // Logged out last: a token of its own, so the one above stays valid for nothing in particular.
  const logout = await capture(origins, REQUESTS.logout(tokenOf('token', await capture(origins, REQUESTS.token(walker)))));
  if (logout.status >= 300) throw new Error(`capturing the logout reply: expected a 2xx, got ${logout.status}`);
  const replies: Record<Kind, CapturedReply> = {
    token,
    'first-100': first100,
    'next-100': next100,
    'first-10': first10,
    'next-10': next10,
    throttled: throttled as CapturedReply,
    'bad-token': badToken,
    'bad-parameter': badParameter,
    logout,
  };
  return { replies, throttledTokens };
}

async function round(
  server: Child,
  origins: Origins,
  o: MixedOptions,
  seconds: number,
  throttledTokens: string[],
  expected: Record<Kind, number>,
  label: string,
) {
  const serverBefore = server.cpuSeconds();
  const clientBefore = process.cpuUsage();
  const machineBefore = machineTicks();
  const tally = await runFarm({ origins, clients: o.clients, durationMs: seconds * 1000, throttledTokens });
  const serverSeconds = server.cpuSeconds() - serverBefore;
  const client = process.cpuUsage(clientBefore);
  const machineAfter = machineTicks();
  const elapsed = tally.elapsedMs / 1000;
  let differing = 0;
  let bytes = 0;
  const unexpected: string[] = [];
  for (const kind of KINDS) {
    const k = tally.kinds[kind];
    bytes += k.bytes;
    for (const [status, count] of Object.entries(k.statuses)) {
      if (Number(status) === expected[kind]) continue;
      differing += count;
      unexpected.push(`${count}× ${status} to ${kind}`);
    }
  }
  let problem: string | undefined;
  if (tally.failures > 0) problem = `${label}: ${tally.failures} requests failed, e.g. ${tally.reasons.join('; ')}`;
  else if (tally.replies === 0) problem = `${label}: no reply in the round`;
  else if (differing > tally.replies * DIFFERING_SHARE) problem = `${label}: replies of another status than captured: ${unexpected.slice(0, 5).join(', ')}`;
  const result: MixedRound = {
    rps: tally.replies / elapsed,
    serverMicrosPerRequest: tally.replies > 0 ? (serverSeconds * 1e6) / tally.replies : Number.NaN,
    clientCpu: (client.user + client.system) / 1e6 / elapsed,
    machineBusy: (machineAfter.busy - machineBefore.busy) / (machineAfter.total - machineBefore.total),
    bytesPerReply: tally.replies > 0 ? bytes / tally.replies : 0,
    differing,
    tally,
    problem,
  };
  return result;
}

function statusShares(rounds: readonly MixedRound[]): Record<string, number> {
  const counts: Record<string, number> = {};
  let total = 0;
  for (const r of rounds)
    for (const kind of KINDS)
      for (const [status, count] of Object.entries(r.tally.kinds[kind].statuses)) {
        counts[status] = (counts[status] ?? 0) + count;
        total += count;
      }
  return Object.fromEntries(Object.entries(counts).map(([status, count]) => [status, count / total]));
}

const percent = (share: number) => `${(share * 100).toFixed(share < 0.1 ? 1 : 0)}%`;

async function measureProfile(
  profile: ProfileName,
  o: MixedOptions,
  scratch: string,
  print: (line: string) => void,
): Promise<{ target: Target; figures?: ProfileFigures }> {
  const name = mixedTargetName(profile);
  const children: Child[] = [];
  try {
    const clientsFile = path.join(scratch, `clients-${profile}.json`);
    writeFileSync(clientsFile, JSON.stringify([...WALKERS, ...THROTTLED]));
    const mock = await startMock(`mock (${profile} profile)`, o.items, ['--profile', profile, '--clients', clientsFile]);
    children.push(mock);
    const mockOrigins: Origins = { auth: mock.authUrl, api: mock.baseUrl };
    const { replies, throttledTokens } = await captureAll(mockOrigins);
    const table: ReplyTable = { header: KIND_HEADER, replies };
    const tableFile = path.join(scratch, `replies-${profile}.json`);
    writeFileSync(tableFile, JSON.stringify(table));
    const bare = await startBare(tableFile);
    children.push(bare);
    const bareOrigins: Origins = { auth: bare.url, api: bare.url };
    const expected = Object.fromEntries(KINDS.map((k) => [k, replies[k].status])) as Record<Kind, number>;
    print(`${profile}: captured ${KINDS.map((k) => `${k} ${replies[k].status} (${formatCount(Buffer.byteLength(replies[k].body))} B)`).join(', ')}`);

    const run = (which: 'mock' | 'bare', seconds: number) =>
      which === 'mock'
        ? round(mock, mockOrigins, o, seconds, throttledTokens, expected, `${profile} mock`)
        : round(bare, bareOrigins, o, seconds, throttledTokens, expected, `${profile} bare`);
    await run('bare', o.warmupSeconds);
    await run('mock', o.warmupSeconds);
    const mockRounds: MixedRound[] = [];
    const bareRounds: MixedRound[] = [];
    for (let i = 0; i < o.rounds; i++) {
      // ABBA order, so that neither side always runs second.
      for (const which of i % 2 === 0 ? (['bare', 'mock'] as const) : (['mock', 'bare'] as const)) {
        (which === 'mock' ? mockRounds : bareRounds).push(await run(which, o.roundSeconds));
      }
    }

    const med = (rounds: readonly MixedRound[], pick: (r: MixedRound) => number) => median(rounds.map(pick));
    const statuses = statusShares(mockRounds);
    const figures: ProfileFigures = {
      profile,
      mockRps: med(mockRounds, (r) => r.rps),
      bareRps: med(bareRounds, (r) => r.rps),
      ratio: pairedMedian(mockRounds, bareRounds, (r) => r.rps),
      mockMicrosPerRequest: med(mockRounds, (r) => r.serverMicrosPerRequest),
      bareMicrosPerRequest: med(bareRounds, (r) => r.serverMicrosPerRequest),
      mockBytesPerReply: med(mockRounds, (r) => r.bytesPerReply),
      bareBytesPerReply: med(bareRounds, (r) => r.bytesPerReply),
      statuses,
      expected,
    };
    const differing = mockRounds.reduce((n, r) => n + r.differing, 0);
    const replyCount = mockRounds.reduce((n, r) => n + r.tally.replies, 0);
    print(
      `${profile}: mock ${formatCount(figures.mockRps)} req/s (rounds: ${mockRounds.map((r) => formatCount(r.rps)).join(', ')}), ` +
        `bare ${formatCount(figures.bareRps)} req/s (rounds: ${bareRounds.map((r) => formatCount(r.rps)).join(', ')}); ` +
        `server CPU per request mock ${formatCount(figures.mockMicrosPerRequest)} µs, bare ${formatCount(figures.bareMicrosPerRequest)} µs ` +
        `(${formatRatio(pairedMedian(mockRounds, bareRounds, (r) => r.serverMicrosPerRequest))}×); ` +
        `bytes per reply mock ${formatCount(figures.mockBytesPerReply)}, bare ${formatCount(figures.bareBytesPerReply)}; ` +
        `load generator ${percent(med(mockRounds, (r) => r.clientCpu))} of a core, machine ${percent(med(mockRounds, (r) => r.machineBusy))} busy`,
    );
    print(
      `${profile}: statuses of the mock's replies: ${Object.entries(statuses)
        .sort(([a], [b]) => Number(a) - Number(b))
        .map(([status, share]) => `${status} ${percent(share)}`)
        .join(
          ', ',
        )}; ${formatCount(differing)} of ${formatCount(replyCount)} with another status than captured (a throttled key's window restarting lets ${THROTTLED_RATE.split('/')[0]} through)`,
    );
    const problem = [...bareRounds, ...mockRounds].find((r) => r.problem)?.problem;
    if (problem) return { target: unmeasured(name, MIXED_BOUND, 'min', problem), figures };
    return {
      target: {
        name,
        measured: figures.ratio,
        bound: MIXED_BOUND,
        kind: 'min',
        detail: `mock ${formatCount(figures.mockRps)} req/s, bare ${formatCount(figures.bareRps)} req/s; median of ${o.rounds} paired round${o.rounds === 1 ? '' : 's'}`,
      },
      figures,
    };
  } catch (error) {
    print(`${profile}: not measured: ${(error as Error).message}`);
    return { target: unmeasured(name, MIXED_BOUND, 'min', (error as Error).message) };
  } finally {
    await Promise.all(children.map((c) => c.stop()));
  }
}

export async function measureMixed(o: MixedOptions, print: (line: string) => void): Promise<MixedResult> {
  const scratch = mkdtempSync(path.join(tmpdir(), 'lp-bench-mixed-'));
  const targets: Target[] = [];
  const figures: ProfileFigures[] = [];
  try {
    for (const profile of PROFILE_NAMES) {
      const result = await measureProfile(profile, o, scratch, print);
      targets.push(result.target);
      if (result.figures) figures.push(result.figures);
    }
    return { targets, figures };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
