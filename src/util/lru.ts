/**
 * A size-bounded map that evicts the least recently used entries. A hit only stamps its entry
 * (no reordering: caches here are read far more often than written, some once per token); when
 * the map grows past its capacity, the least recently stamped quarter goes at once, so eviction
 * costs O(log n) per insertion, amortized.
 */
export class LruCache<K, V> {
  private readonly map = new Map<K, { value: V; used: number }>();
  private clock = 0;

  constructor(private readonly capacity: number) {}

  get size(): number {
    return this.map.size;
  }

  get(key: K): V | undefined {
    const entry = this.map.get(key);
    if (entry === undefined) return undefined;
    entry.used = ++this.clock;
    return entry.value;
  }

  /** Entries, most recently used first (for snapshots; reading does not count as a use). */
  entries(): Array<[K, V]> {
    return [...this.map].sort((a, b) => b[1].used - a[1].used).map(([key, entry]) => [key, entry.value]);
  }

  clear(): void {
    this.map.clear();
  }

  set(key: K, value: V): void {
    const entry = this.map.get(key);
    if (entry !== undefined) {
      entry.value = value;
      entry.used = ++this.clock;
      return;
    }
    this.map.set(key, { value, used: ++this.clock });
    if (this.map.size > this.capacity) this.evict();
  }

  /** Drops the least recently used entries down to three quarters of the capacity. */
  private evict(): void {
    const keep = Math.floor((this.capacity * 3) / 4);
    const byUse = [...this.map].sort((a, b) => a[1].used - b[1].used);
    for (let i = 0; i < byUse.length - keep; i++) this.map.delete(byUse[i]![0]);
  }
}
