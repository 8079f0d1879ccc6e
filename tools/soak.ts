/**
 * `npm run soak`: the mock in a child process under mixed traffic for a bounded time, in rounds: a few seconds of sessions from every worker, then a barrier
 * that checks the rate limit and the throttle, moves the virtual clock two hours and checks that what the round kept is now refused (401, 400, 410). Passes
 * only with no unexpected status, no crash, and the mock's RSS at the end (median of the last 3 samples) at most 10 % above its plateau (of the middle half).
 */
import { retryAfterTime } from '../contracts/rate-limit.ts';
import type { ClientConfig } from '../mock/clients.ts';
import { integerFlags, runMain } from '../common/flags.ts';
import { median } from './bench/bench.ts';
import { clientsFile, type MockProcess, withMockProcess } from '../mock/test/mock-process.ts';

const flags = integerFlags('soak', process.argv.slice(2), {
  seconds: { default: 180, min: 10, max: 3_600, about: 'how long the traffic runs' },
  workers: { default: 8, min: 1, max: 64, about: 'sessions of traffic at once' },
});

/** Traffic between two barriers. */
const ROUND_MS = 4_000;
const SAMPLE_MS = 5_000;
const REQUEST_TIMEOUT_MS = 10_000;
/** The clock moves this much at each barrier: past the access token (1 h) and refresh token (2 h) lifetimes. */
const ADVANCE_SECONDS = 2 * 3_600;
const RSS_TOLERANCE = 0.1;
/** The young generation at full size from the start: V8 would grow it over ~45 s (+30 MiB), a warm-up that reads as a trend. */
const MOCK_NODE_FLAGS = ['--min-semi-space-size=16', '--max-semi-space-size=16'];
const SHOWN_UNEXPECTED = 10;

const ORG_IDS = ['soak-org-0', 'soak-org-1', 'soak-org-2', 'soak-org-3'];
const secretOf = (id: string) => `${id}-secret`;
const BUSY_RATE = '1000000/1m';
const CLIENTS: ClientConfig[] = [
  ...ORG_IDS.map((id) => ({ id, secret: secretOf(id), scopes: ['content:read', 'users:read'], rate: BUSY_RATE, tokenTtl: '1h' })),
  { id: 'soak-provider', secret: secretOf('soak-provider'), scopes: ['content:read'], provider: 'Mock Academy', rate: BUSY_RATE, tokenTtl: '1h' },
  { id: 'soak-limited', secret: secretOf('soak-limited'), scopes: ['content:read'], rate: '5/1h', tokenTtl: '1h' },
  { id: 'soak-guarded', secret: secretOf('soak-guarded'), scopes: ['content:read'], rate: BUSY_RATE, tokenTtl: '1h' },
];

type Answer = { readonly status: number; readonly headers: Headers; readonly body: string };
type Tokens = { access: string; refresh: string };
const JSON_TYPE = { 'content-type': 'application/json' };

class Traffic {
  requests = 0;
  readonly statuses = new Map<string, number>();
  unexpected = 0;
  readonly shown: string[] = [];

  constructor(private readonly mock: MockProcess) {}

  /**
   * One request, its status checked against `allowed`, a 429's Retry-After too; `what` names it in the report (the URL and headers hold secrets). A path is the
   * API's; `token` goes as a bearer.
   */
  async call(what: string, allowed: readonly number[], url: string, { token, ...init }: RequestInit & { token?: string } = {}): Promise<Answer | undefined> {
    this.requests++;
    const headers = token === undefined ? init.headers : { ...init.headers, authorization: `Bearer ${token}` };
    const target = url.startsWith('http') ? url : `${this.mock.baseUrl}${url}`;
    const answer = await fetch(target, { ...init, headers, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) }).then(
      async (res): Promise<Answer> => ({ status: res.status, headers: res.headers, body: await res.text() }),
      (error: Error) => void this.fail(`${what}: ${error.name} ${error.message}`),
    );
    const key = answer === undefined ? 'error' : String(answer.status);
    this.statuses.set(key, (this.statuses.get(key) ?? 0) + 1);
    if (answer === undefined) return undefined;
    if (!allowed.includes(answer.status)) this.fail(`${what}: ${answer.status}, expected ${allowed.join(' or ')} (${answer.body.slice(0, 160)})`);
    const retry = answer.status === 429 ? retryAfterTime(answer.headers.get('retry-after') ?? undefined, Date.now()) : undefined;
    if (retry?.ok === false) this.fail(`${what}: 429 without a readable Retry-After (${retry.error})`);
    return answer;
  }

  token(id: string, scope = 'content:read', secret = secretOf(id), allowed: readonly number[] = [200]): Promise<Tokens | undefined> {
    return this.#grant(`token ${id}`, allowed, { grant_type: 'client_credentials', client_id: id, client_secret: secret, scope });
  }

  refresh(id: string, refreshToken: string, allowed: readonly number[]): Promise<Tokens | undefined> {
    return this.#grant(`refresh ${id}`, allowed, { grant_type: 'refresh_token', client_id: id, client_secret: secretOf(id), refresh_token: refreshToken });
  }

  async #grant(what: string, allowed: readonly number[], fields: Record<string, string>): Promise<Tokens | undefined> {
    const answer = await this.call(what, allowed, `${this.mock.authUrl}/oauth/token`, { method: 'POST', body: new URLSearchParams(fields) });
    if (answer?.status !== 200) return undefined;
    const parsed = JSON.parse(answer.body) as { access_token: string; refresh_token: string };
    return { access: parsed.access_token, refresh: parsed.refresh_token };
  }

  /** Something unexpected: a status, an error, or a check of the driver's own. */
  fail(text: string): void {
    this.unexpected++;
    if (this.shown.length < SHOWN_UNEXPECTED) this.shown.push(text);
  }
}

function nextOf(answer: Answer | undefined): string | undefined {
  if (answer?.status !== 200) return undefined;
  const next = (JSON.parse(answer.body) as { links?: { next?: string } }).links?.next;
  return typeof next === 'string' ? next : undefined;
}

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)] as T;
const chance = (p: number) => Math.random() < p;

function randomQuery(): string {
  const params = [`limit=${pick([1, 5, 20, 50, 100, 250])}`];
  if (chance(0.3)) params.push(`filter[start_date]=${pick(['2015-01-01', '2019-06-01', '2021-01-01'])}`);
  if (chance(0.2)) params.push(`filter[modified_before]=${pick(['2022-01-01', '2030-01-01'])}`);
  return params.join('&');
}

/** What a round keeps to check after the clock moved. */
type Kept = { client: string; token: string; refresh: string; cursorUrl: string };

/** One worker's session: every step with the statuses it must get. */
async function session(t: Traffic, keep: (k: Kept) => void): Promise<void> {
  const id = pick(ORG_IDS);
  const issued = await t.token(id, 'content:read,users:read');
  if (!issued) return;
  let next: string | undefined = `/api/v2/content?${randomQuery()}`;
  const pages = 1 + Math.floor(Math.random() * 4);
  for (let i = 0; i < pages && next !== undefined; i++) next = nextOf(await t.call(`content page ${i + 1}`, [200], next, { token: issued.access }));
  // An abandoned walk: its snapshot is left to expire (snapshot churn).
  if (next !== undefined) keep({ client: id, token: issued.access, refresh: issued.refresh, cursorUrl: next });
  if (chance(0.3)) await t.call('users page', [200], `/api/v2/users?limit=${pick([1, 10, 50])}`, { token: issued.access });
  if (chance(0.2)) {
    const provider = await t.token('soak-provider');
    if (provider) await t.call('provider content', [200], '/api/v2/content?limit=10', { token: provider.access });
  }
  let current = issued;
  if (chance(0.3)) {
    const refreshed = await t.refresh(id, issued.refresh, [200]);
    if (refreshed) {
      await t.call('content after refresh', [200], '/api/v2/content?limit=1', { token: refreshed.access });
      await t.refresh(id, issued.refresh, [400]);
      current = refreshed;
    }
  }
  if (chance(0.5)) {
    const withRefresh = chance(0.5);
    const body = withRefresh ? JSON.stringify({ refresh_token: current.refresh }) : undefined;
    await t.call('logout', [204], '/oauth/token', { method: 'POST', token: current.access, headers: JSON_TYPE, body });
    await t.call('content after logout', [401], '/api/v2/content?limit=1', { token: current.access });
    if (withRefresh) await t.refresh(id, current.refresh, [400]);
  }
  if (chance(0.1)) await t.token(`invented-${Math.random().toString(36).slice(2)}`, 'content:read', 'wrong', [403]);
}

async function run(mock: MockProcess): Promise<number> {
  const t = new Traffic(mock);
  const started = performance.now();
  const deadline = started + flags.seconds * 1000;
  const rssSamples: number[] = [];
  let lastStats = 'not yet';
  const sample = () => {
    const seconds = (performance.now() - started) / 1000;
    const rssKiB = mock.memoryKiB('VmRSS');
    rssSamples.push(rssKiB);
    console.log(
      `[${seconds.toFixed(0).padStart(4)} s] requests ${t.requests} (${(t.requests / seconds).toFixed(0)}/s), unexpected ${t.unexpected}, mock RSS ${(rssKiB / 1024).toFixed(1)} MiB, live entries ${lastStats}`,
    );
  };
  const sampler = setInterval(sample, SAMPLE_MS);
  let rounds = 0;
  try {
    while (performance.now() < deadline && mock.ended() === undefined) {
      rounds++;
      const kept: Kept[] = [];
      const roundEnd = Math.min(deadline, performance.now() + ROUND_MS);
      const worker = async () => {
        while (performance.now() < roundEnd && mock.ended() === undefined) await session(t, (k) => kept.length < 4 && kept.push(k));
      };
      await Promise.all(Array.from({ length: flags.workers }, worker));
      if (mock.ended() !== undefined) break;
      const before = await t.call('stats', [200], `${mock.controlUrl}/stats`);
      await barrier(t, mock, kept);
      const after = await t.call('stats', [200], `${mock.controlUrl}/stats`);
      lastStats = `${liveCounts(before)} before the clock moved, ${liveCounts(after)} after`;
    }
  } finally {
    clearInterval(sampler);
  }
  sample();
  return report(t, mock, rssSamples, rounds, (performance.now() - started) / 1000);
}

/** Checks the limits, moves the clock, and checks that everything the round kept has ended. */
async function barrier(t: Traffic, mock: MockProcess, kept: readonly Kept[]): Promise<void> {
  const limited = await t.token('soak-limited');
  if (limited) {
    for (let i = 0; i < 5; i++) await t.call('limited within budget', [200], '/api/v2/content?limit=1', { token: limited.access });
    await t.call('limited past budget', [429], '/api/v2/content?limit=1', { token: limited.access });
  }
  // The previous barrier moved the clock past the throttle window: the right secret works again.
  await t.token('soak-guarded', 'content:read', secretOf('soak-guarded'), [200]);
  for (let i = 0; i < 10; i++) await t.token('soak-guarded', 'content:read', `wrong-${i}`, [403]);
  // Past its failures, the right secret too is refused for a while.
  await t.token('soak-guarded', 'content:read', secretOf('soak-guarded'), [429]);
  const advance = JSON.stringify({ advanceSeconds: ADVANCE_SECONDS });
  await t.call('clock +2 h', [200], `${mock.controlUrl}/clock`, { method: 'POST', headers: JSON_TYPE, body: advance });
  for (const k of kept) {
    await t.call('kept access token after 2 h', [401], '/api/v2/content?limit=1', { token: k.token });
    await t.refresh(k.client, k.refresh, [400]);
    const fresh = await t.token(k.client);
    if (fresh) await t.call('kept cursor after 2 h', [410], k.cursorUrl, { token: fresh.access });
  }
}

/** /_mock/stats in a few words: access/refresh tokens, snapshots, rate windows, throttled client_ids. */
function liveCounts(answer: Answer | undefined): string {
  if (answer === undefined) return '?';
  const s = JSON.parse(answer.body) as Record<string, number>;
  return `[tokens ${s.accessTokens}/${s.refreshTokens}, snapshots ${s.snapshots}, windows ${s.rateWindows}, throttled ${s.throttledClients}]`;
}

function report(t: Traffic, mock: MockProcess, rssSamples: readonly number[], rounds: number, seconds: number): number {
  console.log(`\n${t.requests} requests in ${seconds.toFixed(1)} s (${(t.requests / seconds).toFixed(0)}/s), ${rounds} rounds (clock +${rounds * 2} h)`);
  console.log(`statuses: ${JSON.stringify(Object.fromEntries([...t.statuses].sort()))}`);
  console.log(`unexpected: ${t.unexpected}`);
  for (const line of t.shown) console.log(`  ${line}`);
  const failures: string[] = [];
  if (t.unexpected > 0) failures.push(`${t.unexpected} unexpected statuses`);
  const ended = mock.ended();
  if (ended !== undefined) failures.push(`the mock stopped (${ended}); stderr: ${mock.stderrTail()}`);
  const rss = rssSamples.filter((v) => Number.isFinite(v));
  if (rss.length < 6) failures.push(`only ${rss.length} RSS samples: run longer (--seconds ≥ 30) or on a system with /proc`);
  else {
    const middle = rss.slice(Math.floor(rss.length / 4), Math.ceil((rss.length * 3) / 4));
    const plateau = median(middle);
    const end = median(rss.slice(-3));
    const ratio = end / plateau;
    console.log(`RSS MiB over time: ${rss.map((v) => (v / 1024).toFixed(0)).join(' ')}`);
    console.log(
      `RSS plateau ${(plateau / 1024).toFixed(1)} MiB (median of the middle half), end ${(end / 1024).toFixed(1)} MiB (median of the last 3): ${((ratio - 1) * 100).toFixed(1)} %`,
    );
    if (ratio > 1 + RSS_TOLERANCE) failures.push(`RSS at the end is ${((ratio - 1) * 100).toFixed(1)} % above its plateau (at most ${RSS_TOLERANCE * 100} %)`);
  }
  console.log(failures.length === 0 ? '\nsoak passed' : `\nSOAK FAILED: ${failures.join('; ')}`);
  return failures.length === 0 ? 0 : 1;
}

runMain(() => {
  console.log(`soak: ${flags.seconds} s, ${flags.workers} workers, rounds of ${ROUND_MS / 1000} s, clock +${ADVANCE_SECONDS / 3600} h at each barrier`);
  return withMockProcess(['--clients', clientsFile(CLIENTS)], MOCK_NODE_FLAGS, run);
}, 'soak: ');
