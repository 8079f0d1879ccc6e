/** Deterministic randomness: item i of seed s is the same on every run and machine and computed alone, so a million items are served without being held. */

/** A 32-bit hash of (seed, index, salt): murmur3's finaliser over a mixed input. */
export function hash32(seed: number, index: number, salt = 0): number {
  let h = (seed ^ Math.imul(index + 1, 0x9e3779b1) ^ Math.imul(salt + 1, 0x85ebca77)) >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A small PRNG (mulberry32) seeded per item, for the handful of draws one item needs. */
export class ItemRandom {
  #state: number;
  constructor(seed: number, index: number, salt = 0) {
    this.#state = hash32(seed, index, salt);
  }
  /** Uniform in [0, 1). */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  }
  int(maxExclusive: number): number {
    return Math.floor(this.next() * maxExclusive);
  }
  pick<T>(values: readonly T[]): T {
    return values[this.int(values.length)] as T;
  }
  chance(probability: number): boolean {
    return this.next() < probability;
  }
}

/** A short opaque id unique per index: a bijection of the 32-bit index (odd multiplier and xor-shift invert mod 2^32), in base 36, padded. */
export function opaqueId(prefix: string, index: number): string {
  let x = Math.imul(index ^ 0x5bd1e995, 0x2c1b3c6d) >>> 0;
  x = (x ^ (x >>> 15)) >>> 0;
  return `${prefix}${x.toString(36).padStart(7, '0')}`;
}

/** Multiplicative inverse of an odd number mod 2^32 (Newton's iteration doubles the correct bits each step). */
function inverseMod32(a: number): number {
  let inv = a;
  for (let i = 0; i < 5; i++) inv = Math.imul(inv, 2 - Math.imul(a, inv));
  return inv >>> 0;
}
const INVERSE_MULTIPLIER = inverseMod32(0x2c1b3c6d);

/** The index an id of `opaqueId(prefix, index)` was made from, or undefined when it is not such an id. */
export function indexOfOpaqueId(prefix: string, id: string): number | undefined {
  if (!id.startsWith(prefix) || !/^[0-9a-z]{7,}$/.test(id.slice(prefix.length))) return undefined;
  const x = Number.parseInt(id.slice(prefix.length), 36);
  if (!Number.isSafeInteger(x) || x > 0xffffffff) return undefined;
  const unshifted = (x ^ (x >>> 15) ^ (x >>> 30)) >>> 0;
  const index = (Math.imul(unshifted, INVERSE_MULTIPLIER) ^ 0x5bd1e995) >>> 0;
  return opaqueId(prefix, index) === id ? index : undefined;
}
