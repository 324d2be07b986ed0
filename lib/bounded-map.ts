/**
 * A Map that holds at most `capacity` entries: a new key set when it is full forgets the oldest
 * (the first in the Map's insertion order). For the caches kept per instance, which must not grow
 * with the number of distinct callers.
 */
export class BoundedMap<K, V> extends Map<K, V> {
  constructor(private readonly capacity: number) {
    super();
  }

  override set(key: K, value: V): this {
    if (!this.has(key) && this.size >= this.capacity) this.delete(this.keys().next().value!);
    return super.set(key, value);
  }
}
