import { expect, test } from '@playwright/test';
import { assetRows, openWorkspace, recordsTotal, useRecordsMirror } from './recordsMirror';

const RECORDS = 40;

const app = useRecordsMirror('import', RECORDS);

test('imports a CSV in web mode: mapped by name, a failing row with its reason, queued on confirm', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await openWorkspace(page, app().url);
  await expect(recordsTotal(page)).toHaveText('40 records');
  const first = assetRows(page).first();
  const id = await first.getAttribute('data-record-id');
  expect(id).toMatch(/^\d+$/);

  // One row renames a record; the other names a record the mirror does not hold.
  const csv = `ID,Asset name,Remarks\r\n${id},Imported by the e2e test,kept\r\n999,Nobody,x\r\n`;
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Import' });
  await dialog.getByLabel('File').setInputFiles({
    name: 'changes.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(`\uFEFF${csv}`, 'utf8'),
  });
  const columns = dialog.getByRole('table', { name: /changes\.csv: 3 columns/ });
  await expect(columns).toBeVisible();
  await expect(dialog.getByRole('combobox', { name: 'Field for column ID' })).toHaveValue('id');
  await expect(dialog.getByRole('combobox', { name: 'Field for column Asset name' })).toHaveValue(
    'name',
  );
  await expect(dialog.getByRole('combobox', { name: 'Field for column Remarks' })).toHaveValue('');
  await expect(dialog.getByRole('radio', { name: /Update existing records/ })).toBeChecked();
  await dialog.screenshot({ path: 'test-results/records-import-map.png' });

  await dialog.getByRole('button', { name: 'Check rows' }).click();
  await expect(dialog.getByRole('status')).toHaveText(
    '1 row ready, 1 row failing, 0 rows unchanged. Nothing is queued until you confirm.',
  );
  const failures = dialog.getByRole('table', { name: 'Rows that fail (not queued)' });
  await expect(failures.getByRole('row').nth(1)).toHaveText(
    '3IDno record of this module has the id 999 in the local mirror.',
  );
  await dialog.screenshot({ path: 'test-results/records-import-checked.png' });
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await dialog.screenshot({ path: 'test-results/records-import-checked-dark.png' });
  await page.emulateMedia({ colorScheme: 'light' });

  await dialog.getByRole('button', { name: 'Queue 1 row' }).click();
  await expect(dialog.getByRole('status')).toHaveText(
    'Queued 1 row in the Outbox; 1 row failing, 0 rows unchanged (not queued).',
  );
  // The table shows the pending rename; the Outbox lists the queued edit.
  await expect(first).toContainText('Imported by the e2e test');
  await page
    .getByRole('navigation', { name: 'Sections' })
    .getByRole('button', { name: 'Outbox' })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Outbox' })).toBeVisible();
  await expect(page.getByText('Imported by the e2e test').first()).toBeVisible();
  await page.screenshot({ path: 'test-results/records-import-outbox.png' });
});

test('says beside a column why its header was not matched, in light and dark', async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await openWorkspace(page, app().url);
  // Two columns named like the name: the first, written as its label, is it; the second is not
  // guessed, and says so.
  const csv = `Asset name,ASSET NAME\r\nLaptop,Desk\r\n`;
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Import' });
  await dialog.getByLabel('File').setInputFiles({
    name: 'names.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(csv, 'utf8'),
  });
  await expect(
    dialog.getByRole('combobox', { name: 'Field for column Asset name', exact: true }),
  ).toHaveValue('name');
  const second = dialog.getByRole('combobox', {
    name: 'Field for column ASSET NAME',
    exact: true,
  });
  await expect(second).toHaveValue('');
  await expect(second).toHaveAccessibleDescription(
    'Not matched: more than one column, in the file or in this module, is named like "ASSET NAME". Choose the field this column fills, or ignore it.',
  );
  await dialog.screenshot({ path: 'test-results/records-import-note.png' });
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await dialog.screenshot({ path: 'test-results/records-import-note-dark.png' });
  await page.emulateMedia({ colorScheme: 'light' });
});
