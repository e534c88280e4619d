// @vitest-environment happy-dom
/**
 * The records workspace's recycle bin: each record can be restored or deleted for good, the
 * latter only after a confirmation in place; what is already queued says so instead of offering
 * it again; a refusal is shown beside the record. Restore all asks about exactly the records
 * listed and not queued yet, shows its progress while the engine queues, and says what it did.
 */
import { createElement } from 'react';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { RecycleBin } from '../../../../src/renderer/src/features/records/RecycleBin';
import type { OutboxEntry } from '../../../../src/shared/ipc/areas/outbox';
import { useDomTestEnvironment } from '../support/dom';
import { MODULE_ID, openWorkspace, OTHER_MODULE_ID, PORTAL_ID } from '../support/recordsWorkspace';
import type { BulkTrashed } from '../../../../src/shared/ipc/areas/bulkEdit';

useDomTestEnvironment();

const TRASHED = [
  { recordId: '11', name: 'Old laptop', trashedTime: '2026-11-20T10:00:00.000Z' },
  { recordId: '12', name: 'Broken phone', trashedTime: '2026-11-21T10:00:00.000Z' },
  { recordId: '13', name: 'Spare cable', trashedTime: '2026-11-22T10:00:00.000Z' },
];

const queuedRestore = { recordId: '13', kind: 'restore' } as unknown as OutboxEntry;

describe('the recycle bin', () => {
  it('restores, deletes for good only after asking, and shows what is queued', async () => {
    const user = userEvent.setup();
    let refuse = false;
    const ws = await openWorkspace({
      overrides: {
        'records.trashed': () => TRASHED,
        'outbox.list': () => [{ ...emptyEntry(), ...queuedRestore }],
        'outbox.restore': ({ recordId }) => ({
          portalId: PORTAL_ID,
          recordId,
          opId: 1,
          reverted: [],
        }),
        'outbox.deleteRecord': ({ recordId }) => {
          if (refuse)
            throw new Error('Record "Broken phone" is already queued to be deleted for good.');
          return { portalId: PORTAL_ID, recordId, opId: 2, reverted: [] };
        },
      },
    });
    render(ws.wrap(createElement(RecycleBin)));
    await user.click(screen.getByRole('button', { name: 'Recycle bin' }));
    const bin = await screen.findByRole('dialog', { name: 'Recycle bin' });
    const item = (name: string) => within(bin).getByText(name).closest('li')!;
    await within(item('Spare cable')).findByText('Restore queued in the Outbox');
    expect(within(item('Spare cable')).queryByRole('button', { name: 'Restore' })).toBeNull();

    await user.click(within(item('Old laptop')).getByRole('button', { name: 'Restore' }));
    expect(ws.engine.argsOf('outbox.restore')).toEqual([{ portalId: PORTAL_ID, recordId: '11' }]);

    await user.click(
      within(item('Broken phone')).getByRole('button', { name: 'Delete for good…' }),
    );
    expect(ws.engine.argsOf('outbox.deleteRecord')).toEqual([]);
    const confirm = within(item('Broken phone')).getByRole('group', {
      name: 'Confirm delete for good',
    });
    expect(confirm.textContent).toContain('cannot be restored');
    await user.click(within(confirm).getByRole('button', { name: 'Keep it' }));
    expect(ws.engine.argsOf('outbox.deleteRecord')).toEqual([]);

    refuse = true;
    await user.click(
      within(item('Broken phone')).getByRole('button', { name: 'Delete for good…' }),
    );
    await user.click(within(item('Broken phone')).getByRole('button', { name: 'Delete for good' }));
    expect(ws.engine.argsOf('outbox.deleteRecord')).toEqual([
      { portalId: PORTAL_ID, recordId: '12' },
    ]);
    expect((await within(item('Broken phone')).findByRole('alert')).textContent).toContain(
      'already queued',
    );
  });
});

describe('restore all', () => {
  const BIN = [
    ...TRASHED,
    { recordId: '14', name: 'Old monitor', trashedTime: '2026-11-23T10:00:00.000Z' },
  ];
  const QUESTION = 'f0e1d2c3b4a59687';

  /** The bin opened over BIN (Spare cable's restore queued), the confirm held until `answer`. */
  async function openBin() {
    const user = userEvent.setup();
    let listed = BIN;
    let answer: ((result: BulkTrashed | Error) => void) | undefined;
    const ws = await openWorkspace({
      overrides: {
        'records.trashed': () => listed,
        'outbox.list': () => [{ ...emptyEntry(), ...queuedRestore }],
        'bulkEdit.askTrash': ({ selection }) => ({
          previewId: QUESTION,
          records: selection.kind === 'ids' ? selection.ids.length : 0,
        }),
        'bulkEdit.trash': () =>
          new Promise<BulkTrashed>((resolve, reject) => {
            answer = (result) => (result instanceof Error ? reject(result) : resolve(result));
          }),
      },
    });
    render(ws.wrap(createElement(RecycleBin)));
    await user.click(screen.getByRole('button', { name: 'Recycle bin' }));
    const bin = await screen.findByRole('dialog', { name: 'Recycle bin' });
    await within(bin).findByText('Restore queued in the Outbox');
    return {
      ws,
      user,
      bin,
      answer: (result: BulkTrashed | Error, after: typeof BIN = listed) => {
        listed = after;
        act(() => answer?.(result));
      },
    };
  }

  const progress = (done: number, patch: object = {}) => ({
    portalId: PORTAL_ID,
    moduleId: MODULE_ID,
    task: 'restore' as const,
    done,
    total: 3,
    ...patch,
  });

  it('restores exactly the records listed and not queued, with progress and the result in words', async () => {
    const { ws, user, bin, answer } = await openBin();
    const button = within(bin).getByRole('button', { name: 'Restore all 3' });
    await user.click(button);
    // Asked about the listed records less Spare cable (its restore is queued), then confirmed.
    expect(ws.engine.argsOf('bulkEdit.askTrash')).toEqual([
      {
        portalId: PORTAL_ID,
        moduleId: MODULE_ID,
        selection: { kind: 'ids', ids: ['11', '12', '14'] },
        restore: true,
      },
    ]);
    await waitFor(() =>
      expect(ws.engine.argsOf('bulkEdit.trash')).toEqual([{ previewId: QUESTION }]),
    );
    const status = () => within(bin).getByRole('progressbar', { name: 'Restoring the records' });
    expect(status().closest('[role="status"]')?.textContent).toBe('Restoring 0 of 3 records…');
    expect((button as HTMLButtonElement).disabled).toBe(true);
    // Another task's or module's progress is not this one's.
    act(() => ws.engine.emit('bulkEdit.progress', progress(1, { task: 'trash' })));
    act(() => ws.engine.emit('bulkEdit.progress', progress(1, { moduleId: OTHER_MODULE_ID })));
    act(() => ws.engine.emit('bulkEdit.progress', progress(2)));
    expect(status().getAttribute('aria-valuenow')).toBe('67');
    expect(status().closest('[role="status"]')?.textContent).toBe('Restoring 2 of 3 records…');

    answer({ queued: 3, failed: 0, failures: [] }, [BIN[2]!]);
    expect((await within(bin).findByText(/leave the recycle bin/)).textContent).toBe(
      '3 records leave the recycle bin here; the Outbox sends the restores the service has to hear of.',
    );
    expect(within(bin).queryByRole('progressbar')).toBeNull();
    // The bin is read again: only the record whose restore was queued before is left.
    await waitFor(() => expect(within(bin).queryByText('Old laptop')).toBeNull());
    expect(within(bin).getByText('Spare cable')).toBeTruthy();
    expect(ws.engine.argsOf('bulkEdit.trash')).toHaveLength(1);
  });

  it('says what was kept and why when the engine refuses, and can be tried again', async () => {
    const { ws, user, bin, answer } = await openBin();
    await user.click(within(bin).getByRole('button', { name: 'Restore all 3' }));
    await waitFor(() => expect(ws.engine.argsOf('bulkEdit.trash')).toHaveLength(1));
    const refusal =
      '1 record no longer matches since you were asked (a sync changed the list). Nothing was restored; review the selection and ask again.';
    answer(new Error(refusal));
    expect((await within(bin).findByRole('alert')).textContent).toBe(refusal);
    expect(within(bin).queryByRole('progressbar')).toBeNull();
    const again = within(bin).getByRole('button', { name: 'Restore all 3' }) as HTMLButtonElement;
    expect(again.disabled).toBe(false);
    await user.click(again);
    expect(ws.engine.argsOf('bulkEdit.askTrash')).toHaveLength(2);
  });

  it('asks once when pressed twice before it redraws', async () => {
    const { ws, bin } = await openBin();
    const button = within(bin).getByRole('button', { name: 'Restore all 3' });
    act(() => {
      button.click();
      button.click();
    });
    await waitFor(() => expect(ws.engine.argsOf('bulkEdit.trash')).toHaveLength(1));
    expect(ws.engine.argsOf('bulkEdit.askTrash')).toHaveLength(1);
  });
});

function emptyEntry(): OutboxEntry {
  return {
    id: 9,
    portalId: PORTAL_ID,
    moduleId: '1000000000002',
    module: 'Assets',
    recordId: '0',
    recordName: null,
    kind: 'update',
    state: 'pending',
    queuedAt: '2026-11-22T10:00:00.000Z',
    updatedAt: '2026-11-22T10:00:00.000Z',
    edits: 1,
    attempts: 0,
    nextAttemptAt: null,
    error: null,
    fields: [],
    comment: null,
    conflict: null,
    uncertain: false,
    config: null,
  };
}
