/** How the Backups view writes stages, sizes, speeds and times. Pure. */
import { formatBytes } from '../../../../shared/formatBytes';
import {
  sameFileAgain,
  type BackupStage,
  type BackupView,
} from '../../../../shared/ipc/areas/backups';

export { formatBytes };

export const STAGE_LABEL: Record<BackupStage, string> = {
  scheduled: 'Requested',
  generating: 'Service is generating',
  downloading: 'Downloading',
  verifying: 'Verifying',
  needs_code: 'Needs the access code',
  ready: 'Ready',
  paused: 'Download paused',
  on_service: 'On the service only',
  failed: 'Stopped',
};

/**
 * How a stage's label reads: a problem in the danger colour, a backup here and checked in the
 * good one. A backup waiting for its code because the user cancelled its verification (its note
 * says so) is not a problem: the label reads plainly beside that note.
 */
export function stageTone(
  backup: Pick<BackupView, 'stage' | 'note'>,
): 'ok' | 'danger' | 'muted' | 'plain' {
  switch (backup.stage) {
    case 'ready':
      return 'ok';
    case 'failed':
      return 'danger';
    case 'needs_code':
      return backup.note === null ? 'danger' : 'plain';
    case 'on_service':
      return 'muted';
    default:
      return 'plain';
  }
}

/**
 * What a backup not (fully) here can be asked for next: downloaded (here, again, or tried again),
 * or replaced by a new backup of its portal, now or once the service's 24-hour reuse stops giving
 * it back (`at`); null: neither. A failed backup's kind decides: a file that is not a backup,
 * another backup's file, or one the service no longer offers, would not come right by
 * downloading it again.
 */
export type NextStep =
  | { kind: 'download'; label: 'Download here' | 'Try again' | 'Download again' }
  | { kind: 'backUpAgain' }
  | { kind: 'backUpAfter'; at: string }
  | null;

export function nextStep(
  backup: Pick<BackupView, 'stage' | 'exportId' | 'failure' | 'newBackupFrom'>,
  now: Date,
): NextStep {
  if (backup.stage === 'failed' && sameFileAgain(backup.failure)) {
    const from = backup.newBackupFrom;
    return from && new Date(from).getTime() > now.getTime()
      ? { kind: 'backUpAfter', at: from }
      : { kind: 'backUpAgain' };
  }
  if (backup.stage === 'failed' && backup.failure === 'gone') return { kind: 'backUpAgain' };
  // The service never answered: there is nothing of it to download.
  if (backup.exportId === null) return null;
  if (backup.stage === 'on_service') return { kind: 'download', label: 'Download here' };
  if (backup.stage === 'failed') return { kind: 'download', label: 'Try again' };
  // Its note says "Download again to resume".
  if (backup.stage === 'paused') return { kind: 'download', label: 'Download again' };
  return null;
}

/** Stages a backup is moving through (shown in the status bar). */
export const ACTIVE_STAGES: readonly BackupStage[] = [
  'scheduled',
  'generating',
  'downloading',
  'verifying',
];

export function formatSeconds(seconds: number): string {
  if (seconds < 1) return 'under a second';
  if (seconds < 60) return `${Math.round(seconds)} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${Math.round(seconds % 60)} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** "12.5 MB of 80 MB · 9.1 MB/s · 7 s left", or what is known of it. */
export function transferLine(backup: BackupView): string {
  const parts = [
    backup.totalBytes !== null
      ? `${formatBytes(backup.bytes ?? 0)} of ${formatBytes(backup.totalBytes)}`
      : formatBytes(backup.bytes ?? 0),
  ];
  if (backup.bytesPerSecond !== null) parts.push(`${formatBytes(backup.bytesPerSecond)}/s`);
  if (backup.etaSeconds !== null) parts.push(`${formatSeconds(backup.etaSeconds)} left`);
  return parts.join(' · ');
}

function percent(bytes: number | null, totalBytes: number | null): number | null {
  if (totalBytes === null || totalBytes === 0 || bytes === null) return null;
  // Rounded down: 99.6 % is not done, and 100 % says every byte is there.
  return Math.min(100, Math.floor((bytes / totalBytes) * 100));
}

export function percentOf(backup: BackupView): number | null {
  return percent(backup.bytes, backup.totalBytes);
}

/** How far a running verification got, of the bytes its entries declare; null: none runs. */
export function verifyPercentOf(backup: BackupView): number | null {
  return backup.verifying ? percent(backup.verifying.bytes, backup.verifying.totalBytes) : null;
}

/** When the service made it, else when it was asked for, in the computer's zone. */
export function madeAt(backup: BackupView): string {
  const at = backup.completedTime ?? backup.requestedTime;
  if (!at) return 'not answered yet';
  return new Date(at).toLocaleString(undefined, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });
}

/** The status bar's words for backups in progress, or null when none is. */
export function backupsSummary(backups: readonly BackupView[]): string | null {
  const active = backups.filter((backup) => ACTIVE_STAGES.includes(backup.stage));
  if (active.length === 0) return null;
  if (active.length === 1) {
    const backup = active[0]!;
    const percent = backup.stage === 'downloading' ? percentOf(backup) : null;
    return `Backup of ${backup.portalName}: ${STAGE_LABEL[backup.stage].toLowerCase()}${percent === null ? '' : ` ${percent}%`}`;
  }
  return `${active.length} backups in progress`;
}

/** Chromium's drag data for a file download: `mime:name:absolute URL`. */
export function downloadUrlDragData(fileName: string, url: string): string {
  return `application/zip:${fileName.replace(/:/g, '_')}:${url}`;
}
