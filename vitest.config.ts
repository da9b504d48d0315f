import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

const src = (p: string, entry = 'index') => fileURLToPath(new URL(`./packages/${p}/src/${entry}.ts`, import.meta.url));

export default defineConfig({
  resolve: {
    // exact names: '@sinew/constraints' must not also catch '@sinew/constraints/internals'
    alias: [
      { find: /^@sinew\/featherstone$/, replacement: src('featherstone') },
      { find: /^@sinew\/constraints$/, replacement: src('constraints') },
      { find: /^@sinew\/constraints\/internals$/, replacement: src('constraints', 'internals') },
      { find: /^@sinew\/characters$/, replacement: src('characters') },
    ],
  },
  test: {
    include: ['packages/*/test/**/*.test.ts', 'examples/test/**/*.test.ts', 'tests/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    poolOptions: {
      forks: {
        // The allocation tests measure the young generation's growth per step, which depends on
        // what the optimising compiler has made of the code. With compilation and garbage
        // collection on helper threads that depends on timing, and a loaded machine could leave a
        // function in a state that boxes numbers. V8's --single-threaded runs the compiler and the
        // collector on the main thread, so what a test measures follows from the code alone.
        execArgv: ['--single-threaded'],
      },
    },
  },
});
