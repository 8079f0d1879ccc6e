/**
 * Snapshot memory targets: each phase runs in a fresh process with --expose-gc
 * (scripts/bench/memory-child.ts), so one phase's leftovers never count in the other's figures.
 */
import { runNode } from './children.ts';
import type { MemoryFigures } from './memory-child.ts';
import { formatBytes, formatCount, type Target, unmeasured } from './report.ts';

export interface MemoryOptions {
  /** Items the snapshots are taken over. */
  readonly items: number;
  /** Snapshots left open for the heap-added figure. */
  readonly open: number;
  /** Snapshots opened and left to expire for the heap-returns figure. */
  readonly expire: number;
  /** A smaller data set whose heap is printed next to `items`' (the heap must not grow with the items). */
  readonly smallItems: number;
  /**
   * Also the figures that explain the targets (a few seconds more): the heap over `smallItems` items,
   * and ten times `expire` snapshots expired, to show that what stays is bounded.
   */
  readonly extraFigures: boolean;
}

export interface MemoryResult {
  readonly targets: Target[];
  readonly notes: string[];
  readonly figures: { open?: MemoryFigures; expire?: MemoryFigures };
}

/** 1,000 open snapshots may add at most this much heap. */
export const OPEN_BOUND_MB = 50;
/** After expiry, the heap is within this share of where it started. */
export const EXPIRE_BOUND = 0.1;

const CHILD_TIMEOUT_MS = 120_000;

async function phase(kind: 'open' | 'expire', items: number, count: number): Promise<MemoryFigures> {
  const out = await runNode(`memory bench (${kind})`, ['--expose-gc'], 'scripts/bench/memory-child.ts', [kind, String(items), String(count)], CHILD_TIMEOUT_MS);
  const line = out.trim().split('\n').pop() ?? '';
  try {
    return JSON.parse(line) as MemoryFigures;
  } catch {
    throw new Error(`memory bench (${kind}): expected one JSON line of figures, got "${line.slice(0, 200)}"`);
  }
}

export async function measureMemory(o: MemoryOptions, print: (line: string) => void): Promise<MemoryResult> {
  const notes: string[] = [];
  const note = (line: string) => {
    notes.push(line);
    print(line);
  };
  const targets: Target[] = [];
  const figures: MemoryResult['figures'] = {};

  const openName = `memory: heap added by ${formatCount(o.open)} open snapshots over ${formatCount(o.items)} items, MB`;
  try {
    const f = await phase('open', o.items, o.open);
    figures.open = f;
    const added = f.open - f.before;
    note(
      `${formatCount(f.count)} snapshots opened (${formatCount(f.snapshotsOpen)} live with the warm-up's last): heap ${formatBytes(f.before)} → ${formatBytes(f.open)} (${formatBytes(added)} added, ${formatCount(added / Math.max(1, f.count))} bytes per snapshot)`,
    );
    targets.push({
      name: openName,
      measured: added / 1_048_576,
      bound: OPEN_BOUND_MB,
      kind: 'max',
      detail: `${formatBytes(f.before)} → ${formatBytes(f.open)}`,
    });
    // The heap before any snapshot must not grow with the data set either: items are computed, not held.
    const small = o.extraFigures ? await phase('open', o.smallItems, o.open) : undefined;
    if (small)
      note(
        `heap of the warmed resources before any snapshot: ${formatBytes(small.before)} over ${formatCount(small.items)} items, ${formatBytes(f.before)} over ${formatCount(f.items)}`,
      );
  } catch (error) {
    targets.push(unmeasured(openName, OPEN_BOUND_MB, 'max', (error as Error).message));
  }

  const expireName = `memory: heap after ${formatCount(o.expire)} snapshots expired ÷ before, distance from 1`;
  try {
    const f = await phase('expire', o.items, o.expire);
    figures.expire = f;
    const drift = Math.abs(f.after - f.before) / f.before;
    note(
      `${formatCount(f.count)} snapshots opened (${formatCount(f.snapshotsOpen)} live, heap ${formatBytes(f.open)}), left to expire and swept (${formatCount(f.snapshotsAfter)} live): ` +
        `heap ${formatBytes(f.before)} before, ${formatBytes(f.after)} after (${((f.after / f.before - 1) * 100).toFixed(1)}%)`,
    );
    targets.push({
      name: expireName,
      measured: drift,
      bound: EXPIRE_BOUND,
      kind: 'max',
      detail: `${formatBytes(f.before)} before, ${formatBytes(f.open)} with them, ${formatBytes(f.after)} after`,
    });
  } catch (error) {
    targets.push(unmeasured(expireName, EXPIRE_BOUND, 'max', (error as Error).message));
  }

  // What stays after expiry is bounded, not proportional: ten times the snapshots leave the same heap.
  if (o.extraFigures)
    try {
      const f = await phase('expire', o.items, o.expire * 10);
      note(
        `${formatCount(f.count)} snapshots, same steps: heap ${formatBytes(f.before)} before, ${formatBytes(f.open)} with them, ${formatBytes(f.after)} after (${((f.after / f.before - 1) * 100).toFixed(1)}%): ` +
          'what stays is the bounded list of retired cursors (mock/pagination.ts, MAX_TOMBSTONES) that tells 410 from 400, not snapshots',
      );
    } catch (error) {
      note(`${formatCount(o.expire * 10)} snapshots: not measured: ${(error as Error).message}`);
    }
  return { targets, notes, figures };
}
