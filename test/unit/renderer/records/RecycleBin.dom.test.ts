// @vitest-environment happy-dom
/**
 * The records workspace's recycle bin: each record can be restored or deleted for good, the
 * latter only after a confirmation in place; what is already queued says so instead of offering
 * it again; a refusal is shown beside the record.
 */
import { createElement } from 'react';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { RecycleBin } from '../../../../src/renderer/src/features/records/RecycleBin';
import type { OutboxEntry } from '../../../../src/shared/ipc/areas/outbox';
import { useDomTestEnvironment } from '../support/dom';
import { openWorkspace, PORTAL_ID } from '../support/recordsWorkspace';

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
