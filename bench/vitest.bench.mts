import { defineConfig } from 'vitest/config';

/** Runs bench/*.bench.ts (see bench/store.mjs): one file, no time limit, no retries. */
export default defineConfig({
  test: {
    include: ['bench/**/*.bench.ts'],
    environment: 'node',
    testTimeout: 3_600_000,
    hookTimeout: 3_600_000,
    fileParallelism: false,
  },
});
