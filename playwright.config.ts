import { defineConfig } from '@playwright/test';

/**
 * End-to-end tests run against web mode (the same renderer and engine as the desktop app) in the
 * system's Chromium: Playwright's own browser download is never used. Set PORTALDESK_CHROMIUM to
 * use another Chromium binary.
 */
export default defineConfig({
  testDir: 'test/e2e',
  outputDir: 'test-results/e2e',
  timeout: 60_000,
  workers: 1,
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    launchOptions: {
      executablePath: process.env.PORTALDESK_CHROMIUM ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
    trace: 'retain-on-failure',
  },
});
