/**
 * The backups and backup_schedules tables (migrations 0011, 0027, 0028): the only code that writes them.
 * Rows hold what a backup is and where; never its access code or its download URL.
 */
import type Database from 'better-sqlite3';
import type {
  BackupFailure,
  BackupScheduleSpec,
  BackupStage,
  Verification,
} from '../../shared/ipc/areas/backups';
import { KEEP_DEFAULT } from '../../shared/ipc/areas/backups';
import { parseNamedQueries, requireQueries } from '../store/sqlFile';
import backupsSql from './queries/backups.sql?raw';

const queries = requireQueries(
  parseNamedQueries(backupsSql, 'backups.sql'),
  [
    'insert',
    'byId',
    'byExport',
    'all',
    'unfinished',
    'ofPortal',
    'setAnswer',
    'setStage',
    'setFailed',
    'setProgress',
    'setReady',
    'setVerification',
    'setOnService',
    'markPortalHistory',
    'forget',
    'toLocalOnly',
    'schedule',
    'schedules',
    'setSchedule',
    'scheduleRan',
    'portals',
  ] as const,
  'backups.sql',
);

interface Row {
  id: number;
  account_id: string;
  portal_id: string;
  export_id: string | null;
  stage: BackupStage;
  attachment_needed: number;
  reused: number;
  scheduled: number;
  requested_time: string | null;
  completed_time: string | null;
  requested_by: string | null;
  created_at: string;
  total_bytes: number | null;
  downloaded_bytes: number | null;
  resumed: number;
  etag: string | null;
  sha256: string | null;
  file: string | null;
  verification: string | null;
  on_service: number | null;
  problem: string | null;
  note: string | null;
  failure: BackupFailure | null;
}

export interface BackupRecord {
  id: string;
  accountId: string;
  portalId: string;
  exportId: string | null;
  stage: BackupStage;
  attachmentNeeded: boolean;
  reused: boolean;
  scheduled: boolean;
  requestedTime: string | null;
  completedTime: string | null;
  requestedBy: string | null;
  createdAt: string;
  totalBytes: number | null;
  downloadedBytes: number | null;
  resumed: boolean;
  etag: string | null;
  sha256: string | null;
  /** Relative to the backups folder. */
  file: string | null;
  verification: Verification | null;
  onService: boolean | null;
  problem: string | null;
  /** What the user's own request left (a cancel): said neutrally, not a problem. */
  note: string | null;
  /** The kind of failure when `failed` (which actions fit it); null otherwise. */
  failure: BackupFailure | null;
}

export interface ServiceAnswer {
  exportId: string;
  stage: BackupStage;
  reused: boolean;
  requestedTime: string | null;
  completedTime: string | null;
  requestedBy: string | null;
}

export interface StoredSchedule extends BackupScheduleSpec {
  portalId: string;
  setAt: string;
  lastRunAt: string | null;
}

function verificationOf(text: string | null): Verification | null {
  if (text === null) return null;
  try {
    return JSON.parse(text) as Verification;
  } catch {
    return null;
  }
}

function recordOf(row: Row): BackupRecord {
  return {
    id: String(row.id),
    accountId: row.account_id,
    portalId: row.portal_id,
    exportId: row.export_id,
    stage: row.stage,
    attachmentNeeded: row.attachment_needed === 1,
    reused: row.reused === 1,
    scheduled: row.scheduled === 1,
    requestedTime: row.requested_time,
    completedTime: row.completed_time,
    requestedBy: row.requested_by,
    createdAt: row.created_at,
    totalBytes: row.total_bytes,
    downloadedBytes: row.downloaded_bytes,
    resumed: row.resumed === 1,
    etag: row.etag,
    sha256: row.sha256,
    file: row.file,
    verification: verificationOf(row.verification),
    onService: row.on_service === null ? null : row.on_service === 1,
    problem: row.problem,
    note: row.note,
    // A failed row whose kind is unknown is treated as the one kind always offered before.
    failure: row.stage === 'failed' ? (row.failure ?? 'retry') : null,
  };
}

const flag = (value: boolean) => (value ? 1 : 0);

export class BackupRepository {
  private readonly statements: { [K in keyof typeof queries]: Database.Statement };

  constructor(private readonly db: Database.Database) {
    this.statements = Object.fromEntries(
      Object.entries(queries).map(([name, sql]) => [name, db.prepare(sql)]),
    ) as { [K in keyof typeof queries]: Database.Statement };
  }

  create(input: {
    accountId: string;
    portalId: string;
    attachmentNeeded: boolean;
    scheduled: boolean;
    createdAt: string;
  }): BackupRecord {
    const { lastInsertRowid } = this.statements.insert.run({
      ...input,
      exportId: null,
      stage: 'scheduled',
      attachmentNeeded: flag(input.attachmentNeeded),
      reused: 0,
      scheduled: flag(input.scheduled),
      requestedTime: null,
      completedTime: null,
      requestedBy: null,
      onService: null,
      problem: null,
    });
    return this.get(String(lastInsertRowid))!;
  }

  /** A backup seen in the service's history and not known here: recorded as `on_service`. */
  recordFromHistory(input: {
    accountId: string;
    portalId: string;
    answer: ServiceAnswer;
    createdAt: string;
  }): BackupRecord {
    const { answer } = input;
    const { lastInsertRowid } = this.statements.insert.run({
      accountId: input.accountId,
      portalId: input.portalId,
      exportId: answer.exportId,
      stage: answer.stage,
      attachmentNeeded: 0,
      reused: 0,
      scheduled: 0,
      requestedTime: answer.requestedTime,
      completedTime: answer.completedTime,
      requestedBy: answer.requestedBy,
      createdAt: input.createdAt,
      onService: 1,
      problem: null,
    });
    return this.get(String(lastInsertRowid))!;
  }

  get(id: string): BackupRecord | undefined {
    const row = this.statements.byId.get(Number(id)) as Row | undefined;
    return row ? recordOf(row) : undefined;
  }

  byExport(portalId: string, exportId: string): BackupRecord | undefined {
    const row = this.statements.byExport.get(portalId, exportId) as Row | undefined;
    return row ? recordOf(row) : undefined;
  }

  all(): BackupRecord[] {
    return (this.statements.all.all() as Row[]).map(recordOf);
  }

  unfinished(): BackupRecord[] {
    return (this.statements.unfinished.all() as Row[]).map(recordOf);
  }

  ofPortal(portalId: string): BackupRecord[] {
    return (this.statements.ofPortal.all(portalId) as Row[]).map(recordOf);
  }

  setAnswer(id: string, answer: ServiceAnswer): void {
    this.statements.setAnswer.run({ id: Number(id), ...answer, reused: flag(answer.reused) });
  }

  /**
   * The stage, with what went wrong (`problem`) or what the user's request left (`note`). A
   * failure goes through `setFailed`, which says its kind.
   */
  setStage(
    id: string,
    stage: Exclude<BackupStage, 'failed'>,
    problem: string | null = null,
    note: string | null = null,
  ): void {
    this.statements.setStage.run({ id: Number(id), stage, problem, note });
  }

  /** Stopped: why, what was kept and what to do (`problem`), and which kind of failure it is. */
  setFailed(id: string, problem: string, failure: BackupFailure): void {
    this.statements.setFailed.run({ id: Number(id), problem, failure });
  }

  setProgress(
    id: string,
    progress: { bytes: number; totalBytes: number | null; etag: string | null; resumed: boolean },
  ): void {
    this.statements.setProgress.run({
      id: Number(id),
      ...progress,
      resumed: flag(progress.resumed),
    });
  }

  setReady(
    id: string,
    ready: { file: string; sha256: string; bytes: number; verification: Verification },
  ): void {
    this.statements.setReady.run({
      id: Number(id),
      file: ready.file,
      sha256: ready.sha256,
      bytes: ready.bytes,
      verification: JSON.stringify(ready.verification),
    });
  }

  setVerification(
    id: string,
    verification: Verification | null,
    problem: string | null,
    note: string | null = null,
  ): void {
    this.statements.setVerification.run({
      id: Number(id),
      verification: verification === null ? null : JSON.stringify(verification),
      problem,
      note,
    });
  }

  /**
   * The service's history of a portal, read in full: what it lists is on the service, what it no
   * longer lists is not. Runs in one transaction with the inserts of entries new to this computer.
   */
  mergeHistory(
    accountId: string,
    portalId: string,
    listed: readonly ServiceAnswer[],
    now: string,
  ): void {
    this.db.transaction(() => {
      this.statements.markPortalHistory.run({ portalId });
      for (const answer of listed) {
        const known = this.byExport(portalId, answer.exportId);
        if (known) {
          this.statements.setOnService.run({ portalId, exportId: answer.exportId, onService: 1 });
          // A backup that was generating when last seen may have completed since.
          if (known.stage === 'on_service' && answer.completedTime && !known.completedTime) {
            this.setAnswer(known.id, { ...answer, stage: 'on_service', reused: known.reused });
          }
        } else {
          this.recordFromHistory({
            accountId,
            portalId,
            answer: { ...answer, stage: 'on_service' },
            createdAt: now,
          });
        }
      }
    })();
  }

  /** Removes a row (a failed request that never reached the service). */
  forget(id: string): void {
    this.statements.forget.run(Number(id));
  }

  /** The local file is gone; the row stays as the service's entry when the service holds one. */
  toServiceOnly(id: string): void {
    this.statements.toLocalOnly.run(Number(id));
  }

  schedule(portalId: string): StoredSchedule {
    const row = this.statements.schedule.get(portalId) as
      | {
          portal_id: string;
          frequency: BackupScheduleSpec['frequency'];
          hour: number;
          weekday: number;
          keep: number;
          set_at: string;
          last_run_at: string | null;
        }
      | undefined;
    if (!row) {
      return {
        portalId,
        frequency: 'off',
        hour: 2,
        weekday: 0,
        keep: KEEP_DEFAULT,
        setAt: new Date(0).toISOString(),
        lastRunAt: null,
      };
    }
    return {
      portalId: row.portal_id,
      frequency: row.frequency,
      hour: row.hour,
      weekday: row.weekday,
      keep: row.keep,
      setAt: row.set_at,
      lastRunAt: row.last_run_at,
    };
  }

  setSchedule(portalId: string, spec: BackupScheduleSpec, setAt: string): void {
    this.statements.setSchedule.run({ portalId, ...spec, setAt });
  }

  /** The mirrored portals (read only). */
  portals(): { id: string; accountId: string; name: string }[] {
    return this.statements.portals.all() as { id: string; accountId: string; name: string }[];
  }

  schedules(): StoredSchedule[] {
    return (this.statements.schedules.all() as { portal_id: string }[]).map((row) =>
      this.schedule(row.portal_id),
    );
  }

  /** When the schedule last ran; null puts it back to never. */
  scheduleRan(portalId: string, at: string | null): void {
    this.statements.scheduleRan.run({ portalId, at });
  }
}
