/**
 * A portal data backup (spec "Other resources": Data backup "export id, status, download URL,
 * history entries"; statuses other than in progress and completed are not shown, so any text is
 * kept). The download URL is set once the backup is completed.
 */
import { z } from 'zod';
import { Id, OptionalDateTime, OptionalFlag, OptionalText, UserRef } from './refs';

/** The two states the spec names; others are kept as text. */
export const BACKUP_STATUSES = ['in_progress', 'completed'] as const;

export const BackupExport = z.looseObject({
  id: Id,
  status: z.string().min(1),
  attachment_needed: OptionalFlag,
  requested_by: UserRef.nullish().transform((value) => value ?? null),
  requested_time: OptionalDateTime,
  completed_time: OptionalDateTime,
  download_url: OptionalText,
});
export type BackupExport = z.output<typeof BackupExport>;

/** The reply to POST portal_export: the backup, and whether it is one from the last 24 hours. */
export const BackupSchedule = z.looseObject({
  portal_export: BackupExport,
  is_reused: OptionalFlag,
});
export type BackupSchedule = z.output<typeof BackupSchedule>;
