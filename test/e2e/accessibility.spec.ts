/**
 * Issue 20, "Everyone can use it": axe (WCAG 2.0/2.1 A and AA) over every view of the app in the
 * light and the dark theme, with no serious or critical violation allowed; then a Tab walk through
 * the main views in which the focus is always visible and never falls back to the page's body.
 *
 * One web mode serves the whole walk (the demo portal, whose service runs inside the app): each
 * view is reached from the state the one before it left, so a view is one entry in `VIEWS`
 * (docs/accessibility.md says how to add one).
 */
import { expect, test, type Page } from '@playwright/test';
import { audit, type Finding } from './axeAudit';
import {
  ENGINE_TIMEOUT_MS,
  detail,
  firstRow,
  heading,
  nav,
  openSection,
  setWorkOffline,
} from './demoWalk';
import { startWebMode, type RunningWebMode } from './webMode';

interface View {
  name: string;
  /** Brings the page to this view from where the entry before it left it. */
  open(page: Page): Promise<void>;
}

/** Every view of the app, in the order the walk reaches them. */
const VIEWS: View[] = [
  {
    name: 'first run',
    open: async (page) => {
      await expect(page.getByRole('button', { name: 'Try the demo portal' })).toBeVisible();
    },
  },
  {
    name: 'records',
    open: async (page) => {
      await page.getByRole('button', { name: 'Try the demo portal' }).click();
      await expect(heading(page, 'Records')).toBeVisible({ timeout: ENGINE_TIMEOUT_MS });
      await expect(firstRow(page)).toBeVisible({ timeout: ENGINE_TIMEOUT_MS });
    },
  },
  {
    name: 'bulk edit',
    open: async (page) => {
      // Every record of the module selected, a field cleared, previewed (nothing queued).
      await firstRow(page).click();
      await page.keyboard.press('Control+a');
      const button = page.getByRole('button', { name: 'Bulk edit…' });
      await button.click();
      const dialog = page.getByRole('dialog', { name: 'Bulk edit' });
      await dialog.getByRole('combobox', { name: 'Field' }).selectOption({ label: 'Description' });
      await dialog.getByRole('radio', { name: 'Clear it' }).click();
      await dialog.getByRole('button', { name: 'Preview' }).click();
      await expect(dialog.getByTestId('bulk-preview')).toBeVisible({ timeout: ENGINE_TIMEOUT_MS });
      afterAudit = () => button.click();
    },
  },
  {
    name: 'import',
    open: async (page) => {
      // A CSV of the module's names, its columns mapped and its rows checked (nothing queued).
      const button = page.getByRole('button', { name: 'Import', exact: true });
      await button.click();
      const dialog = page.getByRole('dialog', { name: 'Import' });
      const name = (await firstRow(page).getByRole('gridcell').first().innerText()).trim();
      const id = await firstRow(page).getAttribute('data-record-id');
      await dialog.getByLabel('File').setInputFiles({
        name: 'names.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(`ID,Name,Unknown column\r\n${id},"${name} (imported)",x\r\n`),
      });
      await dialog.getByRole('button', { name: 'Check rows' }).click();
      await expect(dialog.getByRole('status')).toBeVisible({ timeout: ENGINE_TIMEOUT_MS });
      afterAudit = () => button.click();
    },
  },
  {
    name: 'export',
    open: async (page) => {
      // An export started from the keyboard: its button disabled while it runs, the focus stays
      // in the popover (not on the body, where Escape and Tab would find no popover).
      const button = page.getByRole('button', { name: 'Export', exact: true });
      await button.click();
      const dialog = page.getByRole('dialog', { name: 'Export' });
      await expect(dialog.getByRole('radio', { name: 'CSV (UTF-8)' })).toBeFocused();
      await dialog.getByRole('button', { name: 'Export', exact: true }).focus();
      await page.keyboard.press('Enter');
      await expect(dialog.getByRole('link', { name: /^Download / })).toBeVisible({
        timeout: ENGINE_TIMEOUT_MS,
      });
      await expect(page.locator('#records-export:focus, #records-export :focus')).toHaveCount(1);
      afterAudit = async () => {
        await page.keyboard.press('Escape');
        await expect(dialog).toHaveCount(0);
        await expect(button).toBeFocused();
      };
    },
  },
  {
    name: 'record panel',
    open: async (page) => {
      await firstRow(page).click();
      await expect(detail(page).getByRole('heading', { level: 2 })).toBeVisible();
      await expect(detail(page).getByRole('heading', { name: 'Status timeline' })).toBeVisible();
    },
  },
  {
    name: 'editor',
    open: async (page) => {
      const edit = detail(page).locator('.record-detail__edit');
      await edit.click();
      await expect(edit).toHaveAttribute('aria-pressed', 'true');
      await expect(page.getByTestId('record-editor')).toBeVisible();
    },
  },
  {
    name: 'outbox',
    open: async (page) => {
      // An edit made offline waits in the Outbox.
      await setWorkOffline(page, true);
      await openSection(page, 'Records');
      const edit = detail(page).locator('.record-detail__edit');
      if ((await edit.getAttribute('aria-pressed')) !== 'true') await edit.click();
      const row = page.getByTestId('record-editor').locator('.field-editor[data-field="name"]');
      const input = row.getByRole('textbox');
      await input.fill(`${await input.inputValue()} (checked)`);
      await row.getByRole('button', { name: 'Save' }).click();
      await expect(row.getByTestId('pending-mark')).toBeVisible();
      await openSection(page, 'Outbox');
      await expect(page.getByTestId('outbox-count')).toContainText('Outbox: 1 to send');
    },
  },
  {
    name: 'conflicts',
    open: async (page) => {
      // The demo's colleague renames the record on the service: replayed, the edit conflicts.
      await openSection(page, 'Records');
      const demo = detail(page).getByTestId('demo-change');
      await demo.getByRole('button', { name: 'Change this record on the server' }).click();
      await expect(demo.getByTestId('demo-change-done')).toBeVisible();
      await setWorkOffline(page, false);
      await expect(page.getByTestId('outbox-count')).toHaveText('Outbox: 1 conflict', {
        timeout: ENGINE_TIMEOUT_MS,
      });
      await expect(page.getByTestId('conflict-panel')).toBeVisible();
    },
  },
  {
    name: 'sync',
    open: async (page) => {
      await openSection(page, 'Sync');
      await expect(page.getByTestId('sync-log').getByText('Done').first()).toBeVisible({
        timeout: ENGINE_TIMEOUT_MS,
      });
    },
  },
  {
    name: 'backups',
    open: async (page) => {
      await openSection(page, 'Backups');
      await expect(page.getByRole('form', { name: 'Back up now' }).first()).toBeVisible({
        timeout: ENGINE_TIMEOUT_MS,
      });
    },
  },
  {
    name: 'configure',
    open: async (page) => {
      await openSection(page, 'Configure');
      await expect(page.getByRole('button', { name: 'New module' })).toBeVisible({
        timeout: ENGINE_TIMEOUT_MS,
      });
      // The module's layouts, with their sections' Move up and Move down.
      await expect(page.locator('button[data-move]').first()).toBeVisible({
        timeout: ENGINE_TIMEOUT_MS,
      });
    },
  },
  {
    name: 'router',
    open: async (page) => {
      await openSection(page, 'Event router');
      // The demo's sign-in and syncs are events of the built-in publishers.
      await expect(page.getByText(/^\d+ events?$/)).toBeVisible({ timeout: ENGINE_TIMEOUT_MS });
    },
  },
  {
    name: 'settings',
    open: async (page) => {
      await openSection(page, 'Settings');
    },
  },
];

let app: RunningWebMode;
/** What a view that opened a popover does once audited, so the next view starts from the page. */
let afterAudit: (() => Promise<void>) | null = null;
test.beforeEach(async () => {
  app = await startWebMode();
});
test.afterEach(async () => {
  await app.stop();
});

test('every view has no serious or critical axe violation in the light and the dark theme', async ({
  page,
}) => {
  // Each whole-page run takes seconds on a busy machine (the records grid is large).
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(app.url);
  const findings: Finding[] = [];
  for (const view of VIEWS) {
    await test.step(view.name, async () => {
      await view.open(page);
      findings.push(...(await audit(page, view.name)));
      await afterAudit?.();
      afterAudit = null;
    });
  }
  // All of them at once, each with its elements: one run says everything there is to fix.
  expect(findings, JSON.stringify(findings, null, 2)).toEqual([]);
});

/** The parts of the page's DOM the focus check reads (e2e files compile without the DOM lib). */
interface El {
  tagName: string;
  tabIndex: number;
  outerHTML: string;
  nextElementSibling: El | null;
  matches(selector: string): boolean;
  getClientRects(): { length: number };
}
interface InPage {
  document: {
    activeElement: El | null;
    body: El;
    documentElement: El;
    querySelectorAll(selector: string): Iterable<El>;
  };
  getComputedStyle(el: El): { outlineStyle: string; outlineWidth: string; boxShadow: string };
  a11yLastFocused?: El;
}

type FocusState =
  | { kind: 'element'; what: string; visible: boolean }
  /** Tab went past the page's last stop (the browser's own wrap, not a loss). */
  | { kind: 'end' }
  | { kind: 'lost'; after: string };

/** Where the focus is after a key: an element and whether a ring shows it, the page's end, or lost. */
async function focusState(page: Page): Promise<FocusState> {
  return page.evaluate((): FocusState => {
    const inPage = globalThis as unknown as InPage;
    const { document, getComputedStyle } = inPage;
    const describe = (el: El | undefined) =>
      el ? el.outerHTML.slice(0, 160) : 'nothing focused before';
    const el = document.activeElement;
    const last = inPage.a11yLastFocused;
    if (!el || el === document.body || el === document.documentElement) {
      const stops = [
        ...document.querySelectorAll(
          'a[href], button, input, select, textarea, summary, [tabindex]',
        ),
      ].filter(
        (candidate) =>
          candidate.tabIndex >= 0 &&
          !candidate.matches(':disabled') &&
          candidate.getClientRects().length > 0,
      );
      return last !== undefined && stops[stops.length - 1] === last
        ? { kind: 'end' }
        : { kind: 'lost', after: describe(last) };
    }
    inPage.a11yLastFocused = el;
    const ring = (target: El) => {
      const style = getComputedStyle(target);
      return (
        (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2) ||
        style.boxShadow !== 'none'
      );
    };
    // A box or radio drawn by the span after it shows the ring there.
    const drawnBy = el.matches('input:is([type="checkbox"], [type="radio"])')
      ? el.nextElementSibling
      : null;
    return {
      kind: 'element',
      what: describe(el),
      visible: ring(el) || (drawnBy !== null && ring(drawnBy)),
    };
  });
}

/** The main views the Tab walk goes through, each opened from the sidebar. */
const TAB_WALK = ['Records', 'Outbox', 'Sync', 'Backups', 'Configure', 'Event router', 'Settings'];
/** Tabs per view: past the sidebar and the records toolbar and header, into the view's own. */
const TABS_PER_VIEW = 60;

test('Tab walks every main view with the focus always visible and never on the body', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(app.url);
  await page.getByRole('button', { name: 'Try the demo portal' }).click();
  await expect(firstRow(page)).toBeVisible({ timeout: ENGINE_TIMEOUT_MS });

  const lost: string[] = [];
  for (const section of TAB_WALK) {
    const button = nav(page).getByRole('button', { name: section, exact: true });
    await button.click();
    await expect(heading(page, section)).toBeVisible();
    await button.focus();
    for (let tab = 1; tab <= TABS_PER_VIEW; tab++) {
      await page.keyboard.press('Tab');
      const state = await focusState(page);
      if (state.kind === 'end') break;
      if (state.kind === 'lost')
        lost.push(`${section}, Tab ${tab}: on the body after ${state.after}`);
      else if (!state.visible)
        lost.push(`${section}, Tab ${tab}: no visible focus on ${state.what}`);
    }
  }
  expect(lost).toEqual([]);

  // The records table is one tab stop: a cell, moved by the arrows, its row and column announced.
  await nav(page).getByRole('button', { name: 'Records', exact: true }).click();
  const grid = page.getByRole('grid', { name: /records$/ });
  await grid.focus();
  const cell = () => page.locator(':focus');
  await expect(cell()).toHaveAttribute('role', 'gridcell');
  await expect(cell()).toHaveAttribute('aria-colindex', '1');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowRight');
  await expect(cell()).toHaveAttribute('aria-colindex', '2');
  await expect(cell().locator('xpath=..')).toHaveAttribute('aria-rowindex', '3');
  expect(await focusState(page)).toMatchObject({ kind: 'element', visible: true });
  await page.keyboard.press('Control+End');
  await expect(cell().locator('xpath=..')).toHaveAttribute(
    'aria-rowindex',
    (await grid.getAttribute('aria-rowcount')) ?? '',
  );
  await page.keyboard.press('Control+Home');
  await expect(cell().locator('xpath=..')).toHaveAttribute('aria-rowindex', '2');
  expect(await grid.locator('[tabindex="0"]').count()).toBe(1);
  // ArrowUp from the first record reaches the header (its sort button), ringed too.
  await page.keyboard.press('ArrowUp');
  await expect(cell().locator('xpath=ancestor::*[@role="columnheader"]')).toHaveAttribute(
    'aria-colindex',
    '1',
  );
  expect(await focusState(page)).toMatchObject({ kind: 'element', visible: true });
  // Along the header to its last column: the body scrolls with the header, so each header
  // stays over its own column's cells.
  await page.keyboard.press('End');
  const scrolls = () =>
    grid.evaluate((element) => ({
      header: element.querySelector('.grid-header')!.scrollLeft,
      body: element.querySelector('.grid-body')!.scrollLeft,
    }));
  await expect.poll(async () => (await scrolls()).header).toBeGreaterThan(0);
  await expect.poll(async () => (await scrolls()).body).toBe((await scrolls()).header);
  await page.keyboard.press('Home');
  await page.screenshot({ path: 'test-results/a11y-grid-header-focus.png' });
  await page.keyboard.press('ArrowDown');
  await expect(cell()).toHaveAttribute('role', 'gridcell');
  // Enter opens the record; Escape closes it.
  await page.keyboard.press('Enter');
  await expect(detail(page).getByRole('heading', { level: 2 })).toBeVisible();
  await page.screenshot({ path: 'test-results/a11y-grid-focus.png' });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: 'test-results/a11y-grid-focus-dark.png' });
  await page.emulateMedia({ colorScheme: 'light' });

  // The panel closed from inside hands the focus back to the table's cell, not to the body.
  await detail(page).getByRole('button', { name: 'Close details (Esc)' }).focus();
  await page.keyboard.press('Enter');
  await expect(detail(page)).toHaveCount(0);
  await expect(cell()).toHaveAttribute('role', 'gridcell');
  await expect(cell().locator('xpath=..')).toHaveAttribute('aria-rowindex', '2');

  // Scrolled far from it, the focused row stays rendered and focused, and the page holds the rows
  // in row order (browse mode reads them so): the pinned row before the window's rows.
  const body = grid.locator('.grid-body');
  await body.evaluate((element) => {
    element.scrollTop = element.scrollHeight / 2;
  });
  await expect(grid.locator('[aria-rowindex="2"]')).toHaveCount(1);
  await expect(grid.locator('.grid-body [role="row"]')).not.toHaveCount(1);
  await expect(cell().locator('xpath=..')).toHaveAttribute('aria-rowindex', '2');
  const order = await grid
    .locator('.grid-body [role="row"]')
    .evaluateAll((rows) => rows.map((row) => Number(row.getAttribute('aria-rowindex'))));
  expect(order.length).toBeGreaterThan(2);
  expect(order).toEqual([...order].sort((a, b) => a - b));
  await body.evaluate((element) => {
    element.scrollTop = 0;
  });
  await expect(cell().locator('xpath=..')).toHaveAttribute('aria-rowindex', '2');
  expect(await focusState(page)).toMatchObject({ kind: 'element', visible: true });
});
