/**
 * A Map of at most `max` entries that forgets the oldest half at once: entries go into a young map, which becomes the old one (the old dropped whole) once it
 * holds half of `max`. Dropping a map whole costs nothing per entry; forgetting one entry per new one cost a delete, a ring of keys and a Map's holes. k6-safe.
 */
export class BoundedMap<K, V> {
  #young = new Map<K, V>();
  #old = new Map<K, V>();

  constructor(readonly max: number) {}

  get(key: K): V | undefined {
    return this.#young.get(key) ?? this.#old.get(key);
  }

  has(key: K): boolean {
    return this.#young.has(key) || this.#old.has(key);
  }

  set(key: K, value: V): void {
    if (this.#young.size * 2 >= this.max && !this.#young.has(key)) {
      this.#old = this.#young;
      this.#young = new Map();
    }
    this.#young.set(key, value);
  }

  delete(key: K): void {
    this.#young.delete(key);
    this.#old.delete(key);
  }
}
