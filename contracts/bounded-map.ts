/**
 * A Map that holds at most `max` entries and forgets the oldest first. The order is kept in a ring of
 * keys beside the map: taking the oldest from the Map itself (`keys().next()`) walks over every slot
 * deleted since the table was last compacted, which made each remembered key cost as much as a page.
 * k6-safe.
 */
export class BoundedMap<K, V> {
  readonly #map = new Map<K, V>();
  /** Keys in the order they were first set, from `#oldest` on, wrapping round once `max` are held. */
  readonly #order: K[] = [];
  #oldest = 0;

  constructor(readonly max: number) {}

  get(key: K): V | undefined {
    return this.#map.get(key);
  }

  has(key: K): boolean {
    return this.#map.has(key);
  }

  set(key: K, value: V): void {
    if (!this.#map.has(key)) {
      if (this.#map.size < this.max) this.#order.push(key);
      else {
        this.#map.delete(this.#order[this.#oldest] as K);
        this.#order[this.#oldest] = key;
        this.#oldest = (this.#oldest + 1) % this.max;
      }
    }
    this.#map.set(key, value);
  }
}
