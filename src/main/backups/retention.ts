/**
 * Which local backups a schedule's retention removes: of a portal's backups that are ready on
 * disk, the newest `keep` stay; older ones go. Only ready files count and only they are ever
 * removed: a backup still downloading, failed or waiting for its code is never the reason an
 * older good one disappears, and neither is a ready one whose file is gone (deleted or moved
 * outside PortalDesk): counted, it made retention delete the older files that are there, and a
 * portal whose newest files were moved away was left with none.
 */
export interface RetainedBackup {
  id: string;
  stage: string;
  /** Its file is in the backups folder now. */
  onDisk: boolean;
  /** When the service made it (ISO); ties broken by id. */
  madeAt: string;
}

export function backupsToRemove(backups: readonly RetainedBackup[], keep: number): string[] {
  if (!Number.isInteger(keep) || keep < 1) throw new Error(`keep must be at least 1, not ${keep}`);
  const ready = backups
    .filter((backup) => backup.stage === 'ready' && backup.onDisk)
    .sort((a, b) =>
      a.madeAt === b.madeAt
        ? Number(b.id) - Number(a.id)
        : Date.parse(b.madeAt) - Date.parse(a.madeAt),
    );
  return ready.slice(keep).map((backup) => backup.id);
}
