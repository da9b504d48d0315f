/**
 * Builds the examples page with esbuild: one bundle of src/page/main.ts with three.js and the
 * workspace packages' TypeScript sources (export condition "sinew-source"), plus the static files.
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
 * Builds the page and rebuilds it whenever a bundled source changes (static files are copied
 * once). `onRebuild` hears of every build after the first.
 */
export async function watchPage(
  options: BuildOptions & { onRebuild?: (ms: number, errors: string | null) => void } = {},
): Promise<{ result: BuildResult; stop: () => Promise<void> }> {
  const result = await buildPage(options);
  const outDir = result.outDir;
  let started = 0, first = true;
  const ctx = await esbuild.context({
    ...esbuildOptions(outDir, options.minify ?? true),
    plugins: [
      {
        name: 'report-rebuilds',
        setup(build) {
          build.onStart(() => { started = performance.now(); });
          build.onEnd((r) => {
            if (first) { first = false; return; }
            options.onRebuild?.(performance.now() - started, r.errors.length ? formatErrors(r.errors) : null);
          });
        },
      },
    ],
  });
  await ctx.watch();
  return { result, stop: () => ctx.dispose() };
}
