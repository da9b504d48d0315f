/**
 * World.snapshot / World.restore: what World.saveState captures (see world-state.ts: every body's
 * q, qd, tau, fext and gravity, sleep flag and timer, order key, the sources' warm-start ids, the
 * warm-start forces by row key, and the K the solver keeps for a resting island's rows) written
 * into one binary buffer, so a networked game can keep a ring of them and roll back, or send one
 * to a peer. Little-endian throughout (DataView), so a snapshot written by one engine or machine
 * restores in any other and continues bit for bit.
 *
 * Compact where the state allows: each body's saved numbers are written as runs, with a run of
 * +0 (tau and fext, usually zero between steps) taking 4 bytes whatever its length; strings
 * (names, keys, source kinds) as UTF-16 code units. The solver's kept K (present while an
 * island's rows keep their layout, so for piles at rest) is written as it is and is the largest
 * part; see the snapshot benchmark for sizes.
 *
 * Layout: 'SNW1' (u32), version (u32), time (f64), bodies (u32) and per body [name, flags (u8:
 * sleeping 1, checkWarmStart 2, key 4, energy credit 8, kinematic 16), key?, restTime (f64), energy credit
 * (f64)?, state (runs), kinematic joints (runs, KinematicJoints.save)?], sources (u32) and per source [kind, id (i32), pinId (i32)], warm starts (u32 n,
 * n f64 keys, n f64 forces), solver (u8 present; then seven i32 and the typed arrays, each u32
 * length then elements).
 */
import type { KeptSolverState } from './solver/constraint-solver.js';
import type { WorldState } from './world-state.js';

const MAGIC = 0x31574e53; // 'SNW1' read little-endian
const VERSION = 1;

const INT_FIELDS = ['m', 'nBodies', 'colSize', 'deferredAt', 'sparseEnd', 'deferred', 'built'] as const;
const INT32_ARRAYS = ['rowList', 'bodyList', 'entryStart', 'entries', 'colOffset', 'layoutKey', 'rowStart', 'rowEnd', 'rootAt', 'jIdx'] as const;
const FLOAT64_ARRAYS = ['diag', 'jVal', 'jW'] as const;

/** Writes into a DataView, or only counts the bytes when it has none. */
class Writer {
  o = 0;
  constructor(private readonly v: DataView | null) {}
  u8(x: number): void { this.v?.setUint8(this.o, x); this.o += 1; }
  u16(x: number): void { this.v?.setUint16(this.o, x, true); this.o += 2; }
  u32(x: number): void { this.v?.setUint32(this.o, x, true); this.o += 4; }
  i32(x: number): void { this.v?.setInt32(this.o, x, true); this.o += 4; }
  f64(x: number): void { this.v?.setFloat64(this.o, x, true); this.o += 8; }
  str(s: string): void {
    this.u32(s.length);
    for (let i = 0; i < s.length; i++) this.u16(s.charCodeAt(i));
  }
  /** Numbers as runs: u16 count of +0 then u16 count of literals and the literals, until the end. */
  runs(a: Float64Array): void {
    this.u32(a.length);
    let i = 0;
    while (i < a.length) {
      let zeros = 0;
      while (i < a.length && zeros < 0xffff && Object.is(a[i], 0)) { zeros++; i++; }
      let n = 0;
      while (i + n < a.length && n < 0xffff && !Object.is(a[i + n], 0)) n++;
      this.u16(zeros);
      this.u16(n);
      for (let k = 0; k < n; k++) this.f64(a[i + k]);
      i += n;
    }
  }
}

class Reader {
  o = 0;
  private readonly v: DataView;
  constructor(bytes: Uint8Array) {
    this.v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  private need(n: number): void {
    if (this.o + n > this.v.byteLength) throw new RangeError(`World.restore: the snapshot ends at byte ${this.v.byteLength}, expected ${n} more bytes at byte ${this.o} (truncated or not a snapshot)`);
  }
  u8(): number { this.need(1); return this.v.getUint8(this.o++); }
  u16(): number { this.need(2); const x = this.v.getUint16(this.o, true); this.o += 2; return x; }
  u32(): number { this.need(4); const x = this.v.getUint32(this.o, true); this.o += 4; return x; }
  i32(): number { this.need(4); const x = this.v.getInt32(this.o, true); this.o += 4; return x; }
  f64(): number { this.need(8); const x = this.v.getFloat64(this.o, true); this.o += 8; return x; }
  str(): string {
    const n = this.u32();
    this.need(2 * n);
    let s = '';
    for (let i = 0; i < n; i++) s += String.fromCharCode(this.u16());
    return s;
  }
  /** A count of elements of `size` bytes each that must fit in what remains. */
  count(size: number): number {
    const n = this.u32();
    this.need(n * size);
    return n;
  }
  runs(): Float64Array {
    const len = this.u32();
    // first pass: the runs must add up to len within the buffer (nothing allocated before)
    const start = this.o;
    for (let i = 0; i < len;) {
      const zeros = this.u16(), n = this.u16();
      if (i + zeros + n > len || zeros + n === 0) throw new RangeError(`World.restore: a run of ${zeros} + ${n} numbers at byte ${this.o - 4} does not fit a state of ${len}`);
      this.need(8 * n);
      this.o += 8 * n;
      i += zeros + n;
    }
    this.o = start;
    const a = new Float64Array(len);
    for (let i = 0; i < len;) {
      const zeros = this.u16(), n = this.u16();
      i += zeros;
      for (let k = 0; k < n; k++) a[i++] = this.f64();
    }
    return a;
  }
}

function write(s: WorldState, w: Writer): void {
  w.u32(MAGIC);
  w.u32(VERSION);
  w.f64(s.time);
  w.u32(s.bodies.length);
  for (const b of s.bodies) {
    w.str(b.name);
    const hasKey = b.key !== undefined, hasCredit = b.energyCredit !== undefined, hasKinematic = b.kinematic !== undefined;
    w.u8((b.sleeping ? 1 : 0) | (b.checkWarmStart !== false ? 2 : 0) | (hasKey ? 4 : 0) | (hasCredit ? 8 : 0) | (hasKinematic ? 16 : 0));
    if (hasKey) w.str(b.key!);
    w.f64(b.restTime);
    if (hasCredit) w.f64(b.energyCredit!);
    w.runs(b.state);
    if (hasKinematic) w.runs(b.kinematic!);
  }
  w.u32(s.sources.length);
  for (const src of s.sources) {
    w.str(src.kind);
    w.i32(src.id);
    w.i32(src.pinId);
  }
  const n = s.warmKeys.length;
  w.u32(n);
  for (let k = 0; k < n; k++) w.f64(s.warmKeys[k]);
  for (let k = 0; k < n; k++) w.f64(s.warmForces[k]);
  const kept = s.solver;
  w.u8(kept ? 1 : 0);
  if (!kept) return;
  for (const f of INT_FIELDS) w.i32(kept[f]);
  for (const f of INT32_ARRAYS) {
    const a = kept[f];
    w.u32(a.length);
    for (let k = 0; k < a.length; k++) w.i32(a[k]);
  }
  for (const f of FLOAT64_ARRAYS) {
    const a = kept[f];
    w.u32(a.length);
    for (let k = 0; k < a.length; k++) w.f64(a[k]);
  }
  w.u32(kept.deferredFlags.length);
  for (let k = 0; k < kept.deferredFlags.length; k++) w.u8(kept.deferredFlags[k]);
}

/** Bytes encodeSnapshot writes for `s`. */
export function snapshotSize(s: WorldState): number {
  const w = new Writer(null);
  write(s, w);
  return w.o;
}

/**
 * Writes `s` into `out` from its start when it is large enough (the snapshot is then the
 * subarray returned), else into a new buffer.
 */
export function encodeSnapshot(s: WorldState, out?: Uint8Array): Uint8Array {
  const size = snapshotSize(s);
  const bytes = out && out.byteLength >= size ? out.subarray(0, size) : new Uint8Array(size);
  write(s, new Writer(new DataView(bytes.buffer, bytes.byteOffset, size)));
  return bytes;
}

/** Reads what encodeSnapshot wrote; a RangeError naming the byte where it is not a snapshot. */
export function decodeSnapshot(bytes: Uint8Array): WorldState {
  if (!(bytes instanceof Uint8Array)) throw new TypeError('World.restore: expected the Uint8Array that World.snapshot returned');
  const r = new Reader(bytes);
  const magic = r.u32();
  if (magic !== MAGIC) throw new RangeError(`World.restore: byte 0 does not start a snapshot (expected 'SNW1')`);
  const version = r.u32();
  if (version !== VERSION) throw new RangeError(`World.restore: snapshot version ${version}; this World reads version ${VERSION}`);
  const time = r.f64();
  const bodies: WorldState['bodies'] = [];
  for (let i = 0, n = r.u32(); i < n; i++) {
    const name = r.str();
    const flags = r.u8();
    const key = flags & 4 ? r.str() : undefined;
    const restTime = r.f64();
    const energyCredit = flags & 8 ? r.f64() : undefined;
    const state = r.runs();
    const kinematic = flags & 16 ? r.runs() : undefined;
    bodies.push({ name, key, state, sleeping: (flags & 1) !== 0, restTime, checkWarmStart: (flags & 2) !== 0, energyCredit, ...(kinematic ? { kinematic } : {}) });
  }
  const sources: WorldState['sources'] = [];
  for (let i = 0, n = r.u32(); i < n; i++) sources.push({ kind: r.str(), id: r.i32(), pinId: r.i32() });
  const n = r.count(16);
  const warmKeys = new Float64Array(n), warmForces = new Float64Array(n);
  for (let k = 0; k < n; k++) warmKeys[k] = r.f64();
  for (let k = 0; k < n; k++) warmForces[k] = r.f64();
  let solver: KeptSolverState | null = null;
  if (r.u8()) {
    const s: Record<string, unknown> = {};
    for (const f of INT_FIELDS) s[f] = r.i32();
    for (const f of INT32_ARRAYS) {
      const a = new Int32Array(r.count(4));
      for (let k = 0; k < a.length; k++) a[k] = r.i32();
      s[f] = a;
    }
    for (const f of FLOAT64_ARRAYS) {
      const a = new Float64Array(r.count(8));
      for (let k = 0; k < a.length; k++) a[k] = r.f64();
      s[f] = a;
    }
    const d = new Uint8Array(r.count(1));
    for (let k = 0; k < d.length; k++) d[k] = r.u8();
    s.deferredFlags = d;
    solver = s as unknown as KeptSolverState;
  }
  if (r.o !== bytes.byteLength) throw new RangeError(`World.restore: the snapshot ends at byte ${r.o} but the buffer holds ${bytes.byteLength}`);
  return { time, bodies, sources, warmKeys, warmForces, solver };
}
