/** Where the examples live on disk. */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The examples/ directory. */
export const EXAMPLES_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Static files copied as they are into the page. */
export const STATIC_DIR = join(EXAMPLES_DIR, 'static');
/** The page's entry module. */
export const PAGE_ENTRY = join(EXAMPLES_DIR, 'src', 'page', 'main.ts');
/** Where the page is built. */
export const SITE_DIR = join(EXAMPLES_DIR, 'dist', 'site');
/** Default place of the headless demo's final pose. */
export const DEMO_OUT_DIR = join(EXAMPLES_DIR, 'dist', 'demo');
