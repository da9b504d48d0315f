/**
 * Runs one script (a bundle that ends in an expression yielding a JSON string) in each JavaScript
 * engine the project installs as a dev dependency: V8 (a Node child process), JavaScriptCore (the
 * `bun` package's binary), QuickJS (quickjs-emscripten, a WebAssembly build, in a Node child
 * process: quickjs-run.mjs) and Chromium's V8 in a page (playwright-core with Debian's
 * /usr/bin/chromium, when present). Every engine runs asynchronously: the test runner's worker
 * must keep answering its main process while an engine works for a minute.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { SceneResult } from './scenes.js';

const require = createRequire(import.meta.url);
export const CHROMIUM = '/usr/bin/chromium';

export interface EngineRun {
  engine: string;
  output: string;
  ms: number;
}

/** Runs `command args... file` where file holds `text`; resolves to its standard output. */
async function runFile(engine: string, command: string, args: string[], text: string): Promise<EngineRun> {
  const dir = mkdtempSync(join(tmpdir(), 'sinew-engines-'));
  try {
    const file = join(dir, 'script.js');
    writeFileSync(file, text);
    const t0 = performance.now();
    const { status, stdout, stderr } = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      const child = spawn(command, [...args, file], { stdio: ['ignore', 'pipe', 'pipe'] });
      const out: Buffer[] = [], err: Buffer[] = [];
      child.stdout.on('data', (d: Buffer) => out.push(d));
      child.stderr.on('data', (d: Buffer) => err.push(d));
      child.on('error', (e) => reject(new Error(`${engine}: could not start ${command}: ${e.message}`)));
      child.on('close', (code) => resolve({ status: code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }));
    });
    const ms = performance.now() - t0;
    if (status !== 0) throw new Error(`${engine}: ${command} exited with ${status}: ${stderr.slice(0, 2000)}`);
    return { engine, output: stdout.trim(), ms };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `script` (whose completion value is a string) as a command-line program that prints that string. */
const printing = (script: string) => `globalThis.__sinewOut = (0, eval)(${JSON.stringify(script)});\nconsole.log(globalThis.__sinewOut);\n`;

export function runNode(script: string): Promise<EngineRun> {
  return runFile('V8 (node)', process.execPath, [], printing(script));
}

/** The bun binary of the `bun` dev dependency (its postinstall puts it in place of bin/bun.exe). */
export function bunBinary(): string {
  const bin = join(dirname(require.resolve('bun/package.json')), 'bin', 'bun.exe');
  if (!existsSync(bin) || statSync(bin).size < 1 << 20) {
    throw new Error(`${bin} is not the bun binary: the bun package's postinstall did not run (pnpm runs it when "bun" is in pnpm.onlyBuiltDependencies of the root package.json; \`pnpm rebuild bun\` runs it now)`);
  }
  return bin;
}

export function runBun(script: string): Promise<EngineRun> {
  return runFile('JavaScriptCore (bun)', bunBinary(), [], printing(script));
}

/**
 * QuickJS has the language but not the Web's TextDecoder, which the glTF importer uses for the
 * JSON chunk: a strict UTF-8 decoder (RFC 3629: no overlongs, no surrogates, nothing above
 * U+10FFFF), added only where missing.
 */
const TEXT_DECODER = `if (typeof TextDecoder === 'undefined') globalThis.TextDecoder = class {
  decode(bytes) {
    let s = '';
    for (let i = 0; i < bytes.length;) {
      const b = bytes[i];
      let n = b < 0x80 ? 0 : b >= 0xc2 && b < 0xe0 ? 1 : b >= 0xe0 && b < 0xf0 ? 2 : b >= 0xf0 && b < 0xf5 ? 3 : -1;
      if (n < 0 || i + n >= bytes.length) throw new TypeError('invalid UTF-8');
      let c = n === 0 ? b : b & (0x3f >> n);
      for (let k = 1; k <= n; k++) {
        const t = bytes[i + k];
        if ((t & 0xc0) !== 0x80) throw new TypeError('invalid UTF-8');
        c = (c << 6) | (t & 0x3f);
      }
      if ((n === 2 && (c < 0x800 || (c >= 0xd800 && c < 0xe000))) || (n === 3 && (c < 0x10000 || c > 0x10ffff))) throw new TypeError('invalid UTF-8');
      s += String.fromCodePoint(c);
      i += n + 1;
    }
    return s;
  }
};
`;

export function runQuickJS(script: string): Promise<EngineRun> {
  const runner = fileURLToPath(new URL('./quickjs-run.mjs', import.meta.url));
  return runFile('QuickJS (quickjs-emscripten)', process.execPath, [runner], TEXT_DECODER + script);
}

export async function runChromium(script: string): Promise<EngineRun> {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless=new', '--no-sandbox', '--disable-gpu'] });
  try {
    const page = await browser.newPage();
    const t0 = performance.now();
    await page.addScriptTag({ content: `window.__sinewOut = (0, eval)(${JSON.stringify(script)});` });
    const out = await page.evaluate(() => (window as unknown as { __sinewOut: string }).__sinewOut);
    const ms = performance.now() - t0;
    if (typeof out !== 'string') throw new Error('Chromium: the script left no result (an exception in the page?)');
    return { engine: 'Chromium (V8 in a page)', output: out, ms };
  } finally {
    await browser.close();
  }
}

/** The first difference between two engines' results, in words, or null when every bit agrees. */
export function firstDifference(a: SceneResult[], b: SceneResult[], nameA: string, nameB: string): string | null {
  if (a.length !== b.length) return `${nameA} ran ${a.length} scenes, ${nameB} ${b.length}`;
  for (let s = 0; s < a.length; s++) {
    const sa = a[s], sb = b[s];
    for (let c = 0; c < Math.max(sa.checkpoints.length, sb.checkpoints.length); c++) {
      const ca = sa.checkpoints[c], cb = sb.checkpoints[c];
      if (!ca || !cb) return `scene '${sa.name}': ${nameA} has ${sa.checkpoints.length} checkpoints, ${nameB} ${sb.checkpoints.length}`;
      if (ca.hash === cb.hash && ca.time === cb.time) continue;
      if (ca.time !== cb.time) return `scene '${sa.name}', step ${ca.step}: world.time differs`;
      for (const key of Object.keys(ca.values)) {
        const va = ca.values[key], vb = cb.values[key] ?? '';
        if (va === vb) continue;
        for (let i = 0; i * 16 < va.length; i++) {
          const xa = va.slice(16 * i, 16 * i + 16), xb = vb.slice(16 * i, 16 * i + 16);
          if (xa !== xb) {
            const num = (h: string) => new Float64Array(new BigUint64Array([BigInt('0x' + (h || '0'))]).buffer)[0];
            return `scene '${sa.name}', step ${ca.step} (first differing checkpoint): ${key}[${i}] is ${num(xa)} (0x${xa}) in ${nameA}, ${num(xb)} (0x${xb}) in ${nameB}`;
          }
        }
      }
      return `scene '${sa.name}', step ${ca.step}: the checkpoint hashes differ`;
    }
  }
  return null;
}
