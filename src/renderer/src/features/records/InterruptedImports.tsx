import { useEffect, useRef, useState } from 'react';
import type { ImportInterrupted, ImportProgress } from '../../../../shared/ipc/areas/recordsImport';
import { useApi } from '../../bridge/ApiContext';
import { ProgressBar } from '../../ui/ProgressBar';
import { importBusyLabel, importCounts, importPercent } from './ImportDialog';
import { describeError } from './recordsStore';
import { useRecords } from './RecordsContext';

/**
 * Imports of the module shown that the app's end (killed, power lost, closed) stopped half way
 * through their queuing: what each holds (rows queued and held, none sent; rows not queued), with
 * Finish and Discard beside it, its progress while either runs, and the outcome in words.
 */
export function InterruptedImports() {
  const portalId = useRecords((s) => s.portalId);
  const moduleId = useRecords((s) => s.moduleId);
  // Another module shown: its own list, read anew.
  return <ModuleInterruptedImports key={`${portalId ?? ''}/${moduleId ?? ''}`} />;
}

interface Shown {
  stopped: ImportInterrupted;
  progress: ImportProgress;
  error: string | null;
}

function ModuleInterruptedImports() {
  const api = useApi();
  const portalId = useRecords((s) => s.portalId);
  const moduleId = useRecords((s) => s.moduleId);
  const [shown, setShown] = useState<Shown[]>([]);
  const [listError, setListError] = useState<string | null>(null);

  useEffect(() => {
    if (portalId === null || moduleId === null) return;
    let live = true;
    api.records.importsInterrupted({ portalId, moduleId }).then(
      (list) =>
        live &&
        setShown(list.map((stopped) => ({ stopped, progress: stopped.progress, error: null }))),
      (failure: unknown) => live && setListError(describeError(failure)),
    );
    return () => {
      live = false;
    };
  }, [api, portalId, moduleId]);
  useEffect(
    () =>
      api.on('records.importProgress', (pushed) =>
        setShown((now) =>
          now.map((s) => (s.stopped.importId === pushed.importId ? { ...s, progress: pushed } : s)),
        ),
      ),
    [api],
  );

  const update = (importId: string, change: Partial<Shown>) =>
    setShown((now) => now.map((s) => (s.stopped.importId === importId ? { ...s, ...change } : s)));
  const act = (importId: string, call: 'importConfirm' | 'importCancel') => {
    update(importId, { error: null });
    api.records[call]({ importId }).then(
      // A push may have overtaken the answer: the newer of the two is kept.
      (first) =>
        setShown((now) =>
          now.map((s) =>
            s.stopped.importId === importId && s.progress.phase === 'interrupted'
              ? { ...s, progress: first }
              : s,
          ),
        ),
      (failure: unknown) => update(importId, { error: describeError(failure) }),
    );
  };
  const dismiss = (importId: string) =>
    setShown((now) => now.filter((s) => s.stopped.importId !== importId));

  if (listError) {
    return (
      <p className="field-error" role="alert">
        {listError}
      </p>
    );
  }
  return (
    <>
      {shown.map((s) => (
        <StoppedImport
          key={s.stopped.importId}
          shown={s}
          onFinish={() => act(s.stopped.importId, 'importConfirm')}
          onDiscard={() => act(s.stopped.importId, 'importCancel')}
          onDismiss={() => dismiss(s.stopped.importId)}
        />
      ))}
    </>
  );
}

function StoppedImport({
  shown: { stopped, progress, error },
  onFinish,
  onDiscard,
  onDismiss,
}: {
  shown: Shown;
  onFinish: () => void;
  onDiscard: () => void;
  onDismiss: () => void;
}) {
  const busy = progress.phase === 'queuing' || progress.phase === 'discarding';
  // Failed: its queuing stopped again, and what it had queued was taken back (words say so).
  const ended = ['queued', 'cancelled', 'failed'].includes(progress.phase);
  const errorRef = useRef<HTMLParagraphElement>(null);
  const dismissRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (error) errorRef.current?.focus();
  }, [error]);
  // The buttons pressed are gone once it ends: focus moves to the one left.
  useEffect(() => {
    if (ended) dismissRef.current?.focus();
  }, [ended]);
  const failed = progress.phase === 'failed';
  return (
    <section
      className={`notice${ended ? '' : ' notice--warn'} interrupted-import`}
      aria-label={`Import of ${stopped.fileName}`}
      data-testid="interrupted-import"
    >
      <p role={failed ? 'alert' : 'status'} className={failed ? 'field-error' : undefined}>
        {progress.message ?? importCounts(progress)}
      </p>
      {busy && (
        <ProgressBar percent={importPercent(progress)} label={importBusyLabel(progress.phase)} />
      )}
      <div className="actions">
        {progress.phase === 'interrupted' && (
          <>
            {stopped.canFinish && (
              <button type="button" className="primary" onClick={onFinish}>
                Finish import
              </button>
            )}
            <button type="button" onClick={onDiscard}>
              Discard queued rows
            </button>
          </>
        )}
        {ended && (
          <button type="button" ref={dismissRef} onClick={onDismiss}>
            Dismiss
          </button>
        )}
      </div>
      {error && (
        <p className="field-error" role="alert" tabIndex={-1} ref={errorRef}>
          {error}
        </p>
      )}
    </section>
  );
}
