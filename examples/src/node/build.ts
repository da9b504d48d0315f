/**
 * Builds the examples page with esbuild: one minified bundle of src/page/main.ts with three.js and
 * the workspace packages' TypeScript sources (export condition "sinew-source"), plus the static
 * files; and serves it with esbuild's server, rebuilding on change and reloading the page
 * (servePage), behind a small HTTP front that compresses what it sends (brotli or gzip, as the
 * browser accepts).
 */
import { cpSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';
import { EXAMPLES_DIR, PAGE_ENTRY, SITE_DIR, STATIC_DIR } from './paths.js';

export interface BuildOptions {
  /** Output directory (default examples/dist/site). */
  outDir?: string;
  /** Minify the bundle (default true). */
  minify?: boolean;
}

export interface BuildResult {
  outDir: string;
  /** Files written, relative to outDir, with their sizes in bytes. */
  files: { name: string; bytes: number }[];
  ms: number;
}

function esbuildOptions(outDir: string, minify: boolean): esbuild.BuildOptions {
  return {
    absWorkingDir: EXAMPLES_DIR,
    entryPoints: [PAGE_ENTRY],
    outfile: join(outDir, 'app.js'),
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2022'],
    conditions: ['sinew-source'],
    sourcemap: true,
    minify,
    legalComments: 'none',
    logLevel: 'silent',
  };
}

function copyStatic(outDir: string): void {
  mkdirSync(outDir, { recursive: true });
  cpSync(STATIC_DIR, outDir, { recursive: true });
}

function listFiles(outDir: string): BuildResult['files'] {
  return readdirSync(outDir)
    .filter((name) => statSync(join(outDir, name)).isFile())
    .sort()
    .map((name) => ({ name, bytes: statSync(join(outDir, name)).size }));
}

function formatErrors(messages: esbuild.Message[]): string {
  return messages
    .map((m) => (m.location ? `${m.location.file}:${m.location.line}:${m.location.column}: ${m.text}` : m.text))
    .join('\n');
}

/** Builds the page once. Throws with esbuild's messages when the bundle does not build. */
export async function buildPage(options: BuildOptions = {}): Promise<BuildResult> {
  const outDir = options.outDir ?? SITE_DIR;
  const t0 = performance.now();
  copyStatic(outDir);
  try {
    await esbuild.build(esbuildOptions(outDir, options.minify ?? true));
  } catch (e) {
    const errors = (e as { errors?: esbuild.Message[] }).errors;
    throw new Error(`page build failed:\n${errors ? formatErrors(errors) : String(e)}`);
  }
  return { outDir, files: listFiles(outDir), ms: performance.now() - t0 };
}

/**
 * esbuild's live reload: esbuild's server sends a `change` event on /esbuild after each rebuild
 * that changed the output, and the page reloads. Put in front of the bundle only when served.
 */
export const LIVE_RELOAD_SNIPPET = "new EventSource('/esbuild').addEventListener('change', () => location.reload());";

export interface ServeOptions extends BuildOptions {
  /** Port to try first (default 5173); when it is taken a free port is used instead. 0 picks a free port. */
  port?: number;
  /** Interface to listen on (default 127.0.0.1). */
  host?: string;
  /** Hears of every build after the first: its time, and esbuild's errors (null when it built). */
  onRebuild?: (ms: number, errors: string | null) => void;
}

export interface ServedPage {
  /** The first build. */
  result: BuildResult;
  url: string;
  port: number;
  /** True when the requested port was taken and another one was chosen. */
  fellBack: boolean;
  /** Stops watching and serving. */
  stop(): Promise<void>;
}

/**
 * Builds the page, rebuilds it whenever a bundled source changes, and serves the site folder with
 * esbuild's own server (`context().serve()`), which reloads an open page after each rebuild.
 * Static files are copied once. Throws with esbuild's messages when the first build fails.
 */
export async function servePage(options: ServeOptions = {}): Promise<ServedPage> {
  const outDir = options.outDir ?? SITE_DIR;
  const t0 = performance.now();
  copyStatic(outDir);
  let started = t0, builds = 0;
  let firstBuild!: (errors: string | null) => void;
  const first = new Promise<string | null>((resolve) => { firstBuild = resolve; });
  const ctx = await esbuild.context({
    ...esbuildOptions(outDir, options.minify ?? true),
    banner: { js: LIVE_RELOAD_SNIPPET },
    plugins: [
      {
        name: 'report-builds',
        setup(build) {
          build.onStart(() => { started = performance.now(); });
          build.onEnd((r) => {
            const errors = r.errors.length ? formatErrors(r.errors) : null;
            if (builds++ === 0) firstBuild(errors);
            else options.onRebuild?.(performance.now() - started, errors);
          });
        },
      },
    ],
  });
  await ctx.watch(); // builds once, then on every change
  const errors = await first;
  if (errors) {
    await ctx.dispose();
    throw new Error(`page build failed:\n${errors}`);
  }
  const result: BuildResult = { outDir, files: listFiles(outDir), ms: performance.now() - t0 };
  const host = options.host ?? '127.0.0.1';
  const wanted = options.port ?? 5173;
  // esbuild serves on a port of its own on the loopback; the front compresses what it answers
  const served = await ctx.serve({ servedir: outDir, port: 0, host: '127.0.0.1' });
  const front = compressingProxy(served.port);
  let port: number, fellBack = false;
  try {
    port = await listen(front, wanted, host);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EADDRINUSE') {
      await ctx.dispose();
      throw e;
    }
    port = await listen(front, 0, host);
    fellBack = true;
  }
  const shown = host === '127.0.0.1' || host === '::1' || host === '0.0.0.0' || host === '::' ? 'localhost' : host;
  const stop = async () => {
    front.closeAllConnections();
    await new Promise<void>((resolve) => front.close(() => resolve()));
    await ctx.dispose();
  };
  return { result, url: `http://${shown}:${port}/`, port, fellBack, stop };
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const fail = (e: Error) => reject(e);
    server.once('error', fail);
    server.listen(port, host, () => {
      server.off('error', fail);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/** Content types worth compressing: text, scripts, source maps, JSON, SVG, glTF (not the live-reload event stream, which never ends). */
const COMPRESSIBLE = /^(text\/|application\/(javascript|json|xml|wasm)|image\/svg|model\/gltf)/;
/**
 * Files worth compressing whatever type they are served as: binary glTF (esbuild's server sends
 * .glb as application/octet-stream; RobotExpressive.glb shrinks from 464 kB to 115 kB with brotli).
 */
const COMPRESSIBLE_PATH = /\.glb(\?|$)/i;

/** The encoding to answer with, from a request's Accept-Encoding: brotli, then gzip, else none. */
export function chooseEncoding(accept: string | undefined): 'br' | 'gzip' | null {
  const offered = (accept ?? '').split(',').map((x) => x.trim().split(';'));
  const ok = (name: string) => offered.some(([n, ...params]) => n === name && !params.some((p) => /^\s*q=0(\.0*)?\s*$/.test(p)));
  return ok('br') ? 'br' : ok('gzip') ? 'gzip' : null;
}

/**
 * An HTTP server that forwards every request to esbuild's server on `port` and compresses the
 * answer when the browser accepts it and the type is worth it; the live-reload event stream and
 * everything else go through as they come. Compressed bodies are kept until the file changes.
 */
function compressingProxy(port: number): Server {
  const cache = new Map<string, { raw: Buffer; br?: Buffer; gzip?: Buffer }>();
  return createServer((req: IncomingMessage, res: ServerResponse) => {
    const headers = { ...req.headers };
    delete headers['accept-encoding'];
    const up = request({ host: '127.0.0.1', port, method: req.method, path: req.url, headers }, (upRes) => {
      const type = String(upRes.headers['content-type'] ?? '');
      const encoding = chooseEncoding(req.headers['accept-encoding']);
      if (!encoding || !(COMPRESSIBLE.test(type) || COMPRESSIBLE_PATH.test(req.url ?? '')) || /event-stream/.test(type) || upRes.statusCode !== 200 || req.method !== 'GET') {
        res.writeHead(upRes.statusCode ?? 502, upRes.headers);
        res.flushHeaders(); // an event stream sends nothing until its first event: the headers go now
        upRes.pipe(res);
        return;
      }
      const chunks: Buffer[] = [];
      upRes.on('data', (c: Buffer) => chunks.push(c));
      upRes.on('end', () => {
        const raw = Buffer.concat(chunks);
        const key = req.url ?? '/';
        let entry = cache.get(key);
        if (!entry || !entry.raw.equals(raw)) cache.set(key, (entry = { raw }));
        const body = encoding === 'br'
          ? (entry.br ??= brotliCompressSync(raw, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5, [zlib.BROTLI_PARAM_SIZE_HINT]: raw.length } }))
          : (entry.gzip ??= gzipSync(raw, { level: 6 }));
        const out = { ...upRes.headers, 'content-encoding': encoding, 'content-length': String(body.length), vary: 'Accept-Encoding' };
        res.writeHead(200, out);
        res.end(body);
      });
    });
    up.on('error', (e) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`examples server: ${e.message}`);
    });
    req.pipe(up);
  });
}
