/**
 * Whether a backup may be downloaded (here, again, or tried again) now, as a pure decision: the
 * words of a refusal, or null. The view offers the download only where this allows it
 * (renderer `backupFormat.ts`, `nextStep`); the engine asks it again, as any caller of the
 * contract may ask for what the view does not offer.
 */
import { NOT_A_BACKUP } from './archiveLimits';
import type { BackupRecord } from './backupRepository';

export function downloadRefusal(
  record: Pick<BackupRecord, 'exportId' | 'stage' | 'failure' | 'problem'>,
): string | null {
  if (record.exportId === null)
    return 'The service never answered this request; there is nothing to download.';
  if (record.stage === 'ready') return 'This backup is already downloaded and verified.';
  // Fetched whole, the file was no backup archive at all: the service's own file, which another
  // download would bring the same. The row's words say what was kept and what helps instead.
  if (record.stage === 'failed' && record.failure === 'not_a_backup') {
    return (
      record.problem ??
      `${NOT_A_BACKUP}. Downloading it again would fetch the same file from the service: make a new backup, and if the new one is refused the same way, contact the service's support.`
    );
  }
  // The service no longer offers it (its link answers 401/403/404/410, or its status is unknown
  // to the service): another download meets the same answer, and only a new backup helps.
  // Fetched whole and opened, the file was another backup's (or portal's): the service's link
  // for this one gives it, and would give it again.
  if (record.stage === 'failed' && record.failure === 'another_backup') {
    return (
      record.problem ??
      "The service's link for this backup gave another backup's file. Downloading it again would fetch the same file: make a new backup, and if that one brings another backup's file too, report it to the service's support."
    );
  }
  if (record.stage === 'failed' && record.failure === 'gone') {
    return (
      record.problem ??
      'The service no longer offers this backup, so it cannot be downloaded again; make a new backup.'
    );
  }
  return null;
}
