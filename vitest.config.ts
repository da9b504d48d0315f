import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

const src = (p: string) => fileURLToPath(new URL(`./packages/${p}/src/index.ts`, import.meta.url));

export default defineConfig({
  resolve: {
    alias: {
      '@sinew/featherstone': src('featherstone'),
      '@sinew/constraints': src('constraints'),
      '@sinew/characters': src('characters'),
    },
  },
  test: {
    include: ['packages/*/test/**/*.test.ts', 'examples/test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
