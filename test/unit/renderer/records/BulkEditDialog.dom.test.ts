// @vitest-environment happy-dom
/**
 * The records toolbar's Bulk edit and the Outbox's bulk edit groups (issue 20): the dialog acts
 * on every record matching the filter when the whole list is selected (or asked for), else on the
 * picked rows' ids; the value is typed in the record editor's own field editor and its rules
 * block what is not a value; the engine's preview (counts, skipped, refusals, before → after as
 * the table shows values, ETA) comes before Queue; progress is shown while it queues. The Outbox
 * lists each bulk edit with Undo and says what the undo kept.
 */
import { createElement } from 'react';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { BulkEditGroups } from '../../../../src/renderer/src/features/outbox/BulkEditGroups';
import { BulkEditDialog } from '../../../../src/renderer/src/features/records/BulkEditDialog';
import { OutboxContext } from '../../../../src/renderer/src/features/outbox/OutboxContext';
import { createOutboxStore } from '../../../../src/renderer/src/features/outbox/outboxStore';
import type { BulkPreview } from '../../../../src/shared/ipc/areas/bulkEdit';
import type { EditForm } from '../../../../src/shared/ipc/areas/outbox';
import type { RecordRow } from '../../../../src/shared/ipc/areas/records';
import { useDomTestEnvironment } from '../support/dom';
import { fakeEngine, type FakeHandlers } from '../support/fakeEngine';
import {
  MODULE_ID,
  openWorkspace,
  OTHER_MODULE_ID,
  PORTAL_ID,
  twoModules,
  type Workspace,
} from '../support/recordsWorkspace';
import { editableField } from '../outbox/editableField';
import { sampleRow } from './sampleRow';

useDomTestEnvironment();

/** The id of a bulk trash's question as the engine holds it. */
const QUESTION = 'a1b2c3d4e5f60718';

const tags = editableField('multi_select', {
  key: 'cf_tags',
  label: 'Tags',
  options: [
    { id: '1', name: 'Critical' },
    { id: '2', name: 'Remote' },
  ],
});
const quantity = editableField('number', { key: 'cf_quantity', label: 'Quantity' });
const insured = editableField('check_box', { key: 'cf_insured', label: 'Insured' });
const form: EditForm = {
  portalId: PORTAL_ID,
  moduleId: MODULE_ID,
  recordId: null,
  timeZone: 'UTC',
  fields: [quantity, tags, insured],
  values: {},
  pending: {},
};

const PREVIEW_ID = '0123456789abcdef';

const preview = (patch: Partial<BulkPreview> = {}): BulkPreview => ({
  previewId: PREVIEW_ID,
  selected: 1200,
  changes: 1000,
  unchanged: 150,
  failed: 50,
  failures: [{ recordId: '9', name: 'Old laptop', reason: 'Tags: at most 25 options (26 chosen)' }],
  coalesced: 20,
  sample: [
    { recordId: '1', name: 'Lenovo ThinkPad', before: ['Critical'], after: ['Critical', 'Remote'] },
  ],
  field: { key: 'cf_tags', label: 'Tags', type: 'multi_select' },
  timeZone: 'UTC',
  patchesQueued: 980,
  etaSeconds: 600,
  ...patch,
});

const rows = (n: number) =>
  Array.from({ length: n }, (_, i) =>
    sampleRow({ id: String(1100000000001 + i), name: `Row ${i}` }),
  );

/** The dialog, opened with the toolbar's button. */
async function openDialog(ws: Workspace, user: UserEvent): Promise<HTMLElement> {
  render(ws.wrap(createElement(BulkEditDialog)));
  await user.click(screen.getByRole('button', { name: 'Bulk edit…' }));
  return screen.getByRole('dialog', { name: 'Bulk edit' });
}

/** Picks rows first..last as a click and a Shift+click on them do (once the table holds them). */
async function pickRows(ws: Workspace, first: number, last: number): Promise<void> {
  await waitFor(() => expect(ws.store.getState().row(last)).toBeDefined());
  act(() => {
    ws.store.getState().focusRow(first);
    ws.store.getState().focusRow(last, 'extend');
  });
}

/** The workspace over a list a test changes (`listed.rows`), with the edit form and `overrides`. */
function listingWorkspace(
  listed: { rows: RecordRow[] },
  overrides: FakeHandlers,
): Promise<Workspace> {
  return openWorkspace({
    overrides: {
      'outbox.form': () => form,
      'records.query': ({ offset, limit }) => ({
        rows: listed.rows.slice(offset, offset + limit),
        total: listed.rows.length,
      }),
      ...overrides,
    },
  });
}

/** A sync stored two records that sort first: every row picked moved two places down. */
async function syncStoresTwoFirst(ws: Workspace, listed: { rows: RecordRow[] }): Promise<void> {
  listed.rows = [
    sampleRow({ id: '1100000000100', name: 'Aardvark' }),
    sampleRow({ id: '1100000000101', name: 'Abacus' }),
    ...listed.rows,
  ];
  act(() => ws.store.getState().changed({ portalId: PORTAL_ID, moduleId: MODULE_ID }));
  await waitFor(() => expect(ws.store.getState().total).toBe(listed.rows.length));
}

/** Chooses the field the bulk edit changes. */
async function pickField(dialog: HTMLElement, user: UserEvent, field: string): Promise<void> {
  await user.selectOptions(await within(dialog).findByRole('combobox', { name: 'Field' }), field);
}

/**
 * Five rows listed, the first two picked, their tags cleared and previewed ("Queue 2 changes"
 * shown); an apply answers bulk edit `bulkEditId`.
 */
async function previewOfClearedTags(bulkEditId: number) {
  const user = userEvent.setup();
  const listed = { rows: rows(5) };
  const ws = await listingWorkspace(listed, {
    'bulkEdit.preview': () => preview({ changes: 2, sample: [] }),
    'bulkEdit.apply': () => ({
      bulkEditId,
      queued: 2,
      coalesced: 0,
      unchanged: 0,
      failed: 0,
      notQueued: 0,
    }),
  });
  await pickRows(ws, 1, 2);
  const dialog = await openDialog(ws, user);
  await pickField(dialog, user, 'cf_tags');
  await user.click(within(dialog).getByRole('radio', { name: 'Clear it' }));
  await user.click(within(dialog).getByRole('button', { name: 'Preview' }));
  await within(dialog).findByRole('button', { name: 'Queue 2 changes' });
  return { user, listed, ws, dialog };
}

describe('the bulk edit dialog', () => {
  it('previews and queues a change of every record matching the filter, with progress', async () => {
    const user = userEvent.setup();
    const filter = JSON.stringify({
      criteria: [{ field_name: 'name', criteria_condition: 'contains', value: ['Lenovo'] }],
      pattern: '1',
    });
    const ws = await openWorkspace({
      overrides: {
        'outbox.form': () => form,
        'bulkEdit.preview': () => preview(),
        'bulkEdit.apply': () => ({
          bulkEditId: 4,
          queued: 1000,
          coalesced: 20,
          unchanged: 150,
          failed: 50,
          notQueued: 0,
        }),
      },
    });
    act(() => ws.store.setState({ filter, total: 1200 }));
    act(() => ws.store.getState().selectEverything());
    const dialog = await openDialog(ws, user);
    expect(within(dialog).getByRole('heading').textContent).toBe('Bulk edit 1,200 records');
    await pickField(dialog, user, 'cf_tags');
    await user.click(within(dialog).getByRole('radio', { name: 'Add options' }));
    const preview_ = within(dialog).getByRole('button', { name: 'Preview' });
    expect((preview_ as HTMLButtonElement).disabled).toBe(true); // no option ticked yet
    await user.click(within(dialog).getByRole('checkbox', { name: 'Remote' }));
    await user.click(preview_);
    expect(ws.engine.argsOf('bulkEdit.preview')).toEqual([
      {
        portalId: PORTAL_ID,
        moduleId: MODULE_ID,
        selection: { kind: 'filter', filter },
        field: 'cf_tags',
        action: 'add',
        value: ['Remote'],
      },
    ]);
    const summary = await within(dialog).findByTestId('bulk-preview');
    expect(within(summary).getByRole('status').textContent).toBe(
      '1,000 records change, 150 already hold it (skipped), 50 refused. 980 updates will wait in the Outbox (20 folded into edits already queued); sending them takes about 10 min at the rate limit.',
    );
    // Before → after as the table shows a multi-select: its options as chips.
    const sample = within(summary).getByRole('table');
    const row = within(sample).getByRole('row', { name: /Lenovo ThinkPad/ });
    expect(row.textContent).toBe('Lenovo ThinkPadCriticalCriticalRemote');
    expect(summary.textContent).toContain('Old laptop: Tags: at most 25 options (26 chosen)');

    await user.click(within(dialog).getByRole('button', { name: 'Queue 1,000 changes' }));
    // Queue names the preview: the engine queues the records it counted, no others.
    expect(ws.engine.argsOf('bulkEdit.apply')).toEqual([{ previewId: PREVIEW_ID }]);
    expect((await within(dialog).findByTestId('bulk-applied')).textContent).toBe(
      'Queued 1,000 changes (20 folded into edits already queued). The Outbox lists it as one bulk edit with Undo while it waits. 50 refused and kept as they are.',
    );
  });

  it('does not show a preview made in another module, nor its Queue button', async () => {
    const user = userEvent.setup();
    const ws = await openWorkspace({
      overrides: {
        'records.modules': twoModules,
        'outbox.form': () => form,
        'bulkEdit.preview': () => preview(),
      },
    });
    act(() => ws.store.setState({ total: 1200 }));
    act(() => ws.store.getState().selectEverything());
    const dialog = await openDialog(ws, user);
    await pickField(dialog, user, 'cf_tags');
    await user.click(within(dialog).getByRole('radio', { name: 'Add options' }));
    await user.click(within(dialog).getByRole('checkbox', { name: 'Remote' }));
    await user.click(within(dialog).getByRole('button', { name: 'Preview' }));
    await within(dialog).findByTestId('bulk-preview');
    await act(() => ws.store.getState().selectModule(OTHER_MODULE_ID));
    expect(screen.queryByTestId('bulk-preview')).toBeNull();
    expect(screen.queryByRole('button', { name: /^Queue / })).toBeNull();
  });

  it('shows the progress the engine pushes while it queues', async () => {
    const user = userEvent.setup();
    let finish: (() => void) | undefined;
    const ws = await openWorkspace({
      overrides: {
        'outbox.form': () => form,
        'bulkEdit.preview': () => preview(),
        'bulkEdit.apply': () =>
          new Promise((resolve) => {
            finish = () =>
              resolve({
                bulkEditId: 4,
                queued: 1000,
                coalesced: 0,
                unchanged: 0,
                failed: 0,
                notQueued: 0,
              });
          }),
      },
    });
    act(() => ws.store.setState({ total: 1200 }));
    act(() => ws.store.getState().selectEverything());
    const dialog = await openDialog(ws, user);
    await pickField(dialog, user, 'cf_tags');
    await user.click(within(dialog).getByRole('radio', { name: 'Clear it' }));
    await user.click(within(dialog).getByRole('button', { name: 'Preview' }));
    await user.click(await within(dialog).findByRole('button', { name: 'Queue 1,000 changes' }));
    act(() =>
      ws.engine.emit('bulkEdit.progress', {
        portalId: PORTAL_ID,
        moduleId: MODULE_ID,
        task: 'apply',
        done: 500,
        total: 1000,
      }),
    );
    const bar = await within(dialog).findByRole('progressbar', { name: 'Queueing the bulk edit' });
    expect(bar.getAttribute('aria-valuenow')).toBe('50');
    expect(ws.engine.argsOf('bulkEdit.preview')[0]).toMatchObject({
      action: 'clear',
      selection: { kind: 'filter' },
    });
    expect(ws.engine.argsOf('bulkEdit.apply')).toEqual([{ previewId: PREVIEW_ID }]);
    act(() => finish?.());
    await within(dialog).findByTestId('bulk-applied');
    expect(within(dialog).queryByRole('progressbar')).toBeNull();
  });

  it("names the trash's progress as a move to the recycle bin, and shows no other task's as its own", async () => {
    const user = userEvent.setup();
    let finish: (() => void) | undefined;
    const listed = { rows: rows(5) };
    const ws = await listingWorkspace(listed, {
      'bulkEdit.askTrash': () => ({ previewId: QUESTION, records: 2 }),
      'bulkEdit.trash': () =>
        new Promise((resolve) => {
          finish = () => resolve({ queued: 2, failed: 0, failures: [] });
        }),
    });
    await pickRows(ws, 3, 4);
    const dialog = await openDialog(ws, user);
    await user.click(within(dialog).getByRole('button', { name: 'Move them to the recycle bin…' }));
    await user.click(
      await within(dialog).findByRole('button', { name: 'Move to the recycle bin' }),
    );
    const pushed = (task: 'apply' | 'undo' | 'trash' | 'restore', done: number) =>
      act(() =>
        ws.engine.emit('bulkEdit.progress', {
          portalId: PORTAL_ID,
          moduleId: MODULE_ID,
          task,
          done,
          total: 4,
        }),
      );
    // An undo from the Outbox or a restore from the recycle bin of this module meanwhile.
    pushed('undo', 1);
    pushed('restore', 1);
    expect(within(dialog).queryByRole('progressbar')).toBeNull();
    pushed('trash', 1);
    const bar = await within(dialog).findByRole('progressbar', {
      name: 'Queueing the move to the recycle bin',
    });
    expect(bar.getAttribute('aria-valuenow')).toBe('25');
    expect(
      within(dialog).queryByRole('progressbar', { name: 'Queueing the bulk edit' }),
    ).toBeNull();
    act(() => finish?.());
    await waitFor(() => expect(within(dialog).queryByRole('progressbar')).toBeNull());
  });

  it('says so when the bulk edit was undone from the Outbox while it was being queued', async () => {
    const user = userEvent.setup();
    const ws = await openWorkspace({
      overrides: {
        'outbox.form': () => form,
        'bulkEdit.preview': () => preview(),
        'bulkEdit.apply': () => ({
          bulkEditId: 4,
          queued: 250,
          coalesced: 0,
          unchanged: 0,
          failed: 0,
          notQueued: 750,
        }),
      },
    });
    act(() => ws.store.setState({ total: 1200 }));
    act(() => ws.store.getState().selectEverything());
    const dialog = await openDialog(ws, user);
    await pickField(dialog, user, 'cf_tags');
    await user.click(within(dialog).getByRole('radio', { name: 'Clear it' }));
    await user.click(within(dialog).getByRole('button', { name: 'Preview' }));
    await user.click(await within(dialog).findByRole('button', { name: 'Queue 1,000 changes' }));
    expect((await within(dialog).findByTestId('bulk-applied')).textContent).toBe(
      'Undone from the Outbox while it was being queued: 750 changes were never queued, and the Outbox says what it took back of the 250 queued before.',
    );
  });

  it("types the value in the record editor's field editor: what is not a value queues nothing", async () => {
    const user = userEvent.setup();
    const ws = await openWorkspace({
      overrides: {
        'outbox.form': () => form,
        'records.query': ({ offset, limit }) => ({
          rows: rows(5).slice(offset, offset + limit),
          total: 5,
        }),
        'bulkEdit.preview': () =>
          preview({ field: { key: 'cf_quantity', label: 'Quantity', type: 'number' }, sample: [] }),
      },
    });
    await pickRows(ws, 1, 2);
    const dialog = await openDialog(ws, user);
    expect(within(dialog).getByRole('heading').textContent).toBe('Bulk edit 2 records');
    const box = await within(dialog).findByLabelText('Quantity');
    await user.type(box, 'twelve');
    expect(within(dialog).getByText(/a whole number/i)).toBeTruthy();
    expect(
      (within(dialog).getByRole('button', { name: 'Use this value' }) as HTMLButtonElement)
        .disabled,
    ).toBe(true);
    await user.clear(box);
    await user.type(box, '12');
    await user.click(within(dialog).getByRole('button', { name: 'Use this value' }));
    await waitFor(() => expect(ws.engine.argsOf('bulkEdit.preview')).toHaveLength(1));
    expect(ws.engine.argsOf('bulkEdit.preview')[0]).toEqual({
      portalId: PORTAL_ID,
      moduleId: MODULE_ID,
      selection: { kind: 'ids', ids: ['1100000000002', '1100000000003'] },
      field: 'cf_quantity',
      action: 'set',
      value: 12,
    });
    // Asked for: every record matching the filter instead of the two picked.
    await user.click(
      within(dialog).getByRole('checkbox', { name: 'All 5 records matching the filter' }),
    );
    expect(within(dialog).getByRole('heading').textContent).toBe('Bulk edit 5 records');
  });

  it('previews the records picked, not the rows a sync moved into their places since', async () => {
    const user = userEvent.setup();
    const listed = { rows: rows(5) };
    const ws = await listingWorkspace(listed, {
      'bulkEdit.preview': () => preview({ changes: 2, sample: [] }),
    });
    await pickRows(ws, 1, 2);
    await syncStoresTwoFirst(ws, listed);
    const dialog = await openDialog(ws, user);
    expect(within(dialog).getByRole('heading').textContent).toBe('Bulk edit 2 records');
    await pickField(dialog, user, 'cf_tags');
    await user.click(within(dialog).getByRole('radio', { name: 'Clear it' }));
    await user.click(within(dialog).getByRole('button', { name: 'Preview' }));
    await within(dialog).findByRole('button', { name: 'Queue 2 changes' });
    // Rows 1 and 2 when they were picked; "Row 0" and "Abacus" hold those places now.
    expect(ws.engine.argsOf('bulkEdit.preview')[0]).toMatchObject({
      selection: { kind: 'ids', ids: ['1100000000002', '1100000000003'] },
    });
  });

  it('moves the records picked to the recycle bin, not the rows a sync moved into their places', async () => {
    const user = userEvent.setup();
    const listed = { rows: rows(5) };
    const ws = await listingWorkspace(listed, {
      'bulkEdit.askTrash': () => ({ previewId: QUESTION, records: 2 }),
      'bulkEdit.trash': () => ({ queued: 2, failed: 0, failures: [] }),
    });
    await pickRows(ws, 3, 4);
    await syncStoresTwoFirst(ws, listed);
    const dialog = await openDialog(ws, user);
    await user.click(within(dialog).getByRole('button', { name: 'Move them to the recycle bin…' }));
    await user.click(
      await within(dialog).findByRole('button', { name: 'Move to the recycle bin' }),
    );
    await waitFor(() => expect(ws.engine.argsOf('bulkEdit.trash')).toHaveLength(1));
    expect(ws.engine.argsOf('bulkEdit.askTrash')[0]).toMatchObject({
      selection: { kind: 'ids', ids: ['1100000000004', '1100000000005'] },
      restore: false,
    });
    // The confirm names the question: the engine moves the records it held then.
    expect(ws.engine.argsOf('bulkEdit.trash')[0]).toEqual({ previewId: QUESTION });
  });

  it('says beside the trash control that the selection changed since the question, and asks again', async () => {
    const user = userEvent.setup();
    const listed = { rows: rows(5) };
    const refusal =
      '1 record no longer matches and 1 new record matches since you were asked (a sync changed the list). Nothing was moved to the recycle bin; review the selection and ask again.';
    const ws = await listingWorkspace(listed, {
      'bulkEdit.askTrash': () => ({ previewId: QUESTION, records: 2 }),
      'bulkEdit.trash': () => {
        throw new Error(refusal);
      },
    });
    await pickRows(ws, 3, 4);
    const dialog = await openDialog(ws, user);
    await user.click(within(dialog).getByRole('button', { name: 'Move them to the recycle bin…' }));
    await user.click(
      await within(dialog).findByRole('button', { name: 'Move to the recycle bin' }),
    );
    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toBe(refusal);
    expect(alert.closest('.records-bulk__trash')).not.toBeNull();
    expect(document.activeElement).toBe(alert);
    // The question is used up: asking again asks the engine again.
    await user.click(within(dialog).getByRole('button', { name: 'Move them to the recycle bin…' }));
    await within(dialog).findByRole('button', { name: 'Move to the recycle bin' });
    expect(ws.engine.argsOf('bulkEdit.askTrash')).toHaveLength(2);
  });

  it('closes the trash question when the selection changes under it, and asks again about the new one', async () => {
    const user = userEvent.setup();
    const listed = { rows: rows(5) };
    const ws = await listingWorkspace(listed, {
      'bulkEdit.askTrash': ({ selection }) => ({
        previewId: QUESTION,
        records: selection.kind === 'ids' ? selection.ids.length : 0,
      }),
      'bulkEdit.trash': () => ({ queued: 3, failed: 0, failures: [] }),
    });
    await pickRows(ws, 3, 4);
    const dialog = await openDialog(ws, user);
    await user.click(within(dialog).getByRole('button', { name: 'Move them to the recycle bin…' }));
    await within(dialog).findByText('Move 2 records to the recycle bin?');
    // Ctrl+click on a third row while the question is open: its answer would move two records
    // under a heading that says three.
    act(() => ws.store.getState().focusRow(0, 'toggle'));
    expect(within(dialog).getByRole('heading').textContent).toBe('Bulk edit 3 records');
    expect(within(dialog).queryByRole('button', { name: 'Move to the recycle bin' })).toBeNull();
    expect(within(dialog).queryByText(/to the recycle bin\?$/)).toBeNull();
    expect(
      within(dialog.querySelector('.records-bulk__trash')!).getByRole('status').textContent,
    ).toBe(
      'The selection changed after you were asked, so the question was closed and nothing was moved to the recycle bin. Ask again for the records selected now.',
    );
    expect(ws.engine.argsOf('bulkEdit.trash')).toEqual([]);
    // Going back to the two records does not bring the old question back.
    act(() => ws.store.getState().focusRow(0, 'toggle'));
    expect(within(dialog).queryByRole('button', { name: 'Move to the recycle bin' })).toBeNull();
    act(() => ws.store.getState().focusRow(0, 'toggle'));
    await user.click(within(dialog).getByRole('button', { name: 'Move them to the recycle bin…' }));
    await within(dialog).findByText('Move 3 records to the recycle bin?');
    expect(within(dialog).queryByText(/The selection changed/)).toBeNull();
    expect(ws.engine.argsOf('bulkEdit.askTrash')[1]).toMatchObject({
      selection: { kind: 'ids', ids: ['1100000000001', '1100000000004', '1100000000005'] },
    });
    await user.click(within(dialog).getByRole('button', { name: 'Move to the recycle bin' }));
    await waitFor(() => expect(ws.engine.argsOf('bulkEdit.trash')).toHaveLength(1));
  });

  it('closes the trash question when the filter changes under it, the whole list asked for', async () => {
    const user = userEvent.setup();
    const listed = { rows: rows(5) };
    const ws = await listingWorkspace(listed, {
      'bulkEdit.askTrash': () => ({ previewId: QUESTION, records: 5 }),
    });
    await pickRows(ws, 0, 1);
    const dialog = await openDialog(ws, user);
    await user.click(within(dialog).getByRole('checkbox', { name: /^All 5 records matching/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Move them to the recycle bin…' }));
    await within(dialog).findByText('Move 5 records to the recycle bin?');
    const filter = JSON.stringify({
      criteria: [{ field_name: 'name', criteria_condition: 'contains', value: ['Row 1'] }],
      pattern: '1',
    });
    act(() => ws.store.setState({ filter }));
    expect(within(dialog).queryByRole('button', { name: 'Move to the recycle bin' })).toBeNull();
    expect(within(dialog).getByText(/^The selection changed after you were asked/)).toBeTruthy();
  });

  it('keeps the trash question while a sync only moves the rows picked', async () => {
    const user = userEvent.setup();
    const listed = { rows: rows(5) };
    const ws = await listingWorkspace(listed, {
      'bulkEdit.askTrash': () => ({ previewId: QUESTION, records: 2 }),
      'bulkEdit.trash': () => ({ queued: 2, failed: 0, failures: [] }),
    });
    await pickRows(ws, 3, 4);
    const dialog = await openDialog(ws, user);
    await user.click(within(dialog).getByRole('button', { name: 'Move them to the recycle bin…' }));
    await within(dialog).findByText('Move 2 records to the recycle bin?');
    await syncStoresTwoFirst(ws, listed);
    await act(() => ws.store.getState().picked());
    await user.click(within(dialog).getByRole('button', { name: 'Move to the recycle bin' }));
    await waitFor(() =>
      expect(ws.engine.argsOf('bulkEdit.trash')).toEqual([{ previewId: QUESTION }]),
    );
    expect(within(dialog).queryByText(/The selection changed/)).toBeNull();
  });

  it('sets a preview aside when the selection changes under it: Queue is gone, nothing queued', async () => {
    const { ws, dialog } = await previewOfClearedTags(4);
    act(() => ws.store.getState().focusRow(4, 'toggle'));
    expect(within(dialog).queryByRole('button', { name: /^Queue/ })).toBeNull();
    expect(within(dialog).queryByTestId('bulk-preview')).toBeNull();
    expect(within(dialog).getByText(/^The selection changed after this preview/).textContent).toBe(
      'The selection changed after this preview, so it was set aside and nothing was queued. Preview again for the records selected now.',
    );
    expect(ws.engine.argsOf('bulkEdit.apply')).toEqual([]);
  });

  it('does not set aside the preview being queued when its records leave the selection meanwhile', async () => {
    const user = userEvent.setup();
    const listed = { rows: rows(5) };
    let finish: (() => void) | undefined;
    const ws = await listingWorkspace(listed, {
      'bulkEdit.preview': () => preview({ changes: 2, sample: [] }),
      'bulkEdit.apply': () =>
        new Promise((resolve) => {
          finish = () =>
            resolve({
              bulkEditId: 4,
              queued: 2,
              coalesced: 0,
              unchanged: 0,
              failed: 0,
              notQueued: 0,
            });
        }),
    });
    await pickRows(ws, 1, 2);
    const dialog = await openDialog(ws, user);
    await pickField(dialog, user, 'cf_tags');
    await user.click(within(dialog).getByRole('radio', { name: 'Clear it' }));
    await user.click(within(dialog).getByRole('button', { name: 'Preview' }));
    await user.click(await within(dialog).findByRole('button', { name: 'Queue 2 changes' }));
    // The records queued leave the filter as they are written: the list's refresh unpicks them.
    act(() => ws.store.getState().focusRow(4, 'toggle'));
    await act(async () => finish?.());
    expect((await within(dialog).findByTestId('bulk-applied')).textContent).toMatch(/^Queued 2/);
    expect(within(dialog).queryByText(/set aside/)).toBeNull();
  });

  it('queues one bulk removal of options when Queue is pressed twice before it redraws', async () => {
    const user = userEvent.setup();
    let finish: (() => void) | undefined;
    const ws = await openWorkspace({
      overrides: {
        'outbox.form': () => form,
        'bulkEdit.preview': () => preview({ changes: 3, sample: [] }),
        // As the engine: a preview queues once, a second Queue of it is refused.
        'bulkEdit.apply': () => {
          if (finish)
            throw new Error(
              'This preview is no longer held (it was queued already, is more than 10 minutes old, or newer previews replaced it). Nothing was queued; preview again.',
            );
          return new Promise((resolve) => {
            finish = () =>
              resolve({
                bulkEditId: 4,
                queued: 3,
                coalesced: 0,
                unchanged: 0,
                failed: 0,
                notQueued: 0,
              });
          });
        },
      },
    });
    act(() => ws.store.setState({ total: 3 }));
    act(() => ws.store.getState().selectEverything());
    const dialog = await openDialog(ws, user);
    await pickField(dialog, user, 'cf_tags');
    await user.click(within(dialog).getByRole('radio', { name: 'Remove options' }));
    await user.click(within(dialog).getByRole('checkbox', { name: 'Remote' }));
    await user.click(within(dialog).getByRole('button', { name: 'Preview' }));
    const queue = await within(dialog).findByRole('button', { name: 'Queue 3 changes' });
    // Two presses in one task: React has not drawn the button disabled between them.
    act(() => {
      queue.click();
      queue.click();
    });
    expect(ws.engine.argsOf('bulkEdit.apply')).toEqual([{ previewId: PREVIEW_ID }]);
    expect(within(dialog).queryByRole('alert')).toBeNull();
    // The first still queues: the options stay locked until it is done.
    const remote = within(dialog).getByRole('checkbox', { name: 'Remote' }) as HTMLInputElement;
    expect(remote.closest('fieldset')?.disabled).toBe(true);
    await act(async () => finish?.());
    expect((await within(dialog).findByTestId('bulk-applied')).textContent).toMatch(/^Queued 3/);
    expect(ws.engine.argsOf('bulkEdit.apply')).toHaveLength(1);
  });

  it('waits for a range being read before it previews or moves anything, then moves what it said', async () => {
    const user = userEvent.setup();
    const listed = { rows: rows(2_000) };
    let release: (() => void) | null = null;
    const ws = await listingWorkspace(listed, {
      'records.ids': async ({ offset, limit }) => {
        await new Promise<void>((resolve) => (release = resolve));
        return {
          ids: listed.rows.slice(offset, offset + limit).map((r) => r.id),
          total: listed.rows.length,
        };
      },
      'bulkEdit.askTrash': ({ selection }) => ({
        previewId: QUESTION,
        records: selection.kind === 'ids' ? selection.ids.length : 0,
      }),
      'bulkEdit.trash': () => ({ queued: 1_501, failed: 0, failures: [] }),
    });
    await waitFor(() => expect(ws.store.getState().row(0)).toBeDefined());
    act(() => {
      ws.store.getState().focusRow(0);
      ws.store.getState().focusRow(1_500, 'extend');
    });
    const dialog = await openDialog(ws, user);
    expect(within(dialog).getByRole('status').textContent).toBe(
      'Reading the rows of the range selected…',
    );
    const move = within(dialog).getByRole('button', { name: /to the recycle bin…$/ });
    expect((move as HTMLButtonElement).disabled).toBe(true);
    await act(async () => {
      release?.();
      await ws.store.getState().picked();
    });
    expect(within(dialog).getByRole('heading').textContent).toBe('Bulk edit 1,501 records');
    await user.click(within(dialog).getByRole('button', { name: 'Move them to the recycle bin…' }));
    expect(await within(dialog).findByText('Move 1,501 records to the recycle bin?')).toBeTruthy();
    const asked = ws.engine.argsOf('bulkEdit.askTrash')[0] as { selection: { ids: string[] } };
    expect(asked.selection.ids).toHaveLength(1_501);
    await user.click(within(dialog).getByRole('button', { name: 'Move to the recycle bin' }));
    await waitFor(() => expect(ws.engine.argsOf('bulkEdit.trash')).toHaveLength(1));
    // The question the engine holds: it moves nothing if the selection names other records now.
    expect(ws.engine.argsOf('bulkEdit.trash')[0]).toEqual({ previewId: QUESTION });
  });

  it('acts on every record matching the filter but those Ctrl+clicked out, after a sync too', async () => {
    const user = userEvent.setup();
    const listed = { rows: rows(5) };
    const ws = await listingWorkspace(listed, {
      'bulkEdit.preview': () => preview({ changes: 6, sample: [] }),
    });
    await pickRows(ws, 0, 0);
    act(() => {
      ws.store.getState().selectEverything();
      ws.store.getState().focusRow(1, 'toggle');
    });
    await syncStoresTwoFirst(ws, listed);
    const dialog = await openDialog(ws, user);
    // Seven rows now, one of them left out: the two the sync stored are in the list, so selected.
    expect(within(dialog).getByRole('heading').textContent).toBe('Bulk edit 6 records');
    await pickField(dialog, user, 'cf_tags');
    await user.click(within(dialog).getByRole('radio', { name: 'Clear it' }));
    await user.click(within(dialog).getByRole('button', { name: 'Preview' }));
    await waitFor(() => expect(ws.engine.argsOf('bulkEdit.preview')).toHaveLength(1));
    expect(ws.engine.argsOf('bulkEdit.preview')[0]).toMatchObject({
      selection: { kind: 'filter', except: ['1100000000002'] },
    });
  });

  it('queues exactly the records it previewed, even if a sync moved rows of the list since', async () => {
    const { user, listed, ws, dialog } = await previewOfClearedTags(5);
    expect(ws.engine.argsOf('bulkEdit.preview')[0]).toMatchObject({
      selection: { kind: 'ids', ids: ['1100000000002', '1100000000003'] },
    });
    await syncStoresTwoFirst(ws, listed);
    await user.click(within(dialog).getByRole('button', { name: 'Queue 2 changes' }));
    expect(ws.engine.argsOf('bulkEdit.apply')).toEqual([{ previewId: PREVIEW_ID }]);
  });

  it('says why the engine queued nothing, and asks for a preview again', async () => {
    const user = userEvent.setup();
    const refusal =
      'The selection is 2 records now, not the 1 record previewed: 1 record joined it since the preview (a sync or an edit changed which records match). Nothing was queued; preview again to see what would change.';
    const ws = await openWorkspace({
      overrides: {
        'outbox.form': () => form,
        'bulkEdit.preview': () => preview({ changes: 1, sample: [] }),
        'bulkEdit.apply': () => {
          throw new Error(refusal);
        },
      },
    });
    act(() => ws.store.setState({ total: 2 }));
    act(() => ws.store.getState().selectEverything());
    const dialog = await openDialog(ws, user);
    await pickField(dialog, user, 'cf_tags');
    await user.click(within(dialog).getByRole('radio', { name: 'Clear it' }));
    await user.click(within(dialog).getByRole('button', { name: 'Preview' }));
    await user.click(await within(dialog).findByRole('button', { name: 'Queue 1 change' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toBe(refusal);
    // The engine used the preview up: no Queue of it, only a new preview.
    expect(within(dialog).queryByTestId('bulk-preview')).toBeNull();
    expect(within(dialog).queryByRole('button', { name: /^Queue/ })).toBeNull();
    expect(
      (within(dialog).getByRole('button', { name: 'Preview' }) as HTMLButtonElement).disabled,
    ).toBe(false);
  });

  it('shows a refusal beside the controls with the focus moved to it', async () => {
    const user = userEvent.setup();
    const ws = await openWorkspace({
      overrides: {
        'outbox.form': () => form,
        'bulkEdit.preview': () => {
          throw new Error(
            '60,000 records match this filter; a bulk change takes at most 50,000. Nothing was changed: narrow the filter.',
          );
        },
      },
    });
    act(() => ws.store.setState({ total: 60000 }));
    act(() => ws.store.getState().selectEverything());
    const dialog = await openDialog(ws, user);
    await pickField(dialog, user, 'cf_tags');
    await user.click(within(dialog).getByRole('radio', { name: 'Clear it' }));
    await user.click(within(dialog).getByRole('button', { name: 'Preview' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toMatch(/at most 50,000\. Nothing was changed: narrow the filter/);
    expect(document.activeElement).toBe(alert);
    expect(within(dialog).queryByRole('button', { name: /^Queue/ })).toBeNull();
  });

  it('sets a yes/no field to yes or to no', async () => {
    const user = userEvent.setup();
    const ws = await openWorkspace({
      overrides: {
        'outbox.form': () => form,
        'bulkEdit.preview': () =>
          preview({
            field: { key: 'cf_insured', label: 'Insured', type: 'check_box' },
            sample: [],
          }),
      },
    });
    act(() => ws.store.setState({ total: 40 }));
    act(() => ws.store.getState().selectEverything());
    const dialog = await openDialog(ws, user);
    await pickField(dialog, user, 'cf_insured');
    const previewButton = within(dialog).getByRole('button', { name: 'Preview' });
    expect((previewButton as HTMLButtonElement).disabled).toBe(true);
    await user.click(within(dialog).getByRole('radio', { name: 'No' }));
    await user.click(previewButton);
    expect(ws.engine.argsOf('bulkEdit.preview')[0]).toMatchObject({
      field: 'cf_insured',
      action: 'set',
      value: false,
    });
  });

  it('is disabled until a row is selected', async () => {
    const ws = await openWorkspace({ overrides: { 'outbox.form': () => form } });
    render(ws.wrap(createElement(BulkEditDialog)));
    expect((screen.getByRole('button', { name: 'Bulk edit…' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
  });
});

describe("the Outbox's bulk edit groups", () => {
  it('lists each bulk edit still queued with Undo, and says what the undo kept', async () => {
    const user = userEvent.setup();
    let undone = false;
    const engine = fakeEngine({
      'bulkEdit.groups': () =>
        undone
          ? []
          : [
              {
                id: 4,
                portalId: PORTAL_ID,
                moduleId: MODULE_ID,
                module: 'Assets',
                field: 'cf_tags',
                label: 'Tags',
                action: 'add',
                value: ['Remote'],
                createdAt: '2026-11-26T10:00:00.000Z',
                records: 1000,
                planned: 1000,
                stopped: false,
                queued: 990,
                sending: 4,
                stuck: 0,
                reverted: 0,
              },
            ],
      'bulkEdit.undo': () => {
        undone = true;
        // Undone while the apply was still queueing: its last 10 changes never were.
        return { restored: 976, sent: 14, changedSince: 0, neverQueued: 10 };
      },
    });
    const outbox = createOutboxStore(engine.api);
    render(createElement(OutboxContext.Provider, { value: outbox }, createElement(BulkEditGroups)));
    const group = await screen.findByTestId('bulk-group');
    expect(group.textContent).toMatch(
      /^Tags: Remote added1,000 Assets records · 990 still queued · 4 being sent · queued /,
    );
    await user.click(
      within(group).getByRole('button', { name: 'Undo the bulk edit: Tags: Remote added' }),
    );
    expect(engine.argsOf('bulkEdit.undo')).toEqual([{ id: 4 }]);
    expect((await screen.findByRole('status')).textContent).toBe(
      'Undone: 976 records put back. 14 had gone out already and stay. 10 not queued yet when you chose Undo will not be.',
    );
    await waitFor(() => expect(screen.queryByTestId('bulk-group')).toBeNull());
  });

  it('keeps a bulk edit that dropped queued edits of your own, saying that Undo queues them again', async () => {
    const engine = fakeEngine({
      'bulkEdit.groups': () => [
        {
          id: 5,
          portalId: PORTAL_ID,
          moduleId: MODULE_ID,
          module: 'Assets',
          field: 'description',
          label: 'Description',
          action: 'set',
          value: 'As on the service',
          createdAt: '2026-11-26T10:00:00.000Z',
          records: 3,
          planned: 3,
          stopped: false,
          queued: 0,
          sending: 0,
          stuck: 0,
          reverted: 2,
        },
      ],
    });
    const outbox = createOutboxStore(engine.api);
    render(createElement(OutboxContext.Provider, { value: outbox }, createElement(BulkEditGroups)));
    const group = await screen.findByTestId('bulk-group');
    expect(group.textContent).toMatch(
      /^Description set to “As on the service”3 Assets records · 0 still queued · 2 of your queued edits set back to the service's value \(Undo queues them again\) · queued /,
    );
    expect(within(group).getByRole('button', { name: /^Undo the bulk edit/ })).toBeTruthy();
  });

  it('counts one record of a bulk edit as one record', async () => {
    const engine = fakeEngine({
      'bulkEdit.groups': () => [
        {
          id: 6,
          portalId: PORTAL_ID,
          moduleId: MODULE_ID,
          module: 'Assets',
          field: 'description',
          label: 'Description',
          action: 'clear',
          value: null,
          createdAt: '2026-11-26T10:00:00.000Z',
          records: 1,
          planned: 1,
          stopped: false,
          queued: 0,
          sending: 0,
          stuck: 0,
          reverted: 1,
        },
      ],
    });
    const outbox = createOutboxStore(engine.api);
    render(createElement(OutboxContext.Provider, { value: outbox }, createElement(BulkEditGroups)));
    const group = await screen.findByTestId('bulk-group');
    expect(group.textContent).toMatch(
      /^Description cleared1 Assets record · 0 still queued · 1 of your queued edits set back to the service's value \(Undo queues it again\) · queued /,
    );
  });

  it('says beside a bulk edit the app stopped half way what was queued and what never was', async () => {
    const engine = fakeEngine({
      'bulkEdit.groups': () => [
        {
          id: 7,
          portalId: PORTAL_ID,
          moduleId: MODULE_ID,
          module: 'Assets',
          field: 'name',
          label: 'Name',
          action: 'set',
          value: 'Bulk name',
          createdAt: '2026-11-26T10:00:00.000Z',
          records: 250,
          planned: 600,
          stopped: true,
          queued: 250,
          sending: 0,
          stuck: 0,
          reverted: 0,
        },
      ],
    });
    const outbox = createOutboxStore(engine.api);
    render(createElement(OutboxContext.Provider, { value: outbox }, createElement(BulkEditGroups)));
    const group = await screen.findByTestId('bulk-group');
    expect(group.querySelector('.field-error')?.textContent).toBe(
      'Stopped half way: PortalDesk closed while it was being queued, so only 250 of the 600 previewed records were queued; the other 350 were never changed. Undo takes back the 250; to change the rest, select them in the records view and bulk edit them again.',
    );
    expect(within(group).getByRole('button', { name: /^Undo the bulk edit/ })).toBeTruthy();
  });
});
