import { useEffect, useRef, useState } from 'react';
import type {
  ExportFormat,
  ExportProgress,
  ExportValues,
} from '../../../../shared/ipc/areas/recordsExport';
import { useApi } from '../../bridge/ApiContext';
import { useShell } from '../../app/ShellContext';
import { ProgressBar } from '../../ui/ProgressBar';
import { formatDuration, progressPercent } from '../sync/syncFormat';
import { describeError } from './recordsStore';
import { useRecords } from './RecordsContext';
import { usePopover } from './usePopover';

const count = new Intl.NumberFormat();
/** The locale the table formats numbers and dates in (the browser's): the file uses the same. */
const TABLE_LOCALE = new Intl.NumberFormat().resolvedOptions().locale;

/**
 * The toolbar's Export: the view on screen (module, filter, sort, the columns shown, pending
 * local edits) written by the engine to a CSV or XLSX file, values as the table shows them or
 * raw. Progress with rows, total and time left, and Cancel; then the file offered: a download
 * (web mode) or shown in its folder (desktop). Refusals and failures are shown beside the
 * Export button, with the focus moved there.
 */
export function ExportDialog() {
  const api = useApi();
  const web = useShell((state) => state.info?.mode === 'web');
  const portalId = useRecords((s) => s.portalId);
  const moduleId = useRecords((s) => s.moduleId);
  const filter = useRecords((s) => s.filter);
  const sort = useRecords((s) => s.sort);
  const total = useRecords((s) => s.total);
  const visible = useRecords((s) => s.layout?.visible);
  const fields = useRecords((s) => s.columns?.fields);
  const { open, setOpen, anchorProps } = usePopover();
  const [format, setFormat] = useState<ExportFormat>('csv');
  const [values, setValues] = useState<ExportValues>('shown');
  const [progress, setProgress] = useState<ExportProgress | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [link, setLink] = useState<{ path: string; fileName: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const errorRef = useRef<HTMLParagraphElement>(null);

  // Every export's last progress: a small one may end before its start's answer arrives.
  const heard = useRef(new Map<string, ExportProgress>());
  useEffect(
    () =>
      api.on('records.exportProgress', (pushed) => {
        heard.current.set(pushed.exportId, pushed);
        setProgress((shown) => (shown?.exportId === pushed.exportId ? pushed : shown));
      }),
    [api],
  );
  // The export the engine runs or ran last: the dialog forgets it when the view is left (it is
  // unmounted), the engine does not. Asked once; a failure leaves the dialog as it is (empty).
  useEffect(() => {
    let live = true;
    api.records.latestExport({}).then(
      (latest) => {
        if (!live || latest === null) return;
        setProgress((shown) => shown ?? heard.current.get(latest.exportId) ?? latest);
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [api]);
  // A finished export in web mode: its download link, asked for once.
  const done = progress?.state === 'done' ? progress.exportId : null;
  useEffect(() => {
    if (!web || done === null) return;
    let live = true;
    api.records.exportLink({ exportId: done }).then(
      (value) => live && setLink(value),
      (failure: unknown) => live && setError(describeError(failure)),
    );
    return () => {
      live = false;
    };
  }, [api, web, done]);
  useEffect(() => {
    if (error) errorRef.current?.focus();
  }, [error]);

  const running = progress?.state === 'running';
  const columns = (visible ?? []).filter((key) => fields?.some((f) => f.key === key));
  const fail = (failure: unknown) => setError(describeError(failure));

  const start = () => {
    if (portalId === null || moduleId === null) return;
    setError(null);
    setLink(null);
    setBusy(true);
    api.records
      .export({
        portalId,
        moduleId,
        columns,
        format,
        values,
        ...(filter === undefined ? {} : { filter }),
        ...(sort === undefined ? {} : { sort }),
        ...(values === 'shown' ? { locale: TABLE_LOCALE } : {}),
      })
      .then((first) => setProgress(heard.current.get(first.exportId) ?? first), fail)
      .finally(() => setBusy(false));
  };
  const cancel = () => {
    if (!progress) return;
    api.records.cancelExport({ exportId: progress.exportId }).then(setProgress, fail);
  };
  const show = () => {
    if (!progress) return;
    api.records.showExport({ exportId: progress.exportId }).catch(fail);
  };

  const percent = progress ? progressPercent(progress.rows, progress.total) : null;
  return (
    <div {...anchorProps}>
      <button
        type="button"
        aria-expanded={open}
        aria-controls="records-export"
        onClick={() => setOpen(!open)}
      >
        Export{running ? ` ${percent ?? 0}%` : ''}
      </button>
      {open && (
        <div
          className="popover records-export"
          id="records-export"
          role="dialog"
          aria-modal="true"
          aria-label="Export"
        >
          <h3 className="records-export__title">Export this view</h3>
          <p className="hint">
            {total === null ? 'The' : `${count.format(total)} records:`} the filter, sort and{' '}
            {columns.length} {columns.length === 1 ? 'column' : 'columns'} on screen, with your
            pending edits.
          </p>
          <fieldset disabled={running || busy}>
            <legend>Format</legend>
            <label>
              <input
                type="radio"
                name="export-format"
                checked={format === 'csv'}
                onChange={() => setFormat('csv')}
              />{' '}
              CSV (UTF-8)
            </label>
            <label>
              <input
                type="radio"
                name="export-format"
                checked={format === 'xlsx'}
                onChange={() => setFormat('xlsx')}
              />{' '}
              Excel workbook (XLSX)
            </label>
          </fieldset>
          <fieldset disabled={running || busy}>
            <legend>Values</legend>
            <label>
              <input
                type="radio"
                name="export-values"
                checked={values === 'shown'}
                onChange={() => setValues('shown')}
              />{' '}
              As the table shows them
            </label>
            <label>
              <input
                type="radio"
                name="export-values"
                checked={values === 'raw'}
                onChange={() => setValues('raw')}
              />{' '}
              Raw API values (ids, ISO times, JSON)
            </label>
          </fieldset>
          <div className="actions">
            <button
              type="button"
              className="primary"
              onClick={start}
              disabled={running || busy || columns.length === 0}
            >
              Export
            </button>
            {running && (
              <button type="button" onClick={cancel}>
                Cancel
              </button>
            )}
          </div>
          {error && (
            <p className="field-error" role="alert" tabIndex={-1} ref={errorRef}>
              {error}
            </p>
          )}
          {progress && running && (
            <div className="records-export__progress">
              <ProgressBar percent={percent} label={`Exporting ${progress.fileName}`} />
              <p className="hint" role="status">
                {count.format(progress.rows)} of {count.format(progress.total)} rows
                {progress.etaSeconds !== null
                  ? ` · about ${formatDuration(progress.etaSeconds * 1000)} left`
                  : ''}
              </p>
            </div>
          )}
          {progress && !running && progress.message && (
            <p
              className={progress.state === 'failed' ? 'field-error' : 'hint'}
              role={progress.state === 'failed' ? 'alert' : 'status'}
            >
              {progress.message}
            </p>
          )}
          {progress?.state === 'done' &&
            (web ? (
              link && (
                <a className="button" href={link.path} download={link.fileName}>
                  Download {link.fileName}
                </a>
              )
            ) : (
              <button type="button" onClick={show}>
                Show in folder
              </button>
            ))}
        </div>
      )}
    </div>
  );
}
