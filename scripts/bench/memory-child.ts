/**
 * Snapshot memory, measured in a process of its own started with --expose-gc (scripts/bench/memory.ts
 * starts it): `node --expose-gc --import tsx scripts/bench/memory-child.ts <open|expire> <items> <count>`.
 * Prints one JSON line of heap figures (bytes, after full collections).
 *
 * It drives mock/resources.ts directly, the module that holds snapshots, on a clock that moves only
 * when told: no sockets, agents or parser buffers in the heap to blur a figure of a few megabytes.
 *
 *   open:   heap added by `count` snapshots left open over `items` items.
 *   expire: heap after `count` snapshots were opened, left to expire and swept, against the heap
 *           before them.
 */
import { ENDPOINTS } from '../../contracts/endpoints.ts';
import { SNAPSHOT_TTL_SECONDS } from '../../contracts/limits.ts';
import { ManualClock } from '../../mock/clock.ts';
import { type ListRequest, Resources } from '../../mock/resources.ts';
import { BUILT_IN_PROFILES } from '../../mock/profile.ts';

export interface MemoryFigures {
  readonly phase: 'open' | 'expire';
  readonly items: number;
  readonly count: number;
  /** heapUsed before the snapshots, after warm-up and full collections. */
  readonly before: number;
  /** With `count` snapshots open (open phase), or at the peak before they expire (expire phase). */
  readonly open: number;
  /** After expiry and the sweep (expire phase); equals `open` in the open phase. */
  readonly after: number;
  /** Live snapshots at `open` and at `after`. */
  readonly snapshotsOpen: number;
  readonly snapshotsAfter: number;
}

const gc = (globalThis as { gc?: () => void }).gc;

/** Full collections until heapUsed stops falling (finalizers and weak maps can take a second pass). */
function settledHeap(): number {
  if (!gc) throw new Error('run with node --expose-gc: a heap figure without a full collection measures garbage');
  let previous = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 5; i++) {
    gc();
    const used = process.memoryUsage().heapUsed;
    if (used >= previous) return used;
    previous = used;
  }
  return previous;
}

function main(): void {
  const [phase, itemsText, countText] = process.argv.slice(2);
  const items = Number(itemsText);
  const count = Number(countText);
  if ((phase !== 'open' && phase !== 'expire') || !Number.isInteger(items) || !Number.isInteger(count) || count < 1) {
    process.stderr.write('usage: memory-child.ts <open|expire> <items> <count>\n');
    process.exit(2);
  }
  const clock = new ManualClock();
  const resources = new Resources({ clock, seed: 1, items, users: 50, snapshotTtlSeconds: SNAPSHOT_TTL_SECONDS, profile: BUILT_IN_PROFILES.strict });
  const request: ListRequest = {
    endpoint: 'listContent',
    clientId: 'mock-org-client',
    provider: undefined,
    search: 'limit=100',
    baseUrl: 'http://127.0.0.1:4011',
  };
  const firstPage = () => {
    const result = resources.list(request);
    if (result.status !== 200) throw new Error(`GET ${ENDPOINTS.listContent.path}?${request.search}: expected 200, got ${result.status}`);
  };
  /** Past the snapshot lifetime, then one request: the mock sweeps obsolete snapshots on requests, not on a timer. */
  const expireAll = () => {
    clock.advance(SNAPSHOT_TTL_SECONDS + 1);
    firstPage();
  };

  // Warm-up: the code paths compiled and the rendered first page cached (bounded, mock/resources.ts),
  // so that what is measured next is the snapshots, not the JIT's output or the fragment cache.
  for (let i = 0; i < 1_000; i++) firstPage();
  expireAll();
  const before = settledHeap();

  for (let i = 0; i < count; i++) firstPage();
  const open = settledHeap();
  const snapshotsOpen = resources.stats().snapshots;
  let after = open;
  let snapshotsAfter = snapshotsOpen;
  if (phase === 'expire') {
    expireAll();
    after = settledHeap();
    snapshotsAfter = resources.stats().snapshots;
  }
  const figures: MemoryFigures = { phase, items, count, before, open, after, snapshotsOpen, snapshotsAfter };
  process.stdout.write(`${JSON.stringify(figures)}\n`);
}

main();
