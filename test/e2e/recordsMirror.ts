import { expect, test, type Page } from '@playwright/test';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startWebMode } from './webMode';

/**
 * Fills `dataDir`'s mirror with bench/uiMirror.bench.ts (run through vitest, because the mirror
 * imports its SQL with Vite's `?raw`): the demo account's portal, an assets module of `records`
 * records with every custom field type, comments and timelines on the first ones.
 */
export async function fillMirror(dataDir: string, records: number): Promise<void> {
  const vitest = path.join('node_modules', 'vitest', 'vitest.mjs');
  const child = spawn(
    process.execPath,
    [vitest, 'run', '--config', 'bench/vitest.bench.mts', 'bench/uiMirror.bench.ts'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, UI_MIRROR_DIR: dataDir, UI_MIRROR_RECORDS: String(records) },
    },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`Filling the mirror failed (exit ${code}):\n${output}`);
}

export interface WebModeOnDir {
  url: string;
  stop(): Promise<void>;
}

/** `node out/main/web.js` on an existing data directory (what `npm run web -- --data-dir` runs). */
export async function startWebModeOn(dataDir: string): Promise<WebModeOnDir> {
  const { url, stop } = await startWebMode({ dataDir });
  return { url, stop };
}

/**
 * A spec's mirror of `records` records, filled once for the file in a data directory named after
 * `name`, and web mode started on it afresh for each test; the returned function gives the
 * running one.
 */
export function useRecordsMirror(name: string, records: number): () => WebModeOnDir {
  let dataDir: string;
  let app: WebModeOnDir | undefined;
  test.beforeAll(async () => {
    test.setTimeout(60_000);
    dataDir = mkdtempSync(path.join(os.tmpdir(), `portaldesk-e2e-${name}-`));
    await fillMirror(dataDir, records);
  });
  test.afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  test.beforeEach(async () => {
    app = await startWebModeOn(dataDir);
  });
  test.afterEach(async () => {
    await app?.stop();
    app = undefined;
  });
  return () => {
    if (!app) throw new Error('web mode runs only inside a test');
    return app;
  };
}

/** The filled module's table, its loaded rows and its count. */
export const assetsGrid = (page: Page) => page.getByRole('grid', { name: 'Assets records' });
export const assetRows = (page: Page) => assetsGrid(page).locator('.grid-row:not(.is-loading)');
export const recordsTotal = (page: Page) => page.getByTestId('records-total');

/**
 * Opens the app at `url`; nobody is signed in here, so the first-run screen may offer sign-in
 * first: skipping it shows what the mirror already holds.
 */
export async function openWorkspace(page: Page, url: string): Promise<void> {
  await page.goto(url);
  const skip = page.getByRole('button', { name: 'Skip for now' });
  await expect(skip.or(recordsTotal(page))).toBeVisible();
  if (await skip.isVisible()) await skip.click();
}
