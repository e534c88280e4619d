/**
 * Where a user's change to a comment goes in its record's queue. Pure: the record's queued
 * operations and the mirrored comment in, a plan out (the ledger writes it in one transaction).
 *
 * - An edit of a comment whose add, or whose last edit, was never sent changes that operation's
 *   content; an edit back to the content the last edit was based on drops that edit.
 * - Else an edit that changes nothing is not queued, and one that does is queued on the newest
 *   content (the last edit's, else the add's, else the mirrored comment's).
 * - A delete makes the edits not sent yet moot; a comment whose add was never sent never needs to
 *   go: both are dropped, and nothing else is queued. A delete queued keeps the comment's text
 *   as the user last saw it, so the Outbox and its history can say which comment went.
 */
import { COMMENT_CONTENT_MAX } from '@portaldesk/portal-api/domain/customFieldTypes';
import { LedgerError } from './ledgerError';
import { isOpen, type OutboxOp } from './outboxTypes';

export interface CommentPlan {
  /** Operations dropped from the queue (first). */
  drop: number[];
  /** An operation not sent yet that takes the new content. */
  rewrite: OutboxOp | null;
  /** A new operation at the end of the record's queue. */
  append:
    | { kind: 'comment_edit'; content: string; baseContent: string | null }
    | { kind: 'comment_delete'; content: string | null }
    | null;
}

/** A comment's text as it is queued (line ends as `\n`); refused when empty or too long. */
export function commentContent(text: string): string {
  const content = text.replace(/\r\n?/g, '\n');
  if (content.trim() === '')
    throw new LedgerError('A comment needs some text; nothing was queued.');
  if ([...content].length > COMMENT_CONTENT_MAX) {
    throw new LedgerError(
      `A comment holds at most ${COMMENT_CONTENT_MAX} characters (this one has ${[...content].length}); nothing was queued. Shorten it and save again.`,
    );
  }
  return content;
}

/**
 * An edit (`content` given, from commentContent) or a delete (`content` null) of comment
 * `commentId`, which is either queued as an add or `mirrored`.
 */
export function planComment(
  ops: readonly OutboxOp[],
  commentId: string,
  content: string | null,
  mirrored: { content: string | null } | undefined,
): CommentPlan {
  const add = ops.find((op) => op.kind === 'comment_add' && op.commentId === commentId);
  if (!add && !mirrored) {
    throw new LedgerError(
      `Comment ${commentId} is not in the local mirror; nothing was queued. Refresh the record's comments.`,
    );
  }
  const edits = ops.filter((op) => op.kind === 'comment_edit' && op.commentId === commentId);
  const none: CommentPlan = { drop: [], rewrite: null, append: null };
  // The newest content: the last edit's (sent or not), else the add's, else the mirrored one's.
  const newest = edits.at(-1)?.content ?? add?.content ?? mirrored?.content ?? null;
  if (content === null) {
    const drop = edits.filter(isOpen).map((edit) => edit.seq);
    if (add && isOpen(add)) return { ...none, drop: [...drop, add.seq] };
    return { drop, rewrite: null, append: { kind: 'comment_delete', content: newest } };
  }
  if (add && isOpen(add)) return { ...none, rewrite: add };
  const lastEdit = edits.at(-1);
  if (lastEdit && isOpen(lastEdit)) {
    return lastEdit.baseContent === content
      ? { ...none, drop: [lastEdit.seq] }
      : { ...none, rewrite: lastEdit };
  }
  if (newest === content) return none;
  return { ...none, append: { kind: 'comment_edit', content, baseContent: newest } };
}
