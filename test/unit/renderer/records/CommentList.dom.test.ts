// @vitest-environment happy-dom
/**
 * A record's mirrored comments in the record panel: Edit and Delete queue the change in the
 * Outbox (outbox.comment) and the comment shows it until the service has it; a refusal stays
 * beside the comment with the draft kept; a record in the recycle bin offers neither; the focus
 * returns to the control that opened the editor or the question.
 */
import { createElement } from 'react';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { CommentList } from '../../../../src/renderer/src/features/records/CommentList';
import type { PendingComment } from '../../../../src/shared/ipc/areas/outbox';
import type { RecordComment } from '../../../../src/shared/ipc/areas/records';
import { useDomTestEnvironment } from '../support/dom';
import { openWorkspace, PORTAL_ID } from '../support/recordsWorkspace';

useDomTestEnvironment();

const RECORD_ID = '1100000000007';

const comment = (id: string, content: string, name: string): RecordComment => ({
  id,
  content,
  author: { zpuid: `u${id}`, name, email: null },
  createdTime: '2026-03-01T10:00:00.000Z',
  lastUpdatedTime: '2026-03-01T10:00:00.000Z',
  attachmentIds: [],
});

const COMMENTS = [
  comment('501', 'Shipped on Monday', 'Ana'),
  comment('502', 'Invoice sent', 'Ben'),
];

/** The fake engine's Outbox: the comment changes queued so far, as pendingComments lists them. */
async function workspace(refuse?: string) {
  const queued: PendingComment[] = [];
  const ws = await openWorkspace({
    overrides: {
      'outbox.pendingComments': () => [...queued],
      'outbox.comment': (args) => {
        if (refuse) throw new Error(refuse);
        if (args.action === 'add') throw new Error('not asked here');
        queued.push({
          opId: queued.length + 1,
          action: args.action,
          commentId: args.commentId,
          content: args.action === 'edit' ? args.content : null,
          queuedAt: '2026-11-28T10:00:00.000Z',
          state: 'pending',
        });
        return { opId: queued.length, commentId: args.commentId };
      },
    },
  });
  return { ws, queued };
}

function list(ws: Awaited<ReturnType<typeof workspace>>['ws'], editable = true) {
  render(
    ws.wrap(
      createElement(CommentList, {
        portalId: PORTAL_ID,
        recordId: RECORD_ID,
        comments: COMMENTS,
        editable,
        context: { timeZone: 'UTC' },
      }),
    ),
  );
  return screen.getAllByRole('listitem');
}

describe("a record's comments in the record panel", () => {
  it('queues an edit, shows the new text marked as not sent, and gives the focus back to Edit', async () => {
    const user = userEvent.setup();
    const { ws } = await workspace();
    const [first] = list(ws);
    await user.click(within(first!).getByRole('button', { name: 'Edit the comment by Ana' }));
    const box = within(first!).getByRole('textbox', { name: 'Comment by Ana' });
    expect(document.activeElement).toBe(box);
    // Unchanged or empty text is no edit.
    expect(within(first!).getByRole('button', { name: 'Save comment' })).toHaveProperty(
      'disabled',
      true,
    );
    await user.clear(box);
    await user.type(box, 'Shipped on Tuesday');
    await user.click(within(first!).getByRole('button', { name: 'Save comment' }));
    await within(first!).findByText('Shipped on Tuesday');
    expect(within(first!).getByTestId('comment-change').textContent).toBe(
      'Edited here, not sent yet',
    );
    expect(ws.engine.argsOf('outbox.comment')).toEqual([
      {
        action: 'edit',
        portalId: PORTAL_ID,
        recordId: RECORD_ID,
        commentId: '501',
        content: 'Shipped on Tuesday',
      },
    ]);
    await waitFor(() =>
      expect(document.activeElement).toBe(
        within(first!).getByRole('button', { name: 'Edit the comment by Ana' }),
      ),
    );
  });

  it('asks before deleting, queues the delete, and keeps the comment marked until it is sent', async () => {
    const user = userEvent.setup();
    const { ws } = await workspace();
    const [, second] = list(ws);
    await user.click(within(second!).getByRole('button', { name: 'Delete the comment by Ben…' }));
    // Keep it: nothing queued, the focus back on Delete.
    await user.click(within(second!).getByRole('button', { name: 'Keep it' }));
    expect(ws.engine.argsOf('outbox.comment')).toEqual([]);
    expect(document.activeElement).toBe(
      within(second!).getByRole('button', { name: 'Delete the comment by Ben…' }),
    );
    await user.click(within(second!).getByRole('button', { name: 'Delete the comment by Ben…' }));
    await user.click(within(second!).getByRole('button', { name: 'Delete comment' }));
    await waitFor(() =>
      expect(within(second!).getByTestId('comment-change').textContent).toBe(
        'Deleted here, not sent yet',
      ),
    );
    expect(within(second!).getByText('Invoice sent')).toBeTruthy();
    expect(within(second!).queryByRole('button')).toBeNull();
    expect(document.activeElement).toBe(second);
    expect(ws.engine.argsOf('outbox.comment')).toEqual([
      { action: 'delete', portalId: PORTAL_ID, recordId: RECORD_ID, commentId: '502' },
    ]);
  });

  it('shows a refusal beside the comment, keeps the draft, and queues nothing', async () => {
    const user = userEvent.setup();
    const { ws, queued } = await workspace('A comment holds at most 65,535 characters.');
    const [first] = list(ws);
    await user.click(within(first!).getByRole('button', { name: 'Edit the comment by Ana' }));
    const box = within(first!).getByRole('textbox', { name: 'Comment by Ana' });
    await user.type(box, ' and more');
    await user.click(within(first!).getByRole('button', { name: 'Save comment' }));
    const alert = await within(first!).findByRole('alert');
    expect(alert.textContent).toBe(
      'A comment holds at most 65,535 characters. Nothing was queued; the text stays as you typed it.',
    );
    expect((box as HTMLTextAreaElement).value).toBe('Shipped on Monday and more');
    expect(queued).toEqual([]);
  });

  it('offers no change to the comments of a record in the recycle bin', async () => {
    const { ws } = await workspace();
    const items = list(ws, false);
    for (const item of items) expect(within(item).queryByRole('button')).toBeNull();
    expect(ws.engine.argsOf('outbox.pendingComments')).toEqual([]);
  });
});
