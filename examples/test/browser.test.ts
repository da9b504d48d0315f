/**
 * The examples page in a real browser: Debian's chromium, headless, WebGL on SwiftShader. Every
 * scene of the menu must run (its clock advances), move (a link moves), draw (the canvas is not
 * blank and changes) and log no error. Screenshots go to test-output/browser/<scene>.png.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIVE_RELOAD_SNIPPET, servePage, type ServedPage } from '../src/node/build.js';
import { EXAMPLES_DIR } from '../src/node/paths.js';
import type {} from '../src/page/test-hook.js'; // declares window.__sinew
import { sceneEntries } from '../src/scenes/index.js';

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) {
  console.warn(`[browser test] skipped: ${CHROMIUM} does not exist (install it with \`apt-get install chromium\`; .ci/run does)`);
}

const SHOTS = join(EXAMPLES_DIR, '..', 'test-output', 'browser');
const ARGS = [
  '--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  // WebGL without a GPU: ANGLE on SwiftShader (Chromium no longer falls back to it by itself).
  '--enable-unsafe-swiftshader', '--use-angle=swiftshader',
];
const scenes = sceneEntries().map((e) => e.name);
const ms = (t0: number) => `${Math.round(performance.now() - t0)} ms`;

describe.skipIf(!hasChromium)('examples page in chromium', () => {
  let server: ServedPage;
  let context: BrowserContext;
  let profile: string;

  beforeAll(async () => {
    let t0 = performance.now();
    // as `npm start` serves it: esbuild's server, watching the sources, with live reload
    server = await servePage({ port: 0 });
    console.log(`[browser test] page built and served in ${ms(t0)}`);
    profile = mkdtempSync(join(tmpdir(), 'sinew-chromium-'));
    t0 = performance.now();
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      args: ARGS,
      viewport: { width: 1280, height: 720 },
    });
    console.log(`[browser test] chromium ${context.browser()?.version() ?? ''} started in ${ms(t0)}`);
    mkdirSync(SHOTS, { recursive: true });
  });

  afterAll(async () => {
    await context?.close();
    await server?.stop();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  /** Opens the page at #scene in a new tab, collecting console errors and page errors. */
  async function open(scene: string): Promise<{ page: Page; errors: string[] }> {
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (m) => { if (m.type() === 'error') errors.push(`console: ${m.text()}`); });
    page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
    page.on('requestfailed', (r) => errors.push(`request failed: ${r.url()}`));
    await page.goto(`${server.url}#${scene}`);
    await page.waitForFunction((s) => window.__sinew?.ready === true && window.__sinew.scene === s, scene, { timeout: 30_000 });
    return { page, errors };
  }

  it('serves the page, its bundle, and 404 for what does not exist', async () => {
    const index = await fetch(server.url);
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toMatch(/text\/html/);
    expect(await index.text()).toContain('app.js');
    const app = await fetch(`${server.url}app.js`);
    expect(app.status).toBe(200);
    expect(app.headers.get('content-type')).toMatch(/javascript/);
    expect((await fetch(`${server.url}nothing-here.js`)).status).toBe(404);
    expect((await fetch(`${server.url}..%2f..%2fpackage.json`)).status).toBeGreaterThanOrEqual(400);
  });

  it('is served with live reload: the bundle listens to esbuild\'s change events on /esbuild', async () => {
    const app = await (await fetch(`${server.url}app.js`)).text();
    expect(app.startsWith(LIVE_RELOAD_SNIPPET)).toBe(true);
    const events = new AbortController();
    const r = await fetch(`${server.url}esbuild`, { headers: { accept: 'text/event-stream' }, signal: events.signal });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/text\/event-stream/);
    events.abort();
  });

  it('lists every registered scene in its menu, in order', async () => {
    const { page, errors } = await open(scenes[0]);
    const menu = await page.$$eval('#scene-menu a', (as) => as.map((a) => a.getAttribute('href')));
    expect(menu).toEqual(scenes.map((s) => `#${s}`));
    expect(await page.evaluate(() => window.__sinew!.scenes)).toEqual(scenes);
    await page.close();
    expect(errors).toEqual([]);
  });

  it.each(scenes)('#%s runs, moves, draws and logs no error', async (scene) => {
    const t0 = performance.now();
    const { page, errors } = await open(scene);
    // Let it run a little, then take two samples half a second of wall time apart.
    await page.waitForFunction(() => window.__sinew!.time > 0.1 && window.__sinew!.frames > 3, null, { timeout: 30_000 });
    const a = await page.evaluate(() => ({ time: window.__sinew!.time, links: window.__sinew!.linkPositions(), canvas: window.__sinew!.canvasSignature() }));
    await page.waitForFunction((t) => window.__sinew!.time > t + 0.05, a.time, { timeout: 30_000 });
    await page.waitForTimeout(300);
    const b = await page.evaluate(() => ({ time: window.__sinew!.time, links: window.__sinew!.linkPositions(), canvas: window.__sinew!.canvasSignature(), frames: window.__sinew!.frames }));
    await page.screenshot({ path: join(SHOTS, `${scene}.png`) });

    expect(b.time).toBeGreaterThan(a.time);
    expect(a.links.length).toBe(b.links.length);
    expect(a.links.length).toBeGreaterThan(0);
    const moved = Math.max(...a.links.map((x, i) => Math.abs(x - b.links[i])));
    expect(moved).toBeGreaterThan(1e-3);
    expect(a.canvas.distinctColors).toBeGreaterThan(8); // not a blank canvas
    expect(b.canvas.hash).not.toBe(a.canvas.hash); // and it is redrawn as the scene moves
    expect(errors).toEqual([]);
    console.log(`[browser test] #${scene}: ${ms(t0)}, simulated ${b.time.toFixed(2)} s in ${b.frames} frames, largest link move ${moved.toFixed(3)} m, ${b.canvas.distinctColors} colours`);
    await page.close();
  });

  it('pauses, steps one time step, resets, and switches scene from the menu', async () => {
    const { page, errors } = await open(scenes[0]);
    await page.waitForFunction(() => window.__sinew!.time > 0.05, null, { timeout: 30_000 });
    await page.click('#play');
    await page.waitForFunction(() => !window.__sinew!.playing);
    const paused = await page.evaluate(() => window.__sinew!.time);
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => window.__sinew!.time)).toBe(paused);
    const steps = await page.evaluate(() => window.__sinew!.steps);
    await page.click('#step');
    await page.waitForFunction((n) => window.__sinew!.steps === n + 1, steps);
    await page.click('#reset');
    await page.waitForFunction(() => window.__sinew!.steps === 0 && window.__sinew!.time === 0);
    await page.click('#show-shapes');
    await page.click('#show-forces');
    await page.click('#play');
    await page.waitForFunction(() => window.__sinew!.time > 0.05, null, { timeout: 30_000 });
    await page.screenshot({ path: join(SHOTS, `${scenes[0]}-skeleton-forces.png`) });
    if (scenes.length > 1) {
      await page.click(`#scene-menu a[href="#${scenes[1]}"]`);
      await page.waitForFunction((s) => window.__sinew!.scene === s && window.__sinew!.time > 0, scenes[1], { timeout: 30_000 });
      expect(await page.$eval('#scene-menu a.active', (a) => a.getAttribute('href'))).toBe(`#${scenes[1]}`);
    }
    await page.close();
    expect(errors).toEqual([]);
  });

  it('lets the mouse drag a body part (#limits) and shoot the walker (#death)', async () => {
    const { page, errors } = await open('limits');
    await page.waitForFunction(() => window.__sinew!.time > 0.2, null, { timeout: 30_000 });
    // paused (space: the keyboard leaves the mouse where it is), so the body stays where it is projected
    await page.keyboard.press(' ');
    await page.waitForFunction(() => !window.__sinew!.playing);
    // the left elbow: link 4's origin (forearm_left), inside its capsule
    const at = await page.evaluate(() => {
      const p = window.__sinew!.linkPositions();
      return { screen: window.__sinew!.project(p[12], p[13], p[14]), world: [p[12], p[13], p[14]] };
    });
    await page.mouse.move(at.screen.x, at.screen.y);
    await page.mouse.down();
    await page.keyboard.press(' ');
    await page.waitForFunction(() => window.__sinew!.playing);
    for (let k = 1; k <= 10; k++) await page.mouse.move(at.screen.x + 18 * k, at.screen.y - 10 * k);
    await page.waitForTimeout(1500);
    const moved = await page.evaluate((w) => {
      const p = window.__sinew!.linkPositions();
      return Math.hypot(p[12] - w[0], p[13] - w[1], p[14] - w[2]);
    }, at.world);
    await page.screenshot({ path: join(SHOTS, 'limits-drag.png') });
    await page.mouse.up();
    expect(moved).toBeGreaterThan(0.1); // the elbow followed the pointer
    await page.close();
    expect(errors).toEqual([]);

    const death = await open('death');
    await death.page.waitForFunction(() => window.__sinew!.time > 0.3, null, { timeout: 30_000 });
    const chest = await death.page.evaluate(() => {
      const p = window.__sinew!.linkPositions();
      return window.__sinew!.project(p[6], p[7] + 0.15, p[8]); // thorax origin, a little up
    });
    await death.page.mouse.click(chest.x, chest.y);
    await death.page.waitForFunction(() => window.__sinew!.info().some((l) => l.includes('dead')), null, { timeout: 10_000 });
    expect((await death.page.evaluate(() => window.__sinew!.info())).join(' ')).toMatch(/shot in the/);
    await death.page.waitForTimeout(1000);
    await death.page.screenshot({ path: join(SHOTS, 'death-shot.png') });
    await death.page.close();
    expect(death.errors).toEqual([]);
  });

  it('passes the solver iterations to scenes with a solver, and disables the control elsewhere', async () => {
    const solverScenes = sceneEntries().filter((e) => e.create().usesSolver).map((e) => e.name);
    const plain = scenes.find((s) => !solverScenes.includes(s));
    if (plain) {
      const { page, errors } = await open(plain);
      expect(await page.isDisabled('#iterations')).toBe(true);
      await page.close();
      expect(errors).toEqual([]);
    }
    for (const scene of solverScenes) {
      const { page, errors } = await open(scene);
      expect(await page.isDisabled('#iterations')).toBe(false);
      await page.fill('#iterations', '7');
      await page.press('#iterations', 'Tab');
      await page.waitForFunction(() => window.__sinew!.solverIterations === 7);
      const t = await page.evaluate(() => window.__sinew!.time);
      await page.waitForFunction((t0) => window.__sinew!.time > t0, t, { timeout: 30_000 });
      await page.close();
      expect(errors).toEqual([]);
    }
  });
});
