import { useEffect, useMemo, useRef, useState } from 'react';
import {
  IMPORT_CHUNK_BYTES,
  type ImportFailure,
  type ImportFile,
  type ImportMode,
  type ImportProgress,
} from '../../../../shared/ipc/areas/recordsImport';
import { useApi } from '../../bridge/ApiContext';
import { ProgressBar } from '../../ui/ProgressBar';
import { progressPercent } from '../sync/syncFormat';
import { distinctLabels } from '../../../../shared/recordValues/distinctLabels';
import { describeError } from './recordsStore';
import { useRecords } from './RecordsContext';
import { usePopover } from './usePopover';

const count = new Intl.NumberFormat();
/** The locale the table formats numbers and dates in: a file it exported is read the same way. */
const TABLE_LOCALE = new Intl.NumberFormat().resolvedOptions().locale;
/** Failing rows shown per page. */
export const FAILURES_PAGE = 20;
const IGNORE = '';

/** A file's bytes as base64, a piece at a time (no spread of a large array into a call). */
function base64(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(text);
}

/** How far a queuing (or the taking back of its rows) has gone; null while checking. */
export function importPercent(progress: ImportProgress): number | null {
  if (progress.phase === 'queuing') {
    return progressPercent(progress.ready + progress.failing, progress.total ?? 0);
  }
  if (progress.phase === 'discarding' && progress.total) {
    return progressPercent(progress.total - progress.ready, progress.total);
  }
  return null;
}

export function importBusyLabel(phase: ImportProgress['phase']): string {
  if (phase === 'checking') return 'Checking rows';
  return phase === 'discarding' ? 'Taking back queued rows' : 'Queuing rows';
}

/** An import's counts while it runs, in words. */
export function importCounts(progress: ImportProgress): string {
  const n = (value: number) => count.format(value);
  if (progress.phase === 'discarding') {
    return `Taking back the queued rows: ${n(progress.ready)} left. None has been sent.`;
  }
  if (progress.phase === 'queuing') {
    return `${n(progress.rows)} rows read: ${n(progress.ready)} queued and held, ${n(progress.failing)} failing, ${n(progress.unchanged)} unchanged. None is sent until every row is queued.`;
  }
  return `${n(progress.rows)} rows read: ${n(progress.ready)} ready, ${n(progress.failing)} failing, ${n(progress.unchanged)} unchanged`;
}

/**
 * The toolbar's Import: a CSV or XLSX file chosen (the system's file dialog, desktop and browser
 * alike), sent to the engine in pieces, its columns mapped to fields (matched by name, each
 * editable or ignored, with a sample), create or update (matched by ID or a unique field), every
 * row checked with the counts and the failing rows (row, column, reason; paged), and nothing
 * queued until "Queue" is pressed. Errors are shown beside the control that caused them.
 */
export function ImportDialog() {
  const portalId = useRecords((s) => s.portalId);
  const moduleId = useRecords((s) => s.moduleId);
  // One dialog per module: another module shown, the one before (its upload, its file) goes.
  return <ModuleImportDialog key={`${portalId ?? ''}/${moduleId ?? ''}`} />;
}

function ModuleImportDialog() {
  const api = useApi();
  const portalId = useRecords((s) => s.portalId);
  const moduleId = useRecords((s) => s.moduleId);
  const { open, setOpen, anchorProps } = usePopover();
  const [file, setFile] = useState<ImportFile | null>(null);
  const [targets, setTargets] = useState<(string | null)[]>([]);
  const [mode, setMode] = useState<ImportMode>('update');
  const [matchBy, setMatchBy] = useState('id');
  const [progress, setProgress] = useState<ImportProgress | null>(null);
  const [failures, setFailures] = useState<{ list: ImportFailure[]; total: number } | null>(null);
  const [page, setPage] = useState(0);
  const [uploading, setUploading] = useState<number | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [checkError, setCheckError] = useState<string | null>(null);
  const fileErrorRef = useRef<HTMLParagraphElement>(null);
  const checkErrorRef = useRef<HTMLParagraphElement>(null);

  const importId = file?.importId ?? null;
  // The last progress pushed for each import: a small file's check may end before its answer.
  const heard = useRef(new Map<string, ImportProgress>());
  /** The upload under way (choose); bumped when the dialog goes, which stops it. */
  const uploadRun = useRef(0);
  // The file opened and whether it is checking or queuing, for the clean-up below.
  const held = useRef<{ file: ImportFile | null; busy: boolean }>({ file: null, busy: false });
  // The dialog gone (the workspace left, another module shown: ImportDialog's key): an upload under
  // way stops, and a file opened but not checking or queuing is dropped in the engine, since
  // nothing can reach it again (one checking or queuing goes on, its operations in the Outbox).
  useEffect(() => {
    const run = uploadRun;
    return () => {
      run.current += 1;
      const { file: before, busy: running } = held.current;
      if (before && !running) {
        api.records.importCancel({ importId: before.importId }).catch(() => undefined);
      }
    };
  }, [api]);
  useEffect(
    () =>
      api.on('records.importProgress', (pushed) => {
        heard.current.set(pushed.importId, pushed);
        setProgress((shown) => (shown?.importId === pushed.importId ? pushed : shown));
      }),
    [api],
  );
  // A check that has ended: its first page of failing rows.
  const checkedAt = progress?.phase === 'checked' ? progress : null;
  useEffect(() => {
    if (importId === null || checkedAt === null) return;
    let live = true;
    api.records
      .importFailures({ importId, offset: page * FAILURES_PAGE, limit: FAILURES_PAGE })
      .then(
        (answer) => live && setFailures({ list: answer.failures, total: answer.total }),
        (failure: unknown) => live && setCheckError(describeError(failure)),
      );
    return () => {
      live = false;
    };
  }, [api, importId, checkedAt, page]);
  useEffect(() => {
    if (fileError) fileErrorRef.current?.focus();
  }, [fileError]);
  useEffect(() => {
    if (checkError) checkErrorRef.current?.focus();
  }, [checkError]);

  const reset = () => {
    setFile(null);
    setProgress(null);
    setFailures(null);
    setPage(0);
    setCheckError(null);
  };

  // Discarding: a cancelled queuing taking back its rows (an import goes whole or not at all).
  const busy =
    progress?.phase === 'checking' ||
    progress?.phase === 'queuing' ||
    progress?.phase === 'discarding';
  useEffect(() => {
    held.current = { file, busy };
  }, [file, busy]);
  const choose = async (chosen: File | undefined) => {
    if (!chosen || portalId === null || moduleId === null) return;
    // This upload stops (between pieces) once the dialog is gone (the workspace left, another
    // module opened); a piece already sent is left to the engine, which deletes an upload left
    // idle, and an import opened meanwhile is cancelled.
    const run = ++uploadRun.current;
    const stale = () => uploadRun.current !== run;
    // The file chosen before is dropped in the engine (its upload deleted); a failure to drop it
    // changes nothing the user sees (the engine empties its imports folder when it starts).
    if (file && !busy) api.records.importCancel({ importId: file.importId }).catch(() => undefined);
    reset();
    setFileError(null);
    setUploading(0);
    try {
      const bytes = new Uint8Array(await chosen.arrayBuffer());
      let uploadId: string | undefined;
      for (let at = 0; at === 0 || at < bytes.length; at += IMPORT_CHUNK_BYTES) {
        if (stale()) return;
        const answer = await api.records.importUpload({
          ...(uploadId === undefined ? {} : { uploadId }),
          fileName: chosen.name,
          offset: at,
          chunk: base64(bytes.subarray(at, at + IMPORT_CHUNK_BYTES)),
          last: at + IMPORT_CHUNK_BYTES >= bytes.length,
        });
        uploadId = answer.uploadId;
        if (stale()) return;
        setUploading(progressPercent(answer.bytes, bytes.length));
      }
      if (stale()) return;
      const opened = await api.records.importOpen({
        portalId,
        moduleId,
        uploadId: uploadId!,
        locale: TABLE_LOCALE,
      });
      if (stale()) {
        api.records.importCancel({ importId: opened.importId }).catch(() => undefined);
        return;
      }
      setFile(opened);
      setTargets(opened.columns.map((c) => c.target));
      const byId = opened.columns.some((c) => c.target === 'id');
      setMode(byId ? 'update' : 'create');
      setMatchBy('id');
    } catch (failure) {
      if (!stale()) setFileError(describeError(failure));
    } finally {
      if (!stale()) setUploading(null);
    }
  };

  const check = () => {
    if (!file) return;
    setCheckError(null);
    setFailures(null);
    setPage(0);
    heard.current.delete(file.importId);
    api.records
      .importCheck({
        importId: file.importId,
        targets,
        mode,
        ...(mode === 'update' ? { matchBy } : {}),
      })
      .then(
        // What was pushed since the call (its end, for a small file) is newer than the answer.
        (first) => setProgress(heard.current.get(first.importId) ?? first),
        (failure: unknown) => setCheckError(describeError(failure)),
      );
  };
  const confirm = () => {
    if (!file) return;
    setCheckError(null);
    heard.current.delete(file.importId);
    api.records.importConfirm({ importId: file.importId }).then(
      (first) => setProgress(heard.current.get(first.importId) ?? first),
      (failure: unknown) => setCheckError(describeError(failure)),
    );
  };
  const cancel = () => {
    if (!file) return;
    api.records
      .importCancel({ importId: file.importId })
      .catch((failure: unknown) => setCheckError(describeError(failure)));
  };
  const retarget = (index: number, target: string) => {
    setTargets((now) => now.map((t, i) => (i === index ? (target === IGNORE ? null : target) : t)));
    // A mapping changed: the last check no longer says what would be queued.
    setProgress(null);
    setFailures(null);
  };

  const fieldLabels = useMemo(
    () =>
      distinctLabels(
        file?.fields ?? [],
        (f) => f.key,
        (f) => f.label,
      ),
    [file],
  );
  const label = (key: string) => (key === 'id' ? 'ID' : (fieldLabels.get(key) ?? key));
  const pages = failures ? Math.ceil(failures.total / FAILURES_PAGE) : 0;
  const percent = progress ? importPercent(progress) : null;

  return (
    <div {...anchorProps}>
      <button
        type="button"
        aria-expanded={open}
        aria-controls="records-import"
        onClick={() => setOpen(!open)}
      >
        Import
      </button>
      {open && (
        <div
          className="popover records-import"
          id="records-import"
          role="dialog"
          aria-modal="true"
          aria-label="Import"
        >
          <h3 className="records-export__title">Import a CSV or XLSX file</h3>
          <label className="records-import__file">
            File{' '}
            <input
              type="file"
              accept=".csv,.txt,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
              disabled={busy || uploading !== null}
              onChange={(event) => void choose(event.target.files?.[0])}
            />
          </label>
          {uploading !== null && (
            <ProgressBar percent={uploading} label="Sending the file to PortalDesk" />
          )}
          {fileError && (
            <p className="field-error" role="alert" tabIndex={-1} ref={fileErrorRef}>
              {fileError}
            </p>
          )}
          {file && (
            <>
              <table className="records-import__columns">
                <caption>
                  {file.fileName}: {file.columns.length}{' '}
                  {file.columns.length === 1 ? 'column' : 'columns'}
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Column</th>
                    <th scope="col">Sample</th>
                    <th scope="col">Field</th>
                  </tr>
                </thead>
                <tbody>
                  {file.columns.map((column, i) => (
                    <tr key={i}>
                      <th scope="row">{column.header || `(column ${i + 1})`}</th>
                      <td className="records-import__sample">
                        {column.sample.filter((s) => s !== '').join(' · ') || '—'}
                      </td>
                      <td>
                        <select
                          aria-label={`Field for column ${column.header || i + 1}`}
                          aria-describedby={
                            column.note && targets[i] === null
                              ? `records-import-note-${i}`
                              : undefined
                          }
                          value={targets[i] ?? IGNORE}
                          disabled={busy}
                          onChange={(event) => retarget(i, event.target.value)}
                        >
                          <option value={IGNORE}>Ignore this column</option>
                          <option value="id">ID (matches records)</option>
                          {file.fields.map((field) => (
                            <option key={field.key} value={field.key}>
                              {label(field.key)}
                            </option>
                          ))}
                        </select>
                        {column.note && targets[i] === null && (
                          <p className="hint" id={`records-import-note-${i}`}>
                            {column.note}
                          </p>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <fieldset disabled={busy}>
                <legend>Rows</legend>
                <label>
                  <input
                    type="radio"
                    name="import-mode"
                    checked={mode === 'update'}
                    onChange={() => {
                      setMode('update');
                      setProgress(null);
                    }}
                  />{' '}
                  Update existing records, matched by{' '}
                  <select
                    aria-label="Match records by"
                    value={matchBy}
                    disabled={mode !== 'update'}
                    onChange={(event) => {
                      setMatchBy(event.target.value);
                      setProgress(null);
                    }}
                  >
                    {file.matchFields.map((key) => (
                      <option key={key} value={key}>
                        {label(key)}
                      </option>
                    ))}
                  </select>
                </label>
                <label>
                  <input
                    type="radio"
                    name="import-mode"
                    checked={mode === 'create'}
                    onChange={() => {
                      setMode('create');
                      setProgress(null);
                    }}
                  />{' '}
                  Create new records
                </label>
              </fieldset>
              <div className="actions">
                <button type="button" onClick={check} disabled={busy}>
                  Check rows
                </button>
                {progress?.phase === 'checked' && (
                  <button
                    type="button"
                    className="primary"
                    onClick={confirm}
                    disabled={progress.ready === 0}
                  >
                    Queue {count.format(progress.ready)} {progress.ready === 1 ? 'row' : 'rows'}
                  </button>
                )}
                {busy && progress?.phase !== 'discarding' && (
                  <button type="button" onClick={cancel}>
                    Cancel
                  </button>
                )}
              </div>
              {checkError && (
                <p className="field-error" role="alert" tabIndex={-1} ref={checkErrorRef}>
                  {checkError}
                </p>
              )}
              {progress && (
                <div className="records-export__progress">
                  {busy && (
                    <ProgressBar percent={percent} label={importBusyLabel(progress.phase)} />
                  )}
                  <p
                    className={progress.phase === 'failed' ? 'field-error' : 'hint'}
                    role={progress.phase === 'failed' ? 'alert' : 'status'}
                  >
                    {progress.message ?? importCounts(progress)}
                  </p>
                </div>
              )}
              {failures && failures.total > 0 && (
                <>
                  <table className="records-import__failures">
                    <caption>Rows that fail (not queued)</caption>
                    <thead>
                      <tr>
                        <th scope="col">Row</th>
                        <th scope="col">Column</th>
                        <th scope="col">Reason</th>
                      </tr>
                    </thead>
                    <tbody>
                      {failures.list.map((failure, i) => (
                        <tr key={`${failure.row}-${i}`}>
                          <td>{failure.row}</td>
                          <td>{failure.column ?? '—'}</td>
                          <td>{failure.reason}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                  {pages > 1 && (
                    <div className="actions" aria-label="Pages of failing rows">
                      <button type="button" disabled={page === 0} onClick={() => setPage(page - 1)}>
                        Previous
                      </button>
                      <span className="hint">
                        Page {page + 1} of {pages}
                      </span>
                      <button
                        type="button"
                        disabled={page + 1 >= pages}
                        onClick={() => setPage(page + 1)}
                      >
                        Next
                      </button>
                    </div>
                  )}
                </>
              )}
            </>
          )}
        </div>
      )}
    </div>
  );
}
