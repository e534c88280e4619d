import './outbox.css';
import { useCallback, useEffect, useState } from 'react';
import { CallFailure } from '../../../../shared/ipc/api';
import type { EditForm, PendingComment } from '../../../../shared/ipc/areas/outbox';
import { useApi } from '../../bridge/ApiContext';
import { FieldEditor } from './FieldEditor';
import { PendingMark } from './PendingMark';

function describe(error: unknown): string {
  if (error instanceof CallFailure) return error.message;
  return error instanceof Error ? error.message : String(error);
}

export interface RecordEditorProps {
  portalId: string;
  moduleId: string;
  recordId: string;
  trashed: boolean;
}

/**
 * Editing one record offline, inside the records panel: every editable field with its pending
 * mark, trash or restore, and new comments. Each save goes to the outbox at once (validated
 * there; a refusal shows under the field) and is replayed when PortalDesk is online.
 */
export function RecordEditor({ portalId, moduleId, recordId, trashed }: RecordEditorProps) {
  const api = useApi();
  const [form, setForm] = useState<EditForm | null>(null);
  const [comments, setComments] = useState<PendingComment[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [draft, setDraft] = useState('');
  const [busy, setBusy] = useState(false);
  const [confirmTrash, setConfirmTrash] = useState(false);

  // Every setState happens in a promise callback: the effect only subscribes and starts reads.
  const reload = useCallback(
    () =>
      Promise.all([
        api.outbox.form({ portalId, moduleId, recordId }),
        api.outbox.pendingComments({ portalId, recordId }),
      ]).then(
        ([nextForm, nextComments]) => {
          setForm(nextForm);
          setComments(nextComments);
          setError(null);
        },
        (failure: unknown) => setError(describe(failure)),
      ),
    [api, portalId, moduleId, recordId],
  );

  useEffect(() => {
    // A replay, a pull or an edit elsewhere changes what this form shows.
    const stops = [
      api.on('outbox.changed', () => void reload()),
      api.on('records.changed', (change) => {
        if (change.portalId === portalId) void reload();
      }),
    ];
    const first = setTimeout(() => void reload(), 0);
    return () => {
      clearTimeout(first);
      stops.forEach((stop) => stop());
    };
  }, [api, portalId, reload]);

  const act = async (action: () => Promise<unknown>) => {
    setBusy(true);
    try {
      await action();
      setError(null);
      await reload();
    } catch (failure) {
      setError(describe(failure));
    } finally {
      setBusy(false);
    }
  };

  if (!form) {
    return error ? (
      <p className="field-error" role="alert">
        {error}
      </p>
    ) : (
      <p className="hint" role="status">
        Opening the editor…
      </p>
    );
  }

  return (
    <section className="record-editor" aria-label="Edit record" data-testid="record-editor">
      <p className="hint">
        Changes are kept on this computer and sent once PortalDesk is online, each exactly once.
      </p>
      {form.fields.map((field) => (
        <FieldEditor
          key={field.key}
          field={field}
          value={form.values[field.key]}
          timeZone={form.timeZone}
          disabled={trashed}
          mark={<PendingMark pending={form.pending[field.key]} type={field.type} />}
          onSave={async (value) => {
            await api.outbox.edit({ portalId, recordId, changes: { [field.key]: value } });
            await reload();
          }}
        />
      ))}
      <div className="record-editor__comment">
        <label htmlFor="record-editor-comment">New comment</label>
        <textarea
          id="record-editor-comment"
          rows={3}
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
        />
        <button
          type="button"
          disabled={busy || draft.trim() === ''}
          onClick={() =>
            void act(async () => {
              await api.outbox.comment({ action: 'add', portalId, recordId, content: draft });
              setDraft('');
            })
          }
        >
          Add comment
        </button>
      </div>
      {comments.length > 0 && (
        <ul className="record-editor__pending" aria-label="Comment changes not sent yet">
          {comments.map((comment) => (
            <li key={comment.opId} data-testid="pending-comment">
              <span className={`pending-mark is-${comment.state}`} aria-hidden="true" />{' '}
              {comment.action === 'add' ? 'New' : comment.action === 'edit' ? 'Edited' : 'Deleted'}
              {comment.content !== null ? `: ${comment.content}` : ''}
            </li>
          ))}
        </ul>
      )}
      <div className="record-editor__actions">
        {trashed ? (
          <button
            type="button"
            disabled={busy}
            onClick={() => void act(() => api.outbox.restore({ portalId, recordId }))}
          >
            Restore from the recycle bin
          </button>
        ) : confirmTrash ? (
          <div
            className="record-editor__confirm"
            role="group"
            aria-label="Confirm moving to the bin"
          >
            <span>
              Move “{String(form.values.name ?? 'this record')}” to the recycle bin? It can be
              restored for 30 days.
            </span>
            <button
              type="button"
              className="danger"
              disabled={busy}
              // The confirmation is the user's next step: it takes the focus.
              autoFocus
              onClick={() => {
                setConfirmTrash(false);
                void act(() => api.outbox.trash({ portalId, recordId }));
              }}
            >
              Move to the bin
            </button>
            <button type="button" onClick={() => setConfirmTrash(false)}>
              Keep it
            </button>
          </div>
        ) : (
          <button
            type="button"
            className="danger"
            disabled={busy}
            onClick={() => setConfirmTrash(true)}
          >
            Move to the recycle bin…
          </button>
        )}
      </div>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
