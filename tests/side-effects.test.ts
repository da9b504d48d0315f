/**
 * The packages declare `"sideEffects": false`, which lets a bundler drop every module whose exports
 * a game does not use. That is right only if importing a module does nothing outside it. This test
 * reads every source module of the three packages (TypeScript's parser) and checks that its top
 * level holds only declarations, and that the code a declaration runs at import time calls only
 * constructors of built-in containers, pure built-ins, or functions and classes of the same module,
 * so nothing reaches beyond the module. The one statement that is not a declaration is listed
 * with what it does.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const PACKAGES = ['featherstone', 'constraints', 'characters'];

/** Statements that are not declarations, by file, with what they touch. */
const KNOWN_STATEMENTS: Record<string, string> = {
  // fills the module's own DECODE table (a const of the same module) from the alphabet
  'packages/characters/src/gltf/base64.ts': "'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'.split('').forEach",
};
/** Callees allowed at import time besides the module's own functions and classes. */
const PURE_BUILTINS = new Set([
  'Float64Array', 'Float32Array', 'Int32Array', 'Int16Array', 'Uint8Array', 'Uint16Array', 'Uint32Array', 'BigInt64Array',
  'Map', 'Set', 'WeakMap', 'Object.freeze', 'Array.from',
  'ClipPolygon', // constraints/src/collision/clip.ts: its constructor only allocates its own typed arrays
]);
/** Methods of a typed array made in the same initializer. */
const PURE_METHODS = /\.(subarray|fill)$/;

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? walk(p) : n.endsWith('.ts') ? [p] : [];
  });
}

function isDeclaration(st: ts.Statement): boolean {
  return ts.isImportDeclaration(st) || ts.isExportDeclaration(st) || ts.isFunctionDeclaration(st) || ts.isClassDeclaration(st)
    || ts.isInterfaceDeclaration(st) || ts.isTypeAliasDeclaration(st) || ts.isEnumDeclaration(st) || ts.isVariableStatement(st)
    ;
}

/** Problems of one module: top-level statements and import-time calls that could reach outside it. */
function problems(rel: string, text: string): string[] {
  const sf = ts.createSourceFile(rel, text, ts.ScriptTarget.ES2022, true);
  const own = new Set<string>();
  for (const st of sf.statements) {
    if ((ts.isFunctionDeclaration(st) || ts.isClassDeclaration(st)) && st.name) own.add(st.name.text);
  }
  const out: string[] = [];
  const checkCalls = (n: ts.Node): void => {
    if (ts.isArrowFunction(n) || ts.isFunctionExpression(n) || ts.isClassExpression(n) || ts.isMethodDeclaration(n) || ts.isAccessor(n)) return; // runs later, if at all
    if (ts.isCallExpression(n) || ts.isNewExpression(n)) {
      const callee = n.expression.getText(sf);
      if (!own.has(callee) && !PURE_BUILTINS.has(callee) && !PURE_METHODS.test(callee)) out.push(`${rel}: calls ${callee} at import time`);
    }
    if (ts.isTaggedTemplateExpression(n) || ts.isAwaitExpression(n)) out.push(`${rel}: ${n.getText(sf).slice(0, 40)} at import time`);
    n.forEachChild(checkCalls);
  };
  for (const st of sf.statements) {
    if (ts.isVariableStatement(st)) {
      for (const d of st.declarationList.declarations) if (d.initializer) checkCalls(d.initializer);
    } else if (ts.isClassDeclaration(st)) {
      // static initialisers and static blocks run at import time
      for (const m of st.members) {
        if (ts.isClassStaticBlockDeclaration(m)) out.push(`${rel}: static block in ${st.name?.text}`);
        if (ts.isPropertyDeclaration(m) && m.modifiers?.some((x) => x.kind === ts.SyntaxKind.StaticKeyword) && m.initializer) checkCalls(m.initializer);
      }
    } else if (!isDeclaration(st)) {
      const known = KNOWN_STATEMENTS[rel];
      if (!known || !st.getText(sf).startsWith(known)) out.push(`${rel}: top-level statement ${st.getText(sf).slice(0, 60)}`);
    }
  }
  return out;
}

describe('"sideEffects": false holds', () => {
  it('every package declares it', () => {
    for (const p of PACKAGES) {
      const pkg = JSON.parse(readFileSync(join(root, 'packages', p, 'package.json'), 'utf8')) as { sideEffects?: unknown };
      expect(pkg.sideEffects, p).toBe(false);
    }
  });

  it('no source module does anything at import time beyond building its own constants', () => {
    const files = PACKAGES.flatMap((p) => walk(join(root, 'packages', p, 'src')));
    expect(files.length).toBeGreaterThan(100);
    expect(files.flatMap((f) => problems(relative(root, f).split('\\').join('/'), readFileSync(f, 'utf8')))).toEqual([]);
  });

  it('the check sees a module that reaches outside itself', () => {
    const text = [
      "import { register } from './registry.js';",
      "register('x');",
      'globalThis.sinew = 1;',
      'export const table = makeTable();',
      'export class A { static readonly b = setup(); }',
      'const ok = Object.freeze([new Float64Array(3)]);',
    ].join('\n');
    expect(problems('packages/x/src/probe.ts', text)).toEqual([
      "packages/x/src/probe.ts: top-level statement register('x');",
      'packages/x/src/probe.ts: top-level statement globalThis.sinew = 1;',
      'packages/x/src/probe.ts: calls makeTable at import time',
      'packages/x/src/probe.ts: calls setup at import time',
    ]);
  });
});
