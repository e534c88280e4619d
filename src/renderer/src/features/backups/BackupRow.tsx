import { useEffect, useRef, useState, type DragEvent, type MouseEvent } from 'react';
import type { BackupView } from '../../../../shared/ipc/areas/backups';
import { useShell } from '../../app/ShellContext';
import { ProgressBar } from '../../ui/ProgressBar';
import { useCopy } from '../../ui/useCopy';
import { BackupDiff } from './BackupDiff';
import { useBackups } from './BackupsContext';
import {
  downloadUrlDragData,
  formatBytes,
  madeAt,
  nextStep,
  percentOf,
  STAGE_LABEL,
  stageTone,
  transferLine,
  verifyPercentOf,
} from './backupFormat';

/** Web mode: a download link for a ready backup, asked for once and renewed before it expires. */
function useDownloadLink(backup: BackupView, web: boolean) {
  const downloadLink = useBackups((state) => state.downloadLink);
  const [link, setLink] = useState<{ path: string; fileName: string } | null>(null);
  const ready = backup.stage === 'ready';
  useEffect(() => {
    if (!web || !ready) return;
    let cancelled = false;
    const fetchLink = () =>
      void downloadLink(backup.id).then((value) => {
        if (!cancelled) setLink(value);
      });
    fetchLink();
    const timer = window.setInterval(fetchLink, 45 * 60_000);
    return () => {
      cancelled = true;
      window.clearInterval(timer);
    };
  }, [web, ready, backup.id, downloadLink]);
  return ready ? link : null;
}

/**
 * Work running on a backup now (a download, a verification): how far it got, and its Cancel,
 * disabled while the engine stops it.
 */
function RunningWork(props: {
  percent: number | null;
  label: string;
  line: string;
  cancelLabel: string;
  cancelTitle?: string;
  cancel: () => Promise<unknown>;
}) {
  const [cancelling, setCancelling] = useState(false);
  return (
    <div className="backup-progress">
      <ProgressBar percent={props.percent} label={props.label} />
      <span className="muted">{props.line}</span>
      <button
        type="button"
        className="backup-progress__cancel"
        disabled={cancelling}
        {...(props.cancelTitle ? { title: props.cancelTitle } : {})}
        onClick={() => {
          setCancelling(true);
          void props.cancel().finally(() => setCancelling(false));
        }}
      >
        {cancelling ? 'Cancelling…' : props.cancelLabel}
      </button>
    </div>
  );
}

/** A download running now; its Cancel keeps what arrived (paused). */
function Progress({ backup }: { backup: BackupView }) {
  const cancelDownload = useBackups((state) => state.cancelDownload);
  return (
    <RunningWork
      percent={percentOf(backup)}
      label={`Download of the backup of ${backup.portalName}`}
      line={transferLine(backup)}
      cancelLabel="Cancel download"
      cancelTitle="Stop the download; what arrived is kept, and Download again resumes it"
      cancel={() => cancelDownload(backup.id)}
    />
  );
}

/** A verification running now; its Cancel keeps the file as it was. */
function VerifyProgress({ backup }: { backup: BackupView }) {
  const cancelVerify = useBackups((state) => state.cancelVerify);
  const { bytes, totalBytes } = backup.verifying!;
  return (
    <RunningWork
      percent={verifyPercentOf(backup)}
      label={`Verification of the backup of ${backup.portalName}`}
      line={`Verifying: ${formatBytes(bytes)} of ${formatBytes(totalBytes)} checked`}
      cancelLabel="Cancel verify"
      cancel={() => cancelVerify(backup.id)}
    />
  );
}

/** An access code typed for one action (verify, download), sent once, then forgotten. */
function CodePrompt({
  label,
  codeKept,
  onSubmit,
  onCancel,
}: {
  label: string;
  /** A code is kept in the keychain: an empty field uses it. */
  codeKept: boolean;
  onSubmit: (code: string) => void;
  onCancel: () => void;
}) {
  const [code, setCode] = useState('');
  return (
    <form
      className="backup-code-prompt"
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit(code);
        setCode('');
      }}
    >
      <input
        type="password"
        aria-label="Access code"
        placeholder={codeKept ? 'Access code (empty: the kept one)' : 'Access code'}
        autoComplete="off"
        value={code}
        onChange={(event) => setCode(event.target.value)}
        // Opened by the user's own click: the field they are about to type in.
        autoFocus
      />
      <button type="submit" className="primary" disabled={code.length === 0 && !codeKept}>
        {label}
      </button>
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
    </form>
  );
}

const PROMPT_LABEL = {
  verify: 'Verify',
  compare: 'Compare',
  download: 'Download',
  browse: 'Browse',
  backUp: 'Back up',
} as const;

/** "09:12 tomorrow"-like: the day and time in the computer's zone. */
const clockOf = (iso: string) =>
  new Date(iso).toLocaleString(undefined, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
  });

export function BackupRow({
  backup,
  web,
  available,
  codeKept,
}: {
  backup: BackupView;
  web: boolean;
  /** The portal's account is signed in: the service can be asked. */
  available: boolean;
  codeKept: boolean;
}) {
  const {
    verify,
    download,
    remove,
    showInFolder,
    startDrag,
    compare,
    browse,
    cancelCompare,
    cancelBrowse,
    backUpAgain,
  } = useBackups((state) => state);
  const comparing = useBackups((state) => state.comparing[backup.id] ?? false);
  const note = useBackups((state) => state.notes[`backup:${backup.id}`]);
  const browsing = useBackups((state) => state.browsing?.backupId === backup.id);
  const browseProgress = useBackups((state) =>
    state.browseProgress?.id === backup.id ? state.browseProgress.records : null,
  );
  const showSection = useShell((state) => state.select);
  const diff = useBackups((state) => state.diffs[backup.id]);
  const error = useBackups((state) => state.errors[`backup:${backup.id}`]);
  const busy = useBackups((state) => state.busy[`backup:${backup.id}`] ?? false);
  const [prompt, setPrompt] = useState<
    'verify' | 'download' | 'compare' | 'browse' | 'backUp' | null
  >(null);
  const [showDiff, setShowDiff] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  /** The button that opened the prompt or the confirmation: the keyboard goes back to it. */
  const opener = useRef<HTMLElement | null>(null);
  const from = (event: MouseEvent<HTMLElement>) => {
    opener.current = event.currentTarget;
  };
  // Closed (Cancel, Keep it, sent), the prompt's buttons leave with it: without this the focus
  // would fall to the page's body and the next Tab start from the top.
  useEffect(() => {
    if (prompt !== null || confirmDelete) return;
    const active = document.activeElement;
    if (active !== null && active !== document.body) return;
    const back = opener.current;
    if (back?.isConnected && !back.matches(':disabled')) back.focus();
  }, [prompt, confirmDelete]);
  const { copy, noteFor } = useCopy({ copied: 'Path copied', refused: 'The clipboard refused' });
  const link = useDownloadLink(backup, web);
  const ready = backup.stage === 'ready' && backup.file !== null;
  const moving = ['scheduled', 'generating', 'downloading', 'verifying'].includes(backup.stage);
  const next = nextStep(backup, new Date());

  const onDragStart = (event: DragEvent<HTMLTableRowElement>) => {
    if (!ready) return;
    if (web) {
      if (!link) return;
      const url = new URL(link.path, window.location.origin).href;
      event.dataTransfer.setData('DownloadURL', downloadUrlDragData(link.fileName, url));
      event.dataTransfer.setData('text/uri-list', url);
      event.dataTransfer.effectAllowed = 'copy';
    } else {
      // The desktop drags the real file; the engine picks it by id.
      event.preventDefault();
      startDrag(backup.id);
    }
  };

  const verification = backup.verification;
  return (
    <>
      <tr
        className={`backup-row is-${backup.stage}`}
        draggable={ready}
        onDragStart={onDragStart}
        data-testid={`backup-${backup.id}`}
        title={ready ? 'Drag this row to a folder to copy the backup there' : undefined}
      >
        <td>
          <div>{madeAt(backup)}</div>
          <div className="muted">
            {backup.requestedBy ? `by ${backup.requestedBy}` : ''}
            {backup.scheduled ? ' · scheduled' : ''}
            {backup.exportId ? ` · #${backup.exportId}` : ''}
          </div>
        </td>
        <td>
          <span className={`backup-stage is-${stageTone(backup)}`}>
            {STAGE_LABEL[backup.stage]}
          </span>
          {backup.stage === 'downloading' && <Progress backup={backup} />}
          {backup.verifying && <VerifyProgress backup={backup} />}
          {backup.notice && <p className="hint">{backup.notice}</p>}
          {backup.problem && <p className="text-danger backup-problem">{backup.problem}</p>}
          {/* What the user asked for (a cancel): nothing went wrong, so not in red. */}
          {backup.note && (
            <p className="hint backup-note" role="status">
              {backup.note}
            </p>
          )}
        </td>
        <td className="num">
          {formatBytes(backup.stage === 'ready' ? backup.bytes : backup.totalBytes)}
        </td>
        <td>
          {verification ? (
            <div className="backup-verification">
              <span className="text-ok">
                Verified {new Date(verification.verifiedAt).toLocaleString()}
                {verification.readable
                  ? `: ${verification.records?.toLocaleString() ?? '?'} records, ${verification.comments?.toLocaleString() ?? '?'} comments, ${verification.modules ?? '?'} modules`
                  : ': every entry decrypts; its layout is unknown, so it cannot be browsed'}
              </span>
              {verification.comparison.length > 0 && (
                <ul className="backup-comparison">
                  {verification.comparison.map((module) => (
                    <li key={module.module}>{module.summary}</li>
                  ))}
                </ul>
              )}
            </div>
          ) : (
            <span className="muted">{moving ? '…' : 'Not verified'}</span>
          )}
          {backup.sha256 && (
            <div className="mono muted backup-sha" title={`SHA-256 ${backup.sha256}`}>
              SHA-256 {backup.sha256.slice(0, 16)}…
            </div>
          )}
          {backup.onService !== null && (
            <div className="muted">
              {backup.onService
                ? 'Listed by the service (its link works)'
                : 'No longer listed by the service'}
            </div>
          )}
        </td>
        <td className="backup-actions">
          <div className="actions">
            {ready && web && link && (
              <a className="button" href={link.path} download={link.fileName}>
                Download
              </a>
            )}
            {ready && !web && (
              <button type="button" onClick={() => void showInFolder(backup.id)} disabled={busy}>
                Show in folder
              </button>
            )}
            {ready && (
              <button type="button" onClick={() => void copy(backup.file!)}>
                Copy path
              </button>
            )}
            {(ready || backup.stage === 'needs_code') && (
              <button
                type="button"
                onClick={(event) => {
                  from(event);
                  setPrompt('verify');
                }}
                disabled={busy}
              >
                Verify
              </button>
            )}
            {ready && (
              <button
                type="button"
                onClick={(event) => {
                  from(event);
                  setShowDiff(true);
                  setPrompt('compare');
                }}
                disabled={busy}
              >
                Compare with mirror
              </button>
            )}
            {ready && verification?.readable !== false && (
              <button
                type="button"
                onClick={(event) => {
                  if (browsing) return showSection('records');
                  from(event);
                  setPrompt('browse');
                }}
                disabled={busy}
                title="Open this backup's records read-only in the records workspace"
              >
                {browsing ? 'Show its records' : 'Browse records'}
              </button>
            )}
            {next?.kind === 'download' && available && (
              <button
                type="button"
                onClick={(event) => {
                  from(event);
                  setPrompt('download');
                }}
                disabled={busy}
              >
                {next.label}
              </button>
            )}
            {next?.kind === 'backUpAgain' && available && (
              <button
                type="button"
                onClick={(event) => {
                  from(event);
                  setPrompt('backUp');
                }}
                disabled={busy}
                title={`Ask the service for a new backup of ${backup.portalName}`}
              >
                Back up again
              </button>
            )}
            {!moving &&
              (backup.file !== null ||
                backup.stage === 'needs_code' ||
                backup.stage === 'paused' ||
                backup.stage === 'failed') && (
                <button
                  type="button"
                  className="danger"
                  onClick={(event) => {
                    from(event);
                    setConfirmDelete(true);
                  }}
                  disabled={busy}
                >
                  Delete
                </button>
              )}
          </div>
          {next?.kind === 'backUpAfter' && (
            <p className="hint backup-next">
              The service returns this same file until {clockOf(next.at)}; back up again after that.
            </p>
          )}
          {ready && <div className="mono muted backup-path">{backup.file}</div>}
          {noteFor(backup.file ?? undefined) && (
            <p className="hint">{noteFor(backup.file ?? undefined)}</p>
          )}
        </td>
      </tr>
      {(prompt ||
        confirmDelete ||
        error ||
        note ||
        comparing ||
        browseProgress !== null ||
        (showDiff && diff)) && (
        <tr className="backup-row__more">
          <td colSpan={5}>
            {/* Once sent, the code's prompt gives way to the reading's progress and its Cancel. */}
            {prompt && !comparing && browseProgress === null && (
              <CodePrompt
                // A new backup is made with the code typed now (backups.start keeps none here).
                codeKept={codeKept && prompt !== 'backUp'}
                label={PROMPT_LABEL[prompt]}
                onCancel={() => setPrompt(null)}
                onSubmit={(code) => {
                  const accessCode = code === '' ? undefined : code;
                  if (prompt === 'browse') {
                    void browse(backup.id, accessCode).then((outcome) => {
                      if (outcome === 'failed') return;
                      setPrompt(null);
                      if (outcome === 'opened') showSection('records');
                    });
                    return;
                  }
                  if (prompt === 'backUp') {
                    void backUpAgain(backup.id, code).then((ok) => {
                      if (ok) setPrompt(null);
                    });
                    return;
                  }
                  const run = { verify, compare, download }[prompt];
                  void run(backup.id, accessCode).then((ok) => {
                    if (ok) setPrompt(null);
                  });
                }}
              />
            )}
            {browseProgress !== null && (
              <div className="backup-reading" role="group" aria-label="Opening for browsing">
                <span className="muted">
                  {/* Nothing read yet: the code may still be asked of the keychain. */}
                  {browseProgress === 0
                    ? 'Opening the backup for browsing…'
                    : `Reading the backup for browsing… ${browseProgress.toLocaleString()} records`}
                </span>
                <button type="button" onClick={() => void cancelBrowse(backup.id)}>
                  Cancel
                </button>
              </div>
            )}
            {comparing && (
              <div className="backup-reading" role="group" aria-label="Comparing">
                <span className="muted">Comparing the backup with the mirror…</span>
                <button type="button" onClick={() => void cancelCompare(backup.id)}>
                  Cancel
                </button>
              </div>
            )}
            {note && (
              <p className="hint" role="status">
                {note}
              </p>
            )}
            {showDiff && diff && (
              <>
                <BackupDiff diff={diff} />
                <button type="button" className="link-button" onClick={() => setShowDiff(false)}>
                  Hide the comparison
                </button>
              </>
            )}
            {confirmDelete && (
              <div className="backup-confirm" role="group" aria-label="Confirm delete">
                <span>
                  Delete this backup from this computer? The service&apos;s copy is not touched.
                </span>
                <button
                  type="button"
                  className="danger"
                  onClick={() => {
                    setConfirmDelete(false);
                    void remove(backup.id);
                  }}
                >
                  Delete the file
                </button>
                <button type="button" onClick={() => setConfirmDelete(false)}>
                  Keep it
                </button>
              </div>
            )}
            {error && (
              <p className="error" role="alert">
                {error}
              </p>
            )}
          </td>
        </tr>
      )}
    </>
  );
}
