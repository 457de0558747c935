/**
 * A map nobody can change: the entries are copied into a private `Map` and the view offers only
 * the reading half of its interface (no `set`, `delete` or `clear`). The registry answers these
 * so that start-up results stay as they were checked.
 */
class ReadonlyMapView<K, V> implements ReadonlyMap<K, V> {
  readonly #map: Map<K, V>;

  constructor(entries: Iterable<readonly [K, V]>) {
    this.#map = new Map(entries);
    Object.freeze(this);
  }

  get size(): number {
    return this.#map.size;
  }

  get(key: K): V | undefined {
    return this.#map.get(key);
  }

  has(key: K): boolean {
    return this.#map.has(key);
  }

  forEach(callback: (value: V, key: K, map: ReadonlyMap<K, V>) => void, thisArg?: unknown): void {
    for (const [key, value] of this.#map) callback.call(thisArg, value, key, this);
  }

  keys(): MapIterator<K> {
    return this.#map.keys();
  }

  values(): MapIterator<V> {
    return this.#map.values();
  }

  entries(): MapIterator<[K, V]> {
    return this.#map.entries();
  }

  [Symbol.iterator](): MapIterator<[K, V]> {
    return this.#map.entries();
  }

  get [Symbol.toStringTag](): string {
    return 'ReadonlyMap';
  }
}

Object.freeze(ReadonlyMapView.prototype);

export const readonlyMap = <K, V>(entries: Iterable<readonly [K, V]>): ReadonlyMap<K, V> => new ReadonlyMapView(entries);
