import { expect, test, type Page } from '@playwright/test';
import { naturalCompare } from '@portaldesk/portal-api/domain/naturalOrder';
import {
  assetRows,
  assetsGrid,
  openWorkspace,
  recordsTotal,
  useRecordsMirror,
} from './recordsMirror';

/** Records in the mirror: several screens, so the table is virtualised and fed in windows. */
const RECORDS = 3000;

const app = useRecordsMirror('records', RECORDS);

test('a module opens with its records; filter, sort and saved filters change the list', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1400, height: 860 });
  await openWorkspace(page, app().url);

  const nav = page.getByRole('navigation', { name: 'Sections' });
  await expect(nav.getByRole('button', { name: /Assets\s*3,000/ })).toBeVisible();
  await expect(nav.getByLabel('Portal', { exact: true })).toHaveValue('1000000000001');
  await expect(recordsTotal(page)).toHaveText('3,000 records');
  await expect(assetRows(page).first()).toContainText('Samsung phone #1');
  // Only a screenful of rows exists in the page, not 3,000.
  expect(await assetsGrid(page).locator('.grid-row').count()).toBeLessThan(80);
  await page.screenshot({ path: 'test-results/records-table.png' });

  // Scroll to the end: the last rows are fetched on demand.
  await assetsGrid(page).focus();
  await page.keyboard.press('Control+End');
  await expect(assetsGrid(page).locator('[data-record-id="1100000003000"]')).toBeVisible();
  await page.keyboard.press('Control+Home');

  // Filter: a status preset, then a second criterion and a pattern.
  await page.getByRole('button', { name: 'Filter' }).click();
  await page.getByLabel('Add a preset').selectOption({ label: 'Status is closed' });
  await expect(page.getByTestId('applied-filter')).toContainText('Status is all closed');
  await expect(recordsTotal(page)).not.toHaveText('3,000 records');
  const closedCount = await recordsTotal(page).textContent();
  for (const text of await assetRows(page).locator('.status-chip').allTextContents()) {
    expect(['Retired', 'Lost']).toContain(text.trim());
  }

  await page.getByRole('button', { name: '+ Add criterion' }).click();
  await page.getByLabel('Field of criterion 2').selectOption({ label: 'Category' });
  // No value yet: the criterion says what it waits for and the list keeps the last valid filter.
  await expect(page.getByTestId('criterion-2')).toContainText('Waiting for a value');
  await expect(page.getByTestId('criterion-2').getByRole('alert')).toHaveCount(0);
  await expect(page.getByTestId('filter-explain')).toHaveText(
    'The list changes once criterion 2 has a value.',
  );
  await expect(recordsTotal(page)).toHaveText(closedCount ?? '');
  await page.screenshot({ path: 'test-results/records-filter-waiting.png' });
  await page.getByLabel('Values of criterion 2').selectOption('Network');
  await expect(page.getByTestId('applied-filter')).toContainText(
    'Status is all closed AND Category is "Network"',
  );
  const pattern = page.getByLabel('Pattern');
  await pattern.fill('1 AND 3');
  await expect(page.getByText(/The pattern .*3.*/)).toBeVisible();
  await expect(pattern).toHaveAttribute('aria-invalid', 'true');
  await pattern.fill('1 OR 2');
  await expect(page.getByTestId('applied-filter')).toContainText(
    'Status is all closed OR Category is "Network"',
  );
  await expect(page.getByTestId('filter-json')).toHaveText(
    JSON.stringify({
      criteria: [
        { field_name: 'status', criteria_condition: 'all_closed' },
        { field_name: 'cf_category', criteria_condition: 'is', value: ['Network'] },
      ],
      pattern: '1 OR 2',
    }),
  );
  await page.screenshot({ path: 'test-results/records-filter.png' });

  await page.getByLabel('Name for this filter').fill('Closed or network');
  await page.getByRole('button', { name: 'Save filter' }).click();
  await expect(page.getByText('Saved as "Closed or network".')).toBeVisible();
  await page.getByRole('button', { name: 'Clear', exact: true }).click();
  await expect(recordsTotal(page)).toHaveText('3,000 records');
  await page.getByRole('button', { name: 'Closed or network', exact: true }).click();
  await expect(page.getByTestId('applied-filter')).toContainText('OR Category is "Network"');
  await page.getByRole('button', { name: 'Clear', exact: true }).click();
  await page.getByRole('button', { name: /^Filter/ }).click();

  // Sort by name, both ways; numbers inside names by value ('#148' before '#1014', issue 19).
  const header = page.getByRole('columnheader', { name: 'Asset name' });
  await header.getByRole('button').click();
  await expect(header).toHaveAttribute('aria-sort', 'ascending');
  await expect(assetRows(page).first()).toContainText(/^Apple/);
  const names = (await assetRows(page).locator('.grid-cell:first-child').allTextContents()).map(
    (n) => n.trim(),
  );
  expect(names.length).toBeGreaterThan(10);
  expect(names).toEqual([...names].sort(naturalCompare));
  expect(names).not.toEqual([...names].sort());
  await header.getByRole('button').click();
  await expect(header).toHaveAttribute('aria-sort', 'descending');
  await expect(assetRows(page).first()).toContainText(/^Ubiquiti/);
  await page.screenshot({ path: 'test-results/records-sorted.png' });

  // Sort by a currency: by currency, then amount; the header's tooltip names the currencies.
  const cost = page.getByRole('columnheader', { name: 'Cost' });
  await expect(cost.getByRole('button')).toHaveAttribute(
    'title',
    'Sort by Cost: by currency, then amount',
  );
  await cost.getByRole('button').click();
  await expect(cost).toHaveAttribute('aria-sort', 'ascending');
  await expect(cost.getByRole('button')).toHaveAttribute(
    'title',
    /^Sorted by currency, then amount\. Currenc(y|ies) shown: EUR(, [A-Z]{3})*\.$/,
  );
  const column = (await page.getByRole('columnheader').allTextContents()).findIndex((t) =>
    t.startsWith('Cost'),
  );
  const costs = (
    await assetRows(page)
      .locator(`.grid-cell:nth-child(${column + 1})`)
      .allTextContents()
  ).map((text) => text.trim());
  const filled = costs.filter((text) => text !== '');
  expect(filled[0]).toMatch(/^EUR\s/);
  // "EUR 221.24", the space possibly a no-break one.
  const amounts = filled.map((text) => Number(text.slice(3).replace(/[^\d.-]/g, '')));
  const codes = filled.map((text) => text.slice(0, 3));
  expect(codes).toEqual([...codes].sort());
  amounts.forEach((amount, i) => {
    if (i > 0 && codes[i] === codes[i - 1]) expect(amount).toBeGreaterThanOrEqual(amounts[i - 1]!);
  });
  await assetsGrid(page).screenshot({ path: 'test-results/records-sorted-by-cost.png' });
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await assetsGrid(page).screenshot({ path: 'test-results/records-sorted-by-cost-dark.png' });
  await page.emulateMedia({ colorScheme: 'light' });

  // A column can be hidden and the choice survives a reload.
  await page.getByRole('button', { name: /^Columns/ }).click();
  await page.getByRole('checkbox', { name: 'Owner' }).uncheck();
  await expect(page.getByRole('columnheader', { name: 'Owner' })).toHaveCount(0);
  await page.reload();
  await expect(recordsTotal(page)).toHaveText('3,000 records');
  await expect(page.getByRole('columnheader', { name: 'Status' })).toBeVisible();
  await expect(page.getByRole('columnheader', { name: 'Owner' })).toHaveCount(0);
});

test('search, keyboard, a record with comments, one without and one in the recycle bin', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1400, height: 860 });
  await openWorkspace(page, app().url);
  await expect(recordsTotal(page)).toHaveText('3,000 records');

  // Keyboard: arrows move, Enter opens; the panel shows sections, timeline and comments.
  await assetsGrid(page).focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  const detail = page.getByTestId('record-detail');
  await expect(detail.getByRole('heading', { level: 2 })).toHaveText('Ubiquiti router #2');
  await expect(detail.getByRole('region', { name: 'Details' })).toContainText('Serial number');
  await expect(detail.getByRole('heading', { name: /Comments \([1-3]\)/ })).toBeVisible();
  await expect(detail.locator('.comment').first()).toContainText(/Mar \d, 2026/);
  await expect(detail.locator('.comment__attachments').first()).toContainText('2 attachments');
  await expect(detail.locator('.timeline li')).toContainText('In Stock → Assigned');
  await page.screenshot({ path: 'test-results/records-detail.png' });

  // Record #3's comments were never read: the panel says so and offers to fetch them.
  await page.keyboard.press('ArrowDown');
  await expect(detail.getByRole('heading', { level: 2 })).toHaveText('Logitech router #3');
  await expect(detail.getByTestId('comments-not-mirrored')).toContainText(
    'Comments not mirrored yet',
  );
  await detail.getByRole('button', { name: 'Fetch now' }).click();
  // Nobody is signed in here: the answer says why and what to do.
  await expect(detail.getByTestId('comments-not-mirrored').getByRole('alert')).toContainText(
    'sign in',
  );
  await page.keyboard.press('Escape');

  // Shift+arrows select several rows.
  await assetsGrid(page).focus();
  await page.keyboard.press('Shift+ArrowDown');
  await page.keyboard.press('Shift+ArrowDown');
  await expect(page.getByText('3 selected')).toBeVisible();

  // `/` focuses search; hits are highlighted; Enter opens the first.
  await page.keyboard.press('/');
  await expect(page.getByRole('combobox', { name: 'Search records' })).toBeFocused();
  await page.keyboard.type('munchen');
  const results = page.getByRole('listbox', { name: 'Search results' });
  await expect(results.getByRole('option').first()).toBeVisible();
  await expect(results.locator('mark').first()).toHaveText(/München/);
  await page.screenshot({ path: 'test-results/records-search.png' });
  await page.keyboard.press('Enter');
  await expect(detail).toBeVisible();

  // Lists and search leave trashed records out; the recycle bin lists them, and one opens
  // marked as such.
  await page.getByRole('combobox', { name: 'Search records' }).fill('retired projector bin');
  await expect(page.getByText(/Nothing in this portal's mirror matches/)).toBeVisible();
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Recycle bin' }).click();
  await page.getByRole('dialog', { name: 'Recycle bin' }).getByRole('button').first().click();
  await expect(detail.getByTestId('record-trashed')).toContainText('In the recycle bin since');

  // Recently viewed records are listed in the sidebar.
  await expect(page.getByRole('list', { name: 'Recently viewed' })).toContainText(
    'Retired projector in the bin',
  );

  // Both themes and 125% zoom.
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.screenshot({ path: 'test-results/records-dark.png' });
  await page.emulateMedia({ colorScheme: 'light' });
  // As the browser's zoom does: CSS pixels grow by a quarter (CSSOM, which the CSP allows).
  await page.locator('html').evaluate((element) => {
    element.style.setProperty('zoom', '1.25');
  });
  await expect(detail).toBeVisible();
  await page.screenshot({ path: 'test-results/records-zoom125.png' });
});

/** The parts of the page's DOM these checks read (this file is type-checked without the DOM lib). */
interface Box {
  tagName: string;
  classList: Iterable<string>;
  textContent: string | null;
  scrollHeight: number;
  clientHeight: number;
  scrollWidth: number;
  clientWidth: number;
  contains(other: Box): boolean;
  getBoundingClientRect(): { height: number };
}
interface InPage {
  document: { querySelector(s: string): Box; querySelectorAll(s: string): Iterable<Box> };
  getComputedStyle(el: Box): { overflowX: string; overflowY: string; lineHeight: string };
}

/** Elements of the sidebar or around it that scroll (vertically or sideways), and the page itself. */
async function scrollersAroundSidebar(page: Page) {
  return page.evaluate(() => {
    const { document, getComputedStyle } = globalThis as unknown as InPage;
    const sidebar = document.querySelector('nav.sidebar');
    const scrolls = (el: Box, axis: 'x' | 'y') => {
      const style = getComputedStyle(el);
      const overflow = axis === 'y' ? style.overflowY : style.overflowX;
      const more =
        axis === 'y' ? el.scrollHeight - el.clientHeight : el.scrollWidth - el.clientWidth;
      return more > 1 && (overflow === 'auto' || overflow === 'scroll');
    };
    const around = [...document.querySelectorAll('*')].filter(
      (el) => el === sidebar || el.contains(sidebar) || sidebar.contains(el),
    );
    const name = (el: Box) => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}`;
    const root = document.querySelector('html');
    return {
      vertical: around.filter((el) => el !== root && scrolls(el, 'y')).map(name),
      sideways: around.filter((el) => el !== root && scrolls(el, 'x')).map(name),
      page: root.scrollHeight > root.clientHeight + 1 || root.scrollWidth > root.clientWidth + 1,
    };
  });
}

test('the sidebar scrolls as one, names stay on one line; search results close on opening a record', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 620 });
  await openWorkspace(page, app().url);
  await expect(recordsTotal(page)).toHaveText('3,000 records');
  const nav = page.getByRole('navigation', { name: 'Sections' });
  const search = page.getByRole('combobox', { name: 'Search records' });
  const results = page.getByRole('listbox', { name: 'Search results' });
  const detail = page.getByTestId('record-detail');

  // Nine records with long names opened from search: each closes the results and takes the focus.
  for (let i = 0; i < 9; i++) {
    await page.keyboard.press('/');
    await expect(search).toBeFocused();
    if (i === 0) await search.fill('Conference room projector');
    await expect(results.getByRole('option')).toHaveCount(10);
    const option = results.getByRole('option').nth(i);
    const name = (await option.locator('.search-hit__name').innerText()).trim();
    await option.click();
    await expect(results).toBeHidden();
    await expect(detail.getByRole('heading', { level: 2 })).toHaveText(name);
    await expect(detail).toBeFocused();
  }
  // Escape closes them too, and keeps what was typed.
  await page.keyboard.press('/');
  await expect(results).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(results).toBeHidden();
  await expect(search).toBeFocused();
  await expect(search).toHaveValue('Conference room projector');
  await expect(detail).toBeVisible();

  const recent = nav.getByRole('list', { name: 'Recently viewed' });
  await expect(recent.getByRole('button')).toHaveCount(8);
  // One scroll container: the sidebar; nothing scrolls sideways, the page does not scroll.
  expect(await scrollersAroundSidebar(page)).toEqual({
    vertical: ['nav.sidebar'],
    sideways: [],
    page: false,
  });
  // Every name on one line, cut with an ellipsis, whole in its tooltip.
  for (const button of await nav.locator('.records-nav__recent, .records-nav__module').all()) {
    const lines = await button.locator('.records-nav__name').evaluate((node) => {
      const { getComputedStyle } = globalThis as unknown as InPage;
      const el = node as unknown as Box;
      const style = getComputedStyle(el);
      return {
        height: el.getBoundingClientRect().height,
        lineHeight: parseFloat(style.lineHeight),
        cut: el.scrollWidth > el.clientWidth,
        text: el.textContent ?? '',
      };
    });
    expect(lines.height).toBeLessThan(lines.lineHeight * 1.5);
    expect(await button.getAttribute('title')).toContain(lines.text);
    if (lines.text.startsWith('Conference')) expect(lines.cut).toBe(true);
  }
  await nav.evaluate((el) => el.scrollTo(0, el.scrollHeight));
  await nav.screenshot({ path: 'test-results/records-sidebar.png' });
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await nav.screenshot({ path: 'test-results/records-sidebar-dark.png' });
});

test('built-in modules are named, never listed as empty; an empty module says why it is empty', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1400, height: 760 });
  await openWorkspace(page, app().url);
  await expect(recordsTotal(page)).toHaveText('3,000 records');
  const nav = page.getByRole('navigation', { name: 'Sections' });
  const modules = nav.getByRole('list', { name: 'Modules' });

  // Only custom modules are listed with counts; the built-in ones sit in a closed group.
  await expect(modules.getByRole('button')).toHaveText([/^Assets\s*3,000$/, /^Vendors\s*0$/]);
  const builtIn = page.getByTestId('builtin-modules');
  await expect(builtIn.getByText('Built-in, not mirrored')).toBeVisible();
  const builtInList = nav.getByRole('list', { name: 'Built-in modules' });
  await expect(builtInList).toBeHidden();
  await builtIn.getByText('Built-in, not mirrored').click();
  await expect(builtInList.getByRole('listitem')).toHaveText([
    'Issues',
    'Phases',
    'Projects',
    'Tasks',
    'Tasklists',
  ]);
  await expect(builtIn).toContainText('serve custom modules only');
  await expect(nav).not.toContainText('Run a sync');
  await nav.evaluate((el) => el.scrollTo(0, el.scrollHeight));
  await nav.screenshot({ path: 'test-results/records-nav-builtin.png' });

  // A custom module with no records, never synced, its account signed out: says so, offers nothing.
  await modules.getByRole('button', { name: /^Vendors/ }).click();
  const state = page.getByTestId('module-sync');
  await expect(state).toContainText(
    'No Vendors in the mirror yet: this module has not been synced.',
  );
  await expect(state).toContainText('is signed out');
  await expect(page.locator('.records')).not.toContainText('Run a sync');
  await page.locator('.records').screenshot({ path: 'test-results/records-empty-module.png' });

  // A built-in module opened directly (a place remembered from before) says what it is.
  await page.evaluate(() => {
    const { localStorage } = globalThis as unknown as {
      localStorage: { setItem(key: string, value: string): void };
    };
    localStorage.setItem(
      'portaldesk.records.last',
      JSON.stringify({ portalId: '1000000000001', moduleId: '1000000000070' }),
    );
  });
  await page.reload();
  const explained = page.getByTestId('builtin-module');
  await expect(explained.getByRole('heading')).toHaveText('Projects is a built-in module');
  await expect(explained).toContainText('serve custom modules only');
  await expect(page.getByRole('grid')).toHaveCount(0);
  await page.locator('.records').screenshot({ path: 'test-results/records-builtin-module.png' });

  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page
    .locator('.records')
    .screenshot({ path: 'test-results/records-builtin-module-dark.png' });
  await builtIn.getByText('Built-in, not mirrored').click();
  await nav.evaluate((el) => el.scrollTo(0, el.scrollHeight));
  await nav.screenshot({ path: 'test-results/records-nav-builtin-dark.png' });
  await modules.getByRole('button', { name: /^Vendors/ }).click();
  await expect(state).toBeVisible();
  await page.locator('.records').screenshot({ path: 'test-results/records-empty-module-dark.png' });
});
