/**
 * Issue 15 end to end, in web mode against an emulator process: back a portal up from the
 * Backups view, watch it reach Ready (verified against the mirror), download it with the
 * Download link, and read the drag data a row offers to the browser (Chromium's DownloadURL).
 * Screenshots in both themes of the states a row can be in: a download, a comparison and an
 * opening for browsing running with their Cancel, a keychain that cannot be read, and a file that
 * is not a backup (test-results/backups-*.png).
 */
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { audit } from './axeAudit';
import { startEmulatorProcess, type EmulatorProcess } from './emulatorProcess';
import { startWebModeWithKeychain } from './keychainWebMode';
import { signInWithSelfClient } from './selfClientSignIn';
import type { RunningWebMode } from './webMode';
import type { BackupsOverview } from '../../src/shared/ipc/areas/backups';

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
  // A verified backup compared: no serious or critical axe violation, either theme.
  expect(await audit(page, 'backup verified and compared', '.content__body')).toEqual([]);
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
  // The download's progress and its Cancel: no serious or critical axe violation, either theme.
  expect(await audit(page, 'backup downloading', '.content__body')).toEqual([]);
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

/** Light and dark screenshots of the page as it is now, under `name`. */
async function bothThemes(page: Page, name: string) {
  await page.screenshot({ path: `test-results/${name}-light.png` });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: `test-results/${name}-dark.png` });
  await page.emulateMedia({ colorScheme: 'light' });
}

/**
 * Holds the engine's requests named `name` before they reach it (the page shows the request
 * running for as long as it likes); `release` lets each one go on, unchanged.
 */
async function holdRequests(page: Page, name: string) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const passedOn: Promise<void>[] = [];
  await page.route(`**/api/call/${name}`, (route) => {
    const passing = released.then(() => route.continue());
    passedOn.push(passing);
    return passing;
  });
  return {
    held: () => passedOn.length,
    release: async () => {
      release();
      // Unrouted only once passed on: an unroute cancels a request still held.
      await Promise.all(passedOn);
      await page.unroute(`**/api/call/${name}`);
    },
  };
}

/**
 * Rewrites the engine's `backups.overview` answers with `change` (states the emulator cannot be
 * made to give: a keychain that cannot be read, a service file that is not a backup), so the
 * view draws them as it would the engine's own.
 */
async function rewriteOverview(page: Page, change: (overview: BackupsOverview) => void) {
  await page.route('**/api/call/backups.overview', async (route) => {
    const response = await route.fetch();
    const outcome = (await response.json()) as { ok: boolean; value?: BackupsOverview };
    if (outcome.ok && outcome.value) change(outcome.value);
    await route.fulfill({ response, json: outcome });
  });
}

test('readings running with their Cancel, a keychain that cannot be read and a file that is not a backup, in both themes', async ({
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
  await expect(async () => {
    await emulator.advanceClock(3 * 60_000);
    await expect(row).toContainText('Ready', { timeout: 2_000 });
  }).toPass({ timeout: ENGINE_TIMEOUT_MS });
  const more = page.locator('tr.backup-row__more').first();

  // Compare, running: its progress line and Cancel in place of the code prompt.
  const compare = await holdRequests(page, 'backups.compare');
  await row.getByRole('button', { name: 'Compare with mirror' }).click();
  await more.getByLabel('Access code').fill(CODE);
  await more.getByRole('button', { name: 'Compare' }).click();
  const comparing = more.getByRole('group', { name: 'Comparing' });
  await expect(comparing.getByRole('button', { name: 'Cancel' })).toBeVisible();
  expect(compare.held()).toBe(1);
  await row.scrollIntoViewIfNeeded();
  await bothThemes(page, 'backups-comparing');
  await compare.release();
  const diff = page.getByRole('region', { name: 'Differences from the mirror' });
  await expect(diff).toContainText('Nothing differs.', { timeout: ENGINE_TIMEOUT_MS });
  await more.getByRole('button', { name: 'Hide the comparison' }).click();

  // Browse, being opened: the same, with the records read so far.
  const browse = await holdRequests(page, 'backups.browse');
  await row.getByRole('button', { name: 'Browse records' }).click();
  await more.getByLabel('Access code').fill(CODE);
  await more.getByRole('button', { name: 'Browse' }).click();
  const opening = more.getByRole('group', { name: 'Opening for browsing' });
  await expect(opening.getByRole('button', { name: 'Cancel' })).toBeVisible();
  await bothThemes(page, 'backups-browsing');
  // Let go, it opens in the records workspace; back to the live mirror.
  await browse.release();
  const banner = page.getByRole('region', { name: 'Browsing a backup' });
  await expect(banner).toBeVisible({ timeout: ENGINE_TIMEOUT_MS });
  await banner.getByRole('button', { name: 'Back to the live mirror' }).click();
  await expect(banner).toHaveCount(0);

  // A keychain that cannot be read, beside its portal.
  await rewriteOverview(page, (overview) => {
    for (const portal of overview.portals) {
      portal.accessCode = 'unreadable';
      portal.keychainProblem = 'Cannot unlock the login keyring: the prompt was dismissed';
    }
    // The first backup, as one whose file the service holds is not a backup.
    const backup = overview.backups[0]!;
    Object.assign(backup, {
      stage: 'failed',
      file: null,
      sha256: null,
      verification: null,
      failure: 'not_a_backup',
      newBackupFrom: new Date(Date.now() + 20 * 3_600_000).toISOString(),
      problem:
        "This file is not a backup PortalDesk can read: it is not a ZIP archive (end of central directory not found), as every backup of the service is. The download was removed. Downloading it again would fetch the same file from the service: make a new backup instead, and if the new one is refused the same way, contact the service's support.",
    });
  });
  await openBackups(page);
  const readAgain = page.getByRole('button', { name: 'Read the keychain again' }).first();
  await expect(readAgain).toBeVisible({ timeout: ENGINE_TIMEOUT_MS });
  await readAgain.scrollIntoViewIfNeeded();
  await bothThemes(page, 'backups-keychain-unreadable');

  // The not-a-backup row: no Try again; when a new backup can be made; Delete.
  await expect(row).toContainText('Stopped');
  await expect(row.getByRole('button', { name: 'Try again' })).toHaveCount(0);
  await expect(row).toContainText(
    /The service returns this same file until .+; back up again after that\./,
  );
  await expect(row.getByRole('button', { name: 'Delete' })).toBeVisible();
  await row.scrollIntoViewIfNeeded();
  await bothThemes(page, 'backups-not-a-backup');

  // Another backup's file: no Try again either (the link gives the same file), in its own words.
  await page.unroute('**/api/call/backups.overview');
  await rewriteOverview(page, (overview) => {
    Object.assign(overview.backups[0]!, {
      stage: 'failed',
      file: null,
      sha256: null,
      verification: null,
      failure: 'another_backup',
      newBackupFrom: new Date(Date.now() + 20 * 3_600_000).toISOString(),
      problem:
        "The downloaded archive is backup 680, not 681: the service's link gave another backup's file. It was removed, and nothing was replaced: the backups already here are as they were. Downloading it again would fetch the same file from the service: make a new backup instead, and if that one brings another backup's file too, report it to the service's support.",
    });
  });
  // Away and back: the view reads the overview again when it opens.
  await page
    .getByRole('navigation', { name: 'Sections' })
    .getByRole('button', { name: 'Event router' })
    .click();
  await openBackups(page);
  await expect(row).toContainText("the service's link gave another backup's file", {
    timeout: ENGINE_TIMEOUT_MS,
  });
  await expect(row.getByRole('button', { name: 'Try again' })).toHaveCount(0);
  await expect(row).toContainText(
    /The service returns this same file until .+; back up again after that\./,
  );
  await expect(row.getByRole('button', { name: 'Delete' })).toBeVisible();
  await row.scrollIntoViewIfNeeded();
  await bothThemes(page, 'backups-another-backup');
});
