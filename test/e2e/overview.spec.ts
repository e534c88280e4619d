import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { openWorkspace, recordsTotal, useRecordsMirror } from './recordsMirror';
import { startWebMode } from './webMode';

/** Records in the mirror of the first test. */
const RECORDS = 3000;

const app = useRecordsMirror('overview', RECORDS);

const nav = (page: Page) => page.getByRole('navigation', { name: 'Sections' });

/** A bar's accessible name: "<label> <count> records. <what it opens>". */
function barCount(name: string): number {
  const match = / ([\d,]+) records?\./.exec(name);
  if (!match) throw new Error(`Not a bar's name: ${name}`);
  return Number(match[1]!.replace(/,/g, ''));
}

test('the overview counts the mirror; a status bar opens the records workspace with that status', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1400, height: 1000 });
  await openWorkspace(page, app().url);
  await expect(recordsTotal(page)).toHaveText('3,000 records');

  await nav(page).getByRole('button', { name: 'Overview' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
  const modules = page.getByTestId('overview-modules');
  // The same count as the records workspace's.
  const assets = modules.getByRole('button', { name: /^Assets 3,000 records\./ });
  await expect(assets).toBeVisible();
  await expect(page.getByTestId('weekly-summary')).toContainText('3,000 records created');
  await expect(page.getByTestId('overview-backup')).toHaveText('No backup of this portal yet.');

  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    await page.screenshot({ path: `test-results/overview-${theme}.png`, fullPage: true });
    // The overview itself (the shell around it is the accessibility suite's) has no serious or
    // critical violation in either theme.
    const results = await new AxeBuilder({ page })
      .include('[data-testid="overview-view"]')
      .analyze();
    const serious = results.violations.filter(
      (v) => v.impact === 'serious' || v.impact === 'critical',
    );
    expect(
      serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    ).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });

  // The statuses' bars add up to the module's records.
  const statuses = page.locator('[data-testid^="overview-statuses-"]').first();
  const names = await statuses
    .getByRole('button')
    .evaluateAll((buttons) =>
      buttons.map((button) => (button.textContent ?? '').replace(/\s+/g, ' ').trim()),
    );
  expect(names.map(barCount).reduce((sum, n) => sum + n, 0)).toBe(RECORDS);

  // Keyboard: the second status's bar, focused, Enter opens Records filtered by that status.
  const second = statuses.getByRole('button').nth(1);
  const secondName = names[1]!;
  const statusName = (await second.locator('.bar-row__label').textContent()) ?? '';
  await second.focus();
  await expect(second).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Records' })).toBeVisible();
  await expect(page.getByTestId('applied-filter')).toContainText(`Status is "${statusName}"`);
  const expected = barCount(secondName);
  await expect(recordsTotal(page)).toHaveText(
    `${expected.toLocaleString('en-US')} record${expected === 1 ? '' : 's'}`,
  );

  // The module's bar opens it without a filter.
  await nav(page).getByRole('button', { name: 'Overview' }).click();
  await page
    .getByTestId('overview-modules')
    .getByRole('button', { name: /^Assets / })
    .click();
  await expect(recordsTotal(page)).toHaveText('3,000 records');
  await expect(page.getByTestId('applied-filter')).toHaveCount(0);
});

test('after a demo sync, the Sync view and the overview chart the calls per endpoint against the limit', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const demo = await startWebMode();
  try {
    await page.setViewportSize({ width: 1400, height: 1000 });
    await page.goto(demo.url);
    await page.getByRole('button', { name: 'Try the demo portal' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Records' })).toBeVisible({
      timeout: 30_000,
    });
    await page.getByTestId('sync-summary').click();
    await expect(page.getByTestId('sync-log').getByText('Done').first()).toBeVisible({
      timeout: 30_000,
    });
    const charts = page.getByTestId('endpoint-calls-chart');
    await expect(charts.first()).toBeVisible();
    await expect(charts.first().getByRole('img')).toHaveAttribute(
      'aria-label',
      /of 200 calls in the current 2 min window/,
    );
    for (const theme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: theme });
      await page.getByRole('heading', { name: 'Calls per busy endpoint' }).scrollIntoViewIfNeeded();
      await page.screenshot({ path: `test-results/sync-calls-${theme}.png` });
    }

    await nav(page).getByRole('button', { name: 'Overview' }).click();
    await expect(page.getByTestId('overview-modules').getByRole('button').first()).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Rate budgets in use' })).toBeVisible();
    await expect(
      page
        .locator('.overview-card', { hasText: 'Rate budgets in use' })
        .getByTestId('endpoint-calls-chart')
        .first(),
    ).toBeVisible();
    for (const theme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: theme });
      await page.screenshot({ path: `test-results/overview-demo-${theme}.png`, fullPage: true });
    }
  } finally {
    await demo.stop();
  }
});
