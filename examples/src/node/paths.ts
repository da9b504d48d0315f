/** Where the examples live on disk. */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The examples/ directory: the nearest folder above this module whose package.json is
 * @sinew/examples (this module runs from its source, or bundled into a benchmark elsewhere).
 */
function examplesDir(): string {
  const start = dirname(fileURLToPath(import.meta.url));
  for (let dir = start; ; dir = dirname(dir)) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === '@sinew/examples') return dir;
    // from the repository root (a bundle beside a benchmark of another package), look in examples/
    const nested = join(dir, 'examples', 'package.json');
    if (existsSync(nested) && (JSON.parse(readFileSync(nested, 'utf8')) as { name?: string }).name === '@sinew/examples') return join(dir, 'examples');
    if (dirname(dir) === dir) return join(start, '..', '..');
  }
}

/** The examples/ directory. */
export const EXAMPLES_DIR = examplesDir();
/** Static files copied as they are into the page. */
export const STATIC_DIR = join(EXAMPLES_DIR, 'static');
/** The page's entry module. */
export const PAGE_ENTRY = join(EXAMPLES_DIR, 'src', 'page', 'main.ts');
/** Where the page is built. */
export const SITE_DIR = join(EXAMPLES_DIR, 'dist', 'site');
/** Default place of the headless demo's final pose. */
export const DEMO_OUT_DIR = join(EXAMPLES_DIR, 'dist', 'demo');
