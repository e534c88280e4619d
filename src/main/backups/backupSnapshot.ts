/**
 * A backup made browsable: its records read out of the archive (streamed, as verification reads
 * them) into a fresh SQLite database of the mirror's own schema, so the records workspace reads it
 * with the same queries, filters and search as the live mirror. The portal's metadata (modules,
 * fields, statuses, layouts, people) is copied from the live mirror: the snapshot's records are
 * shown with the columns the workspace shows today. Each record goes through the sync's own
 * reading (readEntity, mapRecord), so the snapshot holds what a sync of that day would have
 * stored.
 *
 * The database is written to `<file>.part` and renamed when complete: a snapshot half built (a
 * kill, a wrong code, a damaged archive) is never opened.
 */
import Database from 'better-sqlite3';
import { rename, rm } from 'node:fs/promises';
import { readEntity } from '@portaldesk/portal-api/domain/readEntity';
import { applyMigrations } from '../store/migrate';
import { copyPortalMetadata } from '../store/mirror/portalMetadataCopy';
import { Mirror } from '../store/mirror/mirror';
import type { MirrorRecord } from '../store/mirror/mirrorTypes';
import { appMigrations } from '../store/store';
import { registerSqlFunctions } from '../store/sqlFunctions';
import { mapRecord } from '../sync/mapRecord';
import { MentionedUsers } from '../sync/mentionedUsers';
import { ArchiveNotReadableError } from './archiveCompare';
import { checkEntry, withArchiveEntries } from './archiveVerify';
import { ARCHIVE_FORMATS, type ArchiveFormat } from './portalArchiveFormat';

/** Records stored per transaction while a snapshot is built. */
export const SNAPSHOT_BATCH_RECORDS = 1000;

export interface SnapshotSummary {
  /** Records stored (trashed ones included: the snapshot's recycle bin shows them). */
  records: number;
  trashed: number;
  /** Archive modules the mirror does not know (api names): their records are left out. */
  skippedModules: string[];
  /** Records of known modules that could not be read as records (no id, no times). */
  unreadable: number;
  /** When the service made the backup, as the archive says. */
  generatedAt: string | null;
}

export interface BuildSnapshotOptions {
  archive: string;
  password: string;
  portalId: string;
  /** The live mirror's database file, read for the portal's metadata. */
  mirrorFile: string;
  /** Where the finished snapshot goes (its `.part` is beside it while building). */
  target: string;
  nativeBinding?: string;
  /** Records stored so far, after each batch. */
  onProgress?: (records: number) => void;
  signal?: AbortSignal;
  formats?: readonly ArchiveFormat[];
}

/** The live mirror does not hold the backup's portal (signed out since): nothing to read it by. */
export class SnapshotPortalMissingError extends Error {
  override name = 'SnapshotPortalMissingError';
}

export const snapshotPartOf = (file: string) => `${file}.part`;

export async function buildSnapshot(options: BuildSnapshotOptions): Promise<SnapshotSummary> {
  const part = snapshotPartOf(options.target);
  await rm(part, { force: true });
  const db = new Database(
    part,
    options.nativeBinding ? { nativeBinding: options.nativeBinding } : undefined,
  );
  let closed = false;
  try {
    // A throwaway file until renamed: no journal, no syncs; a crash leaves a .part to delete.
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    db.pragma('foreign_keys = ON');
    db.pragma('temp_store = MEMORY');
    registerSqlFunctions(db);
    applyMigrations(db, appMigrations, part);
    const mirror = new Mirror(db);
    if (!copyPortalMetadata(db, options.mirrorFile, options.portalId)) {
      throw new SnapshotPortalMissingError(
        `Portal ${options.portalId} is no longer in the mirror, so its backup has no fields or statuses to be shown with. Sign in to the portal again and let it sync, then browse the backup.`,
      );
    }
    const summary = await storeArchiveRecords(mirror, options);
    mirror.fullText.flush();
    db.close();
    closed = true;
    await rename(part, options.target);
    return summary;
  } catch (error) {
    if (!closed) db.close();
    await rm(part, { force: true });
    throw error;
  }
}

async function storeArchiveRecords(
  mirror: Mirror,
  options: BuildSnapshotOptions,
): Promise<SnapshotSummary> {
  const { portalId, password } = options;
  const modules = new Map(mirror.metadata.modules(portalId).map((m) => [m.apiName, m.id]));
  return withArchiveEntries(options.archive, password, async (files) => {
    const names = files.map((entry) => entry.filename);
    const formats = options.formats ?? ARCHIVE_FORMATS;
    const format = formats.find((candidate) => candidate.recognises(names));
    if (!format?.records || !format.recordEntries) {
      throw new ArchiveNotReadableError(
        'PortalDesk verified this backup but does not know its layout, so its records cannot be browsed.',
      );
    }
    const reader = format.records();
    const tally = format.tally();
    const skipped = new Set<string>();
    let batch: MirrorRecord[] = [];
    let users = new MentionedUsers();
    let records = 0;
    let trashed = 0;
    let unreadable = 0;
    const flush = () => {
      if (batch.length === 0) return;
      mirror.records.upsertRecords(batch, { users: users.list() });
      records += batch.length;
      batch = [];
      users = new MentionedUsers();
      options.onProgress?.(records);
    };
    for (const name of ['portal.json', ...format.recordEntries]) {
      const entry = files.find((candidate) => candidate.filename === name);
      if (!entry) continue;
      options.signal?.throwIfAborted();
      const reading = options.signal ? { signal: options.signal } : {};
      await checkEntry(
        entry,
        password,
        (element) => {
          tally.add(name, element);
          const read = reader.add(name, element);
          if (!read) return;
          const moduleId = modules.get(read.module);
          if (moduleId === undefined) {
            skipped.add(read.module);
            return;
          }
          const entity = readEntity(read.entity);
          if (!entity) {
            unreadable++;
            return;
          }
          if (entity.trashed_time) trashed++;
          users.addRecords([entity]);
          batch.push(mapRecord(portalId, moduleId, entity));
          if (batch.length >= SNAPSHOT_BATCH_RECORDS) {
            options.signal?.throwIfAborted();
            flush();
          }
        },
        reading,
      );
    }
    options.signal?.throwIfAborted();
    flush();
    // Not analysed: the live mirror never is, and the snapshot's lists should plan as its do.
    return {
      records,
      trashed,
      skippedModules: [...skipped].sort(),
      unreadable,
      generatedAt: tally.result().generatedAt,
    };
  });
}
