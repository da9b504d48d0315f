/**
 * The simulation path calls no engine-dependent Math function. ECMAScript leaves the results of
 * Math.sin and its family (and of `**`, which is Math.pow) to each engine, so a call in
 * packages/*\/src would give different bits in V8, JavaScriptCore and QuickJS; src/det-math.ts
 * holds the reproducible replacements. Flagged, outside det-math.ts, with comments left out:
 *  - Math.sin, cos, tan, asin, acos, atan, atan2, sinh, cosh, tanh, asinh, acosh, atanh, exp,
 *    expm1, log, log1p, log2, log10, pow, hypot, cbrt (called or passed as a value);
 *  - Math[...] and `= Math` (a way around the names);
 *  - `**` and `**=` unless the base is an integer literal (2 ** k and 10 ** k are exact: any pow
 *    within 1 ulp returns a representable result exactly).
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const FAMILY = 'sin|cos|tan|asin|acos|atan|atan2|sinh|cosh|tanh|asinh|acosh|atanh|exp|expm1|log|log1p|log2|log10|pow|hypot|cbrt';

/** Code with block and line comments blanked (line numbers kept). */
function stripComments(src: string): string {
  return src
    .replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' '))
    .replace(/(^|[^:'"`\\])\/\/[^\n]*/gm, (_m, lead: string) => lead);
}

/** Offending uses in one source text: `line: code`. */
export function engineDependentMath(src: string): string[] {
  const code = stripComments(src);
  const lines = code.split('\n');
  const found: string[] = [];
  lines.forEach((line, i) => {
    const at = (what: string) => found.push(`${i + 1}: ${what}: ${line.trim()}`);
    if (new RegExp(`\\bMath\\s*\\.\\s*(${FAMILY})\\b`).test(line)) at('Math function');
    if (/\bMath\s*\[/.test(line) || /=\s*Math\s*[;,)]?\s*$/.test(line) || /=\s*Math\s*;/.test(line)) at('Math aliased');
    for (const m of line.matchAll(/\*\*=?/g)) {
      const before = line.slice(0, m.index).trimEnd();
      if (m[0] === '**=' || !/(^|[^\w.])\d+$/.test(before)) at('** with a non-literal base');
    }
  });
  return found;
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) return sources(p);
    return p.endsWith('.ts') ? [p] : [];
  });
}

describe('no engine-dependent Math in the simulation path', () => {
  it('the check finds what it is meant to find', () => {
    expect(engineDependentMath('const a = Math.sin(x);')).toHaveLength(1);
    expect(engineDependentMath('f(Math.atan2);')).toHaveLength(1);
    expect(engineDependentMath('const y = Math . pow(x, 3);')).toHaveLength(1);
    expect(engineDependentMath('const { cos } = Math;')).toHaveLength(1);
    expect(engineDependentMath('const m = Math["exp"];')).toHaveLength(1);
    expect(engineDependentMath('const d = (a - b) ** 2;')).toHaveLength(1);
    expect(engineDependentMath('const v = r ** 0.5 + x[1] ** 3;')).toHaveLength(2);
    expect(engineDependentMath('s **= 2;')).toHaveLength(1);
    // allowed: exact operations, integer-literal bases, comments, other names
    expect(engineDependentMath('const a = Math.sqrt(Math.abs(x)) + Math.floor(y) + Math.fround(z) + Math.max(1, 2);')).toEqual([]);
    expect(engineDependentMath('const n = 2 ** k + 10 ** 3;')).toEqual([]);
    expect(engineDependentMath('// Math.sin(x) and a ** 2\n/* Math.hypot(...v)\n b ** 3 */ const u = detMath.sin(x);')).toEqual([]);
    expect(engineDependentMath("const url = 'http://x'; const w = Math.hypot(a, b);")).toHaveLength(1);
  });

  it('packages/*/src call no Math.sin-family function and no ** outside det-math.ts', () => {
    const pkgs = readdirSync(join(root, 'packages'));
    const files = pkgs.flatMap((p) => sources(join(root, 'packages', p, 'src'))).filter((f) => !f.endsWith('det-math.ts'));
    expect(files.length).toBeGreaterThan(100);
    const offences = files.flatMap((f) => engineDependentMath(readFileSync(f, 'utf8')).map((o) => `${relative(root, f)}:${o}`));
    expect(offences, offences.join('\n')).toEqual([]);
  });
});
