/**
 * The sends of a record's comment operations: add (sent once, a lost answer looked for by its
 * content), edit (a fresh GET first: a comment changed there since is a conflict) and delete (a
 * 404 is success). A comment change reaches the router as an update of its record.
 */
import type { OpConflict } from '../../shared/ipc/areas/outbox';
import type { Comment } from '@portaldesk/portal-api/domain/comment';
import { findLostComment } from './findLostCreate';
import type { OutboxOp } from './outboxTypes';
import { commentConflict } from './replayConflicts';
import { isNotFound } from './replayFailure';
import {
  createOnce,
  learnAuthor,
  listMadeSince,
  recordCall,
  type Outcome,
  type Send,
  type SendContext,
} from './sendContext';

/** Tells the router a comment of the record changed on the service (an update of the record). */
function commentReplayed(
  ctx: SendContext,
  op: OutboxOp,
  commentId: string,
  action: 'add' | 'edit' | 'delete',
): void {
  ctx.onReplayed({
    portalId: op.portalId,
    moduleId: op.moduleId,
    recordId: op.recordId,
    kind: 'update',
    data: { record: null, comment: { id: commentId, action } },
  });
}

/** The arguments of a call on the op's (mirrored) comment. */
function commentArgs(ctx: SendContext, op: OutboxOp) {
  return { ...recordCall(ctx, op).args, comment_id: op.commentId ?? '' };
}

function storeComment(ctx: SendContext, op: OutboxOp, comment: Comment): void {
  // A comment belongs to a mirrored record; one whose record left the mirror is not kept.
  const edits = ctx.mirror.localEdits;
  if (!edits.record(op.portalId, op.recordId)) return;
  const now = new Date(ctx.now()).toISOString();
  edits.upsertComment({
    portalId: op.portalId,
    recordId: op.recordId,
    id: comment.id,
    content: comment.content,
    attachments: comment.attachments.map((a) => a.attachment_id),
    createdBy: comment.created_by?.zpuid ?? null,
    createdTime: comment.created_time ?? now,
    lastUpdatedTime: comment.last_updated_time ?? comment.created_time ?? now,
  });
}

export const sendCommentAdd: Send = async (ctx, op, client) => {
  const { args } = recordCall(ctx, op);
  const content = op.content ?? '';
  const comment = await createOnce(
    ctx,
    op,
    { content },
    async (sentAt) => {
      const candidates = await listMadeSince(
        ctx,
        client.listComments,
        { ...args, query: { sort_by: 'DESC(created_time)' } },
        (comment) => comment.created_time,
        sentAt,
      );
      return findLostComment(
        candidates,
        content,
        sentAt,
        ctx.repo.adoptedIds(op.portalId, 'comment'),
        ctx.repo.authorOf(op.portalId),
      );
    },
    () =>
      client.createComment(
        { ...args, body: { content } },
        { ...ctx.call, subject: 'the new comment' },
      ),
    (made) => learnAuthor(ctx, op.portalId, made.created_by?.zpuid),
  );
  const repo = ctx.repo;
  repo.transaction(() => {
    storeComment(ctx, op, comment);
    ctx.delivered(op);
    if (op.commentId !== null) repo.remapComment(op.portalId, op.commentId, comment.id);
  });
  if (op.commentId !== null)
    ctx.onRemap({ portalId: op.portalId, kind: 'comment', from: op.commentId, to: comment.id });
  commentReplayed(ctx, op, comment.id, 'add');
  return 'done';
};

export const sendCommentEdit: Send = async (ctx, op, client) => {
  const repo = ctx.repo;
  const args = commentArgs(ctx, op);
  const mine = op.content ?? '';
  const contentConflict = (kind: OpConflict['kind'], theirs: string | null): Outcome => {
    repo.markConflict(
      op.seq,
      {},
      commentConflict(kind, op, theirs, new Date(ctx.now()).toISOString()),
    );
    ctx.onAttention(
      `A comment you edited on record ${op.recordId} was ${kind === 'deleted' ? 'deleted' : 'changed'} on the service; choose what to keep in the Outbox.`,
    );
    return 'stop';
  };
  let server;
  try {
    server = await client.getComment(args, ctx.call);
  } catch (error) {
    if (isNotFound(error)) return contentConflict('deleted', null);
    throw error;
  }
  let answer = server;
  if (server.content !== mine) {
    if (server.content !== (op.baseContent ?? '')) {
      repo.transaction(() => storeComment(ctx, op, server));
      return contentConflict('fields', server.content);
    }
    repo.markSending(op.seq, JSON.stringify({ content: mine }));
    answer = await client.updateComment(
      { ...args, body: { content: mine } },
      { ...ctx.call, subject: 'the changed comment' },
    );
  }
  repo.transaction(() => {
    storeComment(ctx, op, answer);
    ctx.delivered(op);
  });
  commentReplayed(ctx, op, answer.id, 'edit');
  return 'done';
};

export const sendCommentDelete: Send = async (ctx, op, client) => {
  const repo = ctx.repo;
  const args = commentArgs(ctx, op);
  repo.markSending(op.seq, JSON.stringify({ delete: op.commentId }));
  try {
    await client.deleteComment(args, ctx.call);
  } catch (error) {
    // Gone already (deleted by the lost first send, or by someone else): the goal is reached.
    if (!isNotFound(error)) throw error;
  }
  repo.transaction(() => {
    ctx.delivered(op);
    if (op.commentId !== null) ctx.mirror.localEdits.deleteComment(op.portalId, op.commentId);
  });
  commentReplayed(ctx, op, op.commentId ?? '', 'delete');
  return 'done';
};
