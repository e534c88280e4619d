import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { readCsv } from '../support/readCsv';
import {
  assetRows,
  assetsGrid,
  openWorkspace,
  recordsTotal,
  useRecordsMirror,
} from './recordsMirror';

/** Records in the mirror: more than one batch of the export (1,000 rows). */
const RECORDS = 3000;

const app = useRecordsMirror('export', RECORDS);

test('exports the sorted view to CSV, downloaded in web mode, as the table shows it', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1400, height: 860 });
  await openWorkspace(page, app().url);
  await expect(recordsTotal(page)).toHaveText('3,000 records');

  // Sorted by name, descending: the file follows the table's order.
  const header = page.getByRole('columnheader', { name: 'Asset name' });
  await header.getByRole('button').click();
  await header.getByRole('button').click();
  await expect(header).toHaveAttribute('aria-sort', 'descending');
  const firstCells = await assetRows(page).first().getByRole('gridcell').allInnerTexts();

  await page.getByRole('button', { name: 'Export', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Export' });
  await expect(dialog).toContainText('3,000 records: the filter, sort and');
  await dialog.screenshot({ path: 'test-results/records-export-dialog.png' });
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await dialog.screenshot({ path: 'test-results/records-export-dialog-dark.png' });
  await page.emulateMedia({ colorScheme: 'light' });

  await dialog.getByRole('button', { name: 'Export', exact: true }).click();
  await expect(dialog.getByRole('status')).toContainText(
    /Exported 3,000 records to portaldesk-Assets-.*\.csv\./,
  );
  const link = dialog.getByRole('link', { name: /^Download portaldesk-Assets-.*\.csv$/ });
  await expect(link).toBeVisible();
  await dialog.screenshot({ path: 'test-results/records-export-done.png' });
  await page.emulateMedia({ colorScheme: 'dark' });
  await dialog.screenshot({ path: 'test-results/records-export-done-dark.png' });
  await page.emulateMedia({ colorScheme: 'light' });

  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  expect(download.suggestedFilename()).toMatch(/^portaldesk-Assets-.*\.csv$/);
  const file = await download.path();
  const text = readFileSync(file, 'utf8');
  expect(text.startsWith('\uFEFF')).toBe(true);
  const [labels, first, ...rest] = readCsv(text.slice(1));
  const shownHeaders = await assetsGrid(page).getByRole('columnheader').allInnerTexts();
  expect(labels).toEqual(shownHeaders.map((h) => h.replace(/[▲▼]/g, '').trim()));
  expect(rest).toHaveLength(RECORDS - 1);
  // The first row as the table shows it (an empty cell shows a dash, a check box a mark).
  expect(first!.length).toBe(firstCells.length);
  firstCells.forEach((shown, i) => {
    const cell = first![i]!;
    if (shown.trim() === '—') expect(cell).toBe('');
    else if (shown.trim() === '✓') expect(cell).toBe('Yes');
    else if (shown.trim() === '✗') expect(cell).toBe('No');
    else expect(cell.replace(/\s+/g, ' ')).toBe(shown.replace(/\s+/g, ' ').trim());
  });
});
