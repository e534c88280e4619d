import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'test/unit/**/*.test.ts',
      'test/integration/**/*.test.ts',
      'packages/*/test/**/*.test.ts',
    ],
    environment: 'node',
    testTimeout: 20_000,
  },
});
