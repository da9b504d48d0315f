/**
 * World.snapshot / World.restore: what the next step reads of a World, in one binary buffer, so a
 * networked game can keep a ring of them and roll back, or send one to a peer. That is each body's
 * State (q, qd, gravity, and tau and fext when they are not zero), its sleep flag and rest timer,
 * whether its island first checks its warm forces, its energy credit and its ordering key, the ids
 * the sources key their rows by, the warm-start forces by row key, and the simulated time (see
 * world-state.ts for why each is needed). Nothing of the solver outlives a step, so nothing else is.
 *
 * The buffer is a sequence of little-endian float64 slots (integers, flags and counts are exact in
 * a float64), so a snapshot is written and read with typed-array copies, and one written by any
 * engine or machine restores in any other and continues bit for bit (a big-endian platform swaps
 * the bytes of each slot).
 *
 * Layout, in slots:
 *   header   'SNW2' magic, version, bodies, sources, warm-start entries, 0, time, events (0, or the number of touching pairs that follow the warm starts);
 *   per body [flags + 256 (nq + 65536 nv)], serial, rest time, energy credit, [key high, key low
 *            when its key is a content hash], q, qd, gravity, [tau], [fext], [its kinematic joints:
 *            KinematicJoints.save];
 *   per source kind hash, id, pin id;
 *   warm     n keys, in the order the last step set them, then their n forces (forces of +0,
 *            which a missing key reads as, left out);
 *   events   per pair the contact events compare the next step's with: PAIR_SLOTS numbers
 *            (events.ts; World.contactEvents on; else none).
 */
import type { Body } from './body.js';
import type { ConstraintSource } from './sources/source.js';
import type { WarmStartTable } from './solver/warm-start.js';
import { PAIR_SLOTS } from './events.js';
import { kinematicSlots, restoreKinematicJoints } from './kinematic.js';
import { bodyRestored, sourceIds, setSourceIds } from './world-state.js';

const MAGIC = 0x32574e53; // 'SNW2' read little-endian
const VERSION = 2;
const HEADER = 8;
const SOURCE_SLOTS = 3;

const SLEEPING = 1, CHECK_WARM = 2, ENABLED = 4, TAU = 8, FEXT = 16, KEY_NAME = 32, KEY_HASH = 64, KINEMATIC = 128;


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

/** Whether every number of a is +0 (a -0 is kept: it can decide the sign of a result). */
function allZero(a: Float64Array): boolean {
  for (let i = 0; i < a.length; i++) { const v = a[i]; if (v !== 0 || 1 / v < 0) return false; }
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

function bodySlots(b: Body, flags: number): number {
  const m = b.model;
  return 4 + (flags & KEY_HASH ? 2 : 0) + m.nq + m.nv + 3 + (flags & TAU ? m.nv : 0) + (flags & FEXT ? 6 * m.nLinks : 0) + (flags & KINEMATIC ? kinematicSlots(m) : 0);
}

function bodyFlags(b: Body): number {
  const s = b.state;
  return (b.sleeping ? SLEEPING : 0) | (b.checkWarmStart ? CHECK_WARM : 0) | (b.enabled ? ENABLED : 0)
    | (allZero(s.tau) ? 0 : TAU) | (allZero(s.fext) ? 0 : FEXT) | keyOf(b).flags | (b.kinematic ? KINEMATIC : 0);
}

function littleEndian(): boolean {
  return new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
}

/** Swaps the bytes of each 8-byte slot (big-endian platforms). */
function swapSlots(bytes: Uint8Array): void {
  for (let o = 0; o + 8 <= bytes.length; o += 8) {
    for (let k = 0; k < 4; k++) { const t = bytes[o + k]; bytes[o + k] = bytes[o + 7 - k]; bytes[o + 7 - k] = t; }
  }
}

/**
 * Writes what the next step of `world` reads into `out` from its start when it is large enough
 * and 8-byte aligned (the snapshot is then the subarray returned), else into a new buffer.
 */
export function writeSnapshot(world: SnapshotWorld, warm: WarmStartTable, events: TouchingPairs | null, out?: Uint8Array): Uint8Array {
  const bodies = world.bodies, sources = world.sources;
  let slots = HEADER;
  // (flags first: they decide the size)
  const flagsOf = new Uint8Array(bodies.length);
  for (let i = 0; i < bodies.length; i++) { flagsOf[i] = bodyFlags(bodies[i]); slots += bodySlots(bodies[i], flagsOf[i]); }
  const nw = warm.nonZeroCount();
  slots += SOURCE_SLOTS * sources.length + 2 * nw + (events ? PAIR_SLOTS * events.touchingCount : 0);
  const size = 8 * slots;
  const bytes = out && out.byteLength >= size && out.byteOffset % 8 === 0 ? out.subarray(0, size) : new Uint8Array(size);
  const f = new Float64Array(bytes.buffer, bytes.byteOffset, slots);
  f[0] = MAGIC; f[1] = VERSION; f[2] = bodies.length; f[3] = sources.length; f[4] = nw; f[5] = 0;
  f[6] = world.time; f[7] = events ? events.touchingCount : 0;
  let o = HEADER;
  for (let i = 0; i < bodies.length; i++) {
    const b = bodies[i], s = b.state, m = b.model, flags = flagsOf[i];
    if (m.nq > 0xffff || m.nv > 0xffff) throw new RangeError(`World.snapshot: body "${b.name}" has ${m.nq} q and ${m.nv} qd; a snapshot holds bodies of up to 65535 of each`);
    f[o] = flags + 256 * (m.nq + 65536 * m.nv);
    f[o + 1] = b.serial;
    f[o + 2] = b.restTime;
    f[o + 3] = b.energy[1];
    o += 4;
    if (flags & KEY_HASH) { const k = keyOf(b); f[o] = k.high; f[o + 1] = k.low; o += 2; }
    f.set(s.q, o); o += m.nq;
    f.set(s.qd, o); o += m.nv;
    f.set(s.gravity, o); o += 3;
    if (flags & TAU) { f.set(s.tau, o); o += m.nv; }
    if (flags & FEXT) { f.set(s.fext, o); o += 6 * m.nLinks; }
    if (flags & KINEMATIC) { f.set(b.kinematic!.save(), o); o += kinematicSlots(m); }
  }
  for (let k = 0; k < sources.length; k++) {
    const ids = sourceIds(sources[k]);
    f[o] = kindHash(ids.kind); f[o + 1] = ids.id; f[o + 2] = ids.pinId;
    o += SOURCE_SLOTS;
  }
  // (in the order the step set them, which restore keeps: a world restored and one that went on
  // to the same state write the same bytes)
  o += warm.writeEntries(f, o, nw);
  if (events) events.writeTouching(f, o);
  if (!littleEndian()) swapSlots(bytes);
  return bytes;
}

/** Reads a snapshot's slots (copied when the buffer is not 8-byte aligned or the platform is big-endian). */
function slotsOf(bytes: Uint8Array): Float64Array {
  if (!(bytes instanceof Uint8Array)) throw new TypeError('World.restore: expected the Uint8Array that World.snapshot returned');
  if (bytes.byteLength % 8 !== 0 || bytes.byteLength < 8 * HEADER) {
    throw new RangeError(`World.restore: the snapshot ends at byte ${bytes.byteLength}, expected ${bytes.byteLength < 8 * HEADER ? 8 * HEADER : 8 * Math.ceil(bytes.byteLength / 8)} bytes at least (truncated or not a snapshot)`);
  }
  if (bytes.byteOffset % 8 === 0 && littleEndian()) return new Float64Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 8);
  const copy = bytes.slice();
  if (!littleEndian()) swapSlots(copy);
  return new Float64Array(copy.buffer);
}

/** What removedName answers: the name of a body of this world removed since, by serial. */
export type RemovedBodyName = (serial: number) => string | undefined;

/**
 * '' when `bytes` is a snapshot that fits `world` (as many bodies, with the same numbers of q and
 * qd, and the same kinds of sources), else what does not, naming the byte or the body; when the
 * bodies do not fit because one was removed from this world (or added) since, it says so by name.
 */
export function snapshotMismatch(bytes: Uint8Array, world: SnapshotWorld, removedName: RemovedBodyName, hasEvents: boolean): string {
  let f: Float64Array;
  try { f = slotsOf(bytes); } catch (e) { return (e as Error).message.replace(/^World\.restore: /, ''); }
  if (f[0] !== MAGIC) return `byte 0 does not start a snapshot (expected 'SNW2')`;
  if (f[1] !== VERSION) return `snapshot version ${f[1]}; this World reads version ${VERSION}`;
  const bodies = world.bodies, sources = world.sources;
  const nb = f[2], ns = f[3], nw = f[4], np = f[7];
  const end = (o: number, what: string): string => (o > f.length ? `the snapshot ends at byte ${8 * f.length}, expected ${8 * (o - f.length)} more bytes for ${what} (truncated or not a snapshot)` : '');
  // a body removed since the snapshot, or added since: said by name when the bodies do not fit
  const lifetime = (): string => {
    const saved = new Set<number>();
    for (let i = 0, o = HEADER; i < nb && o + 4 <= f.length; i++) {
      const head = f[o], flags = head % 256, nq = Math.floor(head / 256) % 65536, nv = Math.floor(head / 16777216);
      saved.add(f[o + 1]);
      const gone = bodies.some((b) => b.serial === f[o + 1]) ? undefined : removedName(f[o + 1]);
      if (gone !== undefined) return `the snapshot was taken before body "${gone}" was removed from this world; a removed body's state cannot be restored (add it again with addBody, then take a snapshot again)`;
      const b = bodies.find((x) => x.serial === f[o + 1]);
      o += 4 + (flags & KEY_HASH ? 2 : 0) + nq + nv + 3 + (flags & TAU ? nv : 0) + (b ? (flags & FEXT ? 6 * b.model.nLinks : 0) + (flags & KINEMATIC ? kinematicSlots(b.model) : 0) : 0);
    }
    const added = bodies.find((b) => !saved.has(b.serial));
    return added && nb < bodies.length ? `body "${added.name}" was added after the snapshot was taken; remove it first, or take a snapshot again` : '';
  };
  let o = HEADER;
  for (let i = 0; i < nb; i++) {
    const short = end(o + 4, `body ${i}`);
    if (short) return short;
    if (i >= bodies.length) return lifetime() || `the snapshot has ${nb} bodies, the world ${bodies.length}`;
    const head = f[o], flags = head % 256, nq = Math.floor(head / 256) % 65536, nv = Math.floor(head / 16777216);
    const b = bodies[i];
    if (nq !== b.model.nq || nv !== b.model.nv) return lifetime() || `body ${i} ("${b.name}") has ${b.model.nq} q and ${b.model.nv} qd; the snapshot's body ${i} has ${nq} and ${nv} (taken from a world built otherwise?)`;
    o += 4 + (flags & KEY_HASH ? 2 : 0) + nq + nv + 3 + (flags & TAU ? nv : 0) + (flags & FEXT ? 6 * b.model.nLinks : 0) + (flags & KINEMATIC ? kinematicSlots(b.model) : 0);
    const past = end(o, `body ${i} ("${b.name}")`);
    if (past) return past;
  }
  if (nb !== bodies.length) return lifetime() || `the snapshot has ${nb} bodies, the world ${bodies.length}`;
  if (ns !== sources.length) return `the snapshot has ${ns} constraint sources, the world ${sources.length}`;
  const short = end(o + SOURCE_SLOTS * ns + 2 * nw + PAIR_SLOTS * np, 'its sources, warm starts and contact pairs');
  if (short) return short;
  for (let k = 0; k < ns; k++, o += SOURCE_SLOTS) {
    const kind = sourceIds(sources[k]).kind;
    if (f[o] !== kindHash(kind)) return `constraint source ${k} is a ${kind} here and of another kind in the snapshot (taken from a world built otherwise?)`;
  }
  o += 2 * nw + PAIR_SLOTS * np;
  if (np > 0 && !hasEvents) return 'the snapshot holds touching contact pairs but contact events are off here; set world.contactEvents = true first';
  if (o !== f.length) return `the snapshot ends at byte ${8 * o} but the buffer holds ${8 * f.length}`;
  return '';
}

/** Puts a snapshot that snapshotMismatch accepted into `world`; returns the snapshot's time. */
export function readSnapshot(bytes: Uint8Array, world: SnapshotWorld, warm: WarmStartTable, events: TouchingPairs | null): void {
  const f = slotsOf(bytes);
  const bodies = world.bodies, sources = world.sources;
  const nb = f[2], ns = f[3], nw = f[4], np = f[7];
  let o = HEADER;
  for (let i = 0; i < nb; i++) {
    const b = bodies[i], s = b.state, m = b.model;
    const flags = f[o] % 256;
    const restTime = f[o + 2], credit = f[o + 3];
    o += 4;
    let key = '';
    if (flags & KEY_NAME) key = `n:${b.name}`;
    else if (flags & KEY_HASH) { key = `h:${f[o].toString(16).padStart(8, '0')}${f[o + 1].toString(16).padStart(8, '0')}`; o += 2; }
    s.q.set(f.subarray(o, o + m.nq)); o += m.nq;
    s.qd.set(f.subarray(o, o + m.nv)); o += m.nv;
    s.gravity.set(f.subarray(o, o + 3)); o += 3;
    if (flags & TAU) { s.tau.set(f.subarray(o, o + m.nv)); o += m.nv; } else s.tau.fill(0);
    if (flags & FEXT) { s.fext.set(f.subarray(o, o + 6 * m.nLinks)); o += 6 * m.nLinks; } else s.fext.fill(0);
    restoreKinematicJoints(b, flags & KINEMATIC ? f.subarray(o, o + kinematicSlots(m)) : null);
    if (flags & KINEMATIC) o += kinematicSlots(m);
    s.work.dynamicsValid = false;
    bodyRestored(b, { sleeping: (flags & SLEEPING) !== 0, restTime, key, checkWarmStart: (flags & CHECK_WARM) !== 0, enabled: (flags & ENABLED) !== 0, energyCredit: credit });
  }
  for (let k = 0; k < ns; k++, o += SOURCE_SLOTS) setSourceIds(sources[k], f[o + 1], f[o + 2]);
  warm.clear();
  for (let k = 0; k < nw; k++) warm.set(f[o + k], f[o + nw + k]);
  o += 2 * nw;
  if (events) events.readTouching(f, o, np);
  world.time = f[6];
}
