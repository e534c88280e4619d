import { defineConfig } from 'vitest/config';

// The crash harness (test/crash/crash.test.ts): `npm run test:crash`, after the unit and
// integration tests in `npm test`. Its own config because its trials take minutes, not seconds.
export default defineConfig({
  test: {
    include: ['test/crash/**/*.test.ts'],
    environment: 'node',
    testTimeout: 600_000,
    hookTimeout: 120_000,
  },
});
