/**
 * Warm-start forces by row key: the forces a step's rows ended with, looked up by the next step's
 * rows with the same key (row-buffer.ts: a contact point keyed by its shapes and feature, a limit
 * by its joint and side, a drive by its dof). An open-addressing hash table in typed arrays: no
 * allocation per step once it has grown to the largest row count seen, and clear() is O(1)
 * (entries carry the generation they were written in).
 *
 * Keys are integers (negative for contacts) of up to 53 bits; any finite key works.
 */
export class WarmStartTable {
  private keys = new Float64Array(0);
  private values = new Float64Array(0);
  private stamp = new Uint32Array(0);
  private generation = 1;
  private mask = -1;
  /** Entries of the current generation. */
  size = 0;

  constructor(capacity = 64) {
    this.allocate(capacity);
  }

  private allocate(capacity: number): void {
    let n = 16;
    while (n < 2 * capacity) n *= 2;
    this.keys = new Float64Array(n);
    this.values = new Float64Array(n);
    this.stamp = new Uint32Array(n);
    this.mask = n - 1;
    this.generation = 1;
    this.size = 0;
  }

  /** Forgets every entry. */
  clear(): void {
    this.size = 0;
    if (++this.generation === 0xffffffff) {
      this.stamp.fill(0);
      this.generation = 1;
    }
  }

  /** Slot of `key`: mixes the low and high 32 bits of the integer (Murmur3 finaliser). */
  private hash(key: number): number {
    const k = key < 0 ? -2 * key - 1 : 2 * key;
    let h = (k >>> 0) ^ Math.imul((k / 4294967296) >>> 0, 0x9e3779b1);
    h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
    return (h ^ (h >>> 16)) & this.mask;
  }

  /** The force stored for `key`, or `otherwise` (0 by default). */
  get(key: number, otherwise = 0): number {
    const g = this.generation;
    for (let i = this.hash(key); this.stamp[i] === g; i = (i + 1) & this.mask) {
      if (this.keys[i] === key) return this.values[i];
    }
    return otherwise;
  }

  /**
   * Stores (or overwrites) the force of `key`. Returns the slot it went to: until the table is
   * cleared and written again, getAt(slot, key) finds it there without hashing.
   */
  set(key: number, value: number): number {
    if (2 * (this.size + 1) > this.mask + 1) this.grow();
    const g = this.generation;
    let i = this.hash(key);
    for (; this.stamp[i] === g; i = (i + 1) & this.mask) {
      if (this.keys[i] === key) { this.values[i] = value; return i; }
    }
    this.stamp[i] = g;
    this.keys[i] = key;
    this.values[i] = value;
    this.size++;
    return i;
  }

  /**
   * get(key, otherwise) when `slot` (from a set of the current entries, or any number) holds
   * `key`: then its value, read straight from the slot (a key has one slot); else a lookup.
   */
  getAt(slot: number, key: number, otherwise = 0): number {
    if (slot >= 0 && slot <= this.mask && this.stamp[slot] === this.generation && this.keys[slot] === key) return this.values[slot];
    return this.get(key, otherwise);
  }

  private grow(): void {
    const { keys, values, stamp, generation } = this;
    this.allocate(2 * (this.mask + 1));
    for (let i = 0; i < keys.length; i++) if (stamp[i] === generation) this.set(keys[i], values[i]);
  }

  /** The entries, keys in ascending order (for saving; allocates). */
  entries(): { keys: Float64Array; forces: Float64Array } {
    const g = this.generation;
    let n = 0;
    for (let i = 0; i <= this.mask; i++) if (this.stamp[i] === g) n++;
    const keys = new Float64Array(n), forces = new Float64Array(n);
    n = 0;
    for (let i = 0; i <= this.mask; i++) if (this.stamp[i] === g) keys[n++] = this.keys[i];
    keys.sort(); // (a typed array sorts by value; keys are unique)
    for (let k = 0; k < n; k++) forces[k] = this.get(keys[k]);
    return { keys, forces };
  }
}
