import { useCallback, useEffect, useRef, useState } from 'react';
import type { PendingComment } from '../../../../shared/ipc/areas/outbox';
import type { RecordComment } from '../../../../shared/ipc/areas/records';
import { formatInstant, type ValueContext } from '../../../../shared/recordValues/describeValue';
import { useApi } from '../../bridge/ApiContext';
import { describeError } from './recordsStore';

export interface CommentListProps {
  portalId: string;
  recordId: string;
  comments: readonly RecordComment[];
  /** Whether its comments may be changed here: a live record, not in the recycle bin. */
  editable: boolean;
  context: ValueContext;
}

/**
 * A record's mirrored comments, each with Edit and Delete when the record may be changed: both
 * are queued in the Outbox (outbox.comment) and sent once online, and a comment shows its queued
 * change (the new text, or that it will be deleted) until the service has it.
 */
export function CommentList({ portalId, recordId, comments, editable, context }: CommentListProps) {
  const api = useApi();
  const [pending, setPending] = useState<readonly PendingComment[]>([]);
  const reload = useCallback(
    () =>
      api.outbox.pendingComments({ portalId, recordId }).then(
        (next) => setPending(next),
        // The marks are a courtesy: the Outbox lists the same changes.
        () => undefined,
      ),
    [api, portalId, recordId],
  );
  useEffect(() => {
    if (!editable) return;
    const first = setTimeout(() => void reload(), 0);
    const stop = api.on('outbox.changed', () => void reload());
    return () => {
      clearTimeout(first);
      stop();
    };
  }, [api, editable, reload]);
  /** The queued change of each comment: the last one queued wins, as the Outbox sends them. */
  const changeOf = new Map<string, PendingComment>();
  for (const change of pending) {
    if (change.action !== 'add') changeOf.set(change.commentId, change);
  }
  return (
    <ol className="comments">
      {comments.map((comment) => (
        <MirroredComment
          key={comment.id}
          comment={comment}
          change={editable ? changeOf.get(comment.id) : undefined}
          editable={editable}
          context={context}
          onQueue={async (args) => {
            await api.outbox.comment({ portalId, recordId, commentId: comment.id, ...args });
            await reload();
          }}
        />
      ))}
    </ol>
  );
}

type Queue = (args: { action: 'edit'; content: string } | { action: 'delete' }) => Promise<void>;

function MirroredComment({
  comment,
  change,
  editable,
  context,
  onQueue,
}: {
  comment: RecordComment;
  change: PendingComment | undefined;
  editable: boolean;
  context: ValueContext;
  onQueue: Queue;
}) {
  const [mode, setMode] = useState<'view' | 'edit' | 'delete'>('view');
  const [draft, setDraft] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const editButton = useRef<HTMLButtonElement>(null);
  const deleteButton = useRef<HTMLButtonElement>(null);
  const item = useRef<HTMLLIElement>(null);
  /** Where the focus goes once the editor or the question closes: the control that opened it. */
  const returnTo = useRef<'edit' | 'delete' | null>(null);
  const deleted = change?.action === 'delete';
  const shown =
    change?.action === 'edit' && change.content !== null ? change.content : comment.content;
  const author =
    comment.author?.name ?? (comment.author ? `User ${comment.author.zpuid}` : 'Unknown author');

  useEffect(() => {
    if (mode !== 'view' || returnTo.current === null) return;
    // Drawn again since it opened; a deleted comment has none left: the comment takes the focus.
    const control = returnTo.current === 'edit' ? editButton.current : deleteButton.current;
    (control ?? item.current)?.focus();
    returnTo.current = null;
  }, [mode, change]);

  const queue = async (args: Parameters<Queue>[0]) => {
    setBusy(true);
    setError(null);
    try {
      await onQueue(args);
      setMode('view');
    } catch (failure) {
      // The draft stays as typed: nothing was queued.
      setError(
        `${describeError(failure)} Nothing was queued${args.action === 'edit' ? '; the text stays as you typed it' : ''}.`,
      );
    } finally {
      setBusy(false);
    }
  };
  const close = () => {
    setError(null);
    setMode('view');
  };

  return (
    <li className={`comment${deleted ? ' comment--deleted' : ''}`} ref={item} tabIndex={-1}>
      <div className="comment__meta">
        <strong>{author}</strong>
        <time dateTime={comment.createdTime}>{formatInstant(comment.createdTime, context)}</time>
        {change && (
          <span className="comment__change" data-testid="comment-change">
            {deleted ? 'Deleted here, not sent yet' : 'Edited here, not sent yet'}
          </span>
        )}
      </div>
      {mode === 'edit' ? (
        <div className="comment__editor">
          <label htmlFor={`comment-edit-${comment.id}`} className="visually-hidden">
            Comment by {author}
          </label>
          <textarea
            id={`comment-edit-${comment.id}`}
            rows={3}
            value={draft}
            autoFocus
            disabled={busy}
            aria-invalid={error !== null || undefined}
            aria-describedby={error ? `comment-error-${comment.id}` : undefined}
            onChange={(event) => setDraft(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Escape') {
                event.stopPropagation();
                close();
              }
            }}
          />
          <div className="actions">
            <button
              type="button"
              disabled={busy || draft.trim() === '' || draft === shown}
              onClick={() => void queue({ action: 'edit', content: draft })}
            >
              Save comment
            </button>
            <button type="button" disabled={busy} onClick={close}>
              Cancel
            </button>
          </div>
        </div>
      ) : (
        <p className="comment__content">{shown}</p>
      )}
      {comment.attachmentIds.length > 0 && (
        <p className="comment__attachments">
          {comment.attachmentIds.length === 1
            ? '1 attachment'
            : `${comment.attachmentIds.length} attachments`}
          : {comment.attachmentIds.join(', ')}
        </p>
      )}
      {mode === 'delete' && (
        <div className="comment__confirm" role="group" aria-label="Confirm deleting the comment">
          <span>
            Delete this comment by {author}? It is deleted on the service once sent; until then the
            Outbox can discard the change.
          </span>
          <button
            type="button"
            className="danger"
            disabled={busy}
            autoFocus
            onClick={() => void queue({ action: 'delete' })}
          >
            Delete comment
          </button>
          <button type="button" disabled={busy} onClick={close}>
            Keep it
          </button>
        </div>
      )}
      {editable && !deleted && mode === 'view' && (
        <div className="comment__actions">
          <button
            type="button"
            className="link-button"
            ref={editButton}
            aria-label={`Edit the comment by ${author}`}
            onClick={() => {
              returnTo.current = 'edit';
              setDraft(shown);
              setMode('edit');
            }}
          >
            Edit
          </button>
          <button
            type="button"
            className="link-button"
            ref={deleteButton}
            aria-label={`Delete the comment by ${author}…`}
            onClick={() => {
              returnTo.current = 'delete';
              setMode('delete');
            }}
          >
            Delete…
          </button>
        </div>
      )}
      {error && (
        <p className="field-error" role="alert" id={`comment-error-${comment.id}`}>
          {error}
        </p>
      )}
    </li>
  );
}
