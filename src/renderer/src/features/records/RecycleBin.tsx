import { useCallback, useEffect, useRef, useState } from 'react';
import type { BulkProgress } from '../../../../shared/ipc/areas/bulkEdit';
import type { OutboxEntry } from '../../../../shared/ipc/areas/outbox';
import { useApi } from '../../bridge/ApiContext';
import { formatInstant } from '../../../../shared/recordValues/describeValue';
import { ProgressBar } from '../../ui/ProgressBar';
import { progressPercent } from '../sync/syncFormat';
import { describeError } from './recordsStore';
import { useRecords } from './RecordsContext';
import { usePopover } from './usePopover';

/** What is queued for a record in the bin: the bin says so instead of offering it again. */
type Queued = 'restore' | 'delete';

function queuedOf(entries: readonly OutboxEntry[]): Map<string, Queued> {
  const queued = new Map<string, Queued>();
  for (const entry of entries) {
    if (entry.kind === 'restore' || entry.kind === 'delete') queued.set(entry.recordId, entry.kind);
  }
  return queued;
}

/**
 * The module's records in the service's recycle bin: lists and search leave them out, so this is
 * where they are found (and the recent list, for one opened before it was trashed). Each can be
 * restored or deleted for good (asked first), both queued in the outbox; a browsed backup's bin is
 * read-only.
 */
export function RecycleBin() {
  const api = useApi();
  const trashed = useRecords((s) => s.trashed);
  const error = useRecords((s) => s.trashedError);
  const loadTrashed = useRecords((s) => s.loadTrashed);
  const openRecord = useRecords((s) => s.openRecord);
  const portalId = useRecords((s) => s.portalId);
  const moduleId = useRecords((s) => s.moduleId);
  const browsing = useRecords((s) => s.snapshot !== null);
  const timeZone = useRecords((s) => s.columns?.timeZone ?? 'UTC');
  const [queued, setQueued] = useState<Map<string, Queued>>(new Map());
  const [confirming, setConfirming] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [restoredAll, setRestoredAll] = useState<{ text: string; error: boolean } | null>(null);
  // Restore all while it runs: how many it asked about, and the engine's batches so far.
  const [restoring, setRestoring] = useState<{ records: number; done: number } | null>(null);
  // Set at once (the state is drawn later): a second press in the same task asks nothing.
  const restoringNow = useRef(false);
  useEffect(
    () =>
      api.on('bulkEdit.progress', (pushed: BulkProgress) => {
        if (pushed.task !== 'restore' || pushed.portalId !== portalId) return;
        if (pushed.moduleId !== moduleId) return;
        setRestoring((now) => now && { records: pushed.total, done: pushed.done });
      }),
    [api, portalId, moduleId],
  );
  const load = useCallback(() => {
    void loadTrashed();
    if (browsing || portalId === null) return;
    api.outbox.list({ portalId }).then(
      (entries) => setQueued(queuedOf(entries)),
      () => setQueued(new Map()),
    );
  }, [api, browsing, loadTrashed, portalId]);
  // Read again each time it opens: a sync may have trashed or restored records since.
  const { open, setOpen, anchorProps } = usePopover(load);

  const act = (recordId: string, action: Queued) => {
    if (portalId === null) return;
    setErrors(({ [recordId]: _, ...rest }) => rest);
    const call =
      action === 'restore'
        ? api.outbox.restore({ portalId, recordId })
        : api.outbox.deleteRecord({ portalId, recordId });
    call.then(
      () => {
        setConfirming(null);
        load();
      },
      (failure: unknown) => setErrors((all) => ({ ...all, [recordId]: describeError(failure) })),
    );
  };

  // Every listed record not already queued, restored at once (one queued restore each).
  const restorable = (trashed ?? []).filter((item) => !queued.has(item.recordId));
  const restoreAll = () => {
    if (portalId === null || moduleId === null || restorable.length === 0) return;
    if (restoringNow.current) return;
    restoringNow.current = true;
    setRestoredAll(null);
    setRestoring({ records: restorable.length, done: 0 });
    // The ids listed are the ones asked about: the engine holds them, then restores exactly them.
    api.bulkEdit
      .askTrash({
        portalId,
        moduleId,
        selection: { kind: 'ids', ids: restorable.map((item) => item.recordId) },
        restore: true,
      })
      .then(({ previewId }) => api.bulkEdit.trash({ previewId }))
      .finally(() => {
        restoringNow.current = false;
        setRestoring(null);
      })
      .then(
        (done) => {
          setRestoredAll({
            error: done.failed > 0,
            text:
              `${done.queued.toLocaleString()} ${done.queued === 1 ? 'record leaves' : 'records leave'} the recycle bin here; the Outbox sends the restores the service has to hear of.` +
              (done.failed > 0
                ? ` ${done.failed.toLocaleString()} kept in the bin: ${done.failures[0]?.reason ?? ''}`
                : ''),
          });
          load();
        },
        (failure: unknown) => setRestoredAll({ error: true, text: describeError(failure) }),
      );
  };

  return (
    <div {...anchorProps}>
      <button
        type="button"
        aria-expanded={open}
        aria-controls="records-recycle-bin"
        onClick={() => setOpen(!open)}
      >
        Recycle bin
      </button>
      {open && (
        <div
          className="popover recycle-bin"
          id="records-recycle-bin"
          role="dialog"
          aria-modal="true"
          aria-label="Recycle bin"
        >
          {error && (
            <p className="field-error" role="alert">
              {error}
            </p>
          )}
          {trashed === null && !error && <p className="hint">Reading…</p>}
          {trashed?.length === 0 && (
            <p className="hint">No records of this module are in the recycle bin.</p>
          )}
          {!browsing && restorable.length > 1 && (
            <div className="actions recycle-bin__all">
              <button type="button" onClick={restoreAll} disabled={restoring !== null}>
                Restore all {restorable.length.toLocaleString()}
              </button>
            </div>
          )}
          {restoring && (
            <div role="status">
              <ProgressBar
                percent={progressPercent(restoring.done, restoring.records)}
                label="Restoring the records"
              />
              <p className="hint">
                Restoring {restoring.done.toLocaleString()} of {restoring.records.toLocaleString()}{' '}
                {restoring.records === 1 ? 'record' : 'records'}…
              </p>
            </div>
          )}
          {restoredAll && (
            <p
              className={restoredAll.error ? 'field-error' : 'hint'}
              role={restoredAll.error ? 'alert' : 'status'}
            >
              {restoredAll.text}
            </p>
          )}
          {trashed && trashed.length > 0 && (
            <ul>
              {trashed.map((item) => {
                const waiting = queued.get(item.recordId);
                return (
                  <li key={item.recordId} className="recycle-bin__item">
                    <div>
                      <button
                        type="button"
                        className="link-button"
                        onClick={() => {
                          setOpen(false);
                          void openRecord(item.recordId);
                        }}
                      >
                        {item.name}
                      </button>
                      <span className="hint">
                        {' '}
                        · {formatInstant(item.trashedTime, { timeZone })}
                      </span>
                    </div>
                    {!browsing && waiting && (
                      <span className="hint" role="status">
                        {waiting === 'restore'
                          ? 'Restore queued in the Outbox'
                          : 'Delete for good queued in the Outbox'}
                      </span>
                    )}
                    {!browsing && !waiting && confirming !== item.recordId && (
                      <div className="actions">
                        <button type="button" onClick={() => act(item.recordId, 'restore')}>
                          Restore
                        </button>
                        <button
                          type="button"
                          className="danger"
                          onClick={() => setConfirming(item.recordId)}
                        >
                          Delete for good…
                        </button>
                      </div>
                    )}
                    {!browsing && !waiting && confirming === item.recordId && (
                      <div className="actions" role="group" aria-label="Confirm delete for good">
                        <span>Delete “{item.name}” for good? It cannot be restored.</span>
                        <button
                          type="button"
                          className="danger"
                          // The confirmation is the next step: it takes the focus.
                          autoFocus
                          onClick={() => act(item.recordId, 'delete')}
                        >
                          Delete for good
                        </button>
                        <button type="button" onClick={() => setConfirming(null)}>
                          Keep it
                        </button>
                      </div>
                    )}
                    {errors[item.recordId] && (
                      <p className="field-error" role="alert">
                        {errors[item.recordId]}
                      </p>
                    )}
                  </li>
                );
              })}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
