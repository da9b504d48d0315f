/**
 * The API reference: every symbol the packages export (the public entry points and
 * `@sinew/constraints/internals`) carries a doc comment, and `npm run docs` (TypeDoc, as
 * `npm run build` runs it) builds the reference with no warning, one page per package starting
 * from the package's README, the internals listed apart, and no broken link: every relative
 * href and src of every page names a file that exists, and every #fragment an id on that page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const ENTRIES = ['featherstone/src/index.ts', 'constraints/src/index.ts', 'constraints/src/internals.ts', 'characters/src/index.ts'].map((p) => join(root, 'packages', p));

/** Exports of `entries` without a doc comment, as "entry: name (file)". */
function undocumented(entries: string[]): string[] {
  const program = ts.createProgram(entries, {
    target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, strict: true, skipLibCheck: true, noEmit: true,
  });
  const checker = program.getTypeChecker();
  const out: string[] = [];
  for (const entry of entries) {
    const moduleSymbol = checker.getSymbolAtLocation(program.getSourceFile(entry)!)!;
    for (const e of checker.getExportsOfModule(moduleSymbol)) {
      const target = e.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(e) : e;
      if (ts.displayPartsToString(target.getDocumentationComment(checker)).trim() !== '') continue;
      // (a namespace re-exported with `export * as ns` carries its comment on the export line)
      const decl = e.declarations?.[0];
      if (decl && ts.isNamespaceExport(decl) && ts.getJSDocCommentsAndTags(decl.parent).length > 0) continue;
      const file = target.declarations?.[0]?.getSourceFile().fileName ?? '?';
      out.push(`${relative(root, entry)}: ${e.name} (${relative(root, file)})`);
    }
  }
  return out;
}

function htmlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? htmlFiles(p) : n.endsWith('.html') ? [p] : [];
  });
}

/** Text of an HTML page without tags, scripts and styles, spaces collapsed. */
function textOf(html: string): string {
  return html.replace(/<script[\s\S]*?<\/script>|<style[\s\S]*?<\/style>/g, ' ').replace(/<[^>]+>/g, ' ')
    .replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&').replace(/\s+/g, ' ');
}

/** Broken relative links of the site in `dir`: a missing file, or a fragment with no such id. */
function brokenLinks(dir: string): string[] {
  const ids = new Map<string, Set<string>>();
  const idsOf = (file: string): Set<string> => {
    let s = ids.get(file);
    if (!s) {
      s = new Set([...readFileSync(file, 'utf8').matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]));
      ids.set(file, s);
    }
    return s;
  };
  const out: string[] = [];
  for (const page of htmlFiles(dir)) {
    const html = readFileSync(page, 'utf8');
    for (const m of html.matchAll(/\s(?:href|src)="([^"]*)"/g)) {
      const link = m[1].replace(/&amp;/g, '&');
      if (link === '' || link === '#' || /^[a-z][a-z0-9+.-]*:/i.test(link)) continue; // external, mailto:, data:
      const [path, fragment] = link.split('#');
      const target = path === '' ? page : resolve(dirname(page), decodeURIComponent(path.split('?')[0]));
      if (!existsSync(target)) { out.push(`${relative(dir, page)}: ${link} (no file)`); continue; }
      if (fragment && (target.endsWith('.html') || target.endsWith('.svg')) && !idsOf(target).has(decodeURIComponent(fragment))) {
        out.push(`${relative(dir, page)}: ${link} (no id "${fragment}")`);
      }
    }
  }
  return out;
}

describe('API reference', () => {
  it('every export of the packages has a doc comment', () => {
    expect(undocumented(ENTRIES)).toEqual([]);
  });

  it('the check finds an export without one', () => {
    const probe = join(root, 'tests', 'fixtures', 'undocumented.ts');
    // a module of the workspace with one documented and one bare export
    expect(existsSync(probe)).toBe(true);
    expect(undocumented([probe]).map((s) => s.replace(/ \(.*/, ''))).toEqual(['tests/fixtures/undocumented.ts: bare']);
  });

  describe('npm run docs', () => {
    let out: string;
    let status: number | null;
    let log: string;
    beforeAll(async () => {
      out = mkdtempSync(join(tmpdir(), 'sinew-api-'));
      // TypeDoc reads the packages' declarations through their export maps: build them first
      // (incremental, so quick after `tsc -b`). Run without blocking this worker.
      const node = (args: string[]) => new Promise<{ status: number | null; log: string }>((resolve, reject) => {
        const child = spawn(process.execPath, args, { cwd: root });
        let text = '';
        child.stdout.setEncoding('utf8').on('data', (d: string) => { text += d; });
        child.stderr.setEncoding('utf8').on('data', (d: string) => { text += d; });
        child.on('error', reject);
        child.on('close', (code) => resolve({ status: code, log: text }));
      });
      const built = await node([join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-b', 'packages/featherstone', 'packages/constraints', 'packages/characters']);
      if (built.status !== 0) throw new Error(`tsc -b failed:\n${built.log}`);
      const r = await node([join(root, 'scripts', 'docs.mjs'), '--out', out]);
      status = r.status;
      log = r.log;
    });
    afterAll(() => rmSync(out, { recursive: true, force: true }));

    it('builds with no warning', () => {
      expect(log).not.toMatch(/\[warning\]|\[error\]/);
      expect(status).toBe(0);
    });

    it('has a page per package that starts from its README, and the internals apart', () => {
      const pages = readdirSync(join(out, 'modules')).sort();
      expect(pages).toEqual(expect.arrayContaining([
        '_sinew_featherstone.html', '_sinew_constraints.html', '_sinew_characters.html', '_sinew_constraints.internals.html',
      ]));
      for (const p of ['featherstone', 'constraints', 'characters']) {
        const readme = readFileSync(join(root, 'packages', p, 'README.md'), 'utf8');
        // the README's first paragraph, as text
        const para = readme.split('\n\n')[1].replace(/`/g, '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/\*\*/g, '').replace(/\s+/g, ' ').trim();
        const page = textOf(readFileSync(join(out, 'modules', `_sinew_${p}.html`), 'utf8'));
        expect(page, p).toContain(para.slice(0, 60));
      }
      const internals = textOf(readFileSync(join(out, 'modules', '_sinew_constraints.internals.html'), 'utf8'));
      expect(internals).toContain('ConstraintSolver');
      expect(internals).toContain('CONTACT_DEPTH');
      const publicPage = textOf(readFileSync(join(out, 'modules', '_sinew_constraints.index.html'), 'utf8'));
      expect(publicPage).toContain('World');
      expect(publicPage).not.toContain('CONTACT_DEPTH');
      expect(publicPage).not.toMatch(/\bRowBuffer\b/);
    });

    it('has no broken link', () => {
      expect(htmlFiles(out).length).toBeGreaterThan(100);
      expect(brokenLinks(out)).toEqual([]);
      // and the check sees a page that is gone
      const world = join(out, 'classes', '_sinew_constraints.index.World.html');
      expect(existsSync(world)).toBe(true);
      rmSync(world);
      const broken = brokenLinks(out);
      expect(broken.length).toBeGreaterThan(0);
      expect(broken.every((b) => b.includes('World.html'))).toBe(true);
    });
  });
});
