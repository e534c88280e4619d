/**
 * Issue 7 end to end, in web mode against an emulator process of its own (not the demo), so the
 * test can read the service's data behind the app's back and change it as someone else:
 * work offline, edit three records and comment on one, see them pending, go online, see them
 * replayed exactly once; then a remote change and an offline edit of the same field meet in a
 * conflict that is resolved in the Outbox. The last test takes the demo portal's own way to a
 * conflict instead: "Change this record on the server" in the record panel.
 */
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import Database from 'better-sqlite3';
import { startEmulatorProcess, type EmulatorProcess } from './emulatorProcess';
import { startWebModeWithKeychain } from './keychainWebMode';
import { signInWithSelfClient } from './selfClientSignIn';
import type { RunningWebMode } from './webMode';

/** Records the emulator seeds (packages/emulator/README.md `--records`): a screenful of Assets. */
const RECORDS = 300;
/** Another member of the portal, for the remote change (the seed's users). */
const SOMEONE_ELSE = 'priya.nair@portaldesk.demo';
/** The sync and the replay each finish in a few seconds here; the rest is margin for load. */
const ENGINE_TIMEOUT_MS = 20_000;

let emulator: EmulatorProcess;
let app: RunningWebMode;
test.beforeEach(async () => {
  [emulator, app] = await Promise.all([
    startEmulatorProcess(['--auto-approve', '--records', String(RECORDS)]),
    startWebModeWithKeychain(),
  ]);
});
test.afterEach(async () => {
  await Promise.all([app?.stop(), emulator?.stop()]);
});

const signIn = (page: Page) => signInWithSelfClient(page, app, emulator, 'Outbox test service');

const outboxCount = (page: Page) => page.getByTestId('outbox-count');
const editor = (page: Page) => page.getByTestId('record-editor');
const field = (page: Page, key: string) =>
  editor(page).locator(`.field-editor[data-field="${key}"]`);

async function openSection(page: Page, name: 'Records' | 'Outbox'): Promise<void> {
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name }).click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
}

/** Opens a record of the table in the detail panel, in edit mode. */
async function editRecord(page: Page, id: string, name: string): Promise<void> {
  await page.locator(`.grid-row[data-record-id="${id}"]`).click();
  const detail = page.getByTestId('record-detail');
  await expect(detail.getByRole('heading', { level: 2 })).toHaveText(name);
  // "Edit" and "Done" are one toggle: pressed while this record is being edited.
  const edit = detail.locator('.record-detail__edit');
  if ((await edit.getAttribute('aria-pressed')) !== 'true') await edit.click();
  await expect(edit).toHaveAttribute('aria-pressed', 'true');
  await expect(editor(page)).toBeVisible();
}

/** Changes one field in the editor, saves it and waits for its pending mark. */
async function saveField(
  page: Page,
  key: string,
  change: (input: Locator) => Promise<unknown>,
): Promise<void> {
  const row = field(page, key);
  await change(row.getByRole(key === 'cf_category' ? 'combobox' : 'textbox'));
  await row.getByRole('button', { name: 'Save' }).click();
  await expect(row.getByTestId('pending-mark')).toBeVisible();
}

async function setWorkOffline(page: Page, on: boolean): Promise<void> {
  await openSection(page, 'Outbox');
  const toggle = page.getByTestId('work-offline');
  // The box follows the engine's answer, not the click (so not setChecked, which checks at once).
  if ((await toggle.isChecked()) !== on) await toggle.click();
  await expect(toggle).toBeChecked({ checked: on });
}

test('offline edits wait in the outbox, replay exactly once, and a conflict is resolved', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1400, height: 900 });
  await signIn(page);

  // The records to edit: the first three Assets of the portal the app opened, as the service has
  // them (the table lists them in id order too).
  const portalId = await page.getByLabel('Portal', { exact: true }).inputValue();
  const admin = await emulator.restAs();
  const base = `/api/v3/portal/${portalId}/projects/assets`;
  const listed = await admin('GET', `${base}/entities?page=1&per_page=3`);
  expect(listed.status).toBe(200);
  const [one, two, three] = listed.body.entities as Array<Record<string, unknown>>;
  const id = (record: Record<string, unknown> | undefined) => String(record?.id);
  await expect(page.locator(`.grid-row[data-record-id="${id(three)}"]`)).toBeVisible({
    timeout: ENGINE_TIMEOUT_MS,
  });
  await expect(outboxCount(page)).toHaveText('Outbox empty');
  const start = await emulator.requestsPerEndpoint();
  /** Requests of this method whose route ends so, to the portal, since `start`. */
  const sent = async (method: string, route: string) =>
    Object.entries(await emulator.requestsPerEndpoint())
      .filter(
        ([key]) => key.startsWith(`us ${method} `) && key.endsWith(`${route} portal=${portalId}`),
      )
      .reduce((sum, [key, calls]) => sum + calls - (start[key] ?? 0), 0);
  const updates = () => sent('PATCH', '/entities/{entity_id}');
  const commentsAdded = () => sent('POST', `/entity/{entity_id}/${emulator.facts.comment_segment}`);

  // Go offline: the status bar says so and nothing leaves until the switch is off again.
  await setWorkOffline(page, true);
  await expect(outboxCount(page)).toHaveText('Working offline');
  await expect(page.getByTestId('network-status')).toHaveText('Offline by choice: nothing is sent');
  await page.screenshot({ path: 'test-results/outbox-offline.png' });

  // Three records edited (a name, a description, a pick list) and a comment added.
  const mine = {
    name: `${String(one?.name)} (audited offline)`,
    description: 'Checked on site while offline: label replaced, serial number readable again.',
    category: three?.cf_category === 'Hardware' ? 'Network' : 'Hardware',
    comment: 'Audit done offline; the label was replaced.',
  };
  await openSection(page, 'Records');
  await editRecord(page, id(one), String(one?.name));
  await saveField(page, 'name', (input) => input.fill(mine.name));
  await editor(page).getByLabel('New comment').fill(mine.comment);
  await editor(page).getByRole('button', { name: 'Add comment' }).click();
  await expect(editor(page).getByTestId('pending-comment')).toHaveText(`New: ${mine.comment}`);
  await editRecord(page, id(two), String(two?.name));
  await saveField(page, 'description', (input) => input.fill(mine.description));
  await editRecord(page, id(three), String(three?.name));
  await saveField(page, 'cf_category', (input) => input.selectOption(mine.category));
  await page.screenshot({ path: 'test-results/outbox-editor.png' });

  // They are pending: four changes to send, listed in the Outbox, and none on the service yet.
  await expect(outboxCount(page)).toHaveText('Working offline · Outbox: 4 to send');
  await openSection(page, 'Outbox');
  const waiting = page.getByRole('region', { name: /Waiting to be sent/ });
  await expect(waiting.getByRole('heading')).toHaveText('Waiting to be sent (4)');
  const entries = waiting.getByTestId('outbox-entry');
  await expect(entries.filter({ hasText: mine.name })).toHaveAttribute('data-kind', 'update');
  await expect(entries.filter({ hasText: mine.comment })).toHaveAttribute(
    'data-kind',
    'comment_add',
  );
  await expect(entries.filter({ hasText: `→ ${mine.category}` })).toHaveCount(1);
  await page.screenshot({ path: 'test-results/outbox-pending.png', fullPage: true });
  expect((await admin('GET', `${base}/entities/${id(one)}`)).body.entity.name).toBe(one?.name);
  expect(await updates()).toBe(0);
  expect(await commentsAdded()).toBe(0);

  // Online again: the outbox empties by itself.
  await setWorkOffline(page, false);
  await expect(outboxCount(page)).toHaveText('Outbox empty', { timeout: ENGINE_TIMEOUT_MS });
  await expect(page.getByText('No pending edits')).toBeVisible();
  await expect(page.getByTestId('network-status')).toHaveText('Online');
  await expect(page.getByTestId('outbox-notice')).toContainText(
    'Every queued change was delivered',
  );
  await page.screenshot({ path: 'test-results/outbox-replayed.png' });

  // The service holds every change, each sent exactly once.
  const entity = async (record: Record<string, unknown> | undefined) =>
    (await admin('GET', `${base}/entities/${id(record)}`)).body.entity;
  expect((await entity(one)).name).toBe(mine.name);
  expect((await entity(two)).description).toBe(mine.description);
  expect((await entity(three)).cf_category).toBe(mine.category);
  const comments = await admin(
    'GET',
    `${base}/entity/${id(one)}/${encodeURIComponent(emulator.facts.comment_segment)}?page=1&per_page=100`,
  );
  expect(
    (comments.body.comments as Array<{ content: string }>).filter(
      (c) => c.content === mine.comment,
    ),
  ).toHaveLength(1);
  expect(await updates()).toBe(3);
  expect(await commentsAdded()).toBe(1);

  // The Sent tab: one row per delivered change, newest first, searched, opened to its exchange.
  await page.getByRole('tab', { name: 'Sent' }).click();
  const history = page.getByTestId('sent-history');
  const sentRows = history.getByTestId('history-row');
  await expect(sentRows).toHaveCount(4);
  await expect(history.getByTestId('history-range')).toHaveText('1–4 of 4');
  await expect(sentRows.and(page.locator('[data-kind="update"]'))).toHaveCount(3);
  await history.getByLabel('Search').fill('label was replaced');
  await expect(sentRows).toHaveCount(1);
  await expect(sentRows.first()).toHaveAttribute('data-kind', 'comment_add');
  await history.getByLabel('Search').fill('');
  await expect(sentRows).toHaveCount(4);
  const renamed = sentRows.and(page.locator('[data-kind="update"]')).filter({ hasText: mine.name });
  await renamed.locator('summary').click();
  await expect(renamed.getByRole('region', { name: 'Request' })).toContainText(
    `PATCH /api/v3/portal/${portalId}/projects/assets/entities/${id(one)}`,
  );
  await expect(renamed.getByLabel('Request body')).toHaveText(
    JSON.stringify({ name: mine.name }, null, 2),
  );
  await expect(renamed.getByRole('region', { name: 'Answer' })).toContainText('HTTP 200');
  const download = page.waitForEvent('download');
  await history.getByRole('button', { name: 'Export CSV' }).click();
  expect((await download).suggestedFilename()).toMatch(/^portaldesk-sent-.*\.csv$/);
  await history.screenshot({ path: 'test-results/outbox-sent-light.png' });
  await page.emulateMedia({ colorScheme: 'dark' });
  await history.screenshot({ path: 'test-results/outbox-sent-dark.png' });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.getByRole('tab', { name: 'Queued' }).click();

  // Offline again (which stops the sync that going online started, so it cannot pull what
  // follows), someone else changes record two's description on the service, and I change it too.
  await setWorkOffline(page, true);
  await expect(page.getByTestId('sync-summary')).not.toHaveText(/Syncing/);
  const someoneElse = await emulator.restAs(SOMEONE_ELSE);
  const theirs = 'Vendor replaced the unit; new serial number on the delivery note.';
  expect(
    (await someoneElse('PATCH', `${base}/entities/${id(two)}`, { description: theirs })).status,
  ).toBe(200);
  await openSection(page, 'Records');
  await editRecord(page, id(two), String(two?.name));
  const mineAgain = 'Checked again: the serial number on the label matches the invoice.';
  await saveField(page, 'description', (input) => input.fill(mineAgain));
  await setWorkOffline(page, false);

  // The replay finds their value where my edit's base was expected: a conflict, field by field.
  await expect(outboxCount(page)).toHaveText('Outbox: 1 conflict', { timeout: ENGINE_TIMEOUT_MS });
  await expect(page.getByTestId('outbox-notice')).toContainText(
    `1 field of record "${String(two?.name)}" was changed on the service`,
  );
  const panel = page.getByTestId('conflict-panel');
  const row = panel.getByRole('row', { name: /Description/ });
  await expect(row.getByRole('cell').nth(0)).toHaveText(mine.description);
  await expect(row.getByRole('cell').nth(1)).toHaveText(mineAgain);
  await expect(row.getByRole('cell').nth(2)).toHaveText(theirs);
  await page.screenshot({ path: 'test-results/outbox-conflict.png', fullPage: true });

  await row.getByRole('radio', { name: 'Keep mine' }).check();
  await panel.getByRole('button', { name: 'Resolve 1 of 1' }).click();
  await expect(outboxCount(page)).toHaveText('Outbox empty', { timeout: ENGINE_TIMEOUT_MS });
  // Nothing asks for a choice any more.
  await expect(page.getByText(/choose which value to keep/)).toHaveCount(0);
  await page.screenshot({ path: 'test-results/outbox-resolved.png' });
  expect((await entity(two)).description).toBe(mineAgain);
  // The three replayed, someone else's, and mine once more after the conflict: no repeats.
  expect(await updates()).toBe(3 + 1 + 1);
});

test('in the demo, "Change this record on the server" meets my offline rename as a conflict, and Keep mine wins on the service', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1400, height: 900 });
  // The demo portal: its emulator runs inside the app, so the service is its file in the data
  // directory, read here as it is, read-only.
  await page.goto(app.url);
  await page.getByRole('button', { name: 'Try the demo portal' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Records' })).toBeVisible({
    timeout: 30_000,
  });
  const firstRow = page.locator('.grid-row[data-record-id]').first();
  await expect(firstRow).toBeVisible({ timeout: ENGINE_TIMEOUT_MS });
  const id = (await firstRow.getAttribute('data-record-id')) as string;
  const serviceName = () => {
    const db = new Database(path.join(app.dataDir, 'demo', 'demo-portal.sqlite'), {
      readonly: true,
      fileMustExist: true,
    });
    try {
      return (
        db.prepare('SELECT name FROM entities WHERE id = ?').get(Number(id)) as {
          name: string;
        }
      ).name;
    } finally {
      db.close();
    }
  };
  const original = serviceName();

  // Offline, I rename the record.
  await setWorkOffline(page, true);
  await openSection(page, 'Records');
  await editRecord(page, id, original);
  const mine = `${original} (label replaced on site)`;
  await saveField(page, 'name', (input) => input.fill(mine));

  // The demo's colleague renames it on the service; the panel says what happened and what next.
  const detail = page.getByTestId('record-detail');
  const demo = detail.getByTestId('demo-change');
  await expect(
    demo.getByText(/Another member of the demo portal will rename this record/),
  ).toBeVisible();
  await demo.getByRole('button', { name: 'Change this record on the server' }).click();
  const done = demo.getByTestId('demo-change-done');
  await expect(done).toContainText('changed the name of this record on the demo service');
  await expect(done).toContainText('Your queued edit of the name will meet theirs when it is sent');
  const theirs = serviceName();
  expect(theirs).toMatch(/^.+ \(changed on the server \d\d:\d\d:\d\d\)$/);
  await demo.scrollIntoViewIfNeeded();
  await demo.screenshot({ path: 'test-results/demo-change-light.png' });
  await page.emulateMedia({ colorScheme: 'dark' });
  await demo.screenshot({ path: 'test-results/demo-change-dark.png' });
  await page.emulateMedia({ colorScheme: 'light' });

  // Online: the replay finds their name where my edit's base was: a conflict in the Outbox.
  await setWorkOffline(page, false);
  await expect(outboxCount(page)).toHaveText('Outbox: 1 conflict', { timeout: ENGINE_TIMEOUT_MS });
  const panel = page.getByTestId('conflict-panel');
  const row = panel.getByRole('row', { name: /Name/ });
  await expect(row.getByRole('cell').nth(0)).toHaveText(original);
  await expect(row.getByRole('cell').nth(1)).toHaveText(mine);
  await expect(row.getByRole('cell').nth(2)).toHaveText(theirs);
  await panel.screenshot({ path: 'test-results/demo-conflict-light.png' });
  await page.emulateMedia({ colorScheme: 'dark' });
  await panel.screenshot({ path: 'test-results/demo-conflict-dark.png' });
  await page.emulateMedia({ colorScheme: 'light' });

  // Keep mine: the service holds my name.
  await row.getByRole('radio', { name: 'Keep mine' }).check();
  await panel.getByRole('button', { name: 'Resolve 1 of 1' }).click();
  await expect(outboxCount(page)).toHaveText('Outbox empty', { timeout: ENGINE_TIMEOUT_MS });
  await expect.poll(serviceName, { timeout: ENGINE_TIMEOUT_MS }).toBe(mine);
});
