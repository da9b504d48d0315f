/**
 * Warm-start forces by row key: the forces a step's rows ended with, looked up by the next step's
 * rows with the same key (row-buffer.ts: a contact point keyed by its shapes and feature, a limit
 * by its joint and side, a drive by its dof). The entries are held densely, in the order they were
 * first set, with an open-addressing hash index over them; all in typed arrays: no allocation per
 * step once it has grown to the largest row count seen, clear() is O(1) (index slots carry the
 * generation they were written in), and the entries are read out one by one (keyAt, forceAt).
 * A key first set to a force of +0 is not held: a missing key reads as +0.
 *
 * A -0 is held as +0 (its sign cannot change where the sweeps go): a pile's open contacts end a
 * fifth of their friction rows at -0, which a snapshot wrote with their keys (world-snapshot.ts).
 *
 * Keys are integers (negative for contacts) of up to 53 bits; any finite key works.
 */
export class WarmStartTable {
  /** Keys and forces of the entries, in the order they were first set (size of them). */
  private keys = new Float64Array(0);
  private values = new Float64Array(0);
  /** Hash index: per slot, the entry it holds and the generation it was written in. */
  private entryOf = new Int32Array(0);
  private stamp = new Uint32Array(0);
  private generation = 1;
  private mask = -1;
  /** Entries of the current generation. */
  size = 0;
  /** Of those, the entries whose force is +0 (keys first set to another force, then to +0). */
  private zeros = 0;

  constructor(capacity = 64) {
    this.allocate(capacity);
  }

  private allocate(capacity: number): void {
    let n = 16;
    while (n < 2 * capacity) n *= 2;
    this.keys = new Float64Array(n >> 1);
    this.values = new Float64Array(n >> 1);
    this.entryOf = new Int32Array(n);
    this.stamp = new Uint32Array(n);
    this.mask = n - 1;
    this.generation = 1;
    this.size = 0;
    this.zeros = 0;
  }

  /** Forgets every entry. */
  clear(): void {
    this.size = 0;
    this.zeros = 0;
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
      const e = this.entryOf[i];
      if (this.keys[e] === key) return this.values[e];
    }
    return otherwise;
  }

  /**
   * Stores (or overwrites) the force of `key` (a -0 as +0). Returns the slot it went to:
   * until the table is cleared and written again, getAt(slot, key) finds it there without hashing.
   * A new key whose force is zero is not stored (get reads it as +0 all the same) and gives -1.
   */
  set(key: number, force: number): number {
    const value = force + 0; // (-0 + 0 is +0)
    if (2 * (this.size + 1) > this.mask + 1) this.grow();
    const g = this.generation;
    let i = this.hash(key);
    for (; this.stamp[i] === g; i = (i + 1) & this.mask) {
      const e = this.entryOf[i];
      if (this.keys[e] === key) {
        this.zeros += (value === 0 ? 1 : 0) - (this.values[e] === 0 ? 1 : 0);
        this.values[e] = value;
        return i;
      }
    }
    // a new key with a force of +0 is not stored: a missing key reads as +0 (about half the rows
    // of a pile are open contacts and their friction, at +0)
    if (value === 0) return -1;
    const e = this.size++;
    this.stamp[i] = g;
    this.entryOf[i] = e;
    this.keys[e] = key;
    this.values[e] = value;
    return i;
  }

  /**
   * get(key, otherwise) when `slot` (from a set of the current entries, or any number) holds
   * `key`: then its value, read straight from the slot (a key has one slot); else a lookup.
   */
  getAt(slot: number, key: number, otherwise = 0): number {
    if (slot >= 0 && slot <= this.mask && this.stamp[slot] === this.generation) {
      const e = this.entryOf[slot];
      if (this.keys[e] === key) return this.values[e];
    }
    return this.get(key, otherwise);
  }

  /** Twice the slots, the entries kept in their order (those at +0 too) and indexed again. */
  private grow(): void {
    const { keys, values, size, zeros } = this;
    this.allocate(2 * (this.mask + 1));
    const g = this.generation, mask = this.mask;
    for (let e = 0; e < size; e++) {
      let i = this.hash(keys[e]);
      while (this.stamp[i] === g) i = (i + 1) & mask; // (keys are unique: only a free slot is sought)
      this.stamp[i] = g;
      this.entryOf[i] = e;
      this.keys[e] = keys[e];
      this.values[e] = values[e];
    }
    this.size = size;
    this.zeros = zeros;
  }

  /** Entries whose force is not +0 (a missing key reads as +0: a snapshot need not hold them). */
  nonZeroCount(): number {
    return this.size - this.zeros;
  }

  /** Writes the forces that are not +0 (nonZeroCount of them), in the entries' order, into `out`. */
  nonZeroForcesInto(out: Float64Array): void {
    const values = this.values, n = this.size;
    if (this.zeros === 0) { out.set(values.subarray(0, n)); return; }
    for (let e = 0, k = 0; e < n; e++) if (values[e] !== 0) out[k++] = values[e];
  }

  /** The key of entry e (0 <= e < size, in the order the entries were first set). */
  keyAt(e: number): number {
    return this.keys[e];
  }

  /** The force of entry e (+0 for an entry set to another force first, then to +0). */
  forceAt(e: number): number {
    return this.values[e];
  }

  /** The entries, keys in ascending order (for saving; allocates). */
  entries(): { keys: Float64Array; forces: Float64Array } {
    const n = this.size;
    const keys = this.keys.slice(0, n);
    keys.sort(); // (a typed array sorts by value; keys are unique)
    const forces = new Float64Array(n);
    for (let k = 0; k < n; k++) forces[k] = this.get(keys[k]);
    return { keys, forces };
  }
}
