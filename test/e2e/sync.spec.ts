import { expect, test } from '@playwright/test';
import { startWebMode, type RunningWebMode } from './webMode';

let app: RunningWebMode;
test.beforeEach(async () => {
  app = await startWebMode();
});
test.afterEach(async () => {
  await app.stop();
});

test('after a demo sign-in the Sync view shows each module, the endpoint budgets and the run log', async ({
  page,
}) => {
  await page.goto(app.url);
  await page.getByRole('button', { name: 'Try the demo portal' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Records' })).toBeVisible({
    timeout: 30_000,
  });

  // The status bar links to the Sync view and says how the sync stands.
  const summary = page.getByTestId('sync-summary');
  await expect(summary).toHaveText(/Syncing|Synced just now/);
  await summary.click();
  await expect(page.getByRole('heading', { level: 1, name: 'Sync' })).toBeVisible();

  // The first sync ends: every module of both demo portals up to date, a run in the log.
  const log = page.getByTestId('sync-log');
  await expect(log.getByText('Done').first()).toBeVisible({ timeout: 30_000 });
  await expect(summary).toHaveText('Synced just now');
  await expect(page.getByRole('heading', { name: /northwind · Up to date/ })).toBeVisible();
  await expect(page.getByRole('heading', { name: /acme-engineering · Up to date/ })).toBeVisible();
  const northwind = page.locator('.sync-portal', { hasText: 'northwind' });
  await expect(northwind.getByRole('row', { name: /Assets/ })).toContainText('just now');
  await expect(page.getByTestId('sync-online')).toHaveText('reachable');
  // Names, never raw ids: no module row is headed by an id, no run names an account by its id.
  for (const header of await page.locator('.sync-portal th[scope="row"]').allInnerTexts()) {
    expect(header).not.toMatch(/^(Module )?\d{6,}$/);
  }
  await expect(log).not.toContainText(/acc[_-][A-Za-z0-9]{4,}/);

  // Every endpoint the sync used, with its calls spent against the service's 200 per 2 minutes.
  const budgets = page.getByTestId('sync-budgets');
  await expect(budgets.getByRole('row', { name: /GET \/api\/v3\/portals/ })).toContainText(
    'per 2 min',
  );
  await expect(budgets.getByText('Free now').first()).toBeVisible();
  await page.screenshot({ path: 'test-results/sync-view.png', fullPage: true });

  // Sync now runs again and logs a second run.
  await page.getByRole('button', { name: 'Sync now' }).click();
  await expect(log.getByRole('listitem').filter({ hasText: /^Done/ })).toHaveCount(2, {
    timeout: 30_000,
  });

  // The mirror it filled is what the records workspace reads: open a record of the demo portal
  // and read its comments now through the signed-in account ("Fetch now").
  await page
    .getByRole('navigation', { name: 'Sections' })
    .getByRole('button', { name: 'Records' })
    .click();
  const grid = page.getByRole('grid', { name: 'Assets records' });
  await grid.locator('.grid-row:not(.is-loading)').nth(5).click();
  const detail = page.getByTestId('record-detail');
  await expect(detail.getByRole('heading', { name: /Comments \(\d+\)/ })).toBeVisible();
  const notMirrored = detail.getByTestId('comments-not-mirrored');
  if (await notMirrored.isVisible()) {
    await notMirrored.getByRole('button', { name: 'Fetch now' }).click();
    await expect(notMirrored).toHaveCount(0, { timeout: 15_000 });
  }
  await expect(detail.getByRole('heading', { name: 'Status timeline' })).toBeVisible();
  await page.screenshot({ path: 'test-results/sync-record-comments.png' });
});
