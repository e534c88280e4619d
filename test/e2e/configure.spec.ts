/**
 * Issue 16 end to end, in web mode against an emulator process: a module created while working
 * offline shows at once and waits in the Outbox with what it will send; back online it is created
 * once; then renamed, deactivated, moved to the bin, recovered, and deleted for good only once its
 * name is typed.
 */
import { expect, test, type Page } from '@playwright/test';
import { startEmulatorProcess, type EmulatorProcess } from './emulatorProcess';
import { startWebModeWithKeychain } from './keychainWebMode';
import { signInWithSelfClient } from './selfClientSignIn';
import type { RunningWebMode } from './webMode';

/** A replay through the scheduler and a re-read take seconds; the rest is margin for load. */
const ENGINE_TIMEOUT_MS = 30_000;

let emulator: EmulatorProcess;
let app: RunningWebMode;
test.beforeEach(async () => {
  [emulator, app] = await Promise.all([
    startEmulatorProcess(['--auto-approve', '--records', '120']),
    startWebModeWithKeychain(),
  ]);
});
test.afterEach(async () => {
  await Promise.all([app?.stop(), emulator?.stop()]);
});

type Rest = Awaited<ReturnType<EmulatorProcess['restAs']>>;

/** A module of the first portal as the service lists it: its state, or absent (binned or gone). */
async function moduleState(rest: Rest, pluralName: string): Promise<string> {
  const portals = await rest('GET', '/api/v3/portals');
  const portalId = String((portals.body as { id: string }[])[0]!.id);
  const listed = await rest(
    'GET',
    `/api/v3/portal/${portalId}/settings/modules?page=1&per_page=200`,
  );
  const module = (
    listed.body as { modules: { plural_name: string; status: string }[] }
  ).modules.find((candidate) => candidate.plural_name === pluralName);
  return module ? module.status : 'absent';
}

async function setWorkOffline(page: Page, on: boolean): Promise<void> {
  await open(page, 'Outbox');
  const toggle = page.getByTestId('work-offline');
  // The box follows the engine's answer, not the click (so not setChecked, which checks at once).
  if ((await toggle.isChecked()) !== on) await toggle.click();
  await expect(toggle).toBeChecked({ checked: on });
}

async function open(page: Page, section: string) {
  await page
    .getByRole('navigation', { name: 'Sections' })
    .getByRole('button', { name: section })
    .click();
}

test.setTimeout(90_000);

test('modules: created offline, replayed once, renamed, deactivated, binned, recovered, deleted', async ({
  page,
}) => {
  await signInWithSelfClient(page, app, emulator, 'Configure test service');
  const rest = await emulator.restAs();
  // The first sync brings the portal and its modules; then the work is offline.
  await open(page, 'Records');
  await expect(page.getByTestId('records-total')).toContainText(/\d records/, {
    timeout: ENGINE_TIMEOUT_MS,
  });
  await setWorkOffline(page, true);

  await open(page, 'Configure');
  await expect(page.getByRole('heading', { level: 2, name: 'Modules' })).toBeVisible({
    timeout: ENGINE_TIMEOUT_MS,
  });
  await page.getByRole('button', { name: 'New module' }).click();
  const form = page
    .locator('form')
    .filter({ has: page.getByLabel('Singular name') })
    .first();
  // A name another module has is refused in place; nothing is queued.
  await form.getByLabel('Singular name').fill('Vehicle');
  await form.getByLabel('Plural name').fill('Assets');
  await expect(form.getByText(/already a name of Assets/)).toBeVisible();
  await form.getByLabel('Plural name').fill('Vehicles');
  await expect(form.getByText(/already a name/)).toHaveCount(0);
  await form.getByRole('button', { name: 'Create module' }).click();
  const row = page.locator('li.configure-module').filter({ hasText: 'Vehicles' });
  await expect(row).toContainText('not created yet');
  await expect(row).toContainText('Create module Vehicles');
  await page.screenshot({ path: 'test-results/configure-light.png', fullPage: true });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: 'test-results/configure-dark.png', fullPage: true });
  await page.emulateMedia({ colorScheme: 'light' });

  // The Outbox shows the request it will send.
  await open(page, 'Outbox');
  await expect(page.getByText('Create module Vehicles')).toBeVisible();
  await page.getByText('What will be sent').click();
  await expect(page.getByText(/"plural_name": "Vehicles"/)).toBeVisible();
  await page.screenshot({ path: 'test-results/outbox-config-light.png', fullPage: true });
  await setWorkOffline(page, false);

  await open(page, 'Configure');
  await expect(row).toContainText('vehicles', { timeout: ENGINE_TIMEOUT_MS });
  await expect(row).not.toContainText('not created yet');

  // Rename, then deactivate.
  await row.getByRole('button', { name: 'Edit' }).click();
  await row.getByLabel('Plural name').fill('Fleet');
  await row.getByRole('button', { name: 'Save changes' }).click();
  const fleet = page.locator('li.configure-module').filter({ hasText: 'Fleet' });
  await expect(fleet).toBeVisible();
  await fleet.getByRole('button', { name: 'Deactivate' }).click();
  const inactive = page.locator('section.configure-group--inactive');
  await expect(inactive.locator('li.configure-module').filter({ hasText: 'Fleet' })).toBeVisible({
    timeout: ENGINE_TIMEOUT_MS,
  });
  await expect
    .poll(() => moduleState(rest, 'Fleet'), { timeout: ENGINE_TIMEOUT_MS })
    .toBe('deactivated');

  // To the bin (asked first), recovered, to the bin again, deleted once the name is typed.
  const inBin = page.locator('section.configure-group--trashed li.configure-module');
  await fleet.getByRole('button', { name: 'Move to bin…' }).click();
  await fleet.getByRole('button', { name: 'Move to bin', exact: true }).click();
  await expect(inBin.filter({ hasText: 'Fleet' })).toBeVisible({ timeout: ENGINE_TIMEOUT_MS });
  await expect
    .poll(() => moduleState(rest, 'Fleet'), { timeout: ENGINE_TIMEOUT_MS })
    .toBe('absent');
  await inBin.filter({ hasText: 'Fleet' }).getByRole('button', { name: 'Recover' }).click();
  await expect
    .poll(() => moduleState(rest, 'Fleet'), { timeout: ENGINE_TIMEOUT_MS })
    .toBe('deactivated');
  const again = page.locator('li.configure-module').filter({ hasText: 'Fleet' });
  await again.getByRole('button', { name: 'Move to bin…' }).click();
  await again.getByRole('button', { name: 'Move to bin', exact: true }).click();
  const binned = inBin.filter({ hasText: 'Fleet' });
  await expect(binned).toBeVisible({ timeout: ENGINE_TIMEOUT_MS });
  await expect
    .poll(() => moduleState(rest, 'Fleet'), { timeout: ENGINE_TIMEOUT_MS })
    .toBe('absent');
  await binned.getByRole('button', { name: 'Delete permanently…' }).click();
  const confirm = binned.getByRole('button', { name: 'Delete permanently', exact: true });
  await binned.getByLabel('Type Fleet to confirm').fill('fleet');
  await expect(confirm).toBeDisabled();
  await binned.getByLabel('Type Fleet to confirm').fill('Fleet');
  await page.screenshot({ path: 'test-results/configure-bin-light.png', fullPage: true });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: 'test-results/configure-bin-dark.png', fullPage: true });
  await page.emulateMedia({ colorScheme: 'light' });
  await confirm.click();
  await expect
    .poll(() => moduleState(rest, 'Fleet'), { timeout: ENGINE_TIMEOUT_MS })
    .toBe('absent');
  // Gone for good, not in the bin: the service cannot recover it.
  const portals = await rest('GET', '/api/v3/portals');
  const portalId = String((portals.body as { id: string }[])[0]!.id);
  expect(
    (await rest('POST', `/api/v3/portal/${portalId}/settings/modules/bin/vehicles/recover`)).status,
  ).toBe(404);
  await expect(page.locator('li.configure-module').filter({ hasText: 'Fleet' })).toHaveCount(0, {
    timeout: ENGINE_TIMEOUT_MS,
  });
});

test('the recycle bin: read from the service, one item restored, the rest emptied once named', async ({
  page,
}) => {
  await signInWithSelfClient(page, app, emulator, 'Bin test service');
  const rest = await emulator.restAs();
  const portals = await rest('GET', '/api/v3/portals');
  const portalId = String((portals.body as { id: string }[])[0]!.id);
  await open(page, 'Records');
  await expect(page.getByTestId('records-total')).toContainText(/\d records/, {
    timeout: ENGINE_TIMEOUT_MS,
  });
  // Two projects (named by the records that belong to them) trashed on the service.
  const records = await rest(
    'GET',
    `/api/v3/portal/${portalId}/projects/assets/entities?page=1&per_page=100`,
  );
  const projectIds = [
    ...new Set(
      (records.body.entities as { project: { id: string } | null }[]).flatMap((entity) =>
        entity.project ? [String(entity.project.id)] : [],
      ),
    ),
  ].slice(0, 2);
  expect(projectIds).toHaveLength(2);
  expect(
    (
      await rest('POST', `/api/v3/portal/${portalId}/trash`, {
        module: 'projects',
        items: projectIds,
      })
    ).status,
  ).toBe(200);

  await open(page, 'Configure');
  const bin = page
    .locator('section')
    .filter({ has: page.getByRole('heading', { level: 2, name: 'Recycle bin' }) });
  await bin.getByRole('button', { name: 'Read again' }).click();
  const rows = bin.getByRole('row').filter({ has: page.getByLabel(/^Select (?!all shown)/) });
  await expect(rows).toHaveCount(2, { timeout: ENGINE_TIMEOUT_MS });
  await expect(bin).toContainText(/\d+ days left/);
  await rows.first().getByRole('checkbox').check();
  await bin.getByRole('button', { name: 'Restore' }).click();
  await expect
    .poll(
      async () =>
        (
          (await rest('GET', `/api/v3/portal/${portalId}/bin?page=1&per_page=200`)).body as {
            bin_items: unknown[];
          }
        ).bin_items.length,
      { timeout: ENGINE_TIMEOUT_MS },
    )
    .toBe(1);
  await page.screenshot({ path: 'test-results/configure-recycle-bin-light.png', fullPage: true });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: 'test-results/configure-recycle-bin-dark.png', fullPage: true });
  await page.emulateMedia({ colorScheme: 'light' });

  await bin.getByRole('button', { name: 'Empty the bin…' }).click();
  const empty = bin.getByRole('button', { name: /^Empty the bin \(/ });
  await expect(empty).toBeDisabled();
  const name = await page
    .getByLabel('Portal')
    .first()
    .evaluate(
      (select) =>
        (select as unknown as { selectedOptions: { text: string }[] }).selectedOptions[0]!.text,
    );
  await bin.getByLabel(`Type ${name} to confirm`).fill(name);
  await empty.click();
  await expect
    .poll(
      async () =>
        (
          (await rest('GET', `/api/v3/portal/${portalId}/bin?page=1&per_page=200`)).body as {
            bin_items: unknown[];
          }
        ).bin_items.length,
      { timeout: ENGINE_TIMEOUT_MS },
    )
    .toBe(0);
});

test('layouts: a layout made, a section added to it, previewed, then sent', async ({ page }) => {
  await signInWithSelfClient(page, app, emulator, 'Layouts test service');
  await open(page, 'Records');
  await expect(page.getByTestId('records-total')).toContainText(/\d records/, {
    timeout: ENGINE_TIMEOUT_MS,
  });
  await setWorkOffline(page, true);
  await open(page, 'Configure');
  const panel = page.locator('section').filter({
    has: page.getByRole('heading', { level: 2, name: 'Layouts' }),
  });
  await expect(panel).toBeVisible({ timeout: ENGINE_TIMEOUT_MS });
  await panel.getByLabel('Module').selectOption({ label: 'Assets' });
  await panel.getByRole('button', { name: 'New layout' }).click();
  await panel.getByLabel('Layout name').fill('Finance');
  await panel.getByRole('button', { name: 'Create layout' }).click();
  const finance = panel.getByRole('listitem', { name: 'Finance' });
  await expect(finance).toContainText('not created yet');
  await finance.getByRole('button', { name: /Sections and preview/ }).click();
  const sections = panel.getByRole('region', { name: 'Sections of Finance' });
  await sections.getByLabel('New section name').fill('Costs');
  await sections.getByRole('button', { name: 'Add section' }).click();
  const preview = panel.getByRole('complementary', { name: 'Preview: Finance' });
  await expect(preview).toContainText('Costs');
  await preview.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/configure-layouts-light.png' });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: 'test-results/configure-layouts-dark.png' });
  await page.emulateMedia({ colorScheme: 'light' });

  await setWorkOffline(page, false);
  const rest = await emulator.restAs();
  const portals = await rest('GET', '/api/v3/portals');
  const portalId = String((portals.body as { id: string }[])[0]!.id);
  await expect
    .poll(
      async () => {
        const layouts = await rest(
          'GET',
          `/api/v3/portal/${portalId}/settings/layouts?module=assets&page=1&per_page=200`,
        );
        const made = (layouts.body.layouts as { id: string; name: string }[]).find(
          (layout) => layout.name === 'Finance',
        );
        if (!made) return [];
        const one = await rest(
          'GET',
          `/api/v3/portal/${portalId}/settings/layouts/${made.id}?module=assets`,
        );
        return (one.body.layout.sections as { name: string }[]).map((section) => section.name);
      },
      { timeout: ENGINE_TIMEOUT_MS },
    )
    .toContain('Costs');
});

test('fields: a currency field and a pick list option made offline, then sent', async ({
  page,
}) => {
  await signInWithSelfClient(page, app, emulator, 'Fields test service');
  await open(page, 'Records');
  await expect(page.getByTestId('records-total')).toContainText(/\d records/, {
    timeout: ENGINE_TIMEOUT_MS,
  });
  await setWorkOffline(page, true);
  await open(page, 'Configure');
  const section = page.getByRole('region', { name: 'Fields of a module' });
  await expect(section).toBeVisible({ timeout: ENGINE_TIMEOUT_MS });
  await section.getByLabel('Fields of', { exact: true }).selectOption({ label: 'Assets' });
  await section.getByRole('button', { name: 'New field' }).click();
  const form = section.getByRole('form', { name: 'New field' });
  await form.getByLabel('Type', { exact: true }).selectOption('currency');
  await form.getByLabel('Name', { exact: true }).fill('Replacement value');
  await form.getByLabel('Currency of a value').selectOption('field_currency');
  await form.getByLabel('Currency code').fill('eur');
  await expect(form.getByText(/three-letter code in capitals/)).toBeVisible();
  await form.getByLabel('Currency code').fill('EUR');
  await form.getByRole('button', { name: 'Create field' }).click();
  await expect(section).toContainText('Replacement value');
  await page.screenshot({ path: 'test-results/configure-fields-light.png' });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: 'test-results/configure-fields-dark.png' });
  await page.emulateMedia({ colorScheme: 'light' });

  // The Category pick list's options: one added, shown at once with its usage column.
  await section.getByRole('button', { name: 'Options of Category' }).click();
  await section.getByLabel('New options, one per line').fill('Vehicle\n\nvehicle');
  await section.getByRole('button', { name: 'Add options' }).click();
  await expect(section.getByText(/already/).first()).toBeVisible();
  await section.getByLabel('New options, one per line').fill('Vehicle');
  await section.getByRole('button', { name: 'Add options' }).click();
  await expect(section.getByText('Vehicle', { exact: true }).first()).toBeVisible();
  await page.screenshot({ path: 'test-results/configure-options-light.png' });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: 'test-results/configure-options-dark.png' });
  await page.emulateMedia({ colorScheme: 'light' });

  // The Status field's statuses and a user field's users and roles, each in its editor.
  await section.getByRole('button', { name: 'Statuses of Status' }).click();
  const statuses = page.getByRole('region', { name: /^Statuses of Assets/ });
  await expect(statuses.getByRole('button', { name: /^Move .* down$/ }).first()).toBeVisible({
    timeout: ENGINE_TIMEOUT_MS,
  });
  await statuses.screenshot({ path: 'test-results/configure-statuses-light.png' });
  await page.emulateMedia({ colorScheme: 'dark' });
  await statuses.screenshot({ path: 'test-results/configure-statuses-dark.png' });
  await page.emulateMedia({ colorScheme: 'light' });
  await statuses.getByRole('button', { name: 'Close' }).click();
  await section.getByRole('button', { name: 'Users and roles of Custodian' }).click();
  const people = page.getByRole('region', { name: /Custodian/ });
  await expect(people).toBeVisible({ timeout: ENGINE_TIMEOUT_MS });
  await people.screenshot({ path: 'test-results/configure-people-light.png' });
  await page.emulateMedia({ colorScheme: 'dark' });
  await people.screenshot({ path: 'test-results/configure-people-dark.png' });
  await page.emulateMedia({ colorScheme: 'light' });
  await people.getByRole('button', { name: 'Close' }).click();

  // The record editor offers the option queued above, and the record change naming it waits for
  // the option's addition to reach the service first (the Outbox says so).
  await open(page, 'Records');
  await page.locator('.grid-row:not(.is-loading)').first().click();
  const edit = page.getByTestId('record-detail').locator('.record-detail__edit');
  if ((await edit.getAttribute('aria-pressed')) !== 'true') await edit.click();
  const category = page
    .getByTestId('record-editor')
    .locator('.field-editor[data-field="cf_category"]');
  await category.getByRole('combobox').selectOption('Vehicle');
  await category.getByRole('button', { name: 'Save' }).click();
  await expect(category.getByTestId('pending-mark')).toBeVisible();
  await open(page, 'Outbox');
  const held = page.getByTestId('outbox-entry').filter({ hasText: 'This change waits until' });
  await expect(held).toHaveCount(1);
  await page.screenshot({ path: 'test-results/outbox-held-by-config-light.png', fullPage: true });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: 'test-results/outbox-held-by-config-dark.png', fullPage: true });
  await page.emulateMedia({ colorScheme: 'light' });

  await setWorkOffline(page, false);
  const rest = await emulator.restAs();
  const portals = await rest('GET', '/api/v3/portals');
  const portalId = String((portals.body as { id: string }[])[0]!.id);
  await expect
    .poll(
      async () => {
        const options = await rest(
          'GET',
          `/api/v3/portal/${portalId}/settings/options?module=assets&field=cf_category&page=1&per_page=200&index=0&range=200`,
        );
        return (
          (options.body.options?.custom_options ?? options.body.custom_options ?? []) as {
            value: string;
          }[]
        ).map((option) => option.value);
      },
      { timeout: ENGINE_TIMEOUT_MS },
    )
    .toContain('Vehicle');
  await expect
    .poll(
      async () => {
        const fields = await rest(
          'GET',
          `/api/v3/portal/${portalId}/settings/fields?module=assets&page=1&per_page=200`,
        );
        const made = (
          fields.body.fields as {
            display_name: string;
            field_type: string;
            field_property: { field_type_properties?: { currency_value?: string } };
          }[]
        ).find((field) => field.display_name === 'Replacement value');
        return made
          ? `${made.field_type} ${made.field_property.field_type_properties?.currency_value ?? ''}`
          : 'absent';
      },
      { timeout: ENGINE_TIMEOUT_MS },
    )
    .toBe('currency EUR');
});

test('statuses: one added offline is shown in the record editor, not selectable, with why', async ({
  page,
}) => {
  await signInWithSelfClient(page, app, emulator, 'Statuses test service');
  await open(page, 'Records');
  await expect(page.getByTestId('records-total')).toContainText(/\d records/, {
    timeout: ENGINE_TIMEOUT_MS,
  });
  await setWorkOffline(page, true);
  await open(page, 'Configure');
  const section = page.getByRole('region', { name: 'Fields of a module' });
  await expect(section).toBeVisible({ timeout: ENGINE_TIMEOUT_MS });
  await section.getByLabel('Fields of', { exact: true }).selectOption({ label: 'Assets' });
  await section.getByRole('button', { name: 'Statuses of Status' }).click();
  const statuses = page.getByRole('region', { name: /^Statuses of Assets/ });
  const add = statuses.getByRole('form', { name: 'Add a status' });
  await add.getByLabel('Name', { exact: true }).fill('Review');
  await add.getByRole('button', { name: 'Add status' }).click();
  await expect(statuses.getByText('Review', { exact: true }).first()).toBeVisible();

  await open(page, 'Records');
  await page.locator('.grid-row').first().click();
  const detail = page.getByTestId('record-detail');
  await detail.locator('.record-detail__edit').click();
  const status = page.getByTestId('record-editor').locator('.field-editor[data-field="status"]');
  const picker = status.getByRole('combobox');
  await expect(picker.getByRole('option', { name: 'Review (not sent yet)' })).toBeDisabled();
  await expect(status).toContainText(
    '“Review” is added in the Outbox and not sent yet: the service gives it its id when it is sent',
  );
  // The words are the picker's description: read with it by a screen reader.
  await expect(picker).toHaveAccessibleDescription(/“Review” is added in the Outbox/);
  await status.screenshot({ path: 'test-results/editor-waiting-status-light.png' });
  await page.emulateMedia({ colorScheme: 'dark' });
  await status.screenshot({ path: 'test-results/editor-waiting-status-dark.png' });
  await page.emulateMedia({ colorScheme: 'light' });
});

test('copy: a field queued in one portal, exported as a file, planned into the other, sent', async ({
  page,
}) => {
  await signInWithSelfClient(page, app, emulator, 'Copy test service');
  await open(page, 'Records');
  await expect(page.getByTestId('records-total')).toContainText(/\d records/, {
    timeout: ENGINE_TIMEOUT_MS,
  });
  await setWorkOffline(page, true);
  await open(page, 'Configure');
  const fields = page.getByRole('region', { name: 'Fields of a module' });
  await expect(fields).toBeVisible({ timeout: ENGINE_TIMEOUT_MS });
  await fields.getByLabel('Fields of', { exact: true }).selectOption({ label: 'Assets' });
  await fields.getByRole('button', { name: 'New field' }).click();
  const form = fields.getByRole('form', { name: 'New field' });
  await form.getByLabel('Type', { exact: true }).selectOption('date');
  await form.getByLabel('Name', { exact: true }).fill('Warranty until');
  await form.getByRole('button', { name: 'Create field' }).click();
  await expect(fields).toContainText('Warranty until');

  // The configuration of Assets, queued field included, as a file.
  const copy = page.getByRole('region', { name: 'Copy configuration' });
  await copy.getByRole('checkbox', { name: /Assets/ }).check();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    copy.getByRole('button', { name: 'Export as a file' }).click(),
  ]);
  const file = test.info().outputPath(download.suggestedFilename());
  await download.saveAs(file);
  await expect(copy.getByRole('status')).toContainText('1 module');

  // Planned directly into the other portal: the new field is what is created.
  await copy.getByLabel('Copy into').selectOption({ label: 'acme-engineering' });
  await copy.getByRole('button', { name: 'Make the plan' }).click();
  const plan = copy.getByRole('region', { name: /^Plan: northwind: Assets → acme-engineering/ });
  await expect(plan).toContainText('Create field “Warranty until” (date)', {
    timeout: ENGINE_TIMEOUT_MS,
  });
  await expect(plan).toContainText('1 to create');
  // The view scrolls inside the shell: the panel itself is what is looked at.
  await copy.screenshot({ path: 'test-results/configure-copy-light.png' });
  await page.emulateMedia({ colorScheme: 'dark' });
  await copy.screenshot({ path: 'test-results/configure-copy-dark.png' });
  await page.emulateMedia({ colorScheme: 'light' });

  // The same file planned from the other portal, then queued there.
  await page
    .locator('.configure-view__bar')
    .getByLabel('Portal')
    .selectOption({ label: 'acme-engineering' });
  const target = page.getByRole('region', { name: 'Copy configuration' });
  await target.getByLabel('Plan a configuration file into acme-engineering').setInputFiles(file);
  const filePlan = target.getByRole('region', { name: /^Plan: .*exported from northwind/ });
  await expect(filePlan).toContainText('Create field “Warranty until” (date)', {
    timeout: ENGINE_TIMEOUT_MS,
  });
  await filePlan.getByRole('button', { name: 'Queue the plan (1 change)' }).click();
  await filePlan.getByRole('button', { name: 'Queue them' }).click();
  await expect(filePlan).toContainText('Queued 1 change for acme-engineering');

  await setWorkOffline(page, false);
  const rest = await emulator.restAs();
  const portals = (await rest('GET', '/api/v3/portals')).body as {
    id: string;
    portal_name?: string;
  }[];
  const fieldsOf = async (portalId: string) => {
    const listed = await rest(
      'GET',
      `/api/v3/portal/${portalId}/settings/fields?module=assets&page=1&per_page=200`,
    );
    return (listed.body as { fields: { display_name: string }[] }).fields.map(
      (field) => field.display_name,
    );
  };
  // Both portals: the first by its own queued change, the second by the copy.
  for (const portal of portals.slice(0, 2)) {
    await expect
      .poll(() => fieldsOf(String(portal.id)), { timeout: ENGINE_TIMEOUT_MS })
      .toContain('Warranty until');
  }
});
