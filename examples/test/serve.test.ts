/**
 * How the page is built and served: the production build is minified, and the dev server
 * (`npm start`) sends its files compressed (brotli, else gzip) to a browser that accepts it, the
 * bytes the same as the files built.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPage, chooseEncoding, servePage, type ServedPage } from '../src/node/build.js';
import { STATIC_DIR } from '../src/node/paths.js';
import { sceneEntries } from '../src/scenes/index.js';

function get(url: string, accept?: string): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: accept ? { 'accept-encoding': accept } : {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('building and serving the page', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'sinew-site-'));
  let server: ServedPage;
  beforeAll(async () => { server = await servePage({ port: 0, outDir: join(tmp, 'served') }); }, 60_000);
  afterAll(async () => { await server?.stop(); rmSync(tmp, { recursive: true, force: true }); });

  it('builds a minified bundle: under 60 % of the same bundle unminified', async () => {
    const small = await buildPage({ outDir: join(tmp, 'min') });
    const large = await buildPage({ outDir: join(tmp, 'plain'), minify: false });
    const a = statSync(join(small.outDir, 'app.js')).size, b = statSync(join(large.outDir, 'app.js')).size;
    console.log(`[serve test] app.js ${(a / 1024).toFixed(0)} kB minified, ${(b / 1024).toFixed(0)} kB not`);
    expect(a).toBeLessThan(0.6 * b);
    // minified: local names shortened (a name of the sources is gone)
    expect(readFileSync(join(large.outDir, 'app.js'), 'utf8')).toContain('sampleAndDraw');
    expect(readFileSync(join(small.outDir, 'app.js'), 'utf8')).not.toContain('sampleAndDraw');
  }, 120_000);

  it('sends app.js brotli-compressed to a browser that accepts br, gzip to one that accepts gzip, plain otherwise: the same bytes', async () => {
    const file = readFileSync(join(tmp, 'served', 'app.js'));
    const br = await get(`${server.url}app.js`, 'gzip, deflate, br');
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/Accept-Encoding/i);
    expect(brotliDecompressSync(br.body).equals(file)).toBe(true);
    const gz = await get(`${server.url}app.js`, 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).equals(file)).toBe(true);
    const plain = await get(`${server.url}app.js`);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.equals(file)).toBe(true);
    console.log(`[serve test] app.js served: ${(file.length / 1024).toFixed(0)} kB, ${(br.body.length / 1024).toFixed(0)} kB brotli, ${(gz.body.length / 1024).toFixed(0)} kB gzip`);
    expect(br.body.length).toBeLessThan(0.35 * file.length);
    expect(gz.body.length).toBeLessThan(0.4 * file.length);
    // the page and its style sheet too; a missing file is still a 404
    expect((await get(server.url, 'br')).headers['content-encoding']).toBe('br');
    expect((await get(`${server.url}style.css`, 'gzip')).headers['content-encoding']).toBe('gzip');
    expect((await get(`${server.url}nothing-here.js`, 'br')).status).toBe(404);
  });

  it('sends the scenes\' data files compressed too (the .glb characters as well), the same bytes; prints what each scene downloads', async () => {
    const served = new Map<string, { raw: number; br: number }>();
    for (const path of new Set(sceneEntries().flatMap((e) => e.create().assets ?? []))) {
      const file = readFileSync(join(STATIC_DIR, path));
      const br = await get(`${server.url}${path}`, 'gzip, deflate, br');
      expect(br.status, path).toBe(200);
      expect(br.headers['content-encoding'], path).toBe('br');
      expect(brotliDecompressSync(br.body).equals(file), path).toBe(true);
      served.set(path, { raw: file.length, br: br.body.length });
    }
    // the characters: RobotExpressive is geometry and animations, CesiumMan carries a JPEG texture
    expect(served.get('data/RobotExpressive.glb')!.br).toBeLessThan(0.3 * served.get('data/RobotExpressive.glb')!.raw);
    expect(served.get('data/CesiumMan.glb')!.br).toBeLessThan(0.7 * served.get('data/CesiumMan.glb')!.raw);
    const kB = (n: number) => `${(n / 1024).toFixed(0)} kB`;
    for (const e of sceneEntries()) {
      const assets = e.create().assets ?? [];
      if (assets.length === 0) continue;
      const raw = assets.reduce((t, a) => t + served.get(a)!.raw, 0), br = assets.reduce((t, a) => t + served.get(a)!.br, 0);
      console.log(`[serve test] #${e.name} data: ${assets.map((a) => `${a.replace('data/', '')} ${kB(served.get(a)!.br)}`).join(', ')}: ${kB(br)} brotli (${kB(raw)} as files)`);
    }
  });

  it('passes the live-reload event stream through as it comes, uncompressed', async () => {
    const headers = await new Promise<Record<string, string | string[] | undefined>>((resolve, reject) => {
      const req = request(`${server.url}esbuild`, { headers: { accept: 'text/event-stream', 'accept-encoding': 'gzip, deflate, br' } }, (res) => { resolve(res.headers); res.destroy(); });
      req.on('error', reject);
      req.end();
    });
    expect(headers['content-type']).toMatch(/text\/event-stream/);
    expect(headers['content-encoding']).toBeUndefined();
  }, 10_000);

  it('reads Accept-Encoding as browsers send it', () => {
    expect(chooseEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(chooseEncoding('gzip;q=1.0, br;q=0')).toBe('gzip');
    expect(chooseEncoding('identity')).toBeNull();
    expect(chooseEncoding(undefined)).toBeNull();
  });
});
