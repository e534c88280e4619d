import type { OutboxOp } from '../../../src/main/outbox/outboxTypes';

let seq = 0;

/** A queued update of record 3 (portal 1, module 2), fresh and unsent, with `partial` over it. */
export function outboxOp(partial: Partial<OutboxOp>): OutboxOp {
  return {
    seq: ++seq,
    portalId: '1',
    moduleId: '2',
    recordId: '3',
    kind: 'update',
    state: 'pending',
    fields: {},
    commentId: null,
    content: null,
    baseContent: null,
    edits: 1,
    queuedAt: '2025-01-06T09:00:00.000Z',
    updatedAt: '2025-01-06T09:00:00.000Z',
    attempts: 0,
    nextAttemptAt: null,
    sentBody: null,
    sentAt: null,
    error: null,
    conflict: null,
    action: null,
    ...partial,
  };
}
