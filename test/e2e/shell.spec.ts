import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { startWebMode, type RunningWebMode } from './webMode';

const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };

let app: RunningWebMode;
test.beforeEach(async () => {
  app = await startWebMode();
});
test.afterEach(async () => {
  await app.stop();
});

test('the shell opens, shows the version and data directory, and switches sections', async ({
  page,
}) => {
  await page.goto(app.url);

  // The secret leaves the address bar once the page has it.
  await expect(page).toHaveURL(`${app.origin}/`);
  // A fresh data directory starts on the first-run screen; this test is about the shell.
  await page.getByRole('button', { name: 'Skip for now' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Records' })).toBeVisible();
  await expect(page.getByText('No portals mirrored yet')).toBeVisible();
  await expect(page.getByTestId('status-data-dir')).toHaveText(`Data: ${app.dataDir}`);
  await expect(page.getByTestId('status-version')).toContainText(`v${version} · web`);
  await expect(page.getByTestId('engine-status')).toHaveText('Engine connected');

  const nav = page.getByRole('navigation', { name: 'Sections' });
  const expected: [string, string][] = [
    ['Outbox', 'No pending edits'],
    ['Sync', 'Nothing synced yet'],
    ['Backups', 'No portals to back up yet'],
    ['Configure', 'No portals to configure yet'],
    ['Event router', 'No rules or custom publishers yet'],
    ['Overview', 'No portals to show yet'],
  ];
  for (const [label, emptyTitle] of expected) {
    await nav.getByRole('button', { name: label }).click();
    await expect(page.getByRole('heading', { level: 1, name: label })).toBeVisible();
    await expect(page.getByText(emptyTitle)).toBeVisible();
  }

  // Keyboard: Ctrl+8 opens Settings from anywhere, arrows move within the sidebar.
  await page.keyboard.press('Control+8');
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  await expect(page.getByTestId('app-version')).toHaveText(version);
  await expect(page.getByTestId('app-data-dir')).toHaveText(app.dataDir);
  await nav.getByRole('button', { name: 'Settings' }).press('ArrowUp');
  await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
  await expect(nav.getByRole('button', { name: 'Overview' })).toBeFocused();

  await page.keyboard.press('Control+8');
  await page.screenshot({ path: 'test-results/shell.png' });
});

test('a theme chosen in Settings is saved by the engine and survives a reload', async ({
  page,
}) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto(app.url);
  await page.getByRole('button', { name: 'Skip for now' }).click();
  await page.keyboard.press('Control+8');
  const html = page.locator('html');
  await expect(html).toHaveAttribute('data-theme', 'light');

  await page.getByText('Dark', { exact: true }).click();
  await expect(html).toHaveAttribute('data-theme', 'dark');
  await page.reload();
  await expect(html).toHaveAttribute('data-theme', 'dark');
  await page.getByRole('button', { name: 'Settings' }).click();
  await expect(page.getByLabel('Dark')).toBeChecked();
  await page.screenshot({ path: 'test-results/shell-dark.png' });

  await page.getByText('Follow the system').click();
  await expect(html).toHaveAttribute('data-theme', 'light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(html).toHaveAttribute('data-theme', 'dark');
});

test('a page opened without the printed address explains what to do and reaches nothing', async ({
  page,
}) => {
  const calls: number[] = [];
  page.on('response', (response) => {
    if (response.url().includes('/api/')) calls.push(response.status());
  });
  await page.goto(`${app.origin}/`);
  await expect(
    page.getByRole('heading', { name: 'Open PortalDesk from the address it printed' }),
  ).toBeVisible();
  expect(calls).toEqual([]);

  const refused = await page.evaluate(async () => {
    const response = await fetch('/api/call/app.info', { method: 'POST' });
    return response.status;
  });
  expect(refused).toBe(401);
});

test('when the engine stops, the status bar stops saying Online', async ({ page }) => {
  await page.goto(app.url);
  await page.getByRole('button', { name: 'Skip for now' }).click();
  await expect(page.getByTestId('engine-status')).toHaveText('Engine connected');
  await expect(page.getByTestId('network-status')).not.toHaveText(/Engine unreachable/);
  await app.stop();
  await expect(page.getByTestId('network-status')).toHaveText(
    'Engine unreachable: showing what was last read',
    { timeout: 15_000 },
  );
  await page.screenshot({ path: 'test-results/engine-unreachable.png' });
});
