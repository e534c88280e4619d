/**
 * One backup from request to file: ask the service (or take the 24-hour reuse it answers with),
 * wait while it generates, download into `<file>.part` (resuming after cuts), verify with the
 * access code, and only then rename it to its final name. Each step records its stage first, so
 * a run that was stopped (app quit, kill -9) goes on from where it was at the next start. Every
 * call goes through the app's one request scheduler: API calls through the API client, the
 * download through `scheduleDownload` with its own endpoint key.
 */
import { access, mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { BackupExport } from '@portaldesk/portal-api/domain/backupExport';
import { sameFileAgain, type BackupFailure } from '../../shared/ipc/areas/backups';
import type { ApiClient } from '../api/client/apiClient';
import { ApiError } from '../api/client/apiError';
import type { ApiScheduler } from '../api/client/apiScheduler';
import { formatBytes } from '../../shared/formatBytes';
import { downloadAttempt, DownloadFailure } from './archiveDownload';
import { verificationOf, type MirrorCensus } from './archiveComparison';
import {
  anotherBackupProblem,
  DamagedArchiveError,
  NotABackupError,
  verifyArchive,
  WrongAccessCodeError,
} from './archiveVerify';
import {
  backupRelativePath,
  downloadUrlProblem,
  partFileOf,
  resolveBackupFile,
} from './backupFiles';
import { fileDigest } from './fileDigest';
import type { BackupRecord, BackupRepository, ServiceAnswer } from './backupRepository';
import { nextBackupAllowedAt } from './reuseNotice';
import { TransferRate } from './transferRate';

/** Ours: status polls while the service generates, from every 2 s up to every 15 s. */
export const POLL_FIRST_MS = 2_000;
export const POLL_MAX_MS = 15_000;
/** Ours: status checks before a generation that never ends is given up (about 6 hours at most). */
export const GENERATION_POLLS_MAX = 1_500;
/** Ours: cut downloads are resumed this many times in a row before the backup fails. */
export const DOWNLOAD_ATTEMPTS = 6;

export interface JobContext {
  repo: BackupRepository;
  dataDir: string;
  /** The API client of the account that reaches the portal; undefined when signed out. */
  clientFor(portalId: string): ApiClient | undefined;
  scheduler: ApiScheduler;
  census(portalId: string, since: string): MirrorCensus[];
  /** A stage or progress changed: the view is pushed (at the event's rate). */
  changed(
    id: string,
    progress?: { bytesPerSecond: number | null; etaSeconds: number | null },
  ): void;
  sleep(ms: number, signal: AbortSignal): Promise<void>;
  /**
   * This job (`from`'s) goes on as another backup's, `to` (the service answered with one this
   * computer knows): false when that one is already being worked on, so one backup never has two
   * jobs; otherwise `to` is this job's from now on.
   */
  claim(from: string, to: string): boolean;
  now(): Date;
  fetch: typeof globalThis.fetch;
  /**
   * A verification of `id` starts: the signal that cancels it (the user's Cancel), and where its
   * progress goes. It is over when the job ends.
   */
  verifying(id: string): VerifyHandle;
}

export interface VerifyHandle {
  signal: AbortSignal;
  progress(bytes: number, totalBytes: number): void;
}

/**
 * Stops the job with a stage and a sentence that says what was kept and what to do; a failure
 * says its kind too (which actions fit it: BackupFailure).
 */
export class JobStop extends Error {
  constructor(
    readonly stage: 'failed' | 'needs_code',
    message: string,
    readonly failure: BackupFailure = 'retry',
  ) {
    super(message);
  }
}

/** The user cancelled a download's verification: it waits, kept, to be verified. */
export class VerifyCancelled extends JobStop {
  constructor() {
    super(
      'needs_code',
      'Verification cancelled. The download is kept, not verified yet (so not listed as a backup); choose Verify to verify it any time.',
    );
  }
}

export function answerOf(backup: BackupExport, reused: boolean): ServiceAnswer {
  const requestedBy = backup.requested_by
    ? (backup.requested_by.name ?? backup.requested_by.email ?? backup.requested_by.zpuid)
    : null;
  return {
    exportId: backup.id,
    stage: backup.status === 'completed' ? 'downloading' : 'generating',
    reused,
    requestedTime: backup.requested_time ?? null,
    completedTime: backup.completed_time ?? null,
    requestedBy,
  };
}

const words = (error: unknown) => (error instanceof Error ? error.message : String(error));

function clientOf(context: JobContext, record: BackupRecord): ApiClient {
  const client = context.clientFor(record.portalId);
  if (!client) {
    throw new JobStop(
      'failed',
      'The account that reaches this portal is signed out. Sign in again, then retry the backup; nothing was downloaded.',
    );
  }
  return client;
}

/** Step 1: ask the service. A reused backup keeps the code it was made with, not this one. */
async function ask(context: JobContext, record: BackupRecord, code: string): Promise<BackupRecord> {
  const client = clientOf(context, record);
  let reply;
  try {
    reply = await client.scheduleBackup(
      {
        portal_id: record.portalId,
        body: { access_code: code, attachment_needed: record.attachmentNeeded },
      },
      { priority: 'user' },
    );
  } catch (error) {
    // Nothing reached the service, or it refused: no backup exists to follow.
    throw new JobStop('failed', `The service did not start the backup: ${words(error)}`);
  }
  const answer = answerOf(reply.portal_export, reply.is_reused === true);
  const known = context.repo.byExport(record.portalId, answer.exportId);
  if (known && known.id !== record.id && known.failure && sameFileAgain(known.failure)) {
    // The 24-hour reuse gave back a backup whose file was already refused (not a backup, or
    // another backup's): fetching it again would bring the same file, so it is not downloaded;
    // the backup says so, and when.
    context.repo.forget(record.id);
    const after = nextBackupAllowedAt(known);
    const what =
      known.failure === 'another_backup'
        ? "its download gave another backup's file"
        : 'its file is not a backup PortalDesk can read';
    context.repo.setAnswer(known.id, { ...answer, stage: 'generating' });
    context.repo.setFailed(
      known.id,
      `The service returned this backup again (it returns a backup made within the last 24 hours instead of a new one), and ${what}. It was not downloaded again. ${after ? `A new backup can be made after ${after.toLocaleString()}; ` : 'Back up again later; '}if that one is refused the same way, contact the service's support.`,
      known.failure,
    );
    return context.repo.get(known.id)!;
  }
  if (known && known.id !== record.id) {
    // The service returned a backup this computer already has (the 24-hour reuse): that row is
    // the backup; this request's row goes.
    context.repo.forget(record.id);
    context.repo.setAnswer(known.id, {
      ...answer,
      stage: known.stage === 'ready' ? 'ready' : answer.stage,
    });
    return context.repo.get(known.id)!;
  }
  context.repo.setAnswer(record.id, answer);
  return context.repo.get(record.id)!;
}

/** Step 2: wait while the service generates; returns the download URL (never stored). */
async function waitForLink(
  context: JobContext,
  record: BackupRecord,
  signal: AbortSignal,
): Promise<string> {
  const client = clientOf(context, record);
  let wait = POLL_FIRST_MS;
  for (let polls = 1; ; polls++) {
    if (polls > GENERATION_POLLS_MAX) {
      throw new JobStop(
        'failed',
        `The service has been generating this backup for hours (${GENERATION_POLLS_MAX} checks) without finishing. Nothing was downloaded; refresh the history later, the service may still finish it.`,
      );
    }
    let backup: BackupExport;
    try {
      backup = await client.getBackupStatus(
        { portal_id: record.portalId, export_id: record.exportId! },
        { signal },
      );
    } catch (error) {
      if (error instanceof ApiError && error.kind === 'permanent') {
        throw new JobStop(
          'failed',
          `The service no longer knows this backup: ${words(error)}. Make a new backup.`,
          'gone',
        );
      }
      throw error;
    }
    if (backup.status === 'completed') {
      const problem = backup.download_url ? downloadUrlProblem(backup.download_url) : null;
      if (problem) throw new JobStop('failed', problem);
      if (!backup.download_url) {
        throw new JobStop(
          'failed',
          'The service says the backup is complete but gives no download link.',
        );
      }
      context.repo.setAnswer(record.id, {
        ...answerOf(backup, record.reused),
        stage: 'downloading',
      });
      context.changed(record.id);
      return backup.download_url;
    }
    if (backup.status !== 'in_progress') {
      throw new JobStop(
        'failed',
        `The service reports the backup as "${backup.status}"; make a new one.`,
        'gone',
      );
    }
    await context.sleep(wait, signal);
    wait = Math.min(POLL_MAX_MS, wait * 2);
  }
}

/** Where the archive goes, checked by the same rule that guards reading it back. */
function placeOf(context: JobContext, record: BackupRecord): { relative: string; file: string } {
  const madeAt = record.completedTime ?? record.requestedTime ?? record.createdAt;
  let relative: string;
  try {
    relative = backupRelativePath(record.portalId, madeAt, record.exportId!);
  } catch (error) {
    throw new JobStop('failed', words(error));
  }
  const file = resolveBackupFile(context.dataDir, relative);
  if (!file)
    throw new JobStop('failed', `"${relative}" is not a backup file name PortalDesk writes.`);
  return { relative, file };
}

/** Step 3: download into `<file>.part`, resuming cut transfers. */
async function download(
  context: JobContext,
  record: BackupRecord,
  url: string,
  signal: AbortSignal,
): Promise<{ sha256: string; bytes: number }> {
  const { file } = placeOf(context, record);
  const part = partFileOf(file);
  try {
    await mkdir(path.dirname(file), { recursive: true });
  } catch (error) {
    throw new JobStop(
      'failed',
      `The backups folder could not be made: ${words(error)}. Nothing was downloaded.`,
    );
  }
  const client = clientOf(context, record);
  const key = `${client.dataCenter} GET backup download portal=${record.portalId}`;
  let etag = record.etag;
  let lastStored = 0;
  for (let attempt = 1; ; attempt++) {
    // Per attempt: a restart from nothing must not read as a negative speed.
    const rate = new TransferRate();
    try {
      const done = await downloadAttempt({
        url,
        part,
        etag,
        signal,
        send: ({ headers, signal: sendSignal, released }) =>
          context.scheduler.schedule({
            key,
            priority: record.scheduled ? 'background' : 'user',
            signal: sendSignal,
            send: (scheduled) => {
              released();
              return context.fetch(url, { headers, signal: scheduled });
            },
          }),
        onProgress: (progress) => {
          etag = progress.etag ?? etag;
          const now = Date.now();
          rate.add({ atMs: now, bytes: progress.bytes });
          // The row is written a few times a second, not per chunk.
          if (now - lastStored >= 250 || progress.bytes === progress.totalBytes) {
            lastStored = now;
            context.repo.setProgress(record.id, { ...progress, etag });
            context.changed(record.id, {
              bytesPerSecond: rate.bytesPerSecond(),
              etaSeconds: rate.etaSeconds(progress.totalBytes),
            });
          }
        },
      });
      context.repo.setProgress(record.id, {
        bytes: done.bytes,
        totalBytes: done.bytes,
        etag: done.etag,
        resumed: done.resumed,
      });
      return { sha256: done.sha256, bytes: done.bytes };
    } catch (error) {
      if (signal.aborted) throw error;
      if (!(error instanceof DownloadFailure)) throw error;
      if (error.kind === 'disk') {
        await rm(part, { force: true }).catch(() => undefined);
        throw new JobStop('failed', error.message);
      }
      if (error.kind === 'link_gone') {
        await rm(part, { force: true }).catch(() => undefined);
        throw new JobStop(
          'failed',
          `The service no longer offers this backup's download (${error.message}). The partial download was removed; make a new backup.`,
          'gone',
        );
      }
      if (error.kind === 'protocol') {
        // What is held does not fit what the server says: start the file over.
        await rm(part, { force: true }).catch(() => undefined);
        etag = null;
        if (attempt >= DOWNLOAD_ATTEMPTS) {
          throw new JobStop(
            'failed',
            `The server's answers do not fit together (${error.message}), ${attempt} times. Nothing partial was kept; try again later, or make a new backup.`,
          );
        }
      } else if (attempt >= DOWNLOAD_ATTEMPTS) {
        throw new JobStop(
          'failed',
          `The download stopped ${attempt} times (${error.message}). What arrived is kept and the next try resumes from it: choose Try again once the connection is steady.`,
        );
      }
      await context.sleep(Math.min(30_000, 1000 * 2 ** (attempt - 1)), signal);
    }
  }
}

/**
 * What the user can do once a damaged download was removed: a download damaged on its way (cut,
 * spliced, changed) comes right when fetched again; a file that is no backup at all (a zip bomb)
 * is what the service holds, and would come the same.
 */
function damagedDownloadRemoved(error: DamagedArchiveError): string {
  return error instanceof NotABackupError
    ? "The download was removed. Downloading it again would fetch the same file from the service: make a new backup instead, and if the new one is refused the same way, contact the service's support."
    : 'The damaged download was removed; download it again.';
}

/** What was kept and what helps once a download that brought another backup's file was removed. */
export const ANOTHER_BACKUP_REMOVED =
  "It was removed, and nothing was replaced: the backups already here are as they were. Downloading it again would fetch the same file from the service: make a new backup instead, and if that one brings another backup's file too, report it to the service's support.";

const exists = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  );

export interface VerifyStep {
  /** The app is closing: the file stays where it is and the next start goes on. */
  signal?: AbortSignal;
  /** The user cancelled the job (its download's Cancel): a verification stops as cancelled. */
  cancel?: AbortSignal;
  /** Why `code` is null when the keychain could not be read (its words), not "none kept". */
  keychainProblem?: string | null;
}

/** Step 4: verify the part file, then give it its final name. */
export async function verifyAndPlace(
  context: JobContext,
  record: BackupRecord,
  code: string | null,
  digest: { sha256: string; bytes: number } | null,
  { signal, cancel, keychainProblem = null }: VerifyStep = {},
): Promise<void> {
  // A closing app leaves the file where it is: the next start verifies and names it.
  signal?.throwIfAborted();
  const { relative, file } = placeOf(context, record);
  // Killed between the rename and the row's update: the verified file already has its name.
  const renamed = !(await exists(partFileOf(file))) && (await exists(file));
  const part = renamed ? file : partFileOf(file);
  if (!renamed && !(await exists(part))) {
    throw new JobStop(
      'failed',
      'The downloaded file is gone (moved or deleted outside PortalDesk). Nothing is left of this download; choose Try again to download it anew.',
    );
  }
  if (code === null) {
    const why =
      keychainProblem === null
        ? 'no access code is kept for this portal. Enter the code to verify the backup'
        : `the keychain could not be read (${keychainProblem}), so a code kept there could not be used. Unlock it and choose Verify, or enter the code`;
    throw new JobStop(
      'needs_code',
      `Downloaded in full, not verified yet: ${why}; until then it is kept as a temporary file and not listed as a backup.`,
    );
  }
  context.repo.setStage(record.id, 'verifying');
  context.changed(record.id);
  const verifying = context.verifying(record.id);
  const stops = [signal, cancel, verifying.signal].filter((s): s is AbortSignal => !!s);
  const stop = AbortSignal.any(stops);
  /** A cancel is no verdict: the file stays as it is (a closing app's stage stays too). */
  const cancelled = (error: unknown) => {
    if (signal?.aborted) return error;
    return verifying.signal.aborted || cancel?.aborted ? new VerifyCancelled() : null;
  };
  let check;
  try {
    check = await verifyArchive(part, code, { signal: stop, onProgress: verifying.progress });
  } catch (error) {
    const stopped = cancelled(error);
    if (stopped) throw stopped;
    if (error instanceof WrongAccessCodeError) {
      const why = record.reused
        ? 'The service returned an earlier backup made with another access code, and this code does not open it.'
        : 'The access code does not open the downloaded backup.';
      throw new JobStop(
        'needs_code',
        `${why} The download is kept; enter the code the backup was made with to verify it.`,
      );
    }
    if (error instanceof DamagedArchiveError) {
      // Renamed or not, it is this download, never recorded as ready: it goes, as said.
      await rm(part, { force: true }).catch(() => undefined);
      throw new JobStop(
        'failed',
        `${error.message} ${damagedDownloadRemoved(error)}`,
        error instanceof NotABackupError ? 'not_a_backup' : 'retry',
      );
    }
    throw error;
  }
  const other = anotherBackupProblem(check, record);
  if (other) {
    // The link gives that file: another download would bring it again (BackupFailure).
    await rm(part, { force: true }).catch(() => undefined);
    throw new JobStop('failed', `${other} ${ANOTHER_BACKUP_REMOVED}`, 'another_backup');
  }
  let sha256: string;
  let bytes: number;
  try {
    ({ sha256, bytes } = digest ?? (await fileDigest(part, stop)));
  } catch (error) {
    throw cancelled(error) ?? error;
  }
  const since = record.completedTime ?? record.requestedTime ?? record.createdAt;
  const verification = verificationOf(
    check,
    context.census(record.portalId, since),
    context.now().toISOString(),
  );
  signal?.throwIfAborted();
  if (!renamed) await rename(part, file);
  context.repo.setReady(record.id, { file: relative, sha256, bytes, verification });
  context.changed(record.id);
}

/** The size of `file`, 0 when it is not there. */
async function sizeOf(file: string): Promise<number> {
  try {
    return (await stat(file)).size;
  } catch {
    return 0;
  }
}

/**
 * The user paused the download (its Cancel): what arrived stays in the partial file for the next
 * Download to resume from (or Delete to remove), and the backup says so as a note.
 */
async function pauseDownload(context: JobContext, record: BackupRecord): Promise<void> {
  const row = context.repo.get(record.id);
  if (!row) return;
  // The file, not the row (written a few times a second), holds what the next attempt resumes.
  const held = row.exportId === null ? 0 : await sizeOf(partFileOf(placeOf(context, row).file));
  context.repo.setProgress(row.id, {
    bytes: held,
    totalBytes: row.totalBytes,
    etag: row.etag,
    resumed: row.resumed,
  });
  const note =
    held === 0
      ? 'Download paused before any of it arrived. Download again to start it.'
      : `Download paused; ${formatBytes(held)}${row.totalBytes === null ? '' : ` of ${formatBytes(row.totalBytes)}`} kept. Download again to resume.`;
  context.repo.setStage(row.id, 'paused', null, note);
  context.changed(row.id);
}

export interface BackupRun {
  /** The app is closing: the stage stays as it is, and the next start goes on. */
  signal: AbortSignal;
  /** The user's Cancel: the download stops at once and is kept, paused (a verification, cancelled). */
  pause?: AbortSignal;
  /** Why `code` is null when the keychain could not be read (its words). */
  keychainProblem?: string | null;
}

/**
 * Runs (or goes on with) one backup. `code` is the access code for this run only: held in
 * memory while the job runs, never written anywhere by it.
 */
export async function runBackup(
  context: JobContext,
  id: string,
  code: string | null,
  { signal, pause, keychainProblem = null }: BackupRun,
): Promise<void> {
  let record = context.repo.get(id);
  if (!record) return;
  const interrupt = pause ? AbortSignal.any([signal, pause]) : signal;
  try {
    if (record.exportId === null) {
      if (code === null) throw new JobStop('failed', 'No access code was given for this backup.');
      const asked = await ask(context, record, code);
      context.changed(asked.id);
      if (asked.id !== record.id) context.changed(record.id);
      if (
        asked.stage === 'ready' ||
        // A reused backup already found not to be one (ask): nothing more to do with it.
        asked.stage === 'failed' ||
        (asked.id !== record.id && !context.claim(record.id, asked.id))
      ) {
        return;
      }
      record = asked;
    }
    let digest: { sha256: string; bytes: number } | null = null;
    if (record.stage !== 'verifying' && record.stage !== 'needs_code') {
      context.repo.setStage(
        record.id,
        record.stage === 'downloading' ? 'downloading' : 'generating',
      );
      context.changed(record.id);
      const url = await waitForLink(context, record, interrupt);
      record = context.repo.get(record.id)!;
      digest = await download(context, record, url, interrupt);
      record = context.repo.get(record.id)!;
      // Cancelled as the last bytes arrived: paused as asked, whole, not verified behind its back.
      pause?.throwIfAborted();
    }
    await verifyAndPlace(context, record, code, digest, {
      signal,
      ...(pause ? { cancel: pause } : {}),
      keychainProblem,
    });
  } catch (error) {
    if (signal.aborted) return; // closing: the stage stays, the next start goes on
    if (pause?.aborted && !(error instanceof JobStop)) {
      await pauseDownload(context, record);
      return;
    }
    const held = context.repo.get(record.id)?.downloadedBytes ?? 0;
    const stop =
      error instanceof JobStop
        ? error
        : new JobStop(
            'failed',
            `The backup stopped: ${words(error)}. ${held > 0 ? 'What was downloaded is kept; try again to resume.' : 'Nothing was downloaded; try again.'}`,
          );
    // A cancel the user asked for is said as a note, not as a problem.
    if (stop.stage === 'failed') context.repo.setFailed(record.id, stop.message, stop.failure);
    else if (stop instanceof VerifyCancelled)
      context.repo.setStage(record.id, stop.stage, null, stop.message);
    else context.repo.setStage(record.id, stop.stage, stop.message);
    context.changed(record.id);
  }
}
