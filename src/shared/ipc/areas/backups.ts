/**
 * The backups area: portal data backups (the spec's "Data backup" rows) made, downloaded,
 * verified and kept on this computer, merged with the service's own history; the access codes
 * kept (opt-in) in the OS keychain; schedules; and the desktop's file drag. contract.ts composes
 * these with every other area's.
 */
import { accessCodeProblem } from '@portaldesk/portal-api/domain/backupRequest';
import { z } from 'zod';
import { NoArgs, request } from '../contractSpec';

const PortalId = z.string().regex(/^\d{1,20}$/, 'a portal id (digits)');
/** Ours: a local backup's id (a row of the backups table). */
const BackupId = z.string().regex(/^\d{1,15}$/, 'a backup id (digits)');

/** The access code's rule (ours, shared with the emulator: portal-api's backupRequest.ts). */
export const AccessCode = z.string().superRefine((code, context) => {
  const problem = accessCodeProblem(code);
  if (problem) context.addIssue({ code: 'custom', message: problem });
});

/** Ours: how many backups the portals of one request may name at once. */
export const BACKUP_PORTALS_MAX = 50;
/** Ours: the most backups a schedule may keep; 7 by default. */
export const KEEP_MAX = 365;
export const KEEP_DEFAULT = 7;

/**
 * Where a backup is:
 * - `scheduled`: asked of the service, no answer yet;
 * - `generating`: the service is making it (`in_progress`);
 * - `downloading`: the archive streams to a temporary file (bytes, speed, ETA);
 * - `verifying`: the archive is opened with the access code, entry by entry;
 * - `needs_code`: downloaded in full, but no access code to verify it with (after a restart
 *   without one in the keychain): the temporary file waits, nothing looks like a backup;
 * - `ready`: verified and on disk under its final name;
 * - `paused`: its download was cancelled by the user (`backups.cancelDownload`): what arrived is
 *   kept in the temporary file, and a later `backups.download` resumes from it;
 * - `on_service`: in the service's history only, never downloaded here;
 * - `failed`: stopped, with `problem` saying why and what was kept.
 */
export const BackupStage = z.enum([
  'scheduled',
  'generating',
  'downloading',
  'verifying',
  'needs_code',
  'ready',
  'paused',
  'on_service',
  'failed',
]);
export type BackupStage = z.infer<typeof BackupStage>;

/**
 * What kind of failure stopped a `failed` backup, so the view offers the actions that fit it
 * rather than reading its words:
 * - `retry`: the transfer, this computer or the account failed (a cut, a full disk, a damaged
 *   download, signed out): downloading it again may well succeed;
 * - `not_a_backup`: the service's file is no backup PortalDesk can read (no ZIP archive, a zip
 *   bomb, entries not encrypted): downloading it again would fetch the same file, so a new backup
 *   is made instead (after `newBackupFrom`: the service returns this one until then);
 * - `gone`: the service no longer offers it (its link or its export is gone): a new backup;
 * - `another_backup`: the file came whole and opens with the code, but it is another backup's
 *   archive (it names another export id or portal than the one asked for): the service's link
 *   gives that file, so downloading it again would bring the same one; as `not_a_backup`, a new
 *   backup instead (after `newBackupFrom`), and the service's support is told.
 */
export const BackupFailure = z.enum(['retry', 'not_a_backup', 'gone', 'another_backup']);
export type BackupFailure = z.infer<typeof BackupFailure>;

/**
 * A failure whose file is the service's own answer for this backup, which downloading it again
 * would bring the same (not offered for download; a new backup once the 24-hour reuse ends).
 */
export function sameFileAgain(failure: BackupFailure | null): boolean {
  return failure === 'not_a_backup' || failure === 'another_backup';
}

/** One entry of a verified archive: decrypted, parsed and counted. */
export const ArchiveEntryCheck = z.object({
  name: z.string(),
  /** Uncompressed size. */
  bytes: z.number().int().nonnegative(),
  /** Elements of a top-level JSON array; null for an object or an entry no reader knows. */
  items: z.number().int().nonnegative().nullable(),
});

/** The archive's records of one module against the mirror's. */
export const ModuleComparison = z.object({
  module: z.string(),
  /** The module's plural name when the mirror knows it. */
  label: z.string(),
  archive: z.number().int().nonnegative(),
  mirror: z.number().int().nonnegative().nullable(),
  /** Mirrored records created after the archive was made. */
  createdSince: z.number().int().nonnegative().nullable(),
  /** One sentence: "archive: 1,350 assets; mirror: 1,352, 2 created since". */
  summary: z.string(),
});

export const Verification = z.object({
  verifiedAt: z.string(),
  entries: z.array(ArchiveEntryCheck),
  /** False when no reader knows the archive's layout: it decrypts, but cannot be browsed. */
  readable: z.boolean(),
  records: z.number().int().nonnegative().nullable(),
  comments: z.number().int().nonnegative().nullable(),
  modules: z.number().int().nonnegative().nullable(),
  comparison: z.array(ModuleComparison),
});
export type Verification = z.infer<typeof Verification>;

/** One module of a backup against the mirror, record by record. */
export const ModuleDiff = z.object({
  module: z.string(),
  label: z.string(),
  /** Listed (not trashed) records in the backup, and in the mirror now. */
  archived: z.number().int().nonnegative(),
  mirrored: z.number().int().nonnegative(),
  /** In the mirror, not in the backup: created (or restored) since. */
  added: z.number().int().nonnegative(),
  /** In the backup, not in the mirror: deleted or trashed since (or not synced). */
  removed: z.number().int().nonnegative(),
  changed: z.number().int().nonnegative(),
  unchanged: z.number().int().nonnegative(),
  /** Changed records per field, most first. */
  fields: z.array(z.object({ field: z.string(), records: z.number().int().positive() })),
  /** The first few of each kind, to look at. */
  examples: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      change: z.enum(['added', 'removed', 'changed']),
      fields: z.array(z.string()),
    }),
  ),
});
export type ModuleDiff = z.infer<typeof ModuleDiff>;

export const ArchiveDiff = z.object({
  comparedAt: z.string(),
  /** When the backup was made, as the archive says. */
  generatedAt: z.string().nullable(),
  modules: z.array(ModuleDiff),
});
export type ArchiveDiff = z.infer<typeof ArchiveDiff>;

export const BackupView = z.object({
  id: BackupId,
  accountId: z.string(),
  portalId: PortalId,
  portalName: z.string(),
  /** The service's export id; null until the service answered. */
  exportId: z.string().nullable(),
  stage: BackupStage,
  attachmentNeeded: z.boolean(),
  /** The service returned a backup made within the last 24 hours instead of a new one. */
  reused: z.boolean(),
  /** "the service returned the backup made at 09:12; a new one can be made after 09:12 tomorrow" */
  notice: z.string().nullable(),
  requestedTime: z.string().nullable(),
  completedTime: z.string().nullable(),
  requestedBy: z.string().nullable(),
  /** Started by a schedule rather than by hand. */
  scheduled: z.boolean(),
  bytes: z.number().int().nonnegative().nullable(),
  totalBytes: z.number().int().nonnegative().nullable(),
  bytesPerSecond: z.number().nonnegative().nullable(),
  etaSeconds: z.number().nonnegative().nullable(),
  /**
   * A verification running now (a download's first, or a ready backup's again): bytes inflated so
   * far, of all its entries declare. It can be cancelled (`backups.cancelVerify`). Null otherwise.
   */
  verifying: z
    .object({
      bytes: z.number().int().nonnegative(),
      totalBytes: z.number().int().nonnegative(),
    })
    .nullable(),
  /** Resumed with a Range request at least once. */
  resumed: z.boolean(),
  sha256: z.string().nullable(),
  /** The absolute path of the archive once `ready`. */
  file: z.string().nullable(),
  verification: Verification.nullable(),
  /** Whether the service still lists it (its download link works); null when not checked. */
  onService: z.boolean().nullable(),
  /** Why it stopped, what was kept and what to do; null when nothing went wrong. */
  problem: z.string().nullable(),
  /** The kind of failure of a `failed` backup (which actions fit it); null otherwise. */
  failure: BackupFailure.nullable(),
  /**
   * A backup that is not a backup, or is another backup's file (`sameFileAgain(failure)`), within
   * the service's 24-hour reuse: until this time (ISO) a backup request returns it instead of
   * making a new one. Null otherwise.
   */
  newBackupFrom: z.string().nullable(),
  /**
   * What the user's own request left (a verification cancelled, a download paused), what was kept
   * and what to do: shown neutrally, since nothing went wrong; null otherwise.
   */
  note: z.string().nullable(),
});
export type BackupView = z.infer<typeof BackupView>;

export const BackupScheduleSpec = z
  .object({
    frequency: z.enum(['off', 'daily', 'weekly']),
    /** Local hour of the day, 0 to 23. */
    hour: z.number().int().min(0).max(23),
    /** Weekly: 0 Sunday to 6 Saturday. */
    weekday: z.number().int().min(0).max(6),
    keep: z.number().int().min(1).max(KEEP_MAX),
  })
  .strict();
export type BackupScheduleSpec = z.infer<typeof BackupScheduleSpec>;

export const BackupPortal = z.object({
  portalId: PortalId,
  portalName: z.string(),
  accountId: z.string(),
  /** Signed in: backups can be made now. */
  available: z.boolean(),
  /**
   * Whether an access code is kept in the OS keychain for this portal: `unreadable` when the
   * keychain could not be read (locked, its service down), so one may be kept all the same.
   */
  accessCode: z.enum(['kept', 'none', 'unreadable']),
  /** The keychain's own words when it could not be read; null otherwise. */
  keychainProblem: z.string().nullable(),
  schedule: BackupScheduleSpec,
  /** The next scheduled run (ISO time), null when off. */
  nextRun: z.string().nullable(),
  /** Why the schedule cannot run (no code kept), null when it can. */
  scheduleProblem: z.string().nullable(),
});
export type BackupPortal = z.infer<typeof BackupPortal>;

export const BackupsOverview = z.object({
  /** Where backups are kept: `<data directory>/backups`. */
  folder: z.string(),
  portals: z.array(BackupPortal),
  /** Newest first. */
  backups: z.array(BackupView),
});
export type BackupsOverview = z.infer<typeof BackupsOverview>;

export const StartBackupArgs = z
  .object({
    portalIds: z.array(PortalId).min(1).max(BACKUP_PORTALS_MAX),
    accessCode: AccessCode,
    attachmentNeeded: z.boolean(),
    /** Keep the code in the OS keychain for these portals (scheduled runs, later checks). */
    keepCode: z.boolean(),
  })
  .strict();

const ByBackup = z.object({ id: BackupId }).strict();

/** A backup opened read-only in the records workspace (its records in a snapshot database). */
export const BackupSnapshot = z.object({
  backupId: BackupId,
  portalId: PortalId,
  portalName: z.string(),
  /** When the service made the backup. */
  madeAt: z.string().nullable(),
  /** Records read from the backup, trashed ones included (they are in its recycle bin). */
  records: z.number().int().nonnegative(),
  trashed: z.number().int().nonnegative(),
  /** The backup's modules the mirror no longer has: their records are not shown. */
  skippedModules: z.array(z.string()),
  /** Records of known modules that could not be read as records. */
  unreadable: z.number().int().nonnegative(),
});
export type BackupSnapshot = z.infer<typeof BackupSnapshot>;

/**
 * A comparison or an opening for browsing the user cancelled (`backups.cancelCompare`,
 * `backups.closeBrowse`): nothing was kept or changed, said with what to do. Not a failure.
 */
export const ReadCancelled = z.object({ cancelled: z.string() }).strict();
export type ReadCancelled = z.infer<typeof ReadCancelled>;

export const backupsRequests = {
  'backups.overview': request(
    NoArgs,
    BackupsOverview,
    'Every portal with its schedule, and every backup here or in the service history.',
  ),
  'backups.start': request(
    StartBackupArgs,
    z.object({ started: z.array(BackupView) }),
    'Back up portals now: ask the service, then download and verify in the background.',
  ),
  'backups.refreshHistory': request(
    z.object({ portalId: PortalId }).strict(),
    BackupsOverview,
    "Read the service's backup history of a portal and merge it with what is on disk.",
  ),
  'backups.download': request(
    z.object({ id: BackupId, accessCode: AccessCode.optional() }).strict(),
    BackupView,
    'Download (or resume) a backup the service holds, then verify it.',
  ),
  'backups.cancelDownload': request(
    ByBackup,
    BackupView,
    'Stop the download running now (at once): what arrived is kept, and Download resumes from it; Delete removes it.',
  ),
  'backups.verify': request(
    z.object({ id: BackupId, accessCode: AccessCode.optional() }).strict(),
    BackupView,
    'Open a downloaded backup with its access code, check every entry, compare with the mirror.',
  ),
  'backups.cancelVerify': request(
    ByBackup,
    BackupView,
    'Stop the verification running now: the file is kept as it was, and can be verified again any time.',
  ),
  'backups.compare': request(
    z.object({ id: BackupId, accessCode: AccessCode.optional() }).strict(),
    z.union([ArchiveDiff, ReadCancelled]),
    'What differs between a downloaded backup and the mirror now, per module and field (or that it was cancelled).',
  ),
  'backups.cancelCompare': request(
    ByBackup,
    z.object({ cancelled: z.boolean() }),
    "Stop comparing a backup with the mirror (within the chunk it reads); answered once it stopped, false when none ran. The comparison's own request answers that it was cancelled.",
  ),
  'backups.browse': request(
    z.object({ id: BackupId, accessCode: AccessCode.optional() }).strict(),
    z.union([BackupSnapshot, ReadCancelled]),
    'Open a verified backup read-only in the records workspace (one at a time): its records are read into a snapshot beside the live mirror (or it was cancelled: backups.closeBrowse while it reads).',
  ),
  'backups.closeBrowse': request(
    ByBackup,
    z.object({ closed: z.literal(true) }),
    'Stop browsing a backup, or opening it (within the chunk it reads): its snapshot is closed and deleted (the backup stays).',
  ),
  'backups.delete': request(
    ByBackup,
    z.object({ deleted: z.literal(true) }),
    "Delete a backup's file on this computer; the service's copy is untouched.",
  ),
  'backups.setSchedule': request(
    z.object({ portalId: PortalId, schedule: BackupScheduleSpec }).strict(),
    BackupPortal,
    'Back a portal up daily or weekly at an hour, keeping the last N.',
  ),
  'backups.readKeychain': request(
    z.object({ portalId: PortalId }).strict(),
    BackupPortal,
    "Ask the OS keychain again for a portal's access code (after it was unlocked).",
  ),
  'backups.forgetCode': request(
    z.object({ portalId: PortalId }).strict(),
    BackupPortal,
    "Remove a portal's access code from the OS keychain.",
  ),
  'backups.showInFolder': request(
    ByBackup,
    z.object({ shown: z.literal(true) }),
    "Desktop: show a backup's file in the system's file manager.",
  ),
  'backups.downloadLink': request(
    ByBackup,
    z.object({ path: z.string(), fileName: z.string(), expiresAt: z.string() }),
    "Web mode: a link (a path on the app's own address) that downloads a backup's file for a while.",
  ),
  'backups.startDrag': request(
    ByBackup,
    z.object({ dragging: z.literal(true) }),
    "Desktop: drag a backup's file out of the window (the engine picks the file by id).",
  ),
} as const;

export const backupsEvents = {
  /** A backup changed (stage, bytes, verification); at most a few per second per backup. */
  'backups.changed': z.object({ backup: BackupView.nullable(), portalId: PortalId.nullable() }),
  /** A backup being opened for browsing: records read into its snapshot so far. */
  'backups.browseProgress': z.object({ id: BackupId, records: z.number().int().nonnegative() }),
} as const;
