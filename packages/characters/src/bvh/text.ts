/**
 * Text handling shared by the BVH reader: decoding, line splitting (LF, CRLF or CR, mixed),
 * whitespace tokens with their line numbers, and strict number parsing.
 */
import { ImportError, quoteInput } from '../motion/import-error.js';

export interface Token {
  text: string;
  /** 1-based line number. */
  line: number;
}

/** Decodes bytes as UTF-8 (invalid sequences are an error) and drops a byte-order mark. */
export function decodeText(source: string | Uint8Array | ArrayBuffer, file: string): string {
  let text: string;
  if (typeof source === 'string') text = source;
  else {
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(source);
    } catch {
      const bytes = source instanceof Uint8Array ? source : new Uint8Array(source);
      const at = firstInvalidUtf8(bytes);
      let line = 1;
      for (let k = 0; k < at; k++) if (bytes[k] === 0x0a || (bytes[k] === 0x0d && bytes[k + 1] !== 0x0a)) line++;
      throw new ImportError({ file, line, path: `byte ${at}` }, 'UTF-8 text', `byte 0x${(bytes[at] ?? 0).toString(16).padStart(2, '0')} that is not valid UTF-8`);
    }
  }
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Offset of the first byte that does not belong to a valid UTF-8 sequence (bytes.length when all are valid). */
function firstInvalidUtf8(b: Uint8Array): number {
  let i = 0;
  while (i < b.length) {
    const c = b[i];
    let n: number, min: number;
    if (c < 0x80) { i++; continue; }
    if (c >= 0xc2 && c <= 0xdf) { n = 1; min = 0x80; }
    else if (c >= 0xe0 && c <= 0xef) { n = 2; min = 0x800; }
    else if (c >= 0xf0 && c <= 0xf4) { n = 3; min = 0x10000; }
    else return i;
    let cp = c & (0x3f >> n);
    for (let k = 1; k <= n; k++) {
      const d = b[i + k];
      if (d === undefined || (d & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (d & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += n + 1;
  }
  return b.length;
}

export function splitLines(text: string): string[] {
  return text.split(/\r\n|\r|\n/);
}

/** Whitespace-separated tokens of one line, braces split off as tokens of their own. */
export function lineTokens(line: string): string[] {
  const out: string[] = [];
  for (const part of line.split(/\s+/)) {
    if (part.length === 0) continue;
    if (!part.includes('{') && !part.includes('}')) {
      out.push(part);
      continue;
    }
    for (const piece of part.split(/([{}])/)) if (piece.length > 0) out.push(piece);
  }
  return out;
}

/** Decimal numbers only: no NaN, Infinity, hex, or empty strings (which Number() would accept). */
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** Values beyond this magnitude are refused, so that sums of offsets can never overflow. */
export const MAX_MAGNITUDE = 1e9;

/** The number written by `text`, or undefined when it is not a finite decimal within MAX_MAGNITUDE. */
export function parseNumber(text: string): number | undefined {
  if (!NUMBER.test(text)) return undefined;
  const v = Number(text);
  return Number.isFinite(v) && Math.abs(v) <= MAX_MAGNITUDE ? v : undefined;
}

/** Parses a number or throws an ImportError at the token's line naming what it is for. */
export function expectNumber(tok: Token | undefined, file: string, what: string, eofLine: number): number {
  if (!tok) throw new ImportError({ file, line: eofLine }, what, 'the end of the file');
  const v = parseNumber(tok.text);
  if (v === undefined) throw new ImportError({ file, line: tok.line }, `${what} (a finite decimal number, |x| <= ${MAX_MAGNITUDE})`, quoteInput(tok.text));
  return v;
}

/** Tokens read line by line on demand, so that the motion rows after the hierarchy are never tokenized here. */
export class TokenStream {
  private lineIndex = -1;
  private tokens: string[] = [];
  private k = 0;

  constructor(readonly lines: readonly string[]) {}

  /** The next token without consuming it, or undefined at the end of the text. */
  peek(): Token | undefined {
    while (this.k >= this.tokens.length) {
      if (this.lineIndex + 1 >= this.lines.length) return undefined;
      this.lineIndex++;
      this.tokens = lineTokens(this.lines[this.lineIndex]);
      this.k = 0;
    }
    return { text: this.tokens[this.k], line: this.lineIndex + 1 };
  }

  next(): Token | undefined {
    const t = this.peek();
    if (t) this.k++;
    return t;
  }

  /** Remaining tokens of the current line (consumed). */
  restOfLine(): string[] {
    const rest = this.tokens.slice(this.k);
    this.k = this.tokens.length;
    return rest;
  }

  /** 1-based number of the last line (for errors at the end of the text). */
  get lastLine(): number {
    return this.lines.length;
  }

  /** Index (0-based) of the line after the current one. */
  get nextLineIndex(): number {
    return this.lineIndex + 1;
  }
}

const POW10 = Array.from({ length: 23 }, (_, k) => 10 ** k);

/**
 * Scans the whitespace-separated decimal numbers of a line into out[o], out[o + 1], ... (at most
 * `max` are written). Returns how many numbers the line holds, or -(k + 1) when token k is not a
 * finite decimal within MAX_MAGNITUDE. Short numbers take Clinger's fast path: an integer
 * mantissa below 2^53 times or over an exact power of ten (at most 10^22) is one correctly
 * rounded operation, the same double Number() gives; longer ones go through Number().
 */
export function scanNumbers(line: string, out: Float64Array, o: number, max: number): number {
  const n = line.length;
  let i = 0, count = 0;
  for (;;) {
    let c = 0;
    while (i < n && ((c = line.charCodeAt(i)) === 32 || c === 9 || c === 13 || c === 10 || c === 11 || c === 12)) i++;
    if (i >= n) return count;
    const start = i;
    let neg = false;
    if (c === 45 || c === 43) { neg = c === 45; i++; }
    let mant = 0, sig = 0, exp = 0, digits = 0, slow = false;
    // integer part
    while (i < n && (c = line.charCodeAt(i)) >= 48 && c <= 57) {
      digits++;
      if (sig > 0 || c !== 48) {
        if (sig < 15) { mant = mant * 10 + (c - 48); sig++; } else { exp++; slow = true; }
      }
      i++;
    }
    if (i < n && line.charCodeAt(i) === 46) {
      i++;
      while (i < n && (c = line.charCodeAt(i)) >= 48 && c <= 57) {
        digits++;
        if (sig > 0 || c !== 48) {
          if (sig < 15) { mant = mant * 10 + (c - 48); sig++; exp--; } else slow = true;
        } else exp--;
        i++;
      }
    }
    let ok = digits > 0;
    if (ok && i < n && ((c = line.charCodeAt(i)) === 101 || c === 69)) {
      i++;
      let eneg = false, e = 0, edigits = 0;
      if (i < n && ((c = line.charCodeAt(i)) === 45 || c === 43)) { eneg = c === 45; i++; }
      while (i < n && (c = line.charCodeAt(i)) >= 48 && c <= 57) {
        if (e < 100000) e = e * 10 + (c - 48);
        edigits++;
        i++;
      }
      ok = edigits > 0;
      exp += eneg ? -e : e;
    }
    // the token must end here
    if (ok && i < n && !((c = line.charCodeAt(i)) === 32 || c === 9 || c === 13 || c === 10 || c === 11 || c === 12)) ok = false;
    if (!ok) return -(count + 1);
    let v: number;
    if (!slow && exp >= -22 && exp <= 22) v = exp >= 0 ? mant * POW10[exp] : mant / POW10[-exp];
    else v = Number(line.slice(start + (neg || line.charCodeAt(start) === 43 ? 1 : 0), i));
    if (neg) v = -v;
    if (!(Math.abs(v) <= MAX_MAGNITUDE)) return -(count + 1);
    if (count < max) out[o + count] = v;
    count++;
  }
}
