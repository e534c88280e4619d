/**
 * Issue 20, the open states: axe over what a view shows once something is open or has gone wrong
 * (a dialog's later steps, a confirmation, a refusal beside its control, a per-field decision),
 * in the light and the dark theme, no serious or critical violation allowed. The views around
 * them are `accessibility.spec.ts`'s; each state here is audited within its own part of the page
 * (`scope`), which keeps the walk quick.
 *
 * One web mode, one page: each state is reached from where the one before it left the page.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { THEMES, audit } from './axeAudit';
import {
  ENGINE_TIMEOUT_MS,
  detail,
  enterDemo,
  firstRow,
  openSection,
  setWorkOffline,
} from './demoWalk';
import { startWebMode, type RunningWebMode } from './webMode';

interface OpenState {
  name: string;
  /** The part of the page the state changed, as a CSS selector (the whole page without it). */
  scope?: string;
  /** Brings the page to this state from where the entry before it left it. */
  open(page: Page): Promise<void>;
  /** Undoes what the next entries must not meet (a dialog left open, Work offline on). */
  close?(page: Page): Promise<void>;
}

const bulkEdit = (page: Page) => page.getByRole('dialog', { name: 'Bulk edit' });
const nameEditor = (page: Page) =>
  page.getByTestId('record-editor').locator('.field-editor[data-field="name"]');
const fieldsSection = (page: Page) => page.getByRole('region', { name: 'Fields of a module' });

/**
 * By the keyboard alone: Tab past the dialog's last control and Shift+Tab past its first keep the
 * focus in it (a stop more than it has each way), Escape closes it, and the focus is back on the
 * control that opened it. A native modal `<dialog>` makes the page behind it inert, and the
 * browser's own controls are its stop between the last and the first (none in the desktop
 * window): there the focus may leave the page, never for an element behind the dialog.
 */
async function expectKeyboardDialog(
  page: Page,
  dialog: Locator,
  opener: Locator,
  { native = false } = {},
): Promise<void> {
  const stops = await dialog.locator('button, input, select, textarea, [href]').count();
  for (const key of ['Tab', 'Shift+Tab']) {
    for (let press = 1; press <= stops + 1; press++) {
      await page.keyboard.press(key);
      const inside = await dialog.locator(':focus').count();
      const anywhere = await page.locator(':focus').count();
      expect(anywhere, `${key} ${press}: the focus is behind the dialog`).toBe(inside);
      if (!native) expect(inside, `${key} ${press}: the focus left the dialog`).toBe(1);
    }
  }
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(opener).toBeFocused();
}

const STATES: OpenState[] = [
  {
    name: 'sign-in refused beside the grant code',
    scope: '.first-run',
    open: async (page) => {
      const card = page.getByRole('region', { name: 'Self Client code' });
      await card.getByRole('button', { name: 'Exchange the code' }).click();
      await expect(card.getByLabel('Grant code')).toHaveAttribute('aria-invalid', 'true');
    },
    close: enterDemo,
  },
  {
    name: 'accounts dialog',
    scope: '.accounts-dialog',
    open: async (page) => {
      await page.getByRole('button', { name: 'Accounts…' }).click();
      await expect(page.getByRole('dialog', { name: 'Accounts' })).toBeVisible();
    },
    close: (page) =>
      expectKeyboardDialog(
        page,
        page.getByRole('dialog', { name: 'Accounts' }),
        page.getByRole('button', { name: 'Accounts…' }),
        { native: true },
      ),
  },
  {
    name: 'bulk edit previewed',
    scope: '#records-bulk-edit',
    open: async (page) => {
      await firstRow(page).click();
      await page.keyboard.press('Control+a');
      await page.getByRole('button', { name: 'Bulk edit…' }).click();
      const dialog = bulkEdit(page);
      await dialog.getByRole('combobox', { name: 'Field' }).selectOption({ label: 'Description' });
      await dialog.getByRole('radio', { name: 'Clear it' }).click();
      await dialog.getByRole('button', { name: 'Preview' }).click();
      await expect(dialog.getByTestId('bulk-preview')).toBeVisible({ timeout: ENGINE_TIMEOUT_MS });
    },
  },
  {
    name: 'bulk move to the recycle bin, asked',
    scope: '#records-bulk-edit',
    open: async (page) => {
      const dialog = bulkEdit(page);
      await dialog.getByRole('button', { name: /to the recycle bin…$/ }).click();
      await expect(dialog.getByRole('button', { name: 'Move to the recycle bin' })).toBeVisible({
        timeout: ENGINE_TIMEOUT_MS,
      });
    },
    close: async (page) => {
      await bulkEdit(page).getByRole('button', { name: 'Keep them' }).click();
      await expectKeyboardDialog(
        page,
        bulkEdit(page),
        page.getByRole('button', { name: 'Bulk edit…' }),
      );
    },
  },
  {
    name: 'import: columns mapped, a row failing',
    scope: '#records-import',
    open: async (page) => {
      await page.getByRole('button', { name: 'Import', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Import' });
      const id = await firstRow(page).getAttribute('data-record-id');
      await dialog.getByLabel('File').setInputFiles({
        name: 'names.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(`ID,Name,Unknown column\r\n${id},Renamed,x\r\n999,Nobody,y\r\n`),
      });
      await expect(dialog.getByRole('combobox', { name: 'Field for column Name' })).toBeVisible();
      await dialog.getByRole('button', { name: 'Check rows' }).click();
      await expect(dialog.getByRole('table', { name: 'Rows that fail (not queued)' })).toBeVisible({
        timeout: ENGINE_TIMEOUT_MS,
      });
    },
    close: (page) =>
      expectKeyboardDialog(
        page,
        page.getByRole('dialog', { name: 'Import' }),
        page.getByRole('button', { name: 'Import', exact: true }),
      ),
  },
  {
    name: 'recycle bin, delete for good asked',
    scope: '#records-recycle-bin',
    open: async (page) => {
      // The demo's bin starts empty: the first record goes there (queued, then sent).
      await firstRow(page).click();
      await page.getByRole('button', { name: 'Bulk edit…' }).click();
      await bulkEdit(page).getByRole('button', { name: 'Move it to the recycle bin…' }).click();
      await bulkEdit(page).getByRole('button', { name: 'Move to the recycle bin' }).click();
      await expect(bulkEdit(page).getByText(/queued to move to the recycle bin/)).toBeVisible({
        timeout: ENGINE_TIMEOUT_MS,
      });
      await page.keyboard.press('Escape');
      const button = page.getByRole('button', { name: 'Recycle bin', exact: true });
      const bin = page.getByRole('dialog', { name: 'Recycle bin' });
      const ask = bin.getByRole('button', { name: 'Delete for good…' }).first();
      await expect(async () => {
        if ((await bin.count()) > 0) await button.click();
        await button.click();
        await expect(ask).toBeVisible({ timeout: 2_000 });
      }).toPass({ timeout: ENGINE_TIMEOUT_MS });
      await ask.click();
      await expect(bin.getByRole('button', { name: 'Delete for good', exact: true })).toBeFocused();
    },
    close: (page) =>
      expectKeyboardDialog(
        page,
        page.getByRole('dialog', { name: 'Recycle bin' }),
        page.getByRole('button', { name: 'Recycle bin', exact: true }),
      ),
  },
  {
    name: 'record editor: a field refused beside its box',
    scope: '[data-testid="record-detail"]',
    open: async (page) => {
      await firstRow(page).click();
      const edit = detail(page).locator('.record-detail__edit');
      await edit.click();
      await expect(edit).toHaveAttribute('aria-pressed', 'true');
      const input = nameEditor(page).getByRole('textbox');
      await input.fill('');
      await expect(input).toHaveAttribute('aria-invalid', 'true');
      await expect(nameEditor(page).getByRole('alert')).toBeVisible();
    },
    close: async (page) => {
      await nameEditor(page).getByRole('button', { name: 'Undo' }).click();
      await expect(nameEditor(page).getByRole('textbox')).not.toHaveAttribute('aria-invalid');
    },
  },
  {
    name: 'conflicts: a field decided by hand',
    scope: '.content__body',
    open: async (page) => {
      // Renamed offline, then by the demo's colleague on the service: replayed, it conflicts.
      await setWorkOffline(page, true);
      await openSection(page, 'Records');
      await firstRow(page).click();
      const edit = detail(page).locator('.record-detail__edit');
      if ((await edit.getAttribute('aria-pressed')) !== 'true') await edit.click();
      const input = nameEditor(page).getByRole('textbox');
      await input.fill(`${await input.inputValue()} (checked)`);
      await nameEditor(page).getByRole('button', { name: 'Save' }).click();
      await expect(nameEditor(page).getByTestId('pending-mark')).toBeVisible();
      const demo = detail(page).getByTestId('demo-change');
      await demo.getByRole('button', { name: 'Change this record on the server' }).click();
      await expect(demo.getByTestId('demo-change-done')).toBeVisible();
      await setWorkOffline(page, false);
      const panel = page.getByTestId('conflict-panel');
      await expect(panel).toBeVisible({ timeout: ENGINE_TIMEOUT_MS });
      await panel.getByRole('radio', { name: 'Edit' }).first().check();
      await expect(panel.getByRole('textbox').first()).toBeVisible();
    },
  },
  {
    name: 'configure offline: the banner, a new field refused',
    scope: '.content__body',
    open: async (page) => {
      await setWorkOffline(page, true);
      await openSection(page, 'Configure');
      await expect(page.locator('.configure-queued')).toBeVisible({ timeout: ENGINE_TIMEOUT_MS });
      const section = fieldsSection(page);
      await section.getByRole('button', { name: 'New field' }).click();
      const form = section.getByRole('form', { name: 'New field' });
      await form.getByLabel('Type', { exact: true }).selectOption('currency');
      await form.getByRole('button', { name: 'Create field' }).click();
      await expect(form.getByLabel('Name', { exact: true })).toHaveAttribute(
        'aria-invalid',
        'true',
      );
    },
  },
  {
    name: 'configure: an option being renamed',
    scope: '[aria-label="Fields of a module"]',
    open: async (page) => {
      const section = fieldsSection(page);
      await section
        .getByRole('button', { name: /^Options of / })
        .first()
        .click();
      await section
        .getByRole('button', { name: /^Rename / })
        .first()
        .click();
      await expect(section.getByRole('button', { name: 'Rename', exact: true })).toBeVisible();
    },
  },
  {
    name: 'configure: a layout with its sections and preview',
    scope: '.content__body',
    open: async (page) => {
      const layouts = page.locator('section', {
        has: page.getByRole('heading', { level: 2, name: 'Layouts' }),
      });
      await layouts
        .getByRole('button', { name: /Sections and preview/ })
        .first()
        .click();
      await expect(layouts.getByRole('complementary', { name: /^Preview: / })).toBeVisible();
    },
    close: (page) => setWorkOffline(page, false),
  },
  {
    name: 'overview charts',
    scope: '[data-testid="overview-view"]',
    open: async (page) => {
      await openSection(page, 'Overview');
      await expect(page.getByTestId('overview-modules').getByRole('button').first()).toBeVisible({
        timeout: ENGINE_TIMEOUT_MS,
      });
    },
  },
  {
    name: 'backup made, with its progress',
    scope: '.content__body',
    open: async (page) => {
      await openSection(page, 'Backups');
      const form = page.getByRole('form', { name: 'Back up now' }).first();
      await form
        .getByLabel("Access code (the backup's password)")
        .fill('correct horse battery staple');
      await form.getByRole('button', { name: 'Back up' }).click();
      await expect(page.locator('tr.backup-row').first()).toBeVisible({
        timeout: ENGINE_TIMEOUT_MS,
      });
    },
  },
  {
    name: 'router: a rule refused beside Save',
    scope: '.content__body',
    open: async (page) => {
      await openSection(page, 'Event router');
      await page.getByRole('tab', { name: 'Rules' }).click();
      await page.getByRole('button', { name: 'New rule' }).click();
      const form = page.getByRole('form', { name: 'Rule' });
      await form.getByRole('button', { name: 'Save rule' }).click();
      await expect(form.getByRole('alert')).toBeVisible();
    },
  },
];

let app: RunningWebMode;
test.beforeEach(async () => {
  app = await startWebMode();
});
test.afterEach(async () => {
  await app.stop();
});

test('open dialogs, confirmations and refusals have no serious or critical axe violation in either theme', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(app.url);
  for (const state of STATES) {
    await test.step(state.name, async () => {
      await state.open(page);
      const found = await audit(page, state.name, state.scope);
      for (const theme of THEMES) {
        await page.emulateMedia({ colorScheme: theme });
        await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
        const slug = state.name.replace(/[^a-z]+/gi, '-').toLowerCase();
        await page.screenshot({ path: `test-results/a11y-state-${slug}-${theme}.png` });
      }
      await page.emulateMedia({ colorScheme: 'light' });
      // Soft: every state is still reached and audited, so one run lists everything to fix.
      expect.soft(found, JSON.stringify(found, null, 2)).toEqual([]);
      await state.close?.(page);
    });
  }
});
