/**
 * World.snapshot / World.restore: what the next step reads of a World, in one compact binary
 * buffer, so a networked game can keep a ring of them and roll back, or send one to a peer. That is
 * each body's State (q, qd, gravity, and tau and fext when they are not zero), its sleep flag and
 * rest timer, whether its island first checks its warm forces, its energy credit and its ordering
 * key, the ids the sources key their rows by, the warm-start forces by row key, and the simulated
 * time (see world-state.ts for why each is needed). Nothing of the solver outlives a step, so
 * nothing else is.
 *
 * Bytes, little-endian whatever the platform, so a snapshot written by any engine or machine
 * restores in any other and continues bit for bit. Every number of the state is written whole
 * (float64), every count and id as an unsigned LEB128 varint; what is +0 (qd of a body at rest, a
 * rest timer not running) or the same as the body before (gravity) is a flag, not bytes; a body
 * awake writes its qd without a look. The warm-start keys are written as differences from the key
 * before, zigzag-coded: the step stores them island by island, each island's rows in the order its
 * sources added them (step/solve.ts), where a contact point's rows follow each other and a
 * manifold's points lie close (contacts.ts setContactKey): 1.6 bytes a key on the peer scenes'
 * piles, where they were 8. The forces stay whole: a body at rest keeps the forces its warm start
 * held (the solver accepts them when they still hold), so any rounding of them would show in its
 * motion (a rolling ball's vertical speed, exactly 0 with whole forces, reached 1.4e-5 m/s with
 * float32 ones). The float64 numbers come last, together, from a multiple of 8 bytes: where the
 * buffer is aligned and the platform little-endian (every platform a game runs on), they are
 * copied as whole arrays.
 *
 * Layout:
 *   header   'SNW3' magic (u32), version (u8), varints: bodies, sources, warm-start entries,
 *            touching pairs (0 unless contact events are on), bytes of the warm keys;
 *   per body flags (u16), varints: nq, nv, serial + 1, [6 nLinks when FEXT], [slots when
 *            KINEMATIC]; [key hash: high u32, low u32];
 *   per source kind hash (u32), varints: id + 1, pin id + 1;
 *   warm     n keys (varint zigzag differences; ESCAPE then |key| and a sign byte where a
 *            difference is not exact), of the forces that are not +0 (a missing key reads as +0);
 *   zeros    to a multiple of 8 bytes;
 *   float64  time; per body [rest time], [energy credit], q, [qd], [gravity], [tau], [fext],
 *            [kinematic joints: KinematicJoints.save]; the n warm-start forces; per touching pair
 *            the PAIR_SLOTS numbers the contact events compare the next step's with (events.ts).
 */
import type { Body } from './body.js';
import type { ConstraintSource } from './sources/source.js';
import type { WarmStartTable } from './solver/warm-start.js';
import { PAIR_SLOTS } from './events.js';
import { kinematicSlots, restoreKinematicJoints } from './kinematic.js';
import { bodyRestored, sourceIds, setSourceIds } from './world-state.js';

const MAGIC = 0x33574e53; // 'SNW3' read little-endian
const VERSION = 3;

const SLEEPING = 1, CHECK_WARM = 2, ENABLED = 4, TAU = 8, FEXT = 16, KEY_NAME = 32, KEY_HASH = 64, KINEMATIC = 128;
const REST = 256, CREDIT = 512, QD = 1024, GRAVITY = 2048;

/** A warm key difference that is not written as one: the key follows whole (2^53: no zigzag difference reaches it). */
const ESCAPE = 9007199254740992;
/** Differences below this are exact, and so is their zigzag code (below ESCAPE). */
const EXACT_DIFFERENCE = 4503599627370496;

/** What the snapshot reads and writes of a World. */
export interface SnapshotWorld {
  time: number;
  readonly bodies: readonly Body[];
  readonly sources: readonly ConstraintSource[];
}

/** The pairs the contact events compare the next step's with (events.ts ContactEventRecorder), when they are on. */
export interface TouchingPairs {
  readonly touchingCount: number;
  writeTouching(out: Float64Array, at: number): void;
  readTouching(from: Float64Array, at: number, n: number): void;
}

/** Whether v is +0 (a -0 is kept: it can decide the sign of a result). */
function plusZero(v: number): boolean {
  return v === 0 && 1 / v > 0;
}

/** Whether v is not +0 (any other number, -0 too). */
function notPlusZero(v: number): boolean {
  return v !== 0 || Object.is(v, -0);
}

/** Whether every number of a is +0 (four a turn: the scans of tau and fext were a third of a snapshot). */
function allZero(a: Float64Array): boolean {
  const n = a.length, n4 = n - (n % 4);
  let i = 0;
  for (; i < n4; i += 4) if (notPlusZero(a[i]) || notPlusZero(a[i + 1]) || notPlusZero(a[i + 2]) || notPlusZero(a[i + 3])) return false;
  for (; i < n; i++) if (notPlusZero(a[i])) return false;
  return true;
}

/** FNV-1a of a string's code units (a source kind, checked on restore). */
function kindHash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/** A body's order key as the snapshot writes it: its flag, and the two numbers of a content hash. */
interface KeyParts { key: string; flags: number; high: number; low: number }

/** Each body's KeyParts, parsed once per key (parsing took 12 µs of a 46 µs snapshot of 50 ragdolls). */
const keyParts = new WeakMap<Body, KeyParts>();

/** A body's key as flags and the two numbers of a content hash ('h:' and 16 hex digits). */
function keyOf(b: Body): KeyParts {
  const key = b.key;
  let k = keyParts.get(b);
  if (k !== undefined && k.key === key) return k;
  k = { key, flags: 0, high: 0, low: 0 };
  if (key === '') k.flags = 0;
  else if (key.length === b.name.length + 2 && key.startsWith('n:') && key.endsWith(b.name)) k.flags = KEY_NAME;
  else if (/^h:[0-9a-f]{16}$/.test(key)) { k.flags = KEY_HASH; k.high = parseInt(key.slice(2, 10), 16); k.low = parseInt(key.slice(10, 18), 16); }
  else throw new Error(`World.snapshot: body "${b.name}" has an order key of an unknown form ("${b.key}")`);
  keyParts.set(b, k);
  return k;
}

/** Whether a and b hold the same bits (a -0 differs from +0). */
function sameBits(a: Float64Array, b: Float64Array): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i] || 1 / a[i] !== 1 / b[i]) return false;
  return true;
}

function bodyFlags(b: Body, previous: Body | null): number {
  const s = b.state;
  return (b.sleeping ? SLEEPING : 0) | (b.checkWarmStart ? CHECK_WARM : 0) | (b.enabled ? ENABLED : 0)
    | (allZero(s.tau) ? 0 : TAU) | (allZero(s.fext) ? 0 : FEXT) | keyOf(b).flags | (b.kinematic ? KINEMATIC : 0)
    | (plusZero(b.restTime) ? 0 : REST) | (plusZero(b.energy[1]) ? 0 : CREDIT)
    // (a body that moves is not scanned for a qd at rest: it writes its qd whatever it holds)
    | (b.enabled && !b.sleeping ? QD : allZero(s.qd) ? 0 : QD)
    | (previous !== null && sameBits(s.gravity, previous.state.gravity) ? 0 : GRAVITY);
}

/** Bytes of the varint of x (a non-negative integer below 2^53 + 2). */
function varintBytes(x: number): number {
  if (x < 128) return 1;
  if (x < 16384) return 2;
  if (x < 2097152) return 3;
  let n = 4;
  for (x = Math.floor(x / 268435456); x >= 128; x = Math.floor(x / 128)) n++;
  return x > 0 ? n + 1 : n;
}

function zigzag(d: number): number {
  return d < 0 ? -2 * d - 1 : 2 * d;
}

/** Bytes of a body's header (see the layout). */
function headBytes(b: Body, flags: number): number {
  const m = b.model;
  return 2 + varintBytes(m.nq) + varintBytes(m.nv) + varintBytes(b.serial + 1) + (flags & KEY_HASH ? 8 : 0)
    + (flags & FEXT ? varintBytes(6 * m.nLinks) : 0) + (flags & KINEMATIC ? varintBytes(kinematicSlots(m)) : 0);
}

/** A body's header as read (the cursor left after it). */
interface BodyHead { flags: number; nq: number; nv: number; serial: number; fext: number; kinematic: number; high: number; low: number }

/** Float64 numbers of a body with these flags and sizes (see the layout; fext and kinematic are 0 unless their flags are set). */
function bodyNumbers(flags: number, nq: number, nv: number, fext: number, kinematic: number): number {
  return (flags & REST ? 1 : 0) + (flags & CREDIT ? 1 : 0) + nq + (flags & QD ? nv : 0) + (flags & GRAVITY ? 3 : 0) + (flags & TAU ? nv : 0) + fext + kinematic;
}

/** Where the float64 block starts, the header ending at byte `end`: the next multiple of 8. */
function blockStart(end: number): number {
  return 8 * Math.ceil(end / 8);
}

/** Whether this platform's typed arrays are little-endian (then the float64 block is copied as arrays). */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Writes the varint of x (a non-negative integer below 2^53 + 2) into b at `at`; returns where it ends. */
function writeVarint(b: Uint8Array, at: number, x: number): number {
  // (above 2^28 by division: the bit operators stop at 32 bits)
  for (; x >= 268435456; x = Math.floor(x / 128)) b[at++] = 128 + (x % 128);
  for (; x >= 128; x >>>= 7) b[at++] = 128 | (x & 127);
  b[at++] = x;
  return at;
}

/** A cursor over a snapshot's bytes, writing or reading its varints and integers. */
class Cursor {
  readonly view: DataView;
  at = 0;
  constructor(readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  varint(x: number): void { this.at = writeVarint(this.bytes, this.at, x); }
  u16(x: number): void { this.view.setUint16(this.at, x, true); this.at += 2; }
  u32(x: number): void { this.view.setUint32(this.at, x, true); this.at += 4; }
  readVarint(): number {
    const x = varintAt(this.bytes, this.at);
    this.at = varintEnd(this.bytes, this.at);
    return x;
  }
  readU16(): number { const x = this.view.getUint16(this.at, true); this.at += 2; return x; }
  readU32(): number { const x = this.view.getUint32(this.at, true); this.at += 4; return x; }
}

/**
 * The snapshot's float64 numbers, from byte `start` (a multiple of 8) on: a Float64Array over them
 * when the buffer is aligned and the platform little-endian, else read and written one by one,
 * little-endian.
 */
class Float64Block {
  private readonly f: Float64Array | null;
  private readonly view: DataView;
  /** The next number's index. */
  k = 0;
  constructor(bytes: Uint8Array, private readonly start: number, n: number) {
    this.f = LITTLE_ENDIAN && (bytes.byteOffset + start) % 8 === 0 ? new Float64Array(bytes.buffer, bytes.byteOffset + start, n) : null;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  put(v: number): void {
    if (this.f) this.f[this.k] = v; else this.view.setFloat64(this.start + 8 * this.k, v, true);
    this.k++;
  }
  putAll(a: Float64Array): void {
    if (this.f) this.f.set(a, this.k);
    else for (let i = 0; i < a.length; i++) this.view.setFloat64(this.start + 8 * (this.k + i), a[i], true);
    this.k += a.length;
  }
  take(): number {
    const v = this.f ? this.f[this.k] : this.view.getFloat64(this.start + 8 * this.k, true);
    this.k++;
    return v;
  }
  takeAll(a: Float64Array): void {
    if (this.f) a.set(this.f.subarray(this.k, this.k + a.length));
    else for (let i = 0; i < a.length; i++) a[i] = this.view.getFloat64(this.start + 8 * (this.k + i), true);
    this.k += a.length;
  }
  /** Puts the warm table's forces that are not +0, in its order (copied as one array where it can). */
  putWarmForces(warm: WarmStartTable): void {
    const n = warm.nonZeroCount();
    if (this.f) warm.nonZeroForcesInto(this.f.subarray(this.k, this.k + n));
    else for (let e = 0, k = this.k; e < warm.size; e++) if (!plusZero(warm.forceAt(e))) this.view.setFloat64(this.start + 8 * k++, warm.forceAt(e), true);
    this.k += n;
  }
}

/** The warm keys' bytes, written here first to learn their length (grown as needed; nothing of a world). */
let keyBytes = new Uint8Array(1024);

/**
 * Writes the warm table's keys (of the forces that are not +0) as the layout says into keyBytes;
 * returns their length. (The loop of a snapshot that costs most: differences below 2^31 take the
 * integer path.)
 */
function encodeWarmKeys(warm: WarmStartTable): number {
  // (17 bytes at most a key: the escape, a magnitude, a sign)
  if (keyBytes.length < 17 * warm.size) keyBytes = new Uint8Array(34 * warm.size);
  const kb = keyBytes, n = warm.size;
  const someZero = warm.nonZeroCount() < n;
  let previous = 0, at = 0;
  for (let e = 0; e < n; e++) {
    if (someZero && plusZero(warm.forceAt(e))) continue;
    const key = warm.keyAt(e), d = key - previous;
    previous = key;
    if (d > -2147483648 && d < 2147483648) {
      // (an int32 difference: its zigzag code by the integer operators, read unsigned)
      const di = d | 0;
      let z = ((di << 1) ^ (di >> 31)) >>> 0;
      for (; z >= 128; z >>>= 7) kb[at++] = 128 | (z & 127);
      kb[at++] = z;
    } else if (Math.abs(d) < EXACT_DIFFERENCE) at = writeVarint(kb, at, zigzag(d));
    else { at = writeVarint(kb, writeVarint(kb, at, ESCAPE), Math.abs(key)); kb[at++] = key < 0 ? 1 : 0; }
  }
  return at;
}

/** The value of the varint at b[at] (readVarint without a cursor). */
function varintAt(b: Uint8Array, at: number): number {
  let x = 0, scale = 1, byte: number;
  do { byte = b[at++]; x += (byte & 127) * scale; scale *= 128; } while (byte >= 128 && scale < 2 ** 63);
  return x;
}

/** Where the varint at b[at] ends. */
function varintEnd(b: Uint8Array, at: number): number {
  while (b[at] >= 128 && at < b.length) at++;
  return at + 1;
}

/**
 * Reads n warm keys from `at` and stores them in `warm` with their forces, taken from the block.
 * (Differences of up to 4 bytes take the integer path.)
 */
function decodeWarm(bytes: Uint8Array, at: number, n: number, block: Float64Block, warm: WarmStartTable): void {
  let previous = 0;
  for (let k = 0; k < n; k++) {
    // (up to 4 bytes, 28 bits, by the integer operators: every difference within an island)
    let byte = bytes[at], z = byte & 127, end = at + 1;
    for (let shift = 7; byte >= 128 && shift < 28; shift += 7) { byte = bytes[end++]; z |= (byte & 127) << shift; }
    let key: number;
    if (byte < 128) {
      key = previous + ((z & 1) === 1 ? -(z >> 1) - 1 : z >> 1);
      at = end;
    } else {
      const x = varintAt(bytes, at);
      at = varintEnd(bytes, at);
      if (x === ESCAPE) {
        const magnitude = varintAt(bytes, at);
        at = varintEnd(bytes, at);
        key = bytes[at++] === 1 ? -magnitude : magnitude;
      } else key = previous + (x % 2 === 1 ? -(x + 1) / 2 : x / 2);
    }
    warm.set(key, block.take());
    previous = key;
  }
}

/**
 * Writes what the next step of `world` reads into `out` from its start when it is large enough
 * (the snapshot is then the subarray returned), else into a new buffer.
 */
export function writeSnapshot(world: SnapshotWorld, warm: WarmStartTable, events: TouchingPairs | null, out?: Uint8Array): Uint8Array {
  const bodies = world.bodies, sources = world.sources;
  const nw = warm.nonZeroCount(), np = events ? events.touchingCount : 0;
  let head = 5 + varintBytes(bodies.length) + varintBytes(sources.length) + varintBytes(nw) + varintBytes(np);
  let numbers = 1 + nw + PAIR_SLOTS * np;
  // (flags first: they decide the size)
  const flagsOf = new Uint16Array(bodies.length);
  for (let i = 0; i < bodies.length; i++) {
    const b = bodies[i], m = b.model;
    if (m.nq > 0xffff || m.nv > 0xffff) throw new RangeError(`World.snapshot: body "${b.name}" has ${m.nq} q and ${m.nv} qd; a snapshot holds bodies of up to 65535 of each`);
    const flags = bodyFlags(b, i > 0 ? bodies[i - 1] : null);
    flagsOf[i] = flags;
    head += headBytes(b, flags);
    numbers += bodyNumbers(flags, m.nq, m.nv, flags & FEXT ? 6 * m.nLinks : 0, flags & KINEMATIC ? kinematicSlots(m) : 0);
  }
  const ids = sources.map(sourceIds);
  for (const s of ids) head += 4 + varintBytes(s.id + 1) + varintBytes(s.pinId + 1);
  const nk = encodeWarmKeys(warm);
  head += varintBytes(nk) + nk;
  const start = blockStart(head), size = start + 8 * numbers;
  const bytes = out && out.byteLength >= size ? out.subarray(0, size) : new Uint8Array(size);
  const c = new Cursor(bytes);
  c.u32(MAGIC);
  bytes[c.at++] = VERSION;
  c.varint(bodies.length); c.varint(sources.length); c.varint(nw); c.varint(np); c.varint(nk);
  for (let i = 0; i < bodies.length; i++) {
    const b = bodies[i], m = b.model, flags = flagsOf[i];
    c.u16(flags);
    c.varint(m.nq); c.varint(m.nv); c.varint(b.serial + 1);
    if (flags & FEXT) c.varint(6 * m.nLinks);
    if (flags & KINEMATIC) c.varint(kinematicSlots(m));
    if (flags & KEY_HASH) { const k = keyOf(b); c.u32(k.high); c.u32(k.low); }
  }
  for (const s of ids) { c.u32(kindHash(s.kind)); c.varint(s.id + 1); c.varint(s.pinId + 1); }
  // (in the table's order, which restore keeps: a world restored and one that went on to the same
  // state write the same bytes)
  bytes.set(keyBytes.subarray(0, nk), c.at);
  bytes.fill(0, c.at + nk, start);
  const block = new Float64Block(bytes, start, numbers);
  block.put(world.time);
  for (let i = 0; i < bodies.length; i++) {
    const b = bodies[i], s = b.state, flags = flagsOf[i];
    if (flags & REST) block.put(b.restTime);
    if (flags & CREDIT) block.put(b.energy[1]);
    block.putAll(s.q);
    if (flags & QD) block.putAll(s.qd);
    if (flags & GRAVITY) block.putAll(s.gravity);
    if (flags & TAU) block.putAll(s.tau);
    if (flags & FEXT) block.putAll(s.fext);
    if (flags & KINEMATIC) block.putAll(b.kinematic!.save());
  }
  block.putWarmForces(warm);
  if (events && np > 0) {
    const pairs = new Float64Array(PAIR_SLOTS * np);
    events.writeTouching(pairs, 0);
    block.putAll(pairs);
  }
  return bytes;
}

/** What removedName answers: the name of a body of this world removed since, by serial. */
export type RemovedBodyName = (serial: number) => string | undefined;

function readHead(c: Cursor): BodyHead {
  const flags = c.readU16();
  const nq = c.readVarint(), nv = c.readVarint(), serial = c.readVarint() - 1;
  const fext = flags & FEXT ? c.readVarint() : 0, kinematic = flags & KINEMATIC ? c.readVarint() : 0;
  const high = flags & KEY_HASH ? c.readU32() : 0, low = flags & KEY_HASH ? c.readU32() : 0;
  return { flags, nq, nv, serial, fext, kinematic, high, low };
}

/** The header's counts (the cursor left after them). */
function readCounts(c: Cursor): { nb: number; ns: number; nw: number; np: number; nk: number } {
  c.at = 5;
  const nb = c.readVarint(), ns = c.readVarint(), nw = c.readVarint(), np = c.readVarint(), nk = c.readVarint();
  return { nb, ns, nw, np, nk };
}

/**
 * '' when `bytes` is a snapshot that fits `world` (as many bodies, with the same numbers of q and
 * qd, and the same kinds of sources), else what does not, naming the byte or the body; when the
 * bodies do not fit because one was removed from this world (or added) since, it says so by name.
 */
export function snapshotMismatch(bytes: Uint8Array, world: SnapshotWorld, removedName: RemovedBodyName, hasEvents: boolean): string {
  if (!(bytes instanceof Uint8Array)) return 'expected the Uint8Array that World.snapshot returned';
  const n = bytes.byteLength;
  const ends = (what: string): string => `the snapshot ends at byte ${n} before ${what} (truncated or not a snapshot)`;
  const magic = n >= 4 ? new DataView(bytes.buffer, bytes.byteOffset, n).getUint32(0, true) : -1;
  if (magic === 0x32574e53) return 'this is a snapshot of version 2; this World reads version 3 (take the snapshot again)';
  if (magic !== MAGIC) return `byte 0 does not start a snapshot (expected 'SNW3')`;
  if (n < 9) return ends('the end of its header');
  if (bytes[4] !== VERSION) return `snapshot version ${bytes[4]}; this World reads version ${VERSION}`;
  const c = new Cursor(bytes);
  const { nb, ns, nw, np, nk } = readCounts(c);
  const bodies = world.bodies, sources = world.sources;
  const heads: BodyHead[] = [];
  for (let i = 0; i < nb; i++) {
    if (c.at + 5 > n) return ends(`body ${i}`);
    heads.push(readHead(c));
    if (c.at > n) return ends(`the end of body ${i}`);
  }
  // a body removed since the snapshot, or added since: said by name when the bodies do not fit
  const lifetime = (): string => {
    for (const h of heads) {
      const gone = bodies.some((b) => b.serial === h.serial) ? undefined : removedName(h.serial);
      if (gone !== undefined) return `the snapshot was taken before body "${gone}" was removed from this world; a removed body's state cannot be restored (add it again with addBody, then take a snapshot again)`;
    }
    const added = bodies.find((b) => !heads.some((h) => h.serial === b.serial));
    return added && nb < bodies.length ? `body "${added.name}" was added after the snapshot was taken; remove it first, or take a snapshot again` : '';
  };
  if (nb !== bodies.length) return lifetime() || `the snapshot has ${nb} bodies, the world ${bodies.length}`;
  let numbers = 1 + nw + PAIR_SLOTS * np;
  for (let i = 0; i < nb; i++) {
    const h = heads[i], b = bodies[i], m = b.model;
    if (h.nq !== m.nq || h.nv !== m.nv) return lifetime() || `body ${i} ("${b.name}") has ${m.nq} q and ${m.nv} qd; the snapshot's body ${i} has ${h.nq} and ${h.nv} (taken from a world built otherwise?)`;
    if ((h.flags & FEXT && h.fext !== 6 * m.nLinks) || (h.flags & KINEMATIC && h.kinematic !== kinematicSlots(m))) return `body ${i} ("${b.name}") has ${m.nLinks} links; the snapshot's body ${i} another number (taken from a world built otherwise?)`;
    if (i === 0 && !(h.flags & GRAVITY)) return 'body 0 of the snapshot has no gravity (not a snapshot?)';
    numbers += bodyNumbers(h.flags, h.nq, h.nv, h.fext, h.kinematic);
  }
  if (ns !== sources.length) return `the snapshot has ${ns} constraint sources, the world ${sources.length}`;
  for (let k = 0; k < ns; k++) {
    if (c.at + 6 > n) return ends(`constraint source ${k}`);
    const kind = sourceIds(sources[k]).kind;
    if (c.readU32() !== kindHash(kind)) return `constraint source ${k} is a ${kind} here and of another kind in the snapshot (taken from a world built otherwise?)`;
    c.readVarint(); c.readVarint();
  }
  const start = blockStart(c.at + nk);
  if (start + 8 * numbers > n) return ends(`its ${numbers} float64 numbers from byte ${start}`);
  if (np > 0 && !hasEvents) return 'the snapshot holds touching contact pairs but contact events are off here; set world.contactEvents = true first';
  if (start + 8 * numbers !== n) return `the snapshot ends at byte ${start + 8 * numbers} but the buffer holds ${n}`;
  return '';
}

/** Puts a snapshot that snapshotMismatch accepted into `world`. */
export function readSnapshot(bytes: Uint8Array, world: SnapshotWorld, warm: WarmStartTable, events: TouchingPairs | null): void {
  const bodies = world.bodies, sources = world.sources;
  const c = new Cursor(bytes);
  const { nb, ns, nw, np, nk } = readCounts(c);
  const heads: BodyHead[] = [];
  let numbers = 1 + nw + PAIR_SLOTS * np;
  for (let i = 0; i < nb; i++) { const h = readHead(c); heads.push(h); numbers += bodyNumbers(h.flags, h.nq, h.nv, h.fext, h.kinematic); }
  for (let k = 0; k < ns; k++) {
    c.at += 4;
    const id = c.readVarint() - 1, pinId = c.readVarint() - 1;
    setSourceIds(sources[k], id, pinId);
  }
  const keysAt = c.at;
  const block = new Float64Block(bytes, blockStart(keysAt + nk), numbers);
  const time = block.take();
  for (let i = 0; i < nb; i++) {
    const b = bodies[i], s = b.state, h = heads[i], flags = h.flags;
    const restTime = flags & REST ? block.take() : 0, credit = flags & CREDIT ? block.take() : 0;
    block.takeAll(s.q);
    if (flags & QD) block.takeAll(s.qd); else s.qd.fill(0);
    if (flags & GRAVITY) block.takeAll(s.gravity); else s.gravity.set(bodies[i - 1].state.gravity);
    if (flags & TAU) block.takeAll(s.tau); else s.tau.fill(0);
    if (flags & FEXT) block.takeAll(s.fext); else s.fext.fill(0);
    let kinematic: Float64Array | null = null;
    if (flags & KINEMATIC) { kinematic = new Float64Array(h.kinematic); block.takeAll(kinematic); }
    restoreKinematicJoints(b, kinematic);
    s.work.dynamicsValid = false;
    const key = flags & KEY_NAME ? `n:${b.name}` : flags & KEY_HASH ? `h:${h.high.toString(16).padStart(8, '0')}${h.low.toString(16).padStart(8, '0')}` : '';
    bodyRestored(b, { sleeping: (flags & SLEEPING) !== 0, restTime, key, checkWarmStart: (flags & CHECK_WARM) !== 0, enabled: (flags & ENABLED) !== 0, energyCredit: credit });
  }
  warm.clear();
  decodeWarm(bytes, keysAt, nw, block, warm);
  if (events) {
    const pairs = new Float64Array(PAIR_SLOTS * np);
    block.takeAll(pairs);
    events.readTouching(pairs, 0, np);
  }
  world.time = time;
}
