import { expect, test, type Page } from '@playwright/test';
import { assetsGrid, openWorkspace, recordsTotal, useRecordsMirror } from './recordsMirror';

/**
 * Bulk edit (issue 20) in web mode: every record matching a filter selected (not only the rows
 * loaded), a value typed in the record editor's field editor, the engine's preview, Queue, the
 * bulk edit as one group in the Outbox, and its Undo putting the queue back as it was.
 */
const RECORDS = 2000;

const app = useRecordsMirror('bulk', RECORDS);

async function openSection(page: Page, name: 'Records' | 'Outbox'): Promise<void> {
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name }).click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
}

async function bothThemes(page: Page, target: ReturnType<Page['locator']>, name: string) {
  await target.screenshot({ path: `test-results/${name}.png` });
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await target.screenshot({ path: `test-results/${name}-dark.png` });
  await page.emulateMedia({ colorScheme: 'light' });
}

/** Nothing leaves while a test looks at the queue: the Outbox's "Work offline" on. */
async function workOffline(page: Page): Promise<void> {
  await openSection(page, 'Outbox');
  const offline = page.getByTestId('work-offline');
  if (!(await offline.isChecked())) await offline.click();
  await expect(offline).toBeChecked();
  await openSection(page, 'Records');
}

/** The first three rows selected (a click, then Shift+click two rows further), bulk edit opened. */
async function bulkEditFirstThree(page: Page): Promise<ReturnType<Page['getByRole']>> {
  const rows = assetsGrid(page).locator('.grid-row:not(.is-loading)');
  await rows.nth(0).click();
  await rows.nth(2).click({ modifiers: ['Shift'] });
  await expect(page.getByText('3 selected')).toBeVisible();
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Bulk edit…' }).click();
  return page.getByRole('dialog', { name: 'Bulk edit' });
}

test('a bulk edit of every record matching a filter is previewed, queued, grouped and undone', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await openWorkspace(page, app().url);
  await expect(recordsTotal(page)).toHaveText('2,000 records');
  await workOffline(page);

  await page.getByRole('button', { name: 'Filter' }).click();
  await page.getByLabel('Add a preset').selectOption({ label: 'Status is closed' });
  await expect(page.getByTestId('applied-filter')).toContainText('Status is all closed');
  await expect(recordsTotal(page)).not.toHaveText('2,000 records');
  const matching = Number((await recordsTotal(page).textContent())!.replace(/\D/g, ''));
  expect(matching).toBeGreaterThan(100);
  const shown = matching.toLocaleString('en-US');

  // Ctrl+A in the table: every record the filter matches, most of them not loaded.
  await assetsGrid(page).focus();
  await page.keyboard.press('Control+a');
  await expect(page.getByText(`${shown} selected`)).toBeVisible();
  await page.getByRole('button', { name: 'Bulk edit…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Bulk edit' });
  await expect(dialog.getByRole('heading')).toHaveText(`Bulk edit ${shown} records`);
  await dialog.getByRole('combobox', { name: 'Field' }).selectOption({ label: 'Description' });
  await dialog.getByRole('textbox', { name: 'Description' }).fill('Checked in the bulk audit');
  await dialog.getByRole('button', { name: 'Use this value' }).click();
  const preview = dialog.getByTestId('bulk-preview');
  await expect(preview.getByRole('status')).toContainText(`${shown} records change`);
  await expect(preview.getByRole('status')).toContainText('at the rate limit');
  await expect(preview.getByRole('table')).toContainText('Checked in the bulk audit');
  await bothThemes(page, dialog, 'records-bulk-preview');

  await dialog.getByRole('button', { name: `Queue ${shown} changes` }).click();
  await expect(dialog.getByTestId('bulk-applied')).toHaveText(
    `Queued ${shown} changes. The Outbox lists it as one bulk edit with Undo while it waits.`,
  );
  await expect(page.getByTestId('outbox-count')).toHaveText(
    `Working offline · Outbox: ${shown} to send`,
  );

  await openSection(page, 'Outbox');
  const group = page.getByTestId('bulk-group');
  await expect(group).toHaveCount(1);
  await expect(group).toContainText('Description set to “Checked in the bulk audit”');
  await expect(group).toContainText(`${shown} Assets records · ${shown} still queued`);
  await bothThemes(page, page.locator('.outbox-bulk'), 'outbox-bulk-group');
  // The queue lists its oldest 200 and counts them all; more on request.
  const waiting = page.getByRole('region', { name: /Waiting to be sent/ });
  await expect(waiting.getByRole('heading')).toContainText(`(${shown})`);
  await expect(waiting.getByTestId('outbox-entry')).toHaveCount(200);
  const more = waiting.getByTestId('outbox-more-pending');
  await expect(more).toContainText(`The oldest 200 of ${shown} are listed`);
  await more.getByRole('button', { name: 'Show 200 more' }).click();
  await expect(waiting.getByTestId('outbox-entry')).toHaveCount(400);
  await more.scrollIntoViewIfNeeded();
  await bothThemes(page, page.locator('main'), 'outbox-long-queue');

  await group.getByRole('button', { name: /^Undo the bulk edit/ }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Undone' })).toHaveText(
    `Undone: ${shown} records put back.`,
  );
  await expect(page.getByTestId('bulk-group')).toHaveCount(0);
  await expect(page.getByTestId('outbox-count')).toHaveText('Working offline');

  // Options of a multi-select added: each record keeps its own and gains the new one.
  await openSection(page, 'Records');
  await assetsGrid(page).focus();
  await page.keyboard.press('Control+a');
  await page.getByRole('button', { name: 'Bulk edit…' }).click();
  await dialog.getByRole('combobox', { name: 'Field' }).selectOption({ label: 'Tags' });
  await dialog.getByRole('radio', { name: 'Add options' }).click();
  await dialog.getByRole('checkbox', { name: 'Remote' }).click();
  await dialog.getByRole('button', { name: 'Preview' }).click();
  await expect(preview.getByRole('status')).toContainText('change');
  await bothThemes(page, dialog, 'records-bulk-add-options');
});

test('selected records go to the recycle bin together and come back with Restore all', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await openWorkspace(page, app().url);
  await expect(recordsTotal(page)).toHaveText('2,000 records');
  await workOffline(page);

  // What the bin held before (the mirror's own trashed records).
  const binButton = page.getByRole('button', { name: 'Recycle bin', exact: true });
  const bin = page.getByRole('dialog', { name: 'Recycle bin' });
  await binButton.click();
  await expect(bin.getByText('Reading…')).toHaveCount(0);
  const before = await bin.locator('.recycle-bin__item').count();
  await binButton.click();

  const dialog = await bulkEditFirstThree(page);
  await dialog.getByRole('button', { name: 'Move them to the recycle bin…' }).click();
  await dialog.getByRole('button', { name: 'Move to the recycle bin' }).click();
  await expect(dialog.getByRole('status')).toHaveText(
    '3 records are queued to move to the recycle bin.',
  );
  await expect(recordsTotal(page)).toHaveText('1,997 records');

  await binButton.click();
  await expect(bin.locator('.recycle-bin__item')).toHaveCount(before + 3);
  await bothThemes(page, bin, 'records-bulk-recycle-bin');
  await bin.getByRole('button', { name: `Restore all ${before + 3}` }).click();
  await expect(bin.getByRole('status').first()).toContainText(
    `${before + 3} records leave the recycle bin`,
  );
  // Listed again at once, the service's own trashed ones too (their restore waits in the Outbox).
  await expect(recordsTotal(page)).toHaveText(
    `${(RECORDS + before).toLocaleString('en-US')} records`,
  );
});

test('a Shift+click range over rows never loaded is read from the engine, and a bulk edit previews exactly it', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await openWorkspace(page, app().url);
  // The test before restored records from the bin: the count is the mirror's, about 2,000.
  await expect(recordsTotal(page)).toHaveText(/^2,0\d\d records$/);
  const grid = assetsGrid(page);
  const rows = grid.locator('.grid-row:not(.is-loading)');
  await rows.nth(0).click();
  await page.keyboard.press('Escape');
  const first = await rows.nth(0).getAttribute('aria-rowindex');
  // Far down: the rows between were never loaded by the table.
  await grid.locator('.grid-body').evaluate((element) => {
    element.scrollTop = element.scrollHeight * 0.6;
  });
  const far = grid.locator('.grid-row:not(.is-loading)').nth(3);
  await expect(far).toBeVisible();
  const last = Number(await far.getAttribute('aria-rowindex'));
  await far.click({ modifiers: ['Shift'] });
  await page.keyboard.press('Escape');
  const count = last - Number(first) + 1;
  expect(count).toBeGreaterThan(1000);
  const shown = count.toLocaleString('en-US');
  await expect(page.locator('.records__selected')).toHaveText(`${shown} selected`);
  await bothThemes(page, page.locator('.records__toolbar'), 'records-range-selected');
  await page.getByRole('button', { name: 'Bulk edit…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Bulk edit' });
  await expect(dialog.getByRole('heading')).toHaveText(`Bulk edit ${shown} records`);
  await dialog.getByRole('combobox', { name: 'Field' }).selectOption({ label: 'Tags' });
  await dialog.getByRole('radio', { name: 'Clear it' }).click();
  await dialog.getByRole('button', { name: 'Preview' }).click();
  // The engine counts the records it was sent: the range, every one, no more.
  const status = dialog.getByTestId('bulk-preview').getByRole('status');
  await expect(status).toBeVisible();
  const said = (await status.textContent()) ?? '';
  const numbers = [...said.matchAll(/([\d,]+) (?:records? change|already hold it|refused)/g)].map(
    (m) => Number(m[1]!.replace(/,/g, '')),
  );
  expect(numbers.reduce((a, b) => a + b, 0)).toBe(count);
});

test('a bulk edit that sets back my own queued edit counts it as set back, and Undo queues my edit again', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await openWorkspace(page, app().url);
  await workOffline(page);

  // My own edit of the first record's description, queued; the service's value noted first.
  const rows = assetsGrid(page).locator('.grid-row:not(.is-loading)');
  await rows.nth(0).click();
  const detail = page.getByTestId('record-detail');
  const edit = detail.locator('.record-detail__edit');
  if ((await edit.getAttribute('aria-pressed')) !== 'true') await edit.click();
  const description = page
    .getByTestId('record-editor')
    .locator('.field-editor[data-field="description"]');
  await expect(description.getByRole('textbox')).toBeVisible();
  const services = await description.getByRole('textbox').inputValue();
  await description.getByRole('textbox').fill('Mine, queued before the bulk edit');
  await description.getByRole('button', { name: 'Save' }).click();
  await expect(description.getByTestId('pending-mark')).toBeVisible();
  await edit.click();

  // Three rows, the first among them, set to the service's value of the first (cleared when it
  // has none).
  const dialog = await bulkEditFirstThree(page);
  await dialog.getByRole('combobox', { name: 'Field' }).selectOption({ label: 'Description' });
  if (services === '') {
    await dialog.getByRole('radio', { name: 'Clear it' }).click();
    await dialog.getByRole('button', { name: 'Preview' }).click();
  } else {
    await dialog.getByRole('textbox', { name: 'Description' }).fill(services);
    await dialog.getByRole('button', { name: 'Use this value' }).click();
  }
  await expect(dialog.getByTestId('bulk-preview').getByRole('status')).toBeVisible();
  await dialog.getByRole('button', { name: /^Queue \d+ changes?$/ }).click();
  await expect(dialog.getByTestId('bulk-applied')).toBeVisible();
  await page.keyboard.press('Escape');

  await openSection(page, 'Outbox');
  const group = page.getByTestId('bulk-group');
  await expect(group).toHaveCount(1);
  await expect(group).toContainText(
    "1 of your queued edits set back to the service's value (Undo queues it again)",
  );
  await expect(group).toContainText(/(?<!\d)(1 Assets record|[23] Assets records) · /);
  await bothThemes(page, page.locator('.outbox-bulk'), 'outbox-bulk-group-set-back');

  await group.getByRole('button', { name: /^Undo the bulk edit/ }).click();
  await expect(page.getByTestId('bulk-group')).toHaveCount(0);
  // My edit waits again, as I made it (the restores the test before queued wait beside it).
  const waiting = page.getByRole('region', { name: /Waiting to be sent/ });
  await expect(
    waiting.getByTestId('outbox-entry').filter({ hasText: 'Mine, queued before the bulk edit' }),
  ).toHaveCount(1);
});
