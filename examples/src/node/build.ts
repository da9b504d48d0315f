/**
 * Builds the examples page with esbuild: one bundle of src/page/main.ts with three.js and the
 * workspace packages' TypeScript sources (export condition "sinew-source"), plus the static files;
 * and serves it with esbuild's server, rebuilding on change and reloading the page (servePage).
 */
import { cpSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
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
  let served: esbuild.ServeResult, fellBack = false;
  try {
    served = await ctx.serve({ servedir: outDir, port: wanted, host });
  } catch (e) {
    if (!/address already in use/i.test(String((e as Error).message))) {
      await ctx.dispose();
      throw e;
    }
    served = await ctx.serve({ servedir: outDir, port: 0, host });
    fellBack = true;
  }
  const shown = host === '127.0.0.1' || host === '::1' || host === '0.0.0.0' || host === '::' ? 'localhost' : host;
  return { result, url: `http://${shown}:${served.port}/`, port: served.port, fellBack, stop: () => ctx.dispose() };
}
