/**
 * Portal backups: what the `backups.*` requests do. Starts jobs (backupJob.ts) and goes on with
 * unfinished ones at start, merges the service's history with what is on disk, verifies and
 * deletes local files, keeps access codes in the keychain when asked, and runs schedules. Each
 * change is pushed as `backups.changed` at the event hub's rate.
 */
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type Database from 'better-sqlite3';
import {
  sameFileAgain,
  type ArchiveDiff,
  type BackupFailure,
  type BackupPortal,
  type BackupSnapshot,
  type BackupScheduleSpec,
  type BackupsOverview,
  type BackupView,
  type ReadCancelled,
} from '../../shared/ipc/areas/backups';
import { abortableSleep } from '../abortableSleep';
import { untilAborted } from '../untilAborted';
import type { ApiClient } from '../api/client/apiClient';
import type { ApiScheduler } from '../api/client/apiScheduler';
import { collectAll } from '../api/client/paginate';
import type { SecretStore } from '../auth/secretStore';
import type { EventPusher } from '../bridge/eventHub';
import type { Mirror } from '../store/mirror/mirror';
import { AccessCodeKeychain, type KeptCode } from './accessCodeKeychain';
import {
  anotherBackupProblem,
  DamagedArchiveError,
  NotABackupError,
  verifyArchive,
  WrongAccessCodeError,
} from './archiveVerify';
import { ArchiveNotReadableError, compareArchive } from './archiveCompare';
import { verificationOf } from './archiveComparison';
import type { FieldNames } from './archiveDiff';
import { nextRun } from './backupCalendar';
import { SnapshotPortalMissingError } from './backupSnapshot';
import { BackupSnapshots, BrowsingStopped } from './backupSnapshots';
import { backupRelativePath, BACKUPS_FOLDER, partFileOf, resolveBackupFile } from './backupFiles';
import {
  answerOf,
  JobStop,
  runBackup,
  verifyAndPlace,
  VerifyCancelled,
  type JobContext,
  type VerifyHandle,
} from './backupJob';
import { BackupRepository, type BackupRecord } from './backupRepository';
import { downloadRefusal } from './downloadRefusal';
import { DownloadLinks } from './downloadLinks';
import { fileDigest } from './fileDigest';
import { backupsToRemove } from './retention';
import { nextBackupAllowedAt, reuseNotice } from './reuseNotice';

/** Ours: how often schedules are looked at. */
export const SCHEDULE_TICK_MS = 60_000;

export interface BackupServiceOptions {
  db: Database.Database;
  dataDir: string;
  mirror: Mirror;
  clientFor(portalId: string): ApiClient | undefined;
  scheduler: ApiScheduler;
  secrets: SecretStore;
  events: EventPusher;
  log?: { warn(message: string): void };
  now?: () => Date;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  fetch?: typeof globalThis.fetch;
  /** Go on with unfinished backups and run schedules (default true; tests drive them). */
  autoStart?: boolean;
  /** The live mirror's database file: a browsed backup is read with its portal's metadata. */
  mirrorFile: string;
  /** better-sqlite3's binary for this runtime (Electron's), for the snapshot databases. */
  nativeBinding?: string;
}

/** Why a schedule cannot run for what the keychain said of its code; null when it can. */
function keptCodeScheduleProblem(kept: KeptCode): string | null {
  if (kept.state === 'none')
    return 'Scheduled backups need the access code kept in the keychain: back up once with "Keep the code" ticked.';
  if (kept.state === 'unreadable')
    return `Scheduled backups read the access code from the keychain, and the keychain could not be read (${kept.reason}). Unlock it: a due backup runs at the next look, within a minute.`;
  return null;
}

/** A user's request refused before anything happened; the message says why. */
export class BackupRefused extends Error {
  override name = 'BackupRefused';
}

export class BackupService {
  private readonly repo: BackupRepository;
  private readonly codes: AccessCodeKeychain;
  private readonly running = new Map<string, Promise<void>>();
  private readonly progress = new Map<
    string,
    { bytesPerSecond: number | null; etaSeconds: number | null }
  >();
  /** Verifications running now, by backup: their Cancel and how far they got (bytes inflated). */
  private readonly verifications = new Map<
    string,
    { cancel: AbortController; bytes: number; totalBytes: number }
  >();
  /** Comparisons running now, by backup: their Cancel, and their end. */
  private readonly comparisons = new Map<
    string,
    Set<{ cancel: AbortController; ended: Promise<void> }>
  >();
  /** Running jobs' Cancel (a download paused), by every row each job holds. */
  private readonly pauses = new Map<string, AbortController>();
  private readonly scheduleProblems = new Map<string, string>();
  /** Portals whose schedule waits for the service's 24-hour reuse to end (epoch ms). */
  private readonly notBefore = new Map<string, number>();
  private readonly closing = new AbortController();
  private readonly links = new DownloadLinks();
  private readonly context: JobContext;
  private readonly now: () => Date;
  private timer: NodeJS.Timeout | undefined;
  private startup: Promise<void> | null = null;
  /** The backup open for browsing in the records workspace, if any. */
  readonly snapshots: BackupSnapshots;

  constructor(private readonly options: BackupServiceOptions) {
    this.repo = new BackupRepository(options.db);
    this.codes = new AccessCodeKeychain(options.secrets);
    this.now = options.now ?? (() => new Date());
    this.context = {
      repo: this.repo,
      dataDir: options.dataDir,
      clientFor: options.clientFor,
      scheduler: options.scheduler,
      census: (portalId, since) => options.mirror.records.census(portalId, since),
      changed: (id, progress) => this.changed(id, progress),
      sleep: options.sleep ?? abortableSleep,
      now: this.now,
      fetch: options.fetch ?? globalThis.fetch.bind(globalThis),
      claim: (from, to) => this.claim(from, to),
      verifying: (id) => this.startVerifying(id),
    };
    this.snapshots = new BackupSnapshots({
      dataDir: options.dataDir,
      mirrorFile: options.mirrorFile,
      ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
    });
    if (options.autoStart ?? true) void this.start();
  }

  /** The folder backups are kept in. */
  get folder(): string {
    return path.join(this.options.dataDir, BACKUPS_FOLDER);
  }

  /**
   * Goes on with what a closed or killed app left unfinished, then runs schedules. Once per
   * service: a second call returns the first one's promise.
   */
  start(): Promise<void> {
    this.startup ??= this.resumeAndSchedule();
    return this.startup;
  }

  private async resumeAndSchedule(): Promise<void> {
    await this.codes.load(this.repo.portals().map((portal) => portal.id)).catch(() => undefined);
    // The engine may have closed (and its store with it) while the keychain answered.
    if (this.closed) return;
    for (const record of this.repo.unfinished()) {
      if (record.exportId === null) {
        // Closed before the service answered: it may or may not have started one.
        this.repo.setFailed(
          record.id,
          "PortalDesk was closed before the service answered this request. If the service started the backup, it appears in the portal's history: refresh it, or back up again.",
          'retry',
        );
        this.changed(record.id);
        continue;
      }
      const { code, keychainProblem } = await this.codeForJob(record.portalId);
      if (this.closed) return;
      this.launch(record.id, code, undefined, keychainProblem);
    }
    this.timer = setInterval(() => void this.runSchedules(), SCHEDULE_TICK_MS);
    this.timer.unref?.();
    void this.runSchedules();
  }

  /**
   * Every portal with its schedule, and every backup. A portal mirrored since the start (or since
   * the last look) is asked about in the keychain first: it would say no code is kept otherwise.
   */
  async overview(): Promise<BackupsOverview> {
    await this.readNewPortals();
    const portals = this.portalsView();
    const names = new Map(portals.map((portal) => [portal.portalId, portal.portalName]));
    return {
      folder: this.folder,
      portals,
      backups: this.repo.all().map((record) => this.viewOf(record, names)),
    };
  }

  /** Starts a backup of each portal; the access code lives only as long as the jobs need it. */
  async startBackups(args: {
    portalIds: string[];
    accessCode: string;
    attachmentNeeded: boolean;
    keepCode: boolean;
  }): Promise<BackupView[]> {
    const known = new Map(this.repo.portals().map((portal) => [portal.id, portal]));
    const portalIds = [...new Set(args.portalIds)];
    for (const portalId of portalIds) {
      if (!known.has(portalId))
        throw new BackupRefused(`Portal ${portalId} is not mirrored here; nothing was started.`);
      if (!this.options.clientFor(portalId)) {
        throw new BackupRefused(
          `The account that reaches ${known.get(portalId)!.name} is signed out; sign in again. Nothing was started.`,
        );
      }
    }
    if (args.keepCode) {
      // Kept before anything starts: a keychain that refuses means no backup is half set up,
      // and the portals whose code was already replaced get their earlier one back.
      const replaced: { portalId: string; earlier: string | null }[] = [];
      for (const portalId of portalIds) {
        try {
          // A keychain that cannot be read is one that cannot be trusted to be put back.
          const earlier = await this.codes.get(portalId);
          await this.codes.keep(portalId, args.accessCode);
          replaced.push({ portalId, earlier });
        } catch (error) {
          for (const { portalId: done, earlier } of replaced) {
            await (
              earlier === null ? this.codes.forget(done) : this.codes.keep(done, earlier)
            ).catch(() => undefined);
          }
          throw new BackupRefused(
            `The access code could not be kept in the keychain (${error instanceof Error ? error.message : String(error)}). Nothing was started; untick "Keep the code" or enable a keychain.`,
          );
        }
      }
    }
    const views: BackupView[] = [];
    for (const portalId of portalIds) {
      const record = this.repo.create({
        accountId: known.get(portalId)!.accountId,
        portalId,
        attachmentNeeded: args.attachmentNeeded,
        scheduled: false,
        createdAt: this.now().toISOString(),
      });
      this.launch(record.id, args.accessCode);
      views.push(this.viewOf(record));
    }
    return views;
  }

  /** The service's history of a portal, every page, merged with the rows here. */
  async refreshHistory(portalId: string): Promise<BackupsOverview> {
    const portal = this.portal(portalId);
    if (!portal) throw new BackupRefused(`Portal ${portalId} is not mirrored here.`);
    const client = this.options.clientFor(portalId);
    if (!client)
      throw new BackupRefused(
        `The account that reaches ${portal.name} is signed out; sign in to read its history.`,
      );
    const history = await collectAll(
      client.listBackupHistory,
      { portal_id: portalId },
      { priority: 'visible' },
    );
    this.repo.mergeHistory(
      portal.accountId,
      portalId,
      history.map((backup) => answerOf(backup, false)),
      this.now().toISOString(),
    );
    this.changed(null, undefined, portalId);
    return this.overview();
  }

  /** Downloads a backup the service holds (or goes on with a failed one), then verifies it. */
  async download(id: string, accessCode: string | undefined): Promise<BackupView> {
    /** The backup as it is now, or null when a job already works on it. */
    const downloadable = (): BackupRecord | null => {
      const record = this.require(id);
      if (this.running.has(id)) return null;
      const refused = downloadRefusal(record);
      if (refused !== null) throw new BackupRefused(refused);
      return record;
    };
    const record = downloadable();
    if (!record) return this.viewOf(this.require(id));
    const { code, keychainProblem } =
      accessCode === undefined
        ? await this.codeForJob(record.portalId)
        : { code: accessCode, keychainProblem: null };
    // The keychain was waited for: another request may have downloaded (or deleted) it meanwhile,
    // and a ready backup set back to generating would be downloaded again and wait for a code.
    if (!downloadable()) return this.viewOf(this.require(id));
    this.repo.setStage(id, 'generating');
    this.launch(id, code, undefined, keychainProblem);
    return this.viewOf(this.repo.get(id)!);
  }

  /**
   * Verifies a backup again (a ready file: its SHA-256 first, then every entry) or for the first
   * time (a download waiting for its code). A wrong code changes nothing and says so.
   */
  async verify(id: string, accessCode: string | undefined): Promise<BackupView> {
    let record = this.require(id);
    const busy = () =>
      new BackupRefused('This backup is still being worked on; wait for it to finish.');
    if (this.running.has(id)) throw busy();
    const code = accessCode ?? (await this.keptCode(record.portalId));
    // The keychain was waited for: another request may have started or deleted meanwhile.
    if (this.running.has(id)) throw busy();
    record = this.require(id);
    if (record.stage === 'needs_code') {
      try {
        await this.runJob(id, async () => {
          try {
            await verifyAndPlace(this.context, record, code, null, {
              signal: this.closing.signal,
            });
          } catch (error) {
            if (!(error instanceof VerifyCancelled)) throw error;
            // Cancelled: the download waits, kept, and says so (a note: the user asked for it);
            // said within the job, so a cancel that waits for the job's end sees it.
            this.repo.setStage(id, 'needs_code', null, error.message);
          }
        });
      } catch (error) {
        if (this.closed)
          throw new BackupRefused('PortalDesk is closing; verify again after it starts.');
        if (!(error instanceof JobStop)) {
          // Not a verdict on the backup (the disk, the file system): the download waits as it was.
          this.repo.setStage(id, 'needs_code', record.problem);
          this.changed(id);
          throw new BackupRefused(
            `The backup could not be verified: ${error instanceof Error ? error.message : String(error)}. The download is kept; try again.`,
          );
        }
        // A wrong code changes nothing: the download waits for the right one, as before.
        if (error.stage === 'needs_code') this.repo.setStage(id, 'needs_code', record.problem);
        else this.repo.setFailed(id, error.message, error.failure);
        this.changed(id);
        throw new BackupRefused(error.message);
      }
      return this.viewOf(this.repo.get(id)!);
    }
    if (record.stage !== 'ready' || !record.file)
      throw new BackupRefused('Only a downloaded backup can be verified.');
    const file = resolveBackupFile(this.options.dataDir, record.file);
    if (!file)
      throw new BackupRefused(
        "This backup's file name is not one PortalDesk writes; it was not opened.",
      );
    // Held as a job while it reads the file: a delete (or retention) meanwhile is refused
    // instead of removing the file under the check and then seeing its verdict land on the row.
    await this.runJob(id, () => this.verifyReady(record, file, code));
    return this.viewOf(this.repo.get(id)!);
  }

  /**
   * Verifies a ready backup's file again: its SHA-256, then every entry. Cancelled, the file and
   * its earlier verification stay as they were, and the backup says so.
   */
  private async verifyReady(record: BackupRecord, file: string, code: string): Promise<void> {
    const { id } = record;
    const verifying = this.startVerifying(id);
    const cancelled = () => {
      if (!verifying.signal.aborted) return false;
      // A note, not a problem: the user asked for it, and nothing is wrong with the file.
      this.repo.setVerification(
        id,
        record.verification,
        null,
        'Verification cancelled. The file is kept unchanged, and its earlier verification (if any) stands; choose Verify to check it again any time.',
      );
      this.changed(id);
      return true;
    };
    let digest;
    try {
      digest = await fileDigest(file, verifying.signal);
    } catch (error) {
      if (cancelled()) return;
      this.condemn(id, `The backup file cannot be read: ${(error as Error).message}.`);
      throw new BackupRefused(
        `The backup file cannot be read (${(error as Error).message}). It may have been moved or deleted outside PortalDesk.`,
      );
    }
    if (record.sha256 && digest.sha256 !== record.sha256) {
      const problem =
        'The file changed since it was downloaded (its SHA-256 differs): it is not the backup the service made. Download it again.';
      this.condemn(id, problem);
      throw new BackupRefused(problem);
    }
    let check;
    try {
      check = await verifyArchive(file, code, {
        signal: verifying.signal,
        onProgress: verifying.progress,
      });
    } catch (error) {
      if (cancelled()) return;
      if (error instanceof WrongAccessCodeError) throw new BackupRefused(error.message);
      if (error instanceof DamagedArchiveError) {
        this.condemn(
          id,
          error.message,
          error instanceof NotABackupError ? 'not_a_backup' : 'retry',
        );
        throw new BackupRefused(error.message);
      }
      throw error;
    }
    const other = anotherBackupProblem(check, record);
    if (other) {
      this.condemn(id, other, 'another_backup');
      throw new BackupRefused(other);
    }
    const since = record.completedTime ?? record.requestedTime ?? record.createdAt;
    const verification = verificationOf(
      check,
      this.options.mirror.records.census(record.portalId, since),
      this.now().toISOString(),
    );
    this.repo.setVerification(id, verification, null);
    this.changed(id);
  }

  /**
   * The code kept for a job that may go on without one (it downloads, then waits for a code):
   * null when none is kept, or null with the keychain's words when it could not be read.
   */
  private async codeForJob(
    portalId: string,
  ): Promise<{ code: string | null; keychainProblem: string | null }> {
    try {
      return { code: await this.codes.get(portalId), keychainProblem: null };
    } catch (error) {
      return {
        code: null,
        keychainProblem: error instanceof Error ? error.message : String(error),
      };
    }
  }

  /**
   * The code kept for the portal; refused in words when none is kept, or when the keychain cannot
   * be read (locked), which is not the same thing.
   */
  private async keptCode(portalId: string): Promise<string> {
    let kept: string | null;
    try {
      kept = await this.codes.get(portalId);
    } catch (error) {
      throw new BackupRefused(
        `The keychain could not be read (${error instanceof Error ? error.message : String(error)}). Unlock it, or enter the access code.`,
      );
    }
    if (kept === null)
      throw new BackupRefused('Enter the access code: none is kept for this portal.');
    return kept;
  }

  /**
   * A ready backup that failed its check is no backup any more: not offered for download, drag
   * or retention, its old verification gone; the file stays until deleted or downloaded again.
   */
  private condemn(id: string, problem: string, failure: BackupFailure = 'retry'): void {
    this.repo.setVerification(id, null, null);
    if (failure === 'another_backup') {
      this.repo.setFailed(
        id,
        `${problem} It is no longer offered as this backup, and nothing else was changed: the file stays until you Delete it. Downloading it again would fetch the same file from the service: make a new backup, and if that one brings another backup's file too, report it to the service's support.`,
        'another_backup',
      );
    } else if (failure === 'not_a_backup') {
      this.repo.setFailed(
        id,
        `${problem} It is no longer offered as a backup. Downloading it again would fetch the same file from the service: make a new backup, and if the new one is refused the same way, contact the service's support; Delete removes this file.`,
        'not_a_backup',
      );
    } else {
      this.repo.setFailed(
        id,
        `${problem} It is no longer offered as a backup: choose Try again to download it anew, or Delete.`,
        'retry',
      );
    }
    this.changed(id);
  }

  /**
   * What differs between a ready backup and the mirror now, per module and field; or, cancelled
   * (`cancelCompare`), that it was: nothing is kept of a comparison, so nothing was changed.
   */
  async compare(id: string, accessCode: string | undefined): Promise<ArchiveDiff | ReadCancelled> {
    const record = this.require(id);
    const file = this.fileOf(id);
    if (!file) throw new BackupRefused('Only a downloaded, verified backup can be compared.');
    let ended = () => undefined as void;
    const running = {
      cancel: new AbortController(),
      ended: new Promise<void>((resolve) => (ended = resolve)),
    };
    const all = this.comparisons.get(id) ?? new Set();
    this.comparisons.set(id, all.add(running));
    const cancelled = (): ReadCancelled => ({
      cancelled:
        'Comparison cancelled. Nothing was changed; choose Compare with mirror to compare again.',
    });
    try {
      // The keychain may wait (to be unlocked) for minutes: a Cancel does not wait for it.
      const code =
        accessCode ?? (await untilAborted(this.keptCode(record.portalId), running.cancel.signal));
      if (running.cancel.signal.aborted) return cancelled();
      return await this.compareNow(record, file, code, running.cancel.signal);
    } catch (error) {
      if (running.cancel.signal.aborted) return cancelled();
      if (this.closed)
        throw new BackupRefused('PortalDesk is closing; compare again after it starts.');
      throw error;
    } finally {
      all.delete(running);
      if (all.size === 0) this.comparisons.delete(id);
      ended();
    }
  }

  /**
   * Cancels the comparisons of `id` running now and resolves once they have stopped (within the
   * chunk they read); false when none ran.
   */
  async cancelCompare(id: string): Promise<boolean> {
    this.require(id);
    const running = [...(this.comparisons.get(id) ?? [])];
    for (const comparison of running)
      comparison.cancel.abort(new Error('The comparison was cancelled.'));
    await Promise.all(running.map((comparison) => comparison.ended));
    return running.length > 0;
  }

  private async compareNow(
    record: BackupRecord,
    file: string,
    code: string,
    cancel: AbortSignal,
  ): Promise<ArchiveDiff> {
    const { metadata, records } = this.options.mirror;
    const modules = new Map(metadata.modules(record.portalId).map((m) => [m.apiName, m]));
    const fieldsOf = new Map<string, FieldNames>();
    try {
      return await compareArchive(
        file,
        code,
        record.portalId,
        {
          copy: (recordId) => records.serverCopy(record.portalId, recordId),
          listed: () => records.listedServerIds(record.portalId),
          module: (apiName) => {
            const module = modules.get(apiName);
            if (!module) return undefined;
            let fields = fieldsOf.get(apiName);
            if (!fields) {
              const byName = new Map(
                metadata
                  .fields(record.portalId, module.id)
                  .map((field) => [
                    field.apiName,
                    { type: field.fieldType, label: field.displayName },
                  ]),
              );
              fields = { custom: (name) => byName.get(name) };
              fieldsOf.set(apiName, fields);
            }
            return { label: module.pluralName, fields };
          },
        },
        this.now(),
        { signal: AbortSignal.any([cancel, this.closing.signal]) },
      );
    } catch (error) {
      if (
        error instanceof WrongAccessCodeError ||
        error instanceof DamagedArchiveError ||
        error instanceof ArchiveNotReadableError
      ) {
        throw new BackupRefused(error.message);
      }
      throw error;
    }
  }

  /**
   * Opens a verified backup for browsing: its records are read into a snapshot (progress pushed
   * as `backups.browseProgress`), which the records requests then read when named.
   */
  async browse(
    id: string,
    accessCode: string | undefined,
  ): Promise<BackupSnapshot | ReadCancelled> {
    const record = this.require(id);
    const file = this.fileOf(id);
    if (!file) throw new BackupRefused('Only a downloaded, verified backup can be browsed.');
    if (record.verification && !record.verification.readable) {
      throw new BackupRefused(
        'PortalDesk verified this backup but does not know its layout, so its records cannot be browsed.',
      );
    }
    const portal = this.portal(record.portalId);
    if (!portal) {
      throw new BackupRefused(
        `Portal ${record.portalId} is no longer in the mirror, so its backup has no fields or statuses to be shown with. Sign in to the portal again and let it sync, then browse the backup.`,
      );
    }
    let open;
    try {
      open = await this.snapshots.open({
        backupId: id,
        portalId: record.portalId,
        archive: file,
        // Asked within the opening, so that its Cancel (closeBrowse) stops the keychain's wait too.
        password: () =>
          accessCode === undefined ? this.keptCode(record.portalId) : Promise.resolve(accessCode),
        onProgress: (records) =>
          this.options.events.push('backups.browseProgress', `browse:${id}`, () => ({
            id,
            records,
          })),
      });
    } catch (error) {
      // Stopped while it read: what was read is deleted (backupSnapshots.ts); nothing was kept.
      if (error instanceof BrowsingStopped) {
        if (error.why === 'closing')
          throw new BackupRefused(
            'PortalDesk is closing; browse the backup again after it starts.',
          );
        return {
          cancelled:
            error.why === 'closed'
              ? 'Browsing cancelled. Nothing of the backup was kept; choose Browse records to open it again.'
              : 'Browsing this backup stopped: another backup was opened for browsing (one at a time). Nothing of this one was kept; choose Browse records to open it again.',
        };
      }
      if (
        error instanceof WrongAccessCodeError ||
        error instanceof DamagedArchiveError ||
        error instanceof ArchiveNotReadableError ||
        error instanceof SnapshotPortalMissingError
      ) {
        throw new BackupRefused(error.message);
      }
      throw error;
    }
    const { summary } = open;
    return {
      backupId: id,
      portalId: record.portalId,
      portalName: portal.name,
      madeAt: summary.generatedAt ?? record.completedTime ?? record.requestedTime,
      records: summary.records,
      trashed: summary.trashed,
      skippedModules: summary.skippedModules,
      unreadable: summary.unreadable,
    };
  }

  /** Stops browsing `id`: its snapshot is closed and deleted. */
  closeBrowse(id: string): void {
    this.snapshots.close(id);
  }

  /** Deletes the local file (and any partial download); the service's copy is untouched. */
  async delete(id: string): Promise<void> {
    const record = this.require(id);
    if (this.running.has(id))
      throw new BackupRefused(
        'This backup is still being downloaded or verified; wait for it to finish.',
      );
    // Held as a job while its files go: a download or a verification asked for meanwhile is
    // refused (or finds the backup gone) instead of writing or reading them as they are removed.
    await this.runJob(id, () => this.deleteNow(record));
  }

  private async deleteNow(record: BackupRecord): Promise<void> {
    const { id } = record;
    this.snapshots.close(id);
    const file = record.file ? resolveBackupFile(this.options.dataDir, record.file) : null;
    if (file) await rm(file, { force: true });
    if (record.exportId) {
      const madeAt = record.completedTime ?? record.requestedTime ?? record.createdAt;
      let named: string | null = null;
      try {
        named = resolveBackupFile(
          this.options.dataDir,
          backupRelativePath(record.portalId, madeAt, record.exportId),
        );
      } catch {
        named = null;
      }
      // The partial download, and the file under its final name even when the row never got it
      // (killed between the rename and the row, then waiting for a code that was not kept).
      if (named) {
        await rm(partFileOf(named), { force: true });
        await rm(named, { force: true });
      }
    }
    if (record.onService) this.repo.toServiceOnly(id);
    else this.repo.forget(id);
    this.changed(id, undefined, record.portalId);
  }

  async setSchedule(portalId: string, spec: BackupScheduleSpec): Promise<BackupPortal> {
    if (!this.portal(portalId)) {
      throw new BackupRefused(`Portal ${portalId} is not mirrored here.`);
    }
    this.repo.setSchedule(portalId, spec, this.now().toISOString());
    this.scheduleProblems.delete(portalId);
    this.notBefore.delete(portalId);
    this.changed(null, undefined, portalId);
    return this.portalView(portalId);
  }

  /**
   * Cancels the verification of `id` running now, if any, and resolves once it has stopped: the
   * file is kept as it was. Nothing running: the backup as it is, nothing changed.
   */
  async cancelVerify(id: string): Promise<BackupView> {
    this.require(id);
    const verification = this.verifications.get(id);
    if (verification) {
      verification.cancel.abort(new Error('The verification was cancelled.'));
      await this.running.get(id)?.catch(() => undefined);
    }
    return this.viewOf(this.require(id));
  }

  /**
   * Cancels the download of `id` running now, if any, and resolves once it has stopped (at once:
   * the transfer is aborted): what arrived is kept in its partial file, the backup is `paused` and
   * says so, and Download resumes it. Cancelled as it was being verified, the verification stops
   * as cancelled. Nothing running: the backup as it is, nothing changed.
   */
  async cancelDownload(id: string): Promise<BackupView> {
    this.require(id);
    const pause = this.pauses.get(id);
    if (pause) {
      pause.abort(new Error('The download was cancelled.'));
      await this.running.get(id)?.catch(() => undefined);
    }
    return this.viewOf(this.require(id));
  }

  /** A verification of `id` starts; it is forgotten when its job ends (runJob). */
  private startVerifying(id: string): VerifyHandle {
    const verification = { cancel: new AbortController(), bytes: 0, totalBytes: 0 };
    this.verifications.set(id, verification);
    this.changed(id);
    return {
      signal: verification.cancel.signal,
      progress: (bytes, totalBytes) => {
        verification.bytes = bytes;
        verification.totalBytes = totalBytes;
        this.changed(id);
      },
    };
  }

  /** Asks the keychain again for a portal's code (it was locked): the portal's view after. */
  async readKeychain(portalId: string): Promise<BackupPortal> {
    if (!this.portal(portalId)) throw new BackupRefused(`Portal ${portalId} is not mirrored here.`);
    // A keychain still locked is remembered as such, and its words shown with the portal.
    await this.codes.get(portalId).catch(() => undefined);
    this.changed(null, undefined, portalId);
    return this.portalView(portalId);
  }

  async forgetCode(portalId: string): Promise<BackupPortal> {
    try {
      await this.codes.forget(portalId);
    } catch (error) {
      throw new BackupRefused(
        `The access code could not be removed from the keychain (${error instanceof Error ? error.message : String(error)}); it is still kept. Unlock the keychain and try again.`,
      );
    }
    this.changed(null, undefined, portalId);
    return this.portalView(portalId);
  }

  /** The absolute path of a ready backup's file, checked again; null when it is not one. */
  fileOf(id: string): string | null {
    const record = this.repo.get(id);
    if (!record || record.stage !== 'ready' || !record.file) return null;
    return resolveBackupFile(this.options.dataDir, record.file);
  }

  /** Web mode: a link to a ready backup's file, by a token that names only it. */
  downloadLink(id: string): { path: string; fileName: string; expiresAt: string } {
    const file = this.fileOf(id);
    if (!file)
      throw new BackupRefused('This backup has no verified file on this computer to download.');
    return { ...this.links.mint(id), fileName: path.basename(file) };
  }

  /** The file a download link's token opens, checked again now; null when it opens nothing. */
  resolveDownload(token: string): { file: string; fileName: string } | null {
    const id = this.links.resolve(token);
    const file = id === null ? null : this.fileOf(id);
    return file ? { file, fileName: path.basename(file) } : null;
  }

  /**
   * The mirror's portals changed (a sync ended, an account came or went): views read again, and
   * once more after the keychain said what a portal new here keeps.
   */
  portalsChanged(): void {
    this.changed(null);
    const unasked = this.repo.portals().filter((portal) => !this.codes.asked(portal.id));
    if (unasked.length === 0) return;
    void this.readNewPortals().then(() => {
      if (!this.closed) for (const portal of unasked) this.changed(null, undefined, portal.id);
    });
  }

  /** Asks the keychain about the mirrored portals it was never asked about. */
  private async readNewPortals(): Promise<void> {
    if (this.closed) return;
    const unasked = this.repo.portals().filter((portal) => !this.codes.asked(portal.id));
    if (unasked.length > 0) await this.codes.load(unasked.map((portal) => portal.id));
  }

  /** Resolves when every job has ended (tests). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running.values()]);
  }

  /** Closed with the engine: nothing touches the store after this. */
  private get closed(): boolean {
    return this.closing.signal.aborted;
  }

  close(): void {
    clearInterval(this.timer);
    this.snapshots.dispose();
    this.closing.abort(new Error('PortalDesk is closing'));
  }

  /** The look at the schedules in progress, if any. */
  private looking: Promise<void> | null = null;

  /**
   * Looks at every schedule: runs what is due, notes what cannot run. One look at a time: a look
   * waits for the keychain, and a second one meanwhile (the next tick while the keychain asks to
   * be unlocked) would start the same slot's backup again, which the service answers with the
   * first one: the slot would be taken for a reused one and put back.
   */
  runSchedules(): Promise<void> {
    this.looking ??= this.lookAtSchedules().finally(() => {
      this.looking = null;
    });
    return this.looking;
  }

  private async lookAtSchedules(): Promise<void> {
    const now = this.now();
    if (this.closed) return;
    for (const schedule of this.repo.schedules()) {
      if (this.closed) return;
      if (schedule.frequency === 'off') continue;
      const due = nextRun(
        schedule,
        schedule.lastRunAt ? new Date(schedule.lastRunAt) : null,
        new Date(schedule.setAt),
        now,
      );
      if (!due || due.at.getTime() > now.getTime()) continue;
      if ((this.notBefore.get(schedule.portalId) ?? 0) > now.getTime()) continue;
      if ([...this.running.keys()].some((id) => this.repo.get(id)?.portalId === schedule.portalId))
        continue;
      // A keychain that cannot be read (locked, its service down) is not one without a code.
      const code = await this.codes.get(schedule.portalId).then(
        (kept) => ({ kept }),
        (error: unknown) => ({ failed: error instanceof Error ? error.message : String(error) }),
      );
      if (this.closed) return;
      const portal = this.portal(schedule.portalId);
      if (!portal) continue;
      if ('failed' in code) {
        this.scheduleProblems.set(
          schedule.portalId,
          `A scheduled backup is due, but the keychain could not be read (${code.failed}). Unlock it: the backup runs at the next look, within a minute.`,
        );
        this.changed(null, undefined, schedule.portalId);
        continue;
      }
      if (!code.kept) {
        this.scheduleProblems.set(
          schedule.portalId,
          'A scheduled backup is due, but no access code is kept for this portal: back up once with "Keep the code in the keychain" ticked.',
        );
        this.changed(null, undefined, schedule.portalId);
        continue;
      }
      if (!this.options.clientFor(schedule.portalId)) {
        this.scheduleProblems.set(
          schedule.portalId,
          'A scheduled backup is due, but the account that reaches this portal is signed out.',
        );
        this.changed(null, undefined, schedule.portalId);
        continue;
      }
      this.scheduleProblems.delete(schedule.portalId);
      this.repo.scheduleRan(schedule.portalId, now.toISOString());
      const record = this.repo.create({
        accountId: portal.accountId,
        portalId: schedule.portalId,
        attachmentNeeded: false,
        scheduled: true,
        createdAt: now.toISOString(),
      });
      this.launch(record.id, code.kept, {
        ready: () => this.applyRetention(schedule.portalId, schedule.keep),
        ended: () => this.afterScheduledRun(record.id, schedule.portalId, schedule.lastRunAt),
      });
    }
  }

  /**
   * A scheduled request the service answered with a backup it made within the last 24 hours is
   * not this slot's backup: the slot stays due and is tried again once the service makes new
   * ones, instead of being skipped until tomorrow.
   */
  private afterScheduledRun(id: string, portalId: string, previousRun: string | null): void {
    const row = this.repo.get(id);
    if (row && !row.reused) return;
    const reusedRow = row ?? this.latestOfService(portalId);
    const retryAt = reusedRow ? nextBackupAllowedAt(reusedRow) : null;
    this.repo.scheduleRan(portalId, previousRun);
    const at = retryAt ?? new Date(this.now().getTime() + 3_600_000);
    this.notBefore.set(portalId, at.getTime() + 60_000);
    this.scheduleProblems.set(
      portalId,
      `The scheduled backup found the service's backup from the last 24 hours; it runs again after ${at.toLocaleString()}, when the service makes new ones.`,
    );
    this.changed(null, undefined, portalId);
  }

  /** The portal's most recently made backup the service answered about. */
  private latestOfService(portalId: string): BackupRecord | undefined {
    return this.repo
      .ofPortal(portalId)
      .filter(
        (record) => record.exportId !== null && (record.completedTime ?? record.requestedTime),
      )
      .sort((a, b) =>
        (b.completedTime ?? b.requestedTime)!.localeCompare((a.completedTime ?? a.requestedTime)!),
      )[0];
  }

  private async applyRetention(portalId: string, keep: number): Promise<void> {
    const scheduled = this.repo.ofPortal(portalId).filter((record) => record.scheduled);
    const remove = backupsToRemove(
      scheduled.map((record) => {
        const file = record.file ? resolveBackupFile(this.options.dataDir, record.file) : null;
        return {
          id: record.id,
          stage: record.stage,
          onDisk: file !== null && existsSync(file),
          madeAt: record.completedTime ?? record.requestedTime ?? record.createdAt,
        };
      }),
      keep,
    );
    for (const id of remove)
      await this.delete(id).catch((error: unknown) =>
        this.options.log?.warn(`Retention could not delete backup ${id}: ${String(error)}`),
      );
  }

  private launch(
    id: string,
    code: string | null,
    after?: { ready?: () => Promise<void>; ended?: () => void },
    keychainProblem: string | null = null,
  ): void {
    // One job per backup: two would write the same temporary file.
    if (this.running.has(id)) return;
    const pause = new AbortController();
    void this.runJob(
      id,
      async () => {
        await runBackup(this.context, id, code, {
          signal: this.closing.signal,
          pause: pause.signal,
          keychainProblem,
        });
        if (this.closed) return;
        after?.ended?.();
        if (after?.ready && this.repo.get(id)?.stage === 'ready') await after.ready();
      },
      pause,
    ).catch((error: unknown) => this.options.log?.warn(`Backup ${id}: ${String(error)}`));
  }

  /** The rows each running job holds (more than one once the service answered with a known one). */
  private readonly jobRows = new Map<string, Set<string>>();

  /** Runs `job` holding the row `id`; `pause` is its Cancel, when it can be cancelled. */
  private runJob(id: string, job: () => Promise<void>, pause?: AbortController): Promise<void> {
    const rows = new Set([id]);
    if (pause) this.pauses.set(id, pause);
    const running = job().finally(() => {
      for (const row of rows) {
        this.running.delete(row);
        this.jobRows.delete(row);
        this.pauses.delete(row);
        this.progress.delete(row);
        this.verifications.delete(row);
        this.changed(row);
      }
    });
    this.running.set(id, running);
    this.jobRows.set(id, rows);
    return running;
  }

  /** Moves a running job on to the row `to`, unless another job holds it. */
  private claim(from: string, to: string): boolean {
    const job = this.running.get(from);
    const rows = this.jobRows.get(from);
    if (this.running.has(to) || !job || !rows) return false;
    rows.add(to);
    this.running.set(to, job);
    this.jobRows.set(to, rows);
    const pause = this.pauses.get(from);
    if (pause) this.pauses.set(to, pause);
    return true;
  }

  private require(id: string): BackupRecord {
    const record = this.repo.get(id);
    if (!record)
      throw new BackupRefused(`Backup ${id} does not exist (deleted, or never made here).`);
    return record;
  }

  private changed(
    id: string | null,
    progress?: { bytesPerSecond: number | null; etaSeconds: number | null },
    portalId: string | null = null,
  ): void {
    if (progress && id) this.progress.set(id, progress);
    this.options.events.push('backups.changed', id ?? `portal:${portalId}`, () => {
      const record = id ? this.repo.get(id) : undefined;
      return {
        backup: record ? this.viewOf(record) : null,
        portalId: record?.portalId ?? portalId,
      };
    });
  }

  /**
   * One mirrored portal by its id (the mirror's own lookup): views are built on every push, and
   * reading the whole portals list for one name there was a query per progress tick.
   */
  private portal(portalId: string): { id: string; accountId: string; name: string } | undefined {
    return this.options.mirror.metadata.portal(portalId);
  }

  private portalsView(): BackupPortal[] {
    return this.repo.portals().map((portal) => this.portalView(portal.id, portal));
  }

  private portalView(
    portalId: string,
    known?: { id: string; accountId: string; name: string },
  ): BackupPortal {
    const portal = known ?? this.portal(portalId);
    const schedule = this.repo.schedule(portalId);
    const spec: BackupScheduleSpec = {
      frequency: schedule.frequency,
      hour: schedule.hour,
      weekday: schedule.weekday,
      keep: schedule.keep,
    };
    const next = nextRun(
      spec,
      schedule.lastRunAt ? new Date(schedule.lastRunAt) : null,
      new Date(schedule.setAt),
      this.now(),
    );
    const kept = this.codes.state(portalId);
    return {
      portalId,
      portalName: portal?.name ?? portalId,
      accountId: portal?.accountId ?? '',
      available: this.options.clientFor(portalId) !== undefined,
      accessCode: kept.state,
      keychainProblem: kept.state === 'unreadable' ? kept.reason : null,
      schedule: spec,
      nextRun: next ? next.at.toISOString() : null,
      scheduleProblem:
        this.scheduleProblems.get(portalId) ??
        (spec.frequency === 'off' ? null : keptCodeScheduleProblem(kept)),
    };
  }

  private viewOf(record: BackupRecord, names?: Map<string, string>): BackupView {
    const progress = this.progress.get(record.id);
    const verification = this.verifications.get(record.id);
    const portalName =
      names?.get(record.portalId) ?? this.portal(record.portalId)?.name ?? record.portalId;
    const file =
      record.stage === 'ready' && record.file
        ? resolveBackupFile(this.options.dataDir, record.file)
        : null;
    return {
      id: record.id,
      accountId: record.accountId,
      portalId: record.portalId,
      portalName,
      exportId: record.exportId,
      stage: record.stage,
      attachmentNeeded: record.attachmentNeeded,
      reused: record.reused,
      notice: reuseNotice(record, this.now()),
      requestedTime: record.requestedTime,
      completedTime: record.completedTime,
      requestedBy: record.requestedBy,
      scheduled: record.scheduled,
      bytes: record.downloadedBytes,
      totalBytes: record.totalBytes,
      bytesPerSecond: record.stage === 'downloading' ? (progress?.bytesPerSecond ?? null) : null,
      etaSeconds: record.stage === 'downloading' ? (progress?.etaSeconds ?? null) : null,
      verifying: verification
        ? { bytes: verification.bytes, totalBytes: verification.totalBytes }
        : null,
      resumed: record.resumed,
      sha256: record.sha256,
      file,
      verification: record.verification,
      onService: record.onService,
      problem: record.problem,
      failure: record.failure,
      newBackupFrom: sameFileAgain(record.failure) ? this.newBackupFrom(record) : null,
      note: record.note,
    };
  }

  /**
   * Until when the service's 24-hour reuse returns this backup instead of making a new one (ISO),
   * or null when a new one can be made now or the service never said when it was made.
   */
  private newBackupFrom(record: BackupRecord): string | null {
    const at = nextBackupAllowedAt(record);
    return at && at.getTime() > this.now().getTime() ? at.toISOString() : null;
  }
}
