/** `npm start`: builds and serves the examples page, or runs a scene headless (see node/args.ts). */
import { existsSync } from 'node:fs';
import { resolve, join, relative } from 'node:path';
import { parseCli, UsageError, USAGE, type CliOptions } from './node/args.js';
import { buildPage, servePage, type BuildResult } from './node/build.js';
import { runDemo } from './node/demo.js';
import { DEMO_OUT_DIR } from './node/paths.js';
import { formatHeader, formatRow, formatSummary } from './node/report.js';
import { DEFAULT_SCENE, sceneEntries } from './scenes/index.js';

const show = (p: string) => relative(process.cwd(), p) || '.';

function printBuild(r: BuildResult): void {
  const kb = (b: number) => `${(b / 1024).toFixed(0)} kB`;
  console.log(`page built in ${r.ms.toFixed(0)} ms: ${show(r.outDir)} (${r.files.map((f) => `${f.name} ${kb(f.bytes)}`).join(', ')})`);
}

function demo(o: CliOptions, seconds: number): void {
  const scene = o.scene ?? DEFAULT_SCENE;
  const out = o.out ? resolve(o.out) : join(DEMO_OUT_DIR, `${scene}.pose.json`);
  let headerShown = false;
  const report = runDemo({
    scene,
    seconds,
    out,
    controls: o.controls,
    onRow: (row, header) => {
      if (!headerShown) { console.log(formatHeader(header)); headerShown = true; }
      console.log(formatRow(header, row));
    },
  });
  console.log(formatSummary({ ...report, out: show(out) }));
}

async function serve(o: CliOptions): Promise<void> {
  const server = await servePage({
    port: o.port,
    host: o.host,
    onRebuild: (ms, errors) => console.log(errors ? `page rebuild failed:\n${errors}` : `page rebuilt in ${ms.toFixed(0)} ms (open pages reload)`),
  });
  printBuild(server.result);
  if (server.fellBack) console.log(`port ${o.port ?? 5173} is taken; using ${server.port}`);
  const api = existsSync(join(server.result.outDir, 'api', 'index.html')) ? `${server.url}api/` : 'not built (`npm run docs` writes it)';
  console.log(`\n  Sinew examples: ${server.url}\n  scenes: ${sceneEntries().map((e) => `${server.url}#${e.name}`).join('  ')}\n  API reference: ${api}\n  (Ctrl+C to stop; the page reloads when a source changes)\n`);
  const stop = async () => {
    await server.stop();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

async function main(): Promise<void> {
  const o = parseCli(process.argv.slice(2), process.env);
  switch (o.command) {
    case 'help':
      console.log(USAGE);
      return;
    case 'list':
      for (const e of sceneEntries()) console.log(`${e.name.padEnd(14)} ${e.title}: ${e.summary}`);
      return;
    case 'build':
      printBuild(await buildPage());
      return;
    case 'demo':
      demo(o, o.seconds ?? 5);
      return;
    case 'serve':
      await serve(o);
      return;
    case 'auto': {
      const interactive = process.stdout.isTTY && !process.env.CI;
      if (interactive) {
        await serve(o);
        return;
      }
      console.log('no terminal (or CI=true): building the page and running the headless demo instead of serving\n');
      const built = await buildPage();
      printBuild(built);
      console.log();
      demo(o, o.seconds ?? 3);
      console.log(`\nthe page is in ${show(built.outDir)}; serve it with \`npm start -- serve\` and open http://localhost:5173/`);
      return;
    }
  }
}

main().catch((e: unknown) => {
  if (e instanceof UsageError) {
    console.error(`${e.message}\n\n${USAGE}`);
    process.exit(2);
  }
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
