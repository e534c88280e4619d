/**
 * Issue 15 end to end, in web mode against an emulator process: back a portal up from the
 * Backups view, watch it reach Ready (verified against the mirror), download it with the
 * Download link, and read the drag data a row offers to the browser (Chromium's DownloadURL).
 */
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { startEmulatorProcess, type EmulatorProcess } from './emulatorProcess';
import { startWebModeWithKeychain } from './keychainWebMode';
import { signInWithSelfClient } from './selfClientSignIn';
import type { RunningWebMode } from './webMode';

const RECORDS = 300;
const CODE = 'correct horse battery staple';
/** Sync, generation polls and the download take seconds; the rest is margin for load. */
const ENGINE_TIMEOUT_MS = 30_000;

let emulator: EmulatorProcess;
let app: RunningWebMode;
test.beforeEach(async () => {
  [emulator, app] = await Promise.all([
    startEmulatorProcess(['--auto-approve', '--records', String(RECORDS)]),
    startWebModeWithKeychain(),
  ]);
});
test.afterEach(async () => {
  await Promise.all([app?.stop(), emulator?.stop()]);
});

async function openBackups(page: Page) {
  await page
    .getByRole('navigation', { name: 'Sections' })
    .getByRole('button', { name: 'Backups' })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Backups' })).toBeVisible();
}

test('a backup is made, verified, downloaded, and dragged out as a file', async ({ page }) => {
  await signInWithSelfClient(page, app, emulator, 'Backup test service');
  await openBackups(page);
  const form = page.getByRole('form', { name: 'Back up now' });
  await expect(form).toBeVisible({ timeout: ENGINE_TIMEOUT_MS });

  // Too short: said beside the button, nothing is asked of the service.
  const code = form.getByLabel("Access code (the backup's password)");
  await code.fill('short');
  await expect(form.getByText(/Too short: 3 more characters needed/)).toBeVisible();
  await form.getByRole('button', { name: 'Back up' }).click();
  await expect(form.getByRole('alert')).toContainText('too short');

  await code.fill(CODE);
  await expect(form.getByText(/^(Fair|Strong):/)).toBeVisible();
  await form.getByRole('button', { name: 'Back up' }).click();
  // The code leaves the form once sent.
  await expect(code).toHaveValue('');

  // Generation takes 2 emulated minutes: move the service's clock until the row is ready.
  const row = page.locator('tr.backup-row').first();
  await expect(row).toBeVisible({ timeout: ENGINE_TIMEOUT_MS });
  await expect(async () => {
    await emulator.advanceClock(3 * 60_000);
    await expect(row).toContainText('Ready', { timeout: 2_000 });
  }).toPass({ timeout: ENGINE_TIMEOUT_MS });
  await expect(row).toContainText(/Verified .*: [\d,]+ records, [\d,]+ comments, \d+ modules/);
  await expect(row).toContainText(/archive: [\d,]+ .+; mirror: the same/);
  await expect(page.getByTestId('backups-summary')).toHaveCount(0);

  // Compared with the mirror right after it was made: nothing differs.
  await row.getByRole('button', { name: 'Compare with mirror' }).click();
  const more = page.locator('tr.backup-row__more').first();
  await more.getByLabel('Access code').fill(CODE);
  await more.getByRole('button', { name: 'Compare' }).click();
  const diff = page.getByRole('region', { name: 'Differences from the mirror' });
  await expect(diff).toContainText('Nothing differs.', { timeout: ENGINE_TIMEOUT_MS });
  await expect(diff.getByRole('row', { name: /Assets/ })).toBeVisible();
  await diff.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/backups-compare-light.png' });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: 'test-results/backups-compare-dark.png' });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.getByRole('heading', { level: 1, name: 'Backups' }).scrollIntoViewIfNeeded();

  await page.screenshot({ path: 'test-results/backups-light.png', fullPage: true });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: 'test-results/backups-dark.png', fullPage: true });
  await page.emulateMedia({ colorScheme: 'light' });

  // Download: the browser receives the archive itself.
  const link = row.getByRole('link', { name: 'Download' });
  await expect(link).toHaveAttribute('href', /^\/api\/backups\/file\/[A-Za-z0-9_-]{43}$/);
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  expect(download.suggestedFilename()).toMatch(/^\d{8}T\d{6}Z-\d+\.zip$/);
  const saved = await download.path();
  const bytes = readFileSync(saved);
  expect(bytes.subarray(0, 2).toString()).toBe('PK');

  // Dragging the row hands the browser a DownloadURL of the same file.
  const dragData = await row.evaluate((element) => {
    // In the page: the DOM's own drag classes (this file is type-checked without the DOM lib).
    const page = globalThis as unknown as {
      DataTransfer: new () => { getData(type: string): string };
      DragEvent: new (type: string, init: object) => object;
    };
    const transfer = new page.DataTransfer();
    (element as unknown as { dispatchEvent(event: object): boolean }).dispatchEvent(
      new page.DragEvent('dragstart', { bubbles: true, dataTransfer: transfer }),
    );
    return transfer.getData('DownloadURL');
  });
  expect(dragData).toMatch(
    new RegExp(
      `^application/zip:${download.suggestedFilename()}:http://127\\.0\\.0\\.1:\\d+/api/backups/file/`,
    ),
  );
  // A link that names nothing opens nothing.
  const refused = await page.request.get(`${app.origin}/api/backups/file/${'A'.repeat(43)}`);
  expect(refused.status()).toBe(404);

  // Browse the backup's records in the records workspace: read-only, then back to the mirror.
  await row.getByRole('button', { name: 'Browse records' }).click();
  await more.getByLabel('Access code').fill(CODE);
  await more.getByRole('button', { name: 'Browse' }).click();
  const banner = page.getByRole('region', { name: 'Browsing a backup' });
  await expect(banner).toContainText(/Backup of .+, made /, { timeout: ENGINE_TIMEOUT_MS });
  await expect(banner).toContainText(/Read-only: [\d,]+ records as they were then/);
  await expect(page.getByTestId('records-total')).toContainText(/[\d,]+ records/, {
    timeout: ENGINE_TIMEOUT_MS,
  });
  await page.locator('.grid-row[aria-rowindex="2"]').click();
  const detail = page.getByTestId('record-detail');
  await expect(detail).toContainText('Comments are not read from backups');
  await expect(detail.getByRole('button', { name: 'Edit' })).toHaveCount(0);
  await page.screenshot({ path: 'test-results/backup-browse-light.png' });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: 'test-results/backup-browse-dark.png' });
  await page.emulateMedia({ colorScheme: 'light' });
  await banner.getByRole('button', { name: 'Back to the live mirror' }).click();
  await expect(banner).toHaveCount(0);
  await expect(page.getByTestId('records-total')).toContainText(/[\d,]+ records/);
});

test('a download is cancelled, kept paused with what arrived, and resumed to a verified backup', async ({
  page,
}) => {
  await signInWithSelfClient(page, app, emulator, 'Backup test service');
  await openBackups(page);
  const form = page.getByRole('form', { name: 'Back up now' });
  await expect(form).toBeVisible({ timeout: ENGINE_TIMEOUT_MS });
  await form.getByLabel("Access code (the backup's password)").fill(CODE);
  await form.getByRole('button', { name: 'Back up' }).click();
  const row = page.locator('tr.backup-row').first();
  await expect(row).toBeVisible({ timeout: ENGINE_TIMEOUT_MS });

  // The service holds the file's answer back: the download waits, and is cancelled meanwhile.
  await emulator.setFaults([{ path: '^/__downloads/', method: 'GET', latencyMs: 60_000 }]);
  const cancel = row.getByRole('button', { name: 'Cancel download' });
  await expect(async () => {
    await emulator.advanceClock(3 * 60_000);
    await expect(cancel).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: ENGINE_TIMEOUT_MS });
  await row.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/backups-downloading-light.png' });
  await cancel.click();
  // Nothing had arrived: the note says so (with bytes kept it says how many, to resume).
  await expect(row).toContainText(
    'Download paused before any of it arrived. Download again to start it.',
    {
      timeout: ENGINE_TIMEOUT_MS,
    },
  );
  await page.screenshot({ path: 'test-results/backups-paused-light.png' });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: 'test-results/backups-paused-dark.png' });
  await page.emulateMedia({ colorScheme: 'light' });

  // The service answers again: Download again fetches the rest, and the backup is verified.
  await emulator.setFaults([]);
  await row.getByRole('button', { name: 'Download again' }).click();
  const more = page.locator('tr.backup-row__more').first();
  if (await more.getByLabel('Access code').isVisible()) {
    await more.getByLabel('Access code').fill(CODE);
    await more.getByRole('button', { name: /Download|Verify/ }).click();
  }
  await expect(row).toContainText('Ready', { timeout: ENGINE_TIMEOUT_MS });
  await expect(row).toContainText(/Verified .*: [\d,]+ records/);
});
