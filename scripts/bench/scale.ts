/**
 * Scale: latency of a first page and of a `next` page of GET /api/v2/content?limit=100 from a mock
 * seeded with 1,000,000 items against one with 10,000.
 *
 * A first page opens a snapshot; a cursor is single-use, so every `next` request needs a cursor of its
 * own: every page's links.next is kept, and the next-page rounds spend them oldest first (each is
 * minutes away from expiring), the first pages' cursors before those of second pages.
 *
 * How the noise of a shared machine is kept out of a p99: the two mocks run in separate processes and
 * are measured at the same time, so a burst of other work meets both; which mock's loops start first
 * alternates per round; and the run is split into epochs that restart both mocks in swapped order, so
 * neither keeps a better place with the scheduler. Each target is the median over rounds of that
 * round's ratio (both mocks measured in the same seconds), so one round hit by a burst of other work
 * does not decide it; the percentiles printed next to it are over all samples.
 */
import { ENDPOINTS } from '../../contracts/endpoints.ts';
import { DEFAULT_CLIENTS } from '../../mock/clients.ts';
import { type MockChild, startMock } from './children.ts';
import { type Credentials, closedLoop, fetchToken, nextPathOf } from './http-client.ts';
import { formatCount, formatMs, median, percentile, sortedSamples, type Target, unmeasured } from './report.ts';

export interface ScaleOptions {
  /** Epochs: each starts both mocks afresh, in the other order than the epoch before. */
  readonly epochs: number;
  /** Measured rounds per epoch and page kind. */
  readonly rounds: number;
  readonly roundSeconds: number;
  /** Unmeasured seconds per epoch and page kind (JIT, caches, connections). */
  readonly warmupSeconds: number;
  /** Requests in flight at once per mock: few, so the figures are service times more than queueing. */
  readonly connections: number;
  /** Items of the reference mock. */
  readonly small: number;
  /** Items of the mock under test. */
  readonly large: number;
}

export interface ScaleResult {
  readonly targets: Target[];
  readonly notes: string[];
  readonly figures: Record<PageKind, Record<Size, Percentiles>>;
}

type PageKind = 'first' | 'next';
type Size = 'small' | 'large';
interface Percentiles {
  readonly p50: number;
  readonly p99: number;
  readonly samples: number;
}

/** The bound of every scale target: large ÷ small latency. */
export const SCALE_BOUND = 1.3;

const FIRST_PAGE = `${ENDPOINTS.listContent.path}?limit=100`;
const ORG: Credentials = { id: DEFAULT_CLIENTS[0]?.id ?? '', secret: DEFAULT_CLIENTS[0]?.secret ?? '' };

/** Samples of one mock size over all epochs. */
interface Tally {
  readonly samples: Record<PageKind, number[]>;
  /** Per measured round: that round's percentiles. */
  readonly rounds: Record<PageKind, Percentiles[]>;
  failures: number;
  readonly reasons: string[];
}

/** One running mock within an epoch. */
interface Subject {
  readonly mock: MockChild;
  readonly headers: Record<string, string>;
  readonly tally: Tally;
  /** Cursors handed out by this mock's first pages, as next-page paths; spent from `spent` on. */
  readonly cursors: string[];
  spent: number;
}

async function subject(size: Size, items: number, tally: Tally): Promise<Subject> {
  const mock = await startMock(`mock (${formatCount(items)} items, ${size})`, items);
  try {
    const token = await fetchToken(mock.authUrl, ORG, 'content:read');
    return { mock, headers: { authorization: `Bearer ${token}` }, tally, cursors: [], spent: 0 };
  } catch (error) {
    await mock.stop();
    throw error;
  }
}

async function round(s: Subject, kind: PageKind, seconds: number, connections: number, keep: boolean): Promise<void> {
  const result = await closedLoop({
    origin: s.mock.baseUrl,
    headers: s.headers,
    connections,
    durationMs: seconds * 1000,
    nextPath: kind === 'first' ? () => FIRST_PAGE : () => s.cursors[s.spent++],
    // Every page hands out a cursor, a next page's too: the queue does not run dry however fast next pages are.
    onHead: (head) => {
      const next = nextPathOf(head);
      if (next !== undefined) s.cursors.push(next);
    },
  });
  if (keep) {
    for (const sample of result.samples) s.tally.samples[kind].push(sample);
    s.tally.rounds[kind].push(percentiles(result.samples));
  }
  s.tally.failures += result.failures;
  for (const reason of result.reasons) if (s.tally.reasons.length < 5) s.tally.reasons.push(reason);
}

function percentiles(samples: readonly number[]): Percentiles {
  const sorted = sortedSamples(samples);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), samples: sorted.length };
}

async function epoch(o: ScaleOptions, index: number, tallies: Record<Size, Tally>): Promise<void> {
  const order: Size[] = index % 2 === 0 ? ['small', 'large'] : ['large', 'small'];
  const running: Subject[] = [];
  try {
    for (const size of order) running.push(await subject(size, o[size], tallies[size]));
    const both = (kind: PageKind, seconds: number, keep: boolean, i: number) => {
      const pair = i % 2 === 0 ? running : [...running].reverse();
      return Promise.all(pair.map((s) => round(s, kind, seconds, o.connections, keep)));
    };
    for (const kind of ['first', 'next'] as const) {
      await both(kind, o.warmupSeconds, false, 0);
      for (let i = 0; i < o.rounds; i++) await both(kind, o.roundSeconds, true, i);
    }
  } finally {
    await Promise.all(running.map((s) => s.mock.stop()));
  }
}

export async function measureScale(o: ScaleOptions, print: (line: string) => void): Promise<ScaleResult> {
  const notes: string[] = [];
  const note = (line: string) => {
    notes.push(line);
    print(line);
  };
  const tally = (): Tally => ({ samples: { first: [], next: [] }, rounds: { first: [], next: [] }, failures: 0, reasons: [] });
  const tallies: Record<Size, Tally> = { small: tally(), large: tally() };
  for (let e = 0; e < o.epochs; e++) await epoch(o, e, tallies);

  const { small, large } = tallies;
  const figures = {
    first: { small: percentiles(small.samples.first), large: percentiles(large.samples.first) },
    next: { small: percentiles(small.samples.next), large: percentiles(large.samples.next) },
  };
  const failures = small.failures + large.failures;
  const problem = failures > 0 ? `${failures} requests did not get a 200: ${[...small.reasons, ...large.reasons].slice(0, 3).join('; ')}` : undefined;
  const targets: Target[] = [];
  for (const kind of ['first', 'next'] as const) {
    const { small: a, large: b } = figures[kind];
    note(
      `${kind === 'first' ? 'first page' : 'next page '}: ${formatCount(o.small)} items p50 ${formatMs(a.p50)} p99 ${formatMs(a.p99)} (${formatCount(a.samples)} requests); ` +
        `${formatCount(o.large)} items p50 ${formatMs(b.p50)} p99 ${formatMs(b.p99)} (${formatCount(b.samples)} requests)`,
    );
    for (const p of ['p50', 'p99'] as const) {
      const name = `scale: ${kind === 'first' ? 'first page' : 'next page'} ${p}, ${formatCount(o.large)} ÷ ${formatCount(o.small)} items`;
      const error = problem ?? (a.samples === 0 || b.samples === 0 ? 'no samples (no cursor was handed out?)' : undefined);
      // Round i of one mock ran in the same seconds as round i of the other; a round without samples has no ratio.
      const ratios = large.rounds[kind].map((r, i) => r[p] / (small.rounds[kind][i]?.[p] ?? Number.NaN)).filter(Number.isFinite);
      targets.push(
        error || ratios.length === 0
          ? unmeasured(name, SCALE_BOUND, 'max', error ?? 'no round had samples of both mocks')
          : {
              name,
              measured: median(ratios),
              bound: SCALE_BOUND,
              kind: 'max',
              detail: `median of ${ratios.length} paired rounds, range ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}; all samples: ${formatMs(b[p])} vs ${formatMs(a[p])}`,
            },
      );
    }
  }
  return { targets, notes, figures };
}
