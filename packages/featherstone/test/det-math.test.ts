/**
 * The reproducible elementary functions (src/det-math.ts) against the engine's Math and against
 * exact oracles:
 *  - every fdlibm coefficient's decimal literal parses to the bit pattern written beside it;
 *  - about 2.4 million arguments per one-argument function (uniform, log-uniform over the whole
 *    exponent range, subnormals, near multiples of pi/2 and near 1, huge trigonometric arguments)
 *    and 1.2 million pairs for atan2 and hypot: the result is within 1 ulp of Node's Math (fdlibm
 *    in V8, so most agree bit for bit), hypot within 2 ulp of Math.hypot (V8's own is up to 2 ulp
 *    off the exact value; see the oracle test);
 *  - against exact values: sin, cos, tan, exp, log, atan, asin, acos, cbrt within 1 ulp of a
 *    50-digit mathjs BigNumber; hypot equal to the correctly rounded value computed with BigInt
 *    (exact sum of squares, integer square root) on 200,000 cases but for rare halfway cases,
 *    never more than 1 ulp;
 *  - the special values (NaN, +-0, +-Infinity, subnormals, +-1, domain edges) give exactly what
 *    Math gives (Object.is), as ECMAScript specifies them.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { create, all, type BigNumber } from 'mathjs';
import * as dm from '../src/det-math.js';

const f64 = new Float64Array(1);
const i64 = new BigInt64Array(f64.buffer);

/** The position of x on the number line of doubles (adjacent doubles differ by 1). */
function ordinal(x: number): bigint {
  f64[0] = x;
  const v = i64[0];
  return v < 0n ? -(v & 0x7fffffffffffffffn) : v;
}

/** Distance in ulps between a and b (0 for NaN and NaN, Infinity for NaN and a number). */
function ulps(a: number, b: number): number {
  if (Object.is(a, b)) return 0;
  if (a !== a || b !== b) return a !== a && b !== b ? 0 : Infinity;
  return Math.abs(Number(ordinal(a) - ordinal(b)));
}

/** A seeded 53-bit uniform generator (two steps of mulberry32, T. Ettinger's 32-bit mixer). */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  const next32 = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
  return () => ((next32() >>> 5) * 67108864 + (next32() >>> 6)) / 9007199254740992;
}

type Gen = () => number;
const uniform = (r: Gen, lo: number, hi: number): Gen => () => lo + (hi - lo) * r();
/** |x| log-uniform between 2^lo and 2^hi, random sign. */
const logUniform = (r: Gen, lo: number, hi: number, signed = true): Gen => () => {
  const e = lo + (hi - lo) * r();
  const x = 2 ** Math.floor(e) * (1 + r());
  return signed && r() < 0.5 ? -x : x;
};
const wordsAsDouble = new Float64Array(1);
const words = new Uint32Array(wordsAsDouble.buffer); // little-endian: [low, high]
/** Random bit patterns of finite doubles with the given exponent field range. */
const bitPatterns = (r: Gen, eLo: number, eHi: number, signed = true): Gen => () => {
  const hi = (eLo + Math.floor(r() * (eHi - eLo + 1))) * 2 ** 20 + Math.floor(r() * 2 ** 20);
  const lo = Math.floor(r() * 2 ** 32);
  words[0] = lo;
  words[1] = hi;
  const x = wordsAsDouble[0];
  return signed && r() < 0.5 ? -x : x;
};

interface Case1 { name: string; f: (x: number) => number; ref: (x: number) => number; ranges: [string, Gen, number][] }

function worst1(c: Case1): { max: number; at: number; differ: number; count: number } {
  let max = 0, at = 0, differ = 0, count = 0;
  for (const [, gen, n] of c.ranges) {
    for (let i = 0; i < n; i++) {
      const x = gen();
      const u = ulps(c.f(x), c.ref(x));
      if (u !== 0) differ++;
      if (u > max) { max = u; at = x; }
    }
    count += n;
  }
  return { max, at, differ, count };
}

const M = 1_000_000;
const r = generator(20261127);
const near = (r: Gen, k: number, scale: number): Gen => () => Math.round((r() - 0.5) * k) * (Math.PI / 2) * (1 + (r() - 0.5) * scale);

const cases: Case1[] = [
  { name: 'sin', f: dm.sin, ref: Math.sin, ranges: [
    ['[-pi/4, pi/4]', uniform(r, -Math.PI / 4, Math.PI / 4), 0.4 * M], ['[-20, 20]', uniform(r, -20, 20), 0.6 * M],
    ['2^-1074..2^20', logUniform(r, -1074, 20), 0.6 * M], ['near n pi/2', near(r, 2e6, 1e-12), 0.6 * M],
    ['2^20..2^1023', logUniform(r, 20, 1023), 0.2 * M] ] },
  { name: 'cos', f: dm.cos, ref: Math.cos, ranges: [
    ['[-pi/4, pi/4]', uniform(r, -Math.PI / 4, Math.PI / 4), 0.4 * M], ['[-20, 20]', uniform(r, -20, 20), 0.6 * M],
    ['2^-1074..2^20', logUniform(r, -1074, 20), 0.6 * M], ['near n pi/2', near(r, 2e6, 1e-12), 0.6 * M],
    ['2^20..2^1023', logUniform(r, 20, 1023), 0.2 * M] ] },
  { name: 'tan', f: dm.tan, ref: Math.tan, ranges: [
    ['[-pi/2, pi/2]', uniform(r, -Math.PI / 2, Math.PI / 2), 0.8 * M], ['2^-1074..2^20', logUniform(r, -1074, 20), 0.8 * M],
    ['near n pi/2', near(r, 2e6, 1e-12), 0.6 * M], ['2^20..2^1023', logUniform(r, 20, 1023), 0.2 * M] ] },
  { name: 'exp', f: dm.exp, ref: Math.exp, ranges: [
    ['[-746, 710]', uniform(r, -746, 710), 1.2 * M], ['[-1, 1]', uniform(r, -1, 1), 0.6 * M],
    ['2^-1074..2^-1', logUniform(r, -1074, -1), 0.6 * M] ] },
  { name: 'log', f: dm.log, ref: Math.log, ranges: [
    ['all positive bit patterns', bitPatterns(r, 0, 2046, false), 1.2 * M], ['near 1', uniform(r, 0.9, 1.1), 0.6 * M],
    ['1 + 2^-60..2^-20', () => 1 + logUniform(r, -60, -20)(), 0.4 * M], ['negative', bitPatterns(r, 0, 2046, true), 0.2 * M] ] },
  { name: 'atan', f: dm.atan, ref: Math.atan, ranges: [
    ['all bit patterns', bitPatterns(r, 0, 2046), 1.2 * M], ['[-3, 3]', uniform(r, -3, 3), 1.2 * M] ] },
  { name: 'asin', f: dm.asin, ref: Math.asin, ranges: [
    ['[-1, 1]', uniform(r, -1, 1), 1.6 * M], ['2^-1074..1', logUniform(r, -1074, 0), 0.4 * M],
    ['1 - 2^-53..2^-1', () => (r() < 0.5 ? -1 : 1) * (1 - 2 ** -(1 + 52 * r())), 0.4 * M] ] },
  { name: 'acos', f: dm.acos, ref: Math.acos, ranges: [
    ['[-1, 1]', uniform(r, -1, 1), 1.6 * M], ['2^-1074..1', logUniform(r, -1074, 0), 0.4 * M],
    ['1 - 2^-53..2^-1', () => (r() < 0.5 ? -1 : 1) * (1 - 2 ** -(1 + 52 * r())), 0.4 * M] ] },
  { name: 'cbrt', f: dm.cbrt, ref: Math.cbrt, ranges: [
    ['all bit patterns', bitPatterns(r, 0, 2046), 1.6 * M], ['[-10, 10]', uniform(r, -10, 10), 0.8 * M] ] },
];

describe('det-math', () => {
  // each test computes for seconds without a pause: let the worker answer the test runner's
  // messages in between (a worker silent for a minute is reported as an error)
  beforeEach(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));

  it('every coefficient literal parses to the bit pattern fdlibm gives for it', () => {
    const src = readFileSync(new URL('../src/det-math.ts', import.meta.url), 'utf8');
    const re = /(-?\d\.\d+(?:e[-+]?\d+)?)[,;]?\s*\/\/[^\n]*?0x([0-9A-F]{8})\s+([0-9A-F]{8})/gi;
    let n = 0;
    for (const m of src.matchAll(re)) {
      const hex = (BigInt('0x' + m[2]) << 32n) | BigInt('0x' + m[3]);
      f64[0] = Number(m[1]);
      expect(BigInt.asUintN(64, i64[0]).toString(16), m[0]).toBe(hex.toString(16));
      n++;
    }
    // every line that states a bit pattern was checked
    expect(n).toBe(src.match(/0x[0-9A-F]{8}\s+[0-9A-F]{8}/gi)!.length);
    expect(n).toBeGreaterThan(80);
  });

  for (const c of cases) {
    it(`${c.name}: within 1 ulp of Node's Math.${c.name} on ${c.ranges.reduce((s, g) => s + g[2], 0) / M} million arguments`, () => {
      const w = worst1(c);
      expect(w.count).toBeGreaterThanOrEqual(2_000_000);
      expect(w.max, `worst at ${w.at}: ${c.f(w.at)} vs ${c.ref(w.at)}`).toBeLessThanOrEqual(1);
    });
  }

  it('atan2: within 1 ulp of Math.atan2 on 1.2 million pairs over the whole range, signs and ratios', () => {
    const g = [bitPatterns(r, 0, 2046), logUniform(r, -30, 30), uniform(r, -2, 2)];
    let max = 0, at: number[] = [];
    for (let i = 0; i < 1_200_000; i++) {
      const y = g[i % 3](), x = g[Math.floor(i / 3) % 3]();
      const u = ulps(dm.atan2(y, x), Math.atan2(y, x));
      if (u > max) { max = u; at = [y, x]; }
    }
    expect(max, `worst at atan2(${at})`).toBeLessThanOrEqual(1);
  });

  it('hypot: within 2 ulp of Math.hypot (itself up to 2 ulp off) on 1.2 million sets of 2, 3 and 4', () => {
    const g = [bitPatterns(r, 0, 2046), logUniform(r, -30, 30), uniform(r, -2, 2)];
    let max = 0, at: number[] = [];
    for (let i = 0; i < 1_200_000; i++) {
      const k = 2 + (i % 3), gen = g[Math.floor(i / 3) % 3];
      const a = gen(), b = gen(), c = k > 2 ? gen() : 0, d = k > 3 ? gen() : 0;
      const u = ulps(dm.hypot(a, b, c, d), k === 2 ? Math.hypot(a, b) : k === 3 ? Math.hypot(a, b, c) : Math.hypot(a, b, c, d));
      if (u > max) { max = u; at = [a, b, c, d]; }
    }
    expect(max, `worst at hypot(${at})`).toBeLessThanOrEqual(2);
  });

  it('hypot: the correctly rounded value (BigInt oracle) on 200,000 sets, 1 ulp at most otherwise', () => {
    // oracle: every double is m 2^e exactly; the sum of squares is an exact BigInt, its square root
    // an integer square root with 64 extra bits, rounded to nearest even with a sticky bit.
    const parts = (x: number): [bigint, number] => {
      f64[0] = Math.abs(x);
      const b = BigInt.asUintN(64, i64[0]);
      const ex = Number(b >> 52n), m = b & ((1n << 52n) - 1n);
      return ex === 0 ? [m, -1074] : [m | (1n << 52n), ex - 1075];
    };
    const isqrt = (n: bigint): bigint => {
      if (n < 2n) return n;
      let x = 1n << BigInt(Math.ceil(n.toString(2).length / 2) + 1);
      for (;;) { const y = (x + n / x) >> 1n; if (y >= x) return x; x = y; }
    };
    const exact = (v: number[]): number => {
      const ps = v.map(parts), emin = Math.min(...ps.map((p) => p[1]));
      let s = 0n;
      for (const [m, e] of ps) s += (m * m) << BigInt(2 * (e - emin));
      const k = 64, big = s << BigInt(2 * k), root = isqrt(big);
      const bits = root.toString(2).length, sh = bits - 54;
      const top = root >> BigInt(sh);
      const sticky = root - (top << BigInt(sh)) !== 0n || root * root !== big;
      let mant = top >> 1n;
      if ((top & 1n) && (sticky || (mant & 1n))) mant += 1n;
      const e = sh + 1 + emin - k;
      return Number(mant) * 2 ** Math.trunc(e / 2) * 2 ** (e - Math.trunc(e / 2));
    };
    const g = [logUniform(r, -200, 200), logUniform(r, -3, 3), uniform(r, -2, 2)];
    let max = 0, off = 0;
    for (let i = 0; i < 200_000; i++) {
      const k = 2 + (i % 3), gen = g[Math.floor(i / 3) % 3];
      const v = [gen(), gen(), gen(), gen()].slice(0, k);
      const u = ulps(dm.hypot(v[0], v[1], v[2] ?? 0, v[3] ?? 0), exact(v));
      if (u) off++;
      max = Math.max(max, u);
    }
    expect(max).toBeLessThanOrEqual(1);
    expect(off).toBeLessThanOrEqual(20); // halfway cases only: 1 in 10,000 at most
  });

  it('sin, cos, tan, exp, log, atan, asin, acos, cbrt: within 1 ulp of 50-digit values (mathjs BigNumber)', () => {
    const big = create(all, { number: 'BigNumber', precision: 50 });
    // the exact value of a double (m 2^e), not of its shortest decimal string
    const B = (x: number) => {
      f64[0] = x;
      const b = BigInt.asUintN(64, i64[0]);
      const ex = Number((b >> 52n) & 0x7ffn), m = b & ((1n << 52n) - 1n);
      const [mant, e] = ex === 0 ? [m, -1074] : [m | (1n << 52n), ex - 1075];
      const v = big.multiply(big.bignumber(mant.toString()), big.pow(big.bignumber(2), big.bignumber(e))) as BigNumber;
      return x < 0 ? (big.unaryMinus(v) as BigNumber) : v;
    };
    // ulp of the exact value y (the spacing of doubles at |y|), from its double rounding
    const err = (got: number, exact: BigNumber): number => {
      const y = big.number(exact) as number;
      const ulp = spacing(y);
      return Math.abs(big.number(big.subtract(B(got), exact) as BigNumber) as number) / ulp;
    };
    const spacing = (y: number): number => {
      f64[0] = Math.abs(y);
      i64[0] += 1n;
      return f64[0] - Math.abs(y);
    };
    const checks: [string, (x: number) => number, (b: BigNumber) => BigNumber, Gen][] = [
      ['sin', dm.sin, (b) => big.sin(b), uniform(r, -40, 40)],
      ['sin near n pi/2', dm.sin, (b) => big.sin(b), near(r, 2e6, 1e-9)],
      ['cos', dm.cos, (b) => big.cos(b), uniform(r, -40, 40)],
      ['tan', dm.tan, (b) => big.tan(b), uniform(r, -1.5, 1.5)],
      ['exp', dm.exp, (b) => big.exp(b), uniform(r, -700, 700)],
      ['log', dm.log, (b) => big.log(b), logUniform(r, -1000, 1000, false)],
      ['atan', dm.atan, (b) => big.atan(b), logUniform(r, -30, 30)],
      ['asin', dm.asin, (b) => big.asin(b), uniform(r, -1, 1)],
      ['acos', dm.acos, (b) => big.acos(b), uniform(r, -1, 1)],
      ['cbrt', dm.cbrt, (b) => big.cbrt(b) as BigNumber, logUniform(r, -1000, 1000)],
    ];
    for (const [name, f, ref, gen] of checks) {
      let max = 0, at = 0;
      for (let i = 0; i < 800; i++) {
        const x = gen();
        const e = err(f(x), ref(B(x)));
        if (e > max) { max = e; at = x; }
      }
      expect(max, `${name} worst at ${at}`).toBeLessThan(1);
    }
  });

  it('special values: exactly what Math gives (NaN, signed zeros, infinities, subnormals, domain edges)', () => {
    const specials = [NaN, 0, -0, Infinity, -Infinity, 5e-324, -5e-324, 2.2250738585072014e-308, -2.2250738585072014e-308,
      1e-310, 1, -1, 0.5, -0.5, 2, 1 + 2 ** -52, 1 - 2 ** -53, -1 - 2 ** -52, Math.PI, -Math.PI, Math.PI / 2, Math.PI / 4,
      1.7976931348623157e308, -1.7976931348623157e308, 709.782712893384, 709.7827128933841, -745.1332191019411, -745.1332191019412,
      8, -27, 1e300, -1e300, 1e-300];
    const one: [string, (x: number) => number, (x: number) => number][] = [
      ['sin', dm.sin, Math.sin], ['cos', dm.cos, Math.cos], ['tan', dm.tan, Math.tan], ['exp', dm.exp, Math.exp],
      ['log', dm.log, Math.log], ['atan', dm.atan, Math.atan], ['asin', dm.asin, Math.asin], ['acos', dm.acos, Math.acos],
      ['cbrt', dm.cbrt, Math.cbrt]];
    // the cases ECMAScript fixes exactly (NaN, zeros, infinities, exact results) must agree bit for
    // bit; the others within 1 ulp
    const fixed = (x: number) => x !== x || x === 0 || !Number.isFinite(x);
    for (const [name, f, ref] of one) {
      for (const x of specials) {
        if (fixed(x)) expect(Object.is(f(x), ref(x)) || (f(x) !== f(x) && ref(x) !== ref(x)), `${name}(${x})`).toBe(true);
        else expect(ulps(f(x), ref(x)), `${name}(${x})`).toBeLessThanOrEqual(1);
      }
    }
    for (const y of specials) {
      for (const x of specials) {
        const u = ulps(dm.atan2(y, x), Math.atan2(y, x));
        expect(u, `atan2(${y}, ${x})`).toBeLessThanOrEqual(fixed(x) && fixed(y) ? 0 : 1);
        const h = ulps(dm.hypot(y, x), Math.hypot(y, x));
        expect(h, `hypot(${y}, ${x})`).toBeLessThanOrEqual(fixed(x) && fixed(y) ? 0 : 2);
      }
    }
    // exact results
    expect([dm.log(1), dm.acos(1), dm.cbrt(8), dm.cbrt(-27), dm.exp(0), dm.atan2(0, 1), dm.cos(0)]).toEqual([0, 0, 2, -3, 1, 0, 1]);
    expect([dm.atan2(1, 0), dm.atan2(-0, -1), dm.atan2(Infinity, -Infinity), dm.asin(-1)]).toEqual([Math.PI / 2, -Math.PI, 3 * Math.PI / 4, -Math.PI / 2]);
    expect(dm.hypot(NaN, Infinity)).toBe(Infinity);
    expect(dm.hypot(3, 4)).toBe(5);
    expect(dm.hypot(-0, -0)).toBe(0);
  });
});
