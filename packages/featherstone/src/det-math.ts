// Reproducible elementary functions: the same bits on every JavaScript engine.
//
// ECMAScript leaves the results of Math.sin, cos, tan, asin, acos, atan, atan2, exp, log, cbrt and
// hypot to the implementation, and engines differ in the last bit (V8 ports fdlibm, JavaScriptCore
// and QuickJS call the C library). A lockstep or rollback game needs the same bits everywhere, so
// the simulation path calls these instead. They are built only from operations IEEE 754 rounds
// exactly in every engine (+ - * /, Math.sqrt, Math.abs, Math.floor, comparisons, integer ops on
// the words of a double read through a typed array, and BigInt for the rare huge trigonometric
// argument).
//
// Algorithms: Sun Microsystems' fdlibm 5.3 (1993, as kept in FreeBSD's msun, lib/msun/src):
// - sin, cos, tan: Cody-Waite reduction x = n pi/2 + r with pi/2 in three 33-bit pieces
//   (e_rem_pio2.c, 'medium' case, exact enough for |x| < 2^20 pi/2), the kernels k_sin.c, k_cos.c,
//   k_tan.c (minimax polynomials on [-pi/4, pi/4], error < 2^-58). For |x| >= 2^20 pi/2 the
//   remainder is computed exactly with BigInt: x times 2/pi to 1280 bits (Payne-Hanek's idea,
//   2/pi here computed once from Machin's formula instead of a table), so sin(1e300) is correct.
// - exp: e_exp.c (x = k ln2 + r, a degree-5 Remez rational form for exp(r)).
// - log: e_log.c (x = 2^k (1+f), log(1+f) from s = f/(2+f) and a degree-14 polynomial).
// - atan, atan2: s_atan.c, e_atan2.c (reduction to [0, 7/16] on four breakpoints, degree-22 odd
//   polynomial). asin, acos: e_asin.c, e_acos.c (rational approximation of asin on [0, 1/2],
//   half-angle formula above). cbrt: s_cbrt.c (Bruce Evans' bit estimate, a polynomial to 23 bits,
//   one Newton step).
// - hypot: sqrt of the sum of squares (correctly rounded operations only), with the arguments
//   scaled by an exact power of two when the sum would overflow or lose bits to underflow.
// fdlibm states errors below 1 ulp for each; packages/featherstone/test/det-math.test.ts measures
// them against the engine's Math over millions of arguments and against a double-double oracle.
//
// The polynomial coefficients are fdlibm's; the bit patterns beside them are those fdlibm gives,
// and the test checks that each decimal literal parses to exactly that pattern.

// No number crosses a call boundary here except into functions small enough for V8 to always
// inline (hiWord, loWord, fromWords, clearLow, pow2): a double passed to or returned from a call
// that is not inlined is boxed (a heap allocation), and World.step must allocate nothing. The
// exported functions are small wrappers that put the argument in `io`, call the worker, and read
// the result from `io`; the workers pass numbers to each other through `io` too.
//   io[0]: argument and result; io[1], io[2]: the reduced argument y0 + y1 (sin, cos, tan);
//   io[3]: the second argument (atan2's x); hypot's four arguments in io[0..3].
// `var`, not `const`: a module-level const read inside a function costs a check for its temporal
// dead zone (2 bytes of bytecode each), which would put the wrappers over the 27 bytes below which
// V8 inlines a function into any caller, whatever the caller's inlining budget.
//
// A wrapper stays under 27 bytes only until V8 compiles it alone (it does once the wrapper is
// called often from code not yet optimised, as set-up code calls it): the worker is then inlined
// into the wrapper's own code and counted against the caller's budget with it, so a caller that
// calls several of them past its budget calls them for real, and the argument and the result are
// boxed. Hot code that must not allocate calls the workers themselves, through `io`
// (sinIO, cosIO, atan2IO, hypotIO): nothing but the array crosses the call.
/**
 * The argument and result array of the allocation-free forms sinIO, cosIO, atan2IO and hypotIO:
 * the argument(s) written here, the result read from io[0]. For hot loops only (a number passed
 * to or returned from a call the engine does not inline is a heap allocation); the same bits as
 * sin, cos, atan2 and hypot.
 */
// eslint-disable-next-line no-var
export var io = new Float64Array(4);

const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);
const LITTLE = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const HI = LITTLE ? 1 : 0;
const LO = LITTLE ? 0 : 1;

/** The high 32 bits of x (sign, exponent, top 20 bits of the mantissa), as a signed int32. */
function hiWord(x: number): number {
  f64[0] = x;
  return u32[HI] | 0;
}
/** The low 32 bits of x, unsigned. */
function loWord(x: number): number {
  f64[0] = x;
  return u32[LO];
}
/** The double whose words are hi and lo. */
function fromWords(hi: number, lo: number): number {
  u32[HI] = hi >>> 0;
  u32[LO] = lo >>> 0;
  return f64[0];
}
/** x with its low word cleared (its top 21 mantissa bits kept). */
function clearLow(x: number): number {
  f64[0] = x;
  u32[LO] = 0;
  return f64[0];
}
/** 2^k exactly, for -1022 <= k <= 1023. */
function pow2(k: number): number {
  return fromWords((k + 1023) << 20, 0);
}

// ---------------------------------------------------------------------------------------------
// Argument reduction for sin, cos, tan: x = n pi/2 + (y0 + y1), |y0 + y1| <= pi/4 (about).

const INV_PIO2 = 6.36619772367581382433e-1; // 0x3FE45F30 6DC9C883
const PIO2_1 = 1.57079632673412561417e0; // 0x3FF921FB 54400000: first 33 bits of pi/2
const PIO2_1T = 6.07710050650619224932e-11; // 0x3DD0B461 1A626331: pi/2 - PIO2_1
const PIO2_2 = 6.07710050630396597660e-11; // 0x3DD0B461 1A600000: second 33 bits
const PIO2_2T = 2.02226624879595063154e-21; // 0x3BA3198A 2E037073
const PIO2_3 = 2.02226624871116645580e-21; // 0x3BA3198A 2E000000: third 33 bits
const PIO2_3T = 8.47842766036889956997e-32; // 0x397B839A 252049C1
const TWO52_15 = 6755399441055744; // 1.5 * 2^52: adding and subtracting it rounds to an integer


/** Writes the remainder of x = io[0] modulo pi/2 to io[1] + io[2] and returns n (mod 2^32) with x = n pi/2 + r. */
function remPio2(ix: number): number {
  const x = io[0];
  if (ix < 0x413921fb) {
    // |x| < 2^20 pi/2: Cody-Waite with up to three pieces of pi/2 (fdlibm e_rem_pio2.c, 'medium').
    const fn = x * INV_PIO2 + TWO52_15 - TWO52_15;
    const n = fn | 0;
    let r = x - fn * PIO2_1;
    let w = fn * PIO2_1T; // n * PIO2_1 is exact: fn has at most 21 bits, PIO2_1 33
    const j = ix >> 20;
    let y0 = r - w;
    let i = j - ((hiWord(y0) >> 20) & 0x7ff);
    if (i > 16) {
      // cancellation: the second piece (good to 118 bits)
      let t = r;
      w = fn * PIO2_2;
      r = t - w;
      w = fn * PIO2_2T - ((t - r) - w);
      y0 = r - w;
      i = j - ((hiWord(y0) >> 20) & 0x7ff);
      if (i > 49) {
        // deeper cancellation: the third piece (151 bits, enough for every double in range)
        t = r;
        w = fn * PIO2_3;
        r = t - w;
        w = fn * PIO2_3T - ((t - r) - w);
        y0 = r - w;
      }
    }
    io[1] = y0;
    io[2] = (r - y0) - w;
    return n;
  }
  return remPio2Large();
}

// 2/pi as a 1280-bit fixed-point integer, computed once on first use from Machin's formula
// pi/4 = 4 atan(1/5) - atan(1/239). 1280 bits cover every double: x < 2^1024 leaves 256 bits
// below the binary point, far more than the 61 + 53 that the closest double to a multiple of
// pi/2 needs.
const TWO_OVER_PI_BITS = 1280n;
let twoOverPiFixed = 0n;
function twoOverPi(): bigint {
  if (twoOverPiFixed !== 0n) return twoOverPiFixed;
  const w = TWO_OVER_PI_BITS + 64n; // working precision, 64 guard bits
  const one = 1n << w;
  const atanInv = (n: bigint): bigint => {
    // atan(1/n) = sum (-1)^k / ((2k+1) n^(2k+1))
    let sum = 0n;
    let power = one / n;
    const n2 = n * n;
    for (let k = 1n, sign = 1n; power !== 0n; k += 2n, sign = -sign) {
      sum += (sign * power) / k;
      power /= n2;
    }
    return sum;
  };
  const pi = 4n * (4n * atanInv(5n) - atanInv(239n)); // pi * 2^w
  twoOverPiFixed = (1n << (w + TWO_OVER_PI_BITS + 1n)) / pi;
  return twoOverPiFixed;
}

const SPLIT = 134217729; // 2^27 + 1: Veltkamp's splitting constant for doubles

/** The rounding error of a * b: a * b = fl(a * b) + e exactly (Dekker 1971, Veltkamp splitting). */
function productError(a: number, b: number, p: number): number {
  let t = SPLIT * a;
  const ah = t - (t - a), al = a - ah;
  t = SPLIT * b;
  const bh = t - (t - b), bl = b - bh;
  return ((ah * bh - p) + ah * bl + al * bh) + al * bl;
}

const PIO2_HI = 1.57079632679489655800e0; // 0x3FF921FB 54442D18
const PIO2_LO = 6.12323399573676603587e-17; // 0x3C91A626 33145C07

/** Exact reduction of x = io[0], |x| >= 2^20 pi/2, with BigInt (x infinite or NaN: io[1] = io[2] = NaN). */
function remPio2Large(): number {
  const x = io[0];
  if (!(x - x === 0)) {
    io[1] = io[2] = x - x;
    return 0;
  }
  const hi = hiWord(x), lo = loWord(x);
  const e = ((hi >> 20) & 0x7ff) - 1075; // |x| = m * 2^e, m a 53-bit integer (x is normal here)
  const m = (BigInt((hi & 0xfffff) | 0x100000) << 32n) | BigInt(lo);
  const s = TWO_OVER_PI_BITS - BigInt(e); // |x| 2/pi = m * T / 2^s
  const z = (m * twoOverPi()) & ((1n << (s + 2n)) - 1n); // (|x| 2/pi mod 4) * 2^s
  let n = Number(z >> s);
  let f = z & ((1n << s) - 1n); // fraction * 2^s
  let negative = false;
  if (f >> (s - 1n) !== 0n) {
    // fraction >= 1/2: round n up, remainder negative
    n += 1;
    f = (1n << s) - f;
    negative = true;
  }
  // fraction = f / 2^s as a double-double from its top 106 bits
  if (f === 0n) {
    io[1] = io[2] = 0;
    return n & 3;
  }
  const bits = f.toString(2).length;
  const shift = bits - 106;
  const top = shift > 0 ? f >> BigInt(shift) : f << BigInt(-shift);
  const scale = shift - Number(s);
  const a0 = Number(top >> 53n) * pow2(scale + 53), a1 = Number(top & ((1n << 53n) - 1n)) * pow2(scale);
  // (a0 + a1) * (PIO2_HI + PIO2_LO) in double-double
  const p = a0 * PIO2_HI;
  const q = productError(a0, PIO2_HI, p) + (a0 * PIO2_LO + a1 * PIO2_HI);
  let y0 = p + q;
  let y1 = q - (y0 - p);
  if (negative) { y0 = -y0; y1 = -y1; }
  if (x < 0) { y0 = -y0; y1 = -y1; n = -n; }
  io[1] = y0;
  io[2] = y1;
  return n & 3;
}

// ---------------------------------------------------------------------------------------------
// Kernels on [-pi/4, pi/4] (fdlibm k_sin.c, k_cos.c, k_tan.c); y is the tail of x.

const S1 = -1.66666666666666324348e-1; // 0xBFC55555 55555549
const S2 = 8.33333333332248946124e-3; // 0x3F811111 1110F8A6
const S3 = -1.98412698298579493134e-4; // 0xBF2A01A0 19C161D5
const S4 = 2.75573137070700676789e-6; // 0x3EC71DE3 57B1FE7D
const S5 = -2.50507602534068634195e-8; // 0xBE5AE5E6 8A2B9CEB
const S6 = 1.58969099521155010221e-10; // 0x3DE5D93A 5ACFD57C

/** io[0] = sin(x + y), x = io[1], y = io[2], |x + y| <= pi/4: x + S1 x^3 + ... + S6 x^13 with a first-order correction for y. */
function kernelSin(hasTail: boolean): void {
  const x = io[1], y = io[2];
  const z = x * x, w = z * z;
  const r = S2 + z * (S3 + z * S4) + z * w * (S5 + z * S6);
  const v = z * x;
  io[0] = hasTail ? x - ((z * (0.5 * y - v * r) - y) - v * S1) : x + v * (S1 + z * r);
}

const C1 = 4.16666666666666019037e-2; // 0x3FA55555 5555554C
const C2 = -1.38888888888741095749e-3; // 0xBF56C16C 16C15177
const C3 = 2.48015872894767294178e-5; // 0x3EFA01A0 19CB1590
const C4 = -2.75573143513906633035e-7; // 0xBE927E4F 809C52AD
const C5 = 2.08757232129817482790e-9; // 0x3E21EE9E BDB4B1C4
const C6 = -1.13596475577881948265e-11; // 0xBDA8FAE9 BE8838D4

/** io[0] = cos(x + y), x = io[1], y = io[2], |x + y| <= pi/4: 1 - x^2/2 + C1 x^4 + ... + C6 x^14 - x y, summed so 1 - x^2/2 keeps its low bits. */
function kernelCos(): void {
  const x = io[1], y = io[2];
  const z = x * x, w = z * z;
  const r = z * (C1 + z * (C2 + z * C3)) + w * w * (C4 + z * (C5 + z * C6));
  const hz = 0.5 * z;
  const h = 1 - hz;
  io[0] = h + (((1 - h) - hz) + (z * r - x * y));
}

const T = [
  3.33333333333334091986e-1, // 0x3FD55555 55555563
  1.33333333333201242699e-1, // 0x3FC11111 1110FE7A
  5.39682539762260521377e-2, // 0x3FABA1BA 1BB341FE
  2.18694882948595424599e-2, // 0x3F9664F4 8406D637
  8.86323982359930005737e-3, // 0x3F8226E3 E96E8493
  3.59207910759131235356e-3, // 0x3F6D6D22 C9560328
  1.45620945432529025516e-3, // 0x3F57DBC8 FEE08315
  5.88041240820264096874e-4, // 0x3F4344D8 F2F26501
  2.46463134818469906812e-4, // 0x3F3026F7 1A8D1068
  7.81794442939557092300e-5, // 0x3F147E88 A03792A6
  7.14072491382608190305e-5, // 0x3F12B80F 32F0A7E9
  -1.85586374855275456654e-5, // 0xBEF375CB DB605373
  2.59073051863633712884e-5, // 0x3EFB2A70 74BF7AD4
];
const [T0, T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12] = T;
const PIO4 = 7.85398163397448278999e-1; // 0x3FE921FB 54442D18
const PIO4_LO = 3.06161699786838301793e-17; // 0x3C81A626 33145C07

/** io[0] = tan(x + y) (odd = 1) or -1/tan(x + y) (odd = -1), x = io[1], y = io[2], |x + y| <= pi/4. Above 0.6744 it uses tan(pi/4 - t). */
function kernelTan(odd: number): void {
  let x = io[1], y = io[2];
  const hx = hiWord(x);
  const big = (hx & 0x7fffffff) >= 0x3fe59428;
  if (big) {
    if (hx < 0) { x = -x; y = -y; }
    x = (PIO4 - x) + (PIO4_LO - y);
    y = 0;
  }
  let z = x * x;
  let w = z * z;
  let r = T1 + w * (T3 + w * (T5 + w * (T7 + w * (T9 + w * T11))));
  let v = z * (T2 + w * (T4 + w * (T6 + w * (T8 + w * (T10 + w * T12)))));
  let s = z * x;
  r = y + z * (s * (r + v) + y);
  r += T0 * s;
  w = x + r;
  if (big) {
    v = odd;
    { io[0] = (1 - ((hx >> 30) & 2)) * (v - 2 * (x - ((w * w) / (w + v) - r))); return; }
  }
  if (odd === 1) { io[0] = w; return; }
  // -1/(x + r) to within an ulp: split w and its reciprocal in halves
  z = clearLow(w);
  v = r - (z - x);
  const a = -1 / w;
  const t = clearLow(a);
  s = 1 + t * z;
  { io[0] = t + a * (s + t * v); return; }
}

// ---------------------------------------------------------------------------------------------

/** sin(x) to within 1 ulp, the same bits on every engine. */
export function sin(x: number): number {
  io[0] = x;
  sinIO();
  return io[0];
}
/** io[0] = sin(io[0]) (the allocation-free form of sin: see `io`). */
export function sinIO(): void {
  const x = io[0];
  const ix = hiWord(x) & 0x7fffffff;
  if (ix <= 0x3fe921fb) {
    if (ix < 0x3e500000) return; // |x| < 2^-26: sin x = x to the last bit (keeps -0)
    io[1] = x;
    io[2] = 0;
    kernelSin(false);
    return;
  }
  if (ix >= 0x7ff00000) {
    io[0] = x - x;
    return;
  }
  const n = remPio2(ix) & 3;
  if (n & 1) kernelCos(); else kernelSin(true);
  if (n >= 2) io[0] = -io[0];
}

/** cos(x) to within 1 ulp, the same bits on every engine. */
export function cos(x: number): number {
  io[0] = x;
  cosIO();
  return io[0];
}
/** io[0] = cos(io[0]) (the allocation-free form of cos: see `io`). */
export function cosIO(): void {
  const x = io[0];
  const ix = hiWord(x) & 0x7fffffff;
  if (ix <= 0x3fe921fb) {
    if (ix < 0x3e46a09e) {
      io[0] = 1; // |x| < 2^-27 sqrt 2: cos x rounds to 1
      return;
    }
    io[1] = x;
    io[2] = 0;
    kernelCos();
    return;
  }
  if (ix >= 0x7ff00000) {
    io[0] = x - x;
    return;
  }
  const n = remPio2(ix) & 3;
  if (n & 1) kernelSin(true); else kernelCos();
  if (n === 1 || n === 2) io[0] = -io[0];
}

/** tan(x) to within 1 ulp, the same bits on every engine. */
export function tan(x: number): number {
  io[0] = x;
  tanIO();
  return io[0];
}
function tanIO(): void {
  const x = io[0];
  const ix = hiWord(x) & 0x7fffffff;
  if (ix <= 0x3fe921fb) {
    if (ix < 0x3e400000) return; // |x| < 2^-27
    io[1] = x;
    io[2] = 0;
    kernelTan(1);
    return;
  }
  if (ix >= 0x7ff00000) {
    io[0] = x - x;
    return;
  }
  const n = remPio2(ix);
  kernelTan(1 - ((n & 1) << 1));
}

// ---------------------------------------------------------------------------------------------
// exp and log (fdlibm e_exp.c, e_log.c)

const LN2_HI = 6.93147180369123816490e-1; // 0x3FE62E42 FEE00000: k * LN2_HI exact for |k| < 2^11
const LN2_LO = 1.90821492927058770002e-10; // 0x3DEA39EF 35793C76
const INV_LN2 = 1.44269504088896338700e0; // 0x3FF71547 652B82FE
const EXP_OVER = 7.09782712893383973096e2; // 0x40862E42 FEFA39EF: exp overflows above
const EXP_UNDER = -7.45133219101941108420e2; // 0xC0874910 D52D3051: exp underflows to 0 below
const P1 = 1.66666666666666019037e-1; // 0x3FC55555 5555553E
const P2 = -2.77777777770155933842e-3; // 0xBF66C16C 16BEBD93
const P3 = 6.61375632143793436117e-5; // 0x3F11566A AF25DE2C
const P4 = -1.65339022054652515390e-6; // 0xBEBBBD41 C5D26BF1
const P5 = 4.13813679705723846039e-8; // 0x3E663769 72BEA4D0
const TWO_M1000 = 9.33263618503218878990e-302; // 2^-1000

/** e^x to within 1 ulp, the same bits on every engine. */
export function exp(x: number): number {
  io[0] = x;
  expIO();
  return io[0];
}
function expIO(): void {
  let x = io[0];
  const hx = hiWord(x);
  const negative = hx < 0;
  const ix = hx & 0x7fffffff;
  if (ix >= 0x40862e42) {
    // |x| >= 709.78: NaN, infinities, overflow, underflow
    if (x !== x) { io[0] = x + x; return; }
    if (x > EXP_OVER) { io[0] = Infinity; return; }
    if (x < EXP_UNDER) { io[0] = 0; return; }
  }
  let hi = 0, lo = 0, k = 0;
  if (ix > 0x3fd62e42) {
    // |x| > ln2 / 2: x = k ln2 + r
    if (ix < 0x3ff0a2b2) {
      // |x| < 1.5 ln2: k = +-1
      if (negative) { hi = x + LN2_HI; lo = -LN2_LO; k = -1; } else { hi = x - LN2_HI; lo = LN2_LO; k = 1; }
    } else {
      k = (INV_LN2 * x + (negative ? -0.5 : 0.5)) | 0;
      hi = x - k * LN2_HI;
      lo = k * LN2_LO;
    }
    x = hi - lo;
  } else if (ix < 0x3e300000) {
    { io[0] = 1 + x; return; } // |x| < 2^-28
  }
  const t = x * x;
  const c = x - t * (P1 + t * (P2 + t * (P3 + t * (P4 + t * P5))));
  if (k === 0) { io[0] = 1 - ((x * c) / (c - 2) - x); return; }
  const y = 1 - ((lo - (x * c) / (2 - c)) - hi);
  if (k >= -1021) {
    if (k === 1024) { io[0] = y * 2 * pow2(1023); return; }
    { io[0] = y * pow2(k); return; }
  }
  { io[0] = y * pow2(k + 1000) * TWO_M1000; return; }
}

const LG1 = 6.666666666666735130e-1; // 0x3FE55555 55555593
const LG2 = 3.999999999940941908e-1; // 0x3FD99999 9997FA04
const LG3 = 2.857142874366239149e-1; // 0x3FD24924 94229359
const LG4 = 2.222219843214978396e-1; // 0x3FCC71C5 1D8E78AF
const LG5 = 1.818357216161805012e-1; // 0x3FC74664 96CB03DE
const LG6 = 1.531383769920937332e-1; // 0x3FC39A09 D078C69F
const LG7 = 1.479819860511658591e-1; // 0x3FC2F112 DF3E5244
const TWO54 = 1.80143985094819840000e16; // 2^54

/** Natural logarithm to within 1 ulp, the same bits on every engine. */
export function log(x: number): number {
  io[0] = x;
  logIO();
  return io[0];
}
function logIO(): void {
  let x = io[0];
  let hx = hiWord(x);
  let k = 0;
  if (hx < 0x00100000) {
    // x < 2^-1022: zero, negative, subnormal
    if (x === 0) { io[0] = -Infinity; return; }
    if (hx < 0 || x !== x) { io[0] = NaN; return; }
    k -= 54;
    x *= TWO54;
    hx = hiWord(x);
  }
  if (hx >= 0x7ff00000) { io[0] = x + x; return; }
  k += (hx >> 20) - 1023;
  hx &= 0x000fffff;
  const i = (hx + 0x95f64) & 0x100000;
  x = fromWords(hx | (i ^ 0x3ff00000), loWord(x)); // x or x/2 in [sqrt(2)/2, sqrt(2))
  k += i >> 20;
  const f = x - 1;
  if ((0x000fffff & (2 + hx)) < 3) {
    // -2^-20 <= f < 2^-20
    if (f === 0) { io[0] = k === 0 ? 0 : k * LN2_HI + k * LN2_LO; return; }
    const R = f * f * (0.5 - 0.33333333333333333 * f);
    { io[0] = k === 0 ? f - R : k * LN2_HI - ((R - k * LN2_LO) - f); return; }
  }
  const s = f / (2 + f);
  const z = s * s;
  const w = z * z;
  const t1 = w * (LG2 + w * (LG4 + w * LG6));
  const t2 = z * (LG1 + w * (LG3 + w * (LG5 + w * LG7)));
  const R = t2 + t1;
  if (((hx - 0x6147a) | (0x6b851 - hx)) > 0) {
    const hfsq = 0.5 * f * f;
    { io[0] = k === 0 ? f - (hfsq - s * (hfsq + R)) : k * LN2_HI - ((hfsq - (s * (hfsq + R) + k * LN2_LO)) - f); return; }
  }
  { io[0] = k === 0 ? f - s * (f - R) : k * LN2_HI - ((s * (f - R) - k * LN2_LO) - f); return; }
}

// ---------------------------------------------------------------------------------------------
// atan, atan2 (fdlibm s_atan.c, e_atan2.c)

const ATAN_HI = [
  4.63647609000806093515e-1, // atan(0.5) hi 0x3FDDAC67 0561BB4F
  7.85398163397448278999e-1, // atan(1) hi   0x3FE921FB 54442D18
  9.82793723247329054082e-1, // atan(1.5) hi 0x3FEF730B D281F69B
  1.57079632679489655800e0, //  atan(inf) hi 0x3FF921FB 54442D18
];
const ATAN_LO = [
  2.26987774529616870924e-17, // 0x3C7A2B7F 222F65E2
  3.06161699786838301793e-17, // 0x3C81A626 33145C07
  1.39033110312309984516e-17, // 0x3C700788 7AF0CBBD
  6.12323399573676603587e-17, // 0x3C91A626 33145C07
];
const AT = [
  3.33333333333329318027e-1, // 0x3FD55555 5555550D
  -1.99999999998764832476e-1, // 0xBFC99999 9998EBC4
  1.42857142725034663711e-1, // 0x3FC24924 920083FF
  -1.11111104054623557880e-1, // 0xBFBC71C6 FE231671
  9.09088713343650656196e-2, // 0x3FB745CD C54C206E
  -7.69187620504482999495e-2, // 0xBFB3B0F2 AF749A6D
  6.66107313738753120669e-2, // 0x3FB10D66 A0D03D51
  -5.83357013379057348645e-2, // 0xBFADDE2D 52DEFD9A
  4.97687799461593236017e-2, // 0x3FA97B4B 24760DEB
  -3.65315727442169155270e-2, // 0xBFA2B444 2C6A6C2F
  1.62858201153657823623e-2, // 0x3F90AD3A E322DA11
];
const [A0, A1, A2, A3, A4, A5, A6, A7, A8, A9, A10] = AT;

/** atan(x) to within 1 ulp, the same bits on every engine. */
export function atan(x: number): number {
  io[0] = x;
  atanIO();
  return io[0];
}
function atanIO(): void {
  let x = io[0];
  const hx = hiWord(x);
  const ix = hx & 0x7fffffff;
  if (ix >= 0x44100000) {
    // |x| >= 2^66
    if (x !== x) { io[0] = x + x; return; }
    { io[0] = hx > 0 ? ATAN_HI[3] + ATAN_LO[3] : -ATAN_HI[3] - ATAN_LO[3]; return; }
  }
  let id: number;
  if (ix < 0x3fdc0000) {
    // |x| < 7/16
    if (ix < 0x3e200000) { io[0] = x; return; } // |x| < 2^-29
    id = -1;
  } else {
    x = Math.abs(x);
    if (ix < 0x3ff30000) {
      if (ix < 0x3fe60000) { id = 0; x = (2 * x - 1) / (2 + x); } // 7/16 <= |x| < 11/16
      else { id = 1; x = (x - 1) / (x + 1); } // 11/16 <= |x| < 19/16
    } else if (ix < 0x40038000) { id = 2; x = (x - 1.5) / (1 + 1.5 * x); } // 19/16 <= |x| < 39/16
    else { id = 3; x = -1 / x; } // 39/16 <= |x| < 2^66
  }
  const z = x * x, w = z * z;
  const s1 = z * (A0 + w * (A2 + w * (A4 + w * (A6 + w * (A8 + w * A10)))));
  const s2 = w * (A1 + w * (A3 + w * (A5 + w * (A7 + w * A9))));
  if (id < 0) { io[0] = x - x * (s1 + s2); return; }
  const r = ATAN_HI[id] - ((x * (s1 + s2) - ATAN_LO[id]) - x);
  { io[0] = hx < 0 ? -r : r; return; }
}

const PI = 3.1415926535897931160e0; // 0x400921FB 54442D18
const PI_LO = 1.2246467991473531772e-16; // 0x3CA1A626 33145C07

/** atan2(y, x) to within 1 ulp with the special cases of ECMAScript's Math.atan2, the same bits on every engine. */
export function atan2(y: number, x: number): number {
  io[0] = y;
  io[3] = x;
  atan2IO();
  return io[0];
}
/** io[0] = atan2(y, x), y = io[0], x = io[3] (the allocation-free form of atan2: see `io`). */
export function atan2IO(): void {
  const y = io[0], x = io[3];
  if (x !== x || y !== y) { io[0] = x + y; return; }
  if (x === 1) { atanIO(); return; } // io[0] is y
  const hx = hiWord(x), hy = hiWord(y);
  const m = ((hy >>> 31) & 1) | ((hx >>> 30) & 2); // 2 sign(x) + sign(y)
  if (y === 0) {
    if (m < 2) { io[0] = y; return; } // atan2(+-0, +anything) = +-0
    io[0] = m === 2 ? PI : -PI; // atan2(+-0, -anything) = +-pi
    return;
  }
  if (x === 0) { io[0] = hy < 0 ? -PIO2_HI : PIO2_HI; return; }
  const ix = hx & 0x7fffffff, iy = hy & 0x7fffffff;
  if (ix === 0x7ff00000 && loWord(x) === 0) {
    if (iy === 0x7ff00000 && loWord(y) === 0) {
      switch (m) {
        case 0: { io[0] = PIO4; return; }
        case 1: { io[0] = -PIO4; return; }
        case 2: { io[0] = 3 * PIO4; return; }
        default: { io[0] = -3 * PIO4; return; }
      }
    }
    switch (m) {
      case 0: { io[0] = 0; return; }
      case 1: { io[0] = -0; return; }
      case 2: { io[0] = PI; return; }
      default: { io[0] = -PI; return; }
    }
  }
  if (iy === 0x7ff00000 && loWord(y) === 0) { io[0] = hy < 0 ? -PIO2_HI : PIO2_HI; return; }
  const k = (iy - ix) >> 20;
  let z: number;
  let mm = m;
  if (k > 60) { z = PIO2_HI + 0.5 * PI_LO; mm = m & 1; } // |y/x| > 2^60
  else if (hx < 0 && k < -60) z = 0; // |y|/x tiny and x < 0
  else { io[0] = Math.abs(y / x); atanIO(); z = io[0]; }
  switch (mm) {
    case 0: { io[0] = z; return; }
    case 1: { io[0] = -z; return; }
    case 2: { io[0] = PI - (z - PI_LO); return; }
    default: { io[0] = (z - PI_LO) - PI; return; }
  }
}

// ---------------------------------------------------------------------------------------------
// asin, acos (fdlibm e_asin.c, e_acos.c): asin x = x + x^3 R(x^2), R a rational approximation on
// [0, 1/4]; above |x| = 1/2 the half-angle form asin x = pi/2 - 2 asin(sqrt((1 - x)/2)).

const PS0 = 1.66666666666666657415e-1; // 0x3FC55555 55555555
const PS1 = -3.25565818622400915405e-1; // 0xBFD4D612 03EB6F7D
const PS2 = 2.01212532134862925881e-1; // 0x3FC9C155 0E884455
const PS3 = -4.00555345006794114027e-2; // 0xBFA48228 B5688F3B
const PS4 = 7.91534994289814532176e-4; // 0x3F49EFE0 7501B288
const PS5 = 3.47933107596021167570e-5; // 0x3F023DE1 0DFDF709
const QS1 = -2.40339491173441421878e0; // 0xC0033A27 1C8A2D4B
const QS2 = 2.02094576023350569471e0; // 0x40002AE5 9C598AC8
const QS3 = -6.88283971605453293030e-1; // 0xBFE6066C 1B8D0159
const QS4 = 7.70381505559019352791e-2; // 0x3FB3B8C5 B12E9282

/** R(z) = (asin(sqrt z) - sqrt z) / z^(3/2), rational approximation. */
function asinR(z: number): number {
  const p = z * (PS0 + z * (PS1 + z * (PS2 + z * (PS3 + z * (PS4 + z * PS5)))));
  const q = 1 + z * (QS1 + z * (QS2 + z * (QS3 + z * QS4)));
  return p / q;
}

/** asin(x) to within 1 ulp, the same bits on every engine. */
export function asin(x: number): number {
  io[0] = x;
  asinIO();
  return io[0];
}
function asinIO(): void {
  let x = io[0];
  const hx = hiWord(x);
  const ix = hx & 0x7fffffff;
  if (ix >= 0x3ff00000) {
    // |x| >= 1
    if (x === 1 || x === -1) { io[0] = x * PIO2_HI + x * PIO2_LO; return; }
    { io[0] = NaN; return; }
  }
  if (ix < 0x3fe00000) {
    // |x| < 1/2
    if (ix < 0x3e500000) { io[0] = x; return; } // |x| < 2^-26
    { io[0] = x + x * asinR(x * x); return; }
  }
  const z = (1 - Math.abs(x)) * 0.5;
  const s = Math.sqrt(z);
  const r = asinR(z);
  let t: number;
  if (ix >= 0x3fef3333) {
    // |x| > 0.975
    t = PIO2_HI - (2 * (s + s * r) - PIO2_LO);
  } else {
    const f = clearLow(s);
    const c = (z - f * f) / (s + f); // f + c = sqrt(z) to double-double accuracy
    const p = 2 * s * r - (PIO2_LO - 2 * c);
    const q = PIO4 - 2 * f;
    t = PIO4 - (p - q);
  }
  { io[0] = hx < 0 ? -t : t; return; }
}

/** acos(x) to within 1 ulp, the same bits on every engine. */
export function acos(x: number): number {
  io[0] = x;
  acosIO();
  return io[0];
}
function acosIO(): void {
  let x = io[0];
  const hx = hiWord(x);
  const ix = hx & 0x7fffffff;
  if (ix >= 0x3ff00000) {
    if (x === 1) { io[0] = 0; return; }
    if (x === -1) { io[0] = PI + 2 * PIO2_LO; return; }
    { io[0] = NaN; return; }
  }
  if (ix < 0x3fe00000) {
    // |x| < 1/2
    if (ix <= 0x3c600000) { io[0] = PIO2_HI + PIO2_LO; return; } // |x| < 2^-57
    { io[0] = PIO2_HI - (x - (PIO2_LO - x * asinR(x * x))); return; }
  }
  if (hx < 0) {
    // x < -1/2: pi - 2 asin(sqrt((1 + x)/2))
    const z = (1 + x) * 0.5;
    const s = Math.sqrt(z);
    const w = asinR(z) * s - PIO2_LO;
    { io[0] = PI - 2 * (s + w); return; }
  }
  // x > 1/2: 2 asin(sqrt((1 - x)/2))
  const z = (1 - x) * 0.5;
  const s = Math.sqrt(z);
  const f = clearLow(s);
  const c = (z - f * f) / (s + f);
  const w = asinR(z) * s + c;
  { io[0] = 2 * (f + w); return; }
}

// ---------------------------------------------------------------------------------------------
// cbrt (FreeBSD s_cbrt.c, Bruce D. Evans' revision of fdlibm's)

const B1 = 715094163; // (1023 - 1023/3 - 0.03306235651) * 2^20
const B2 = 696219795; // (1023 - 1023/3 - 54/3 - 0.03306235651) * 2^20
const CP0 = 1.87595182427177009643; // 0x3FFE03E6 0F61E692
const CP1 = -1.88497979543377169875; // 0xBFFE28E0 92F02420
const CP2 = 1.621429720105354466140; // 0x3FF9F160 4A49D6C2
const CP3 = -0.758397934778766047437; // 0xBFE844CB BEE751D9
const CP4 = 0.145996192886612446982; // 0x3FC2B000 D4E4EDD7
const TWO32 = 4294967296;

/** The cube root of x to within 1 ulp (fdlibm: < 0.667 ulp), the same bits on every engine. */
export function cbrt(x: number): number {
  io[0] = x;
  cbrtIO();
  return io[0];
}
function cbrtIO(): void {
  let x = io[0];
  const h = hiWord(x);
  const sign = h & 0x80000000;
  const hx = h & 0x7fffffff;
  if (hx >= 0x7ff00000) { io[0] = x + x; return; } // NaN, infinities
  let t: number;
  if (hx < 0x00100000) {
    // zero or subnormal
    if (x === 0) { io[0] = x; return; }
    t = x * TWO54;
    const high = hiWord(t) & 0x7fffffff;
    t = fromWords(sign | (Math.floor(high / 3) + B2), 0);
  } else {
    t = fromWords(sign | (Math.floor(hx / 3) + B1), 0);
  }
  // to 23 bits: cbrt(x) = t cbrt(x/t^3) ~ t P(t^3/x)
  let r = (t * t) * (t / x);
  t = t * ((CP0 + r * (CP1 + r * CP2)) + ((r * r) * r) * (CP3 + r * CP4));
  // round t away from zero to 22 bits (the bits of its 64-bit pattern: + 2^31, clear the low 30)
  let lo = loWord(t) + 0x80000000;
  let hi = hiWord(t);
  if (lo >= TWO32) { lo -= TWO32; hi = (hi + 1) | 0; }
  t = fromWords(hi, lo & 0xc0000000);
  // one Newton step to 53 bits
  const s = t * t; // exact
  r = x / s;
  const w = t + t;
  r = (r - t) / (w + r);
  { io[0] = t + t * r; return; }
}

// ---------------------------------------------------------------------------------------------
// hypot: the sum of squares in double-double (each square split exactly by Dekker's two-product,
// added by Knuth's two-sum), its square root corrected by one Newton step against the
// double-double sum. The result is within half an ulp plus 2^-100 relative of the exact value.

const HYPOT_BIG = pow2(500); // below it, a sum of four squares stays finite
const HYPOT_SMALL = pow2(-450); // above it, the largest square is so far above the subnormals that their rounding is lost

/**
 * sqrt(a^2 + b^2 + c^2 + d^2) (pass 2 to 4 numbers), correctly rounded but for rare halfway
 * cases, the same bits on every engine. Infinity if any argument is infinite, otherwise NaN if
 * any is NaN, as Math.hypot.
 */
export function hypot(a: number, b: number, c = 0, d = 0): number {
  io[0] = a;
  io[1] = b;
  io[2] = c;
  io[3] = d;
  hypotIO();
  return io[0];
}
/** io[0] = hypot(io[0], io[1], io[2], io[3]) (the allocation-free form of hypot: see `io`; write 0 to the unused ones). */
export function hypotIO(): void {
  let a = Math.abs(io[0]), b = Math.abs(io[1]), c = Math.abs(io[2]), d = Math.abs(io[3]);
  const m = Math.max(a, b, c, d);
  let unscale = 1;
  if (!(m < HYPOT_BIG && m > HYPOT_SMALL)) {
    if (a === Infinity || b === Infinity || c === Infinity || d === Infinity) { io[0] = Infinity; return; }
    if (m !== m) { io[0] = NaN; return; }
    if (m === 0) { io[0] = 0; return; }
    // scale by 2^-e (exact) so the largest is in [1, 2), in two factors so that neither leaves the normal range
    let e = ((hiWord(m) >> 20) & 0x7ff) - 1023;
    if (e === -1023) e = ((hiWord(m * TWO54) >> 20) & 0x7ff) - 1023 - 54; // subnormal m
    const h1 = e >> 1, h2 = e - h1;
    const s1 = pow2(-h1), s2 = pow2(-h2);
    a = a * s1 * s2; b = b * s1 * s2; c = c * s1 * s2; d = d * s1 * s2;
    unscale = pow2(h1) * pow2(h2);
  }
  // a^2 = pa + ea exactly (Veltkamp split of a into 26 + 27 bits)
  let t = SPLIT * a;
  let h = t - (t - a), l = a - h;
  const pa = a * a, ea = ((h * h - pa) + 2 * h * l) + l * l;
  t = SPLIT * b; h = t - (t - b); l = b - h;
  const pb = b * b, eb = ((h * h - pb) + 2 * h * l) + l * l;
  t = SPLIT * c; h = t - (t - c); l = c - h;
  const pc = c * c, ec = ((h * h - pc) + 2 * h * l) + l * l;
  t = SPLIT * d; h = t - (t - d); l = d - h;
  const pd = d * d, ed = ((h * h - pd) + 2 * h * l) + l * l;
  // pa + pb + pc + pd with the rounding error of each addition kept (two-sum)
  let sum = pa + pb;
  let v = sum - pa;
  let err = (pa - (sum - v)) + (pb - v);
  let sum2 = sum + pc;
  v = sum2 - sum;
  err += (sum - (sum2 - v)) + (pc - v);
  sum = sum2 + pd;
  v = sum - sum2;
  err += (sum2 - (sum - v)) + (pd - v);
  err += (ea + eb) + (ec + ed);
  // r = sqrt(sum + err), one Newton step: r + (sum + err - r^2) / (2 r), r^2 exact by two-product
  const r = Math.sqrt(sum);
  if (r === 0) { io[0] = 0; return; }
  t = SPLIT * r; h = t - (t - r); l = r - h;
  const rr = r * r, er = ((h * h - rr) + 2 * h * l) + l * l;
  io[0] = (r + (((sum - rr) - er) + err) / (2 * r)) * unscale;
}

/** x * x: for where `x ** 2` would be written (the exponent operator is pow, which engines round differently). */
export function sq(x: number): number {
  return x * x;
}
