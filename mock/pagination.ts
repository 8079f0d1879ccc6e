/**
 * Snapshots and their cursors (document, List content items, pagination rules 1–4).
 *
 * Why a snapshot costs the same on a million items as on a thousand: it holds no items. It records the store's revision and item count when it was taken
 * (mock/data/content-store.ts keeps versions, so "item i as of revision r" can always be read); each cursor records where its page starts.
 *
 * Cursors are random handles: unforgeable, and bound to the client, the endpoint and the query that started the snapshot. Each page hands out a new one (rule
 * 3); whether a cursor already followed stays valid while the snapshot is active is the profile's choice (pagination.olderCursors), as is its form
 * (pagination.cursor). Snapshots are kept in order of their last request; since the clock only moves forward, the obsolete ones are always at the front, and
 * sweeping them costs only what it frees.
 */
import { randomFillSync } from 'node:crypto';
import { BoundedMap } from '../util/bounded-map.ts';
import { snapshotObsolete } from '../contracts/lifecycle.ts';
import type { Profile } from '../schemas/types.ts';
import type { Clock } from './clock.ts';
import type { ApiError } from './error-bodies.ts';
import { firstDifference, type ListQuery } from './query.ts';

export interface Snapshot {
  readonly endpoint: string;
  readonly clientId: string;
  /** The query of the first request, the parts a page needs (kept flat: a snapshot lives 2 minutes, and load tests open thousands a second). */
  readonly key: string;
  readonly limit: number;
  readonly filters: ListQuery['filters'];
  /** Kept only where a request with next may come without them (nextWithoutQuery accept); else the request's are the same. */
  readonly pairs: ListQuery['pairs'] | undefined;
  /** Store revision and item count when taken: the snapshot sees exactly these. */
  readonly revision: number;
  readonly end: number;
  lastRequestMs: number;
  /** The cursors that may still be followed, in the order handed out (the first; the rest where older stay valid); no array for the one most snapshots hold. */
  cursor: string | undefined;
  more: string[] | undefined;
  /** Its newest entry in the order of last requests (mock/pagination.ts Order); -1 while it holds no cursor. */
  queued: number;
}

/** Where a cursor leads: its snapshot and the page it names. */
export interface Continuation {
  readonly snapshot: Snapshot;
  readonly position: number;
  /** The data ran out on the page before: this is a trailing empty page. */
  readonly drained: boolean;
  /** 0-based page of the walk (1 for the page after the first). */
  readonly page: number;
}

export interface SnapshotErrors {
  /** A next value this service will not serve (unknown, used, another endpoint's or query's). */
  readonly invalid: (parameter: string, detail: string) => ApiError;
  /** The next value of an obsolete snapshot. */
  readonly obsolete: (detail: string) => ApiError;
}

/** The cursor handed out: the fresh one, or another (a seam: mock/seams.ts). */
export type CursorChoice = (fresh: string, previous: string | undefined) => string;

type Tombstone = 'expired' | 'superseded';
/** Retired cursors remembered to tell "obsolete" from "superseded": the last 4096 at least, the oldest forgotten first. */
const MAX_TOMBSTONES = 8192;
const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const OBSOLETE = 'the snapshot of this next value is obsolete: no request with next came for 2 minutes; start again without next';

export class Snapshots {
  readonly #clock: Clock;
  readonly #ttlSeconds: number;
  readonly #errors: SnapshotErrors;
  readonly #choose: CursorChoice | undefined;
  readonly #keepOlder: boolean;
  readonly #keepPairs: boolean;
  readonly #letters: boolean;
  #cursors = new Cursors();
  /** Snapshots holding cursors, in order of their last request. */
  #order = new Order();
  #tombstones = new BoundedMap<string, Tombstone>(MAX_TOMBSTONES);
  readonly #pool = Buffer.alloc(4096);
  #poolOffset = 4096;

  constructor(o: { clock: Clock; ttlSeconds: number; profile: Profile['pagination']; errors: SnapshotErrors; cursor?: CursorChoice | undefined }) {
    ({ clock: this.#clock, ttlSeconds: this.#ttlSeconds, errors: this.#errors, cursor: this.#choose } = o);
    this.#keepOlder = o.profile.olderCursors === 'valid-while-active';
    this.#keepPairs = o.profile.nextWithoutQuery === 'accept';
    this.#letters = o.profile.cursor === 'letters';
  }

  /** Active snapshots that hold a cursor. */
  get size(): number {
    return this.#order.size;
  }

  /** A new snapshot (rule 1), not yet holding a cursor; obsolete ones are dropped first. */
  open(endpoint: string, clientId: string, query: ListQuery, revision: number, end: number): Snapshot {
    const now = this.#clock.now();
    this.#sweep(now);
    const { key, limit, filters } = query;
    const pairs = this.#keepPairs ? query.pairs : undefined;
    return { endpoint, clientId, key, limit, filters, pairs, revision, end, lastRequestMs: now, cursor: undefined, more: undefined, queued: -1 };
  }

  /** Where `next` leads, once checked: issued to this client for this endpoint, active, (with `sameQuery`) the same query; retired unless older stay valid. */
  continue(
    cursor: string,
    endpoint: string,
    clientId: string,
    key: string,
    sameQuery: boolean,
  ): { ok: true; value: Continuation } | { ok: false; error: ApiError } {
    this.#sweep(this.#clock.now());
    const found = this.#cursors.get(cursor);
    if (!found || found.snapshot.clientId !== clientId) {
      // Another client's cursor is answered like an unknown one: its existence is not this client's business.
      const tombstone = found ? undefined : this.#tombstones.get(cursor);
      if (tombstone === 'expired') return { ok: false, error: this.#errors.obsolete(OBSOLETE) };
      if (tombstone === 'superseded')
        return { ok: false, error: this.#errors.invalid('next', 'this next value was already used: each response supplies a new one; use the newest') };
      return { ok: false, error: this.#errors.invalid('next', 'next is not a value this service issued to this client') };
    }
    const snapshot = found.snapshot;
    if (snapshot.endpoint !== endpoint) return { ok: false, error: this.#errors.invalid('next', `this next value belongs to ${snapshot.endpoint}`) };
    if (sameQuery && snapshot.key !== key) {
      const parameter = firstDifference(snapshot.key, key);
      return { ok: false, error: this.#errors.invalid(parameter, `a request with next must repeat the query that started the snapshot; ${parameter} differs`) };
    }
    if (snapshotObsolete(snapshot.lastRequestMs, this.#ttlSeconds, this.#clock.now())) {
      this.#drop(snapshot);
      return { ok: false, error: this.#errors.obsolete(OBSOLETE) };
    }
    if (!this.#keepOlder) this.#retire(cursor, snapshot, 'superseded');
    return { ok: true, value: found };
  }

  /** Registers the page `next` leads to under a fresh cursor (rule 3), stamps the request and returns the cursor. */
  issue(next: Continuation, previous: string | undefined): string {
    const fresh = this.#freshCursor();
    const cursor = this.#choose === undefined ? fresh : this.#choose(fresh, previous);
    // A fresh cursor (96 random bits) was never retired; a letter cursor, or one a seam chose, may have been.
    if (cursor !== fresh || this.#letters) this.#tombstones.delete(cursor);
    this.#cursors.set(cursor, next);
    // Its first cursor puts the snapshot in the order (touch): a snapshot is there exactly while it holds one.
    const { snapshot } = next;
    if (snapshot.cursor === undefined) snapshot.cursor = cursor;
    else if (snapshot.cursor !== cursor && snapshot.more?.includes(cursor) !== true) (snapshot.more ??= []).push(cursor);
    this.touch(snapshot);
    return cursor;
  }

  /** Stamps a request of the set (the last request is what the 2 minutes count from). */
  touch(snapshot: Snapshot): void {
    snapshot.lastRequestMs = this.#clock.now();
    if (snapshot.cursor !== undefined) this.#order.push(snapshot);
  }

  /** Drops obsolete snapshots from the front (oldest last request first). */
  #sweep(now: number): void {
    for (let oldest = this.#order.first(); oldest !== undefined; oldest = this.#order.first()) {
      if (!snapshotObsolete(oldest.lastRequestMs, this.#ttlSeconds, now)) break;
      this.#drop(oldest);
    }
  }

  /** The control plane's "obsolete now": every active snapshot, or the one `cursor` belongs to, is dropped as the 2 minutes would drop it. */
  expire(cursor?: string): number {
    const active = cursor === undefined ? this.#order.all() : [this.#cursors.get(cursor)?.snapshot].filter((s) => s !== undefined);
    for (const snapshot of active) this.#drop(snapshot);
    return active.length;
  }

  reset(): void {
    this.#cursors = new Cursors();
    this.#order = new Order();
    this.#tombstones = new BoundedMap<string, Tombstone>(MAX_TOMBSTONES);
  }

  /** Every cursor of an obsolete snapshot is retired as expired. */
  #drop(snapshot: Snapshot): void {
    const { cursor, more } = snapshot;
    snapshot.cursor = undefined;
    snapshot.more = undefined;
    if (cursor !== undefined) this.#retire(cursor, snapshot, 'expired');
    for (const older of more ?? []) this.#retire(older, snapshot, 'expired');
    this.#order.remove(snapshot);
  }

  #retire(cursor: string, snapshot: Snapshot, why: Tombstone): void {
    this.#cursors.delete(cursor);
    if (snapshot.cursor === cursor) snapshot.cursor = snapshot.more?.shift();
    else snapshot.more = snapshot.more?.filter((c) => c !== cursor);
    if (snapshot.more?.length === 0) snapshot.more = undefined;
    if (snapshot.cursor === undefined) this.#order.remove(snapshot);
    this.#tombstones.set(cursor, why);
  }

  /** A cursor no snapshot holds: a fresh base64url one names a free slot; letter cursors (57 bits) are looked up. */
  #freshCursor(): string {
    if (!this.#letters) {
      const at = this.#take(16);
      this.#pool.writeUInt32BE(this.#cursors.nextSlot(), at + 12);
      return this.#pool.toString('base64url', at, at + 16);
    }
    for (;;) {
      const cursor = this.#letterCursor(10);
      if (this.#cursors.get(cursor) === undefined) return cursor;
    }
  }

  /** Where `n` random bytes start in the pool: one system call per 256 cursors, read in place (a Buffer per cursor cost more than the bytes). */
  #take(n: number): number {
    if (this.#poolOffset + n > this.#pool.length) {
      randomFillSync(this.#pool);
      this.#poolOffset = 0;
    }
    const at = this.#poolOffset;
    this.#poolOffset += n;
    return at;
  }

  /** Letters only, shorter, like the real service's `plErSU` (still ~57 bits). */
  #letterCursor(n: number): string {
    const at = this.#take(n);
    let out = '';
    for (let i = at; i < at + n; i++) out += LETTERS[(this.#pool[i] as number) % 52];
    return out;
  }
}

/**
 * Snapshots holding cursors, oldest last request first: a queue, where a Set moved a snapshot to its end with a delete and an add (an add cost a cache miss per
 * page, and every sweep walked the holes deletes left at its front). A snapshot names its newest entry (`queued`); older entries, and a removed snapshot's, are
 * stale and skipped; the queue is rebuilt from its live entries once the stale outnumber them.
 */
class Order {
  #snapshots: Snapshot[] = [];
  #entries: number[] = [];
  #head = 0;
  #next = 0;
  #size = 0;

  get size(): number {
    return this.#size;
  }

  /** Puts `snapshot` at the end, where it is from now on (its entry before, if any, goes stale). */
  push(snapshot: Snapshot): void {
    if (snapshot.queued < 0) this.#size++;
    snapshot.queued = this.#next++;
    this.#snapshots.push(snapshot);
    this.#entries.push(snapshot.queued);
    if (this.#snapshots.length > 2 * this.#size + 1024) {
      const live = this.all();
      this.#snapshots = live;
      this.#entries = live.map((s) => s.queued);
      this.#head = 0;
    }
  }

  remove(snapshot: Snapshot): void {
    if (snapshot.queued < 0) return;
    snapshot.queued = -1;
    this.#size--;
  }

  /** The snapshot whose last request is the oldest, or undefined when none is queued. */
  first(): Snapshot | undefined {
    for (; this.#head < this.#snapshots.length; this.#head++) {
      const snapshot = this.#snapshots[this.#head] as Snapshot;
      if (snapshot.queued === this.#entries[this.#head]) return snapshot;
    }
    if (this.#head > 0) {
      // All stale: nothing holds on to the snapshots dropped.
      this.#snapshots = [];
      this.#entries = [];
      this.#head = 0;
    }
    return undefined;
  }

  /** Every queued snapshot, oldest first. */
  all(): Snapshot[] {
    const live: Snapshot[] = [];
    for (let i = this.#head; i < this.#snapshots.length; i++) {
      const snapshot = this.#snapshots[i] as Snapshot;
      if (snapshot.queued === this.#entries[i]) live.push(snapshot);
    }
    return live;
  }
}

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/**
 * Where each cursor leads. A fresh base64url cursor is 96 random bits and its slot's 32-bit number here (its last six characters): found by an array read,
 * where a Map of every cursor of 2 minutes cost a cache miss per page. Letter cursors (no room for a slot) and a seam's own go in a Map.
 */
class Cursors {
  readonly #named = new Map<string, Continuation>();
  readonly #slots: Array<Continuation | undefined> = [];
  /** The cursor in each slot; '' when free. */
  readonly #held: string[] = [];
  /** Freed slots, the last freed on top; an entry taken again since is skipped. */
  readonly #free: number[] = [];

  get(cursor: string): Continuation | undefined {
    const slot = slotOf(cursor);
    return slot !== undefined && this.#held[slot] === cursor ? this.#slots[slot] : this.#named.get(cursor);
  }

  set(cursor: string, next: Continuation): void {
    const slot = slotOf(cursor);
    const held = slot === undefined ? undefined : (this.#held[slot] ?? '');
    if (slot === undefined || slot > this.#held.length || (held !== '' && held !== cursor)) {
      this.#named.set(cursor, next);
      return;
    }
    if (this.#free.at(-1) === slot) this.#free.pop();
    this.#slots[slot] = next;
    this.#held[slot] = cursor;
  }

  delete(cursor: string): void {
    const slot = slotOf(cursor);
    if (slot === undefined || this.#held[slot] !== cursor) {
      this.#named.delete(cursor);
      return;
    }
    this.#slots[slot] = undefined;
    this.#held[slot] = '';
    this.#free.push(slot);
  }

  /** The slot the next fresh cursor names: the last freed, or a new one. */
  nextSlot(): number {
    for (let slot = this.#free.at(-1); slot !== undefined; slot = this.#free.at(-1)) {
      if (this.#held[slot] === '') return slot;
      this.#free.pop();
    }
    return this.#held.length;
  }
}

/** The slot a base64url cursor of 22 characters names; undefined for any other. */
function slotOf(cursor: string): number | undefined {
  if (cursor.length !== 22) return undefined;
  let bits = 0;
  for (let i = 16; i < 22; i++) {
    const digit = BASE64URL.indexOf(cursor.charAt(i));
    if (digit < 0) return undefined;
    bits = bits * 64 + digit;
  }
  // Six characters carry 36 bits: the slot's 32, then 4 that base64url leaves zero.
  return Math.floor(bits / 16);
}
