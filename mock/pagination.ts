/**
 * Snapshots and their cursors (document, List content items, pagination rules 1–4).
 *
 * Why a snapshot costs the same on a million items as on a thousand: it holds no items. It records
 * the store's revision and item count when it was taken (mock/data/content-store.ts keeps versions,
 * so "item i as of revision r" can always be read) and the position where the next page starts.
 * A page reads forward from that position; nothing is copied, sorted or counted up front.
 *
 * Cursors are random handles (128 bits): unforgeable, and bound to the client, the endpoint and the
 * query that started the snapshot. Each page retires the cursor it was asked with and hands out a new
 * one (rule 3). Snapshots are kept in a Map in order of their last request; since the clock only moves
 * forward, the obsolete ones are always at the front, and sweeping them costs only what it frees.
 */
import { randomFillSync } from 'node:crypto';
import { snapshotObsolete } from '../contracts/lifecycle.ts';
import type { Clock } from './clock.ts';
import { type ApiError, apiErrors } from './errors.ts';
import type { Faults } from './faults.ts';
import { firstDifference } from './query.ts';
import type { Variants } from './variants.ts';

export interface Snapshot {
  readonly endpoint: string;
  readonly clientId: string;
  readonly key: string;
  /** Store revision and item count when taken: the snapshot sees exactly these. */
  readonly revision: number;
  readonly end: number;
  /** Index where the next page starts scanning. */
  position: number;
  lastRequestMs: number;
  /** For faults that act once, between the first and second page. */
  pagesServed: number;
  /** Variant final-empty-page: the data ran out, one empty page is owed. */
  drained: boolean;
}

type Tombstone = 'expired' | 'superseded';
/** Retired cursors remembered to tell "obsolete" (410) from "superseded" (400): bounded, oldest forgotten first. */
const MAX_TOMBSTONES = 4096;

export class Snapshots {
  readonly #clock: Clock;
  readonly #ttlSeconds: number;
  readonly #faults: Faults;
  readonly #variants: Variants;
  #live = new Map<string, Snapshot>();
  #tombstones = new Map<string, Tombstone>();
  readonly #pool = Buffer.alloc(4096);
  #poolOffset = 4096;

  constructor(options: { clock: Clock; ttlSeconds: number; faults: Faults; variants: Variants }) {
    this.#clock = options.clock;
    this.#faults = options.faults;
    this.#variants = options.variants;
    // Fault snapshot-expires-early: half the lifetime the document gives.
    this.#ttlSeconds = options.faults.has('snapshot-expires-early') ? options.ttlSeconds / 2 : options.ttlSeconds;
  }

  get size(): number {
    return this.#live.size;
  }

  /** A new snapshot (rule 1), not yet holding a cursor. */
  open(endpoint: string, clientId: string, key: string, revision: number, end: number): Snapshot {
    return { endpoint, clientId, key, revision, end, position: 0, lastRequestMs: this.#clock.now(), pagesServed: 0, drained: false };
  }

  /**
   * The snapshot a `next` value continues, after every check: issued, to this client, for this endpoint and
   * query, still active. The cursor is retired: the page served now hands out the next one.
   */
  continue(cursor: string, endpoint: string, clientId: string, key: string): { ok: true; snapshot: Snapshot } | { ok: false; error: ApiError } {
    this.sweep();
    const snapshot = this.#live.get(cursor);
    if (!snapshot || snapshot.clientId !== clientId) {
      // Another client's cursor is answered like an unknown one: its existence is not this client's business.
      const tombstone = snapshot ? undefined : this.#tombstones.get(cursor);
      if (tombstone === 'expired')
        return {
          ok: false,
          error: apiErrors.snapshotGone('the snapshot of this next value is obsolete: no request with next came for 2 minutes; start again without next'),
        };
      if (tombstone === 'superseded')
        return { ok: false, error: apiErrors.invalidParameter('next', 'this next value was already used: each response supplies a new one; use the newest') };
      return { ok: false, error: apiErrors.invalidParameter('next', 'next is not a value this service issued to this client') };
    }
    if (snapshot.endpoint !== endpoint) return { ok: false, error: apiErrors.invalidParameter('next', `this next value belongs to ${snapshot.endpoint}`) };
    if (snapshot.key !== key) {
      const parameter = firstDifference(snapshot.key, key);
      return {
        ok: false,
        error: apiErrors.invalidParameter(parameter, `a request with next must repeat the query that started the snapshot; ${parameter} differs`),
      };
    }
    if (!this.#faults.has('snapshot-never-expires') && snapshotObsolete(snapshot.lastRequestMs, this.#ttlSeconds, this.#clock.now())) {
      this.#retire(cursor, 'expired');
      return {
        ok: false,
        error: apiErrors.snapshotGone('the snapshot of this next value is obsolete: no request with next came for 2 minutes; start again without next'),
      };
    }
    this.#retire(cursor, 'superseded');
    return { ok: true, snapshot };
  }

  /** Registers the next page of `snapshot` under a fresh cursor (rule 3) and returns it. */
  issue(snapshot: Snapshot, previous?: string): string {
    snapshot.lastRequestMs = this.#clock.now();
    // Fault next-unchanged: the same value again instead of a new one.
    const cursor = previous !== undefined && this.#faults.has('next-unchanged') ? previous : this.#freshCursor();
    this.#tombstones.delete(cursor);
    this.#live.set(cursor, snapshot);
    return cursor;
  }

  /** Stamps a request of the set that ends the walk (no cursor handed out). */
  touch(snapshot: Snapshot): void {
    snapshot.lastRequestMs = this.#clock.now();
  }

  /** Drops obsolete snapshots from the front of the map (oldest last request first). */
  sweep(): void {
    if (this.#faults.has('snapshot-never-expires')) return;
    const now = this.#clock.now();
    for (const [cursor, snapshot] of this.#live) {
      if (!snapshotObsolete(snapshot.lastRequestMs, this.#ttlSeconds, now)) break;
      this.#retire(cursor, 'expired');
    }
  }

  reset(): void {
    this.#live = new Map();
    this.#tombstones = new Map();
  }

  #retire(cursor: string, why: Tombstone): void {
    this.#live.delete(cursor);
    this.#tombstones.set(cursor, why);
    if (this.#tombstones.size > MAX_TOMBSTONES) {
      const oldest = this.#tombstones.keys().next().value;
      if (oldest !== undefined) this.#tombstones.delete(oldest);
    }
  }

  #freshCursor(): string {
    for (;;) {
      const cursor = this.#variants.has('cursor-alphabet') ? this.#letters(10) : this.#bytes(16).toString('base64url');
      if (!this.#live.has(cursor)) return cursor;
    }
  }

  /** Random bytes from a pooled buffer: one system call per 256 cursors instead of one each. */
  #bytes(n: number): Buffer {
    if (this.#poolOffset + n > this.#pool.length) {
      randomFillSync(this.#pool);
      this.#poolOffset = 0;
    }
    const out = Buffer.from(this.#pool.subarray(this.#poolOffset, this.#poolOffset + n));
    this.#poolOffset += n;
    return out;
  }

  /** Variant cursor-alphabet: letters only, shorter, like the real service's `plErSU` (still ~57 bits). */
  #letters(n: number): string {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
    let out = '';
    for (const byte of this.#bytes(n)) out += alphabet[byte % 52];
    return out;
  }
}
