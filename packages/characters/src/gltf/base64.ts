/** Base64 (RFC 4648, standard alphabet, '=' padding optional) to bytes; undefined on a bad character or length. */

const DECODE = new Int16Array(128).fill(-1);
'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'.split('').forEach((c, i) => (DECODE[c.charCodeAt(0)] = i));

export function decodeBase64(text: string, start = 0): Uint8Array | undefined {
  let end = text.length;
  while (end > start && text.charCodeAt(end - 1) === 61) end--; // '='
  if (text.length - end > 2) return undefined;
  const n = end - start;
  if (n % 4 === 1) return undefined;
  const out = new Uint8Array(Math.floor((n * 3) / 4));
  let o = 0;
  let i = start;
  for (; i + 4 <= end; i += 4) {
    const a = code(text, i), b = code(text, i + 1), c = code(text, i + 2), d = code(text, i + 3);
    if ((a | b | c | d) < 0) return undefined;
    const v = (a << 18) | (b << 12) | (c << 6) | d;
    out[o++] = v >> 16; out[o++] = (v >> 8) & 255; out[o++] = v & 255;
  }
  const rest = end - i;
  if (rest >= 2) {
    const a = code(text, i), b = code(text, i + 1), c = rest === 3 ? code(text, i + 2) : 0;
    if ((a | b | c) < 0) return undefined;
    out[o++] = (a << 2) | (b >> 4);
    if (rest === 3) out[o++] = ((b & 15) << 4) | (c >> 2);
  }
  return out;
}

function code(s: string, i: number): number {
  const c = s.charCodeAt(i);
  return c < 128 ? DECODE[c] : -1;
}
