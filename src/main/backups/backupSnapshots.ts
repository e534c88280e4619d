/**
 * The one backup open for browsing: its snapshot database (backupSnapshot.ts), opened read-only
 * with a Mirror over it so the records workspace's reads work on it unchanged. One at a time:
 * opening another closes the first.
 *
 * A snapshot holds the backup's records decrypted, so it lives no longer than the browsing:
 * closing it, opening another, closing the engine and the next start all delete it. Building one
 * again costs a read of the archive (seconds for 100,000 records).
 */
import Database from 'better-sqlite3';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { Mirror } from '../store/mirror/mirror';
import { untilAborted } from '../untilAborted';
import { buildSnapshot, snapshotPartOf, type SnapshotSummary } from './backupSnapshot';

/** Under the data directory: derived, deletable, never a backup. */
export const SNAPSHOTS_FOLDER = 'snapshots';

/** Why a snapshot being built was stopped: closed (the user's Cancel), another opened, closing. */
export class BrowsingStopped extends Error {
  override name = 'BrowsingStopped';
  constructor(readonly why: 'closed' | 'another' | 'closing') {
    super(
      why === 'closed'
        ? 'Browsing was closed.'
        : why === 'another'
          ? 'Another backup was opened for browsing.'
          : 'PortalDesk is closing.',
    );
  }
}

export interface OpenSnapshot {
  backupId: string;
  portalId: string;
  summary: SnapshotSummary;
  db: Database.Database;
  mirror: Mirror;
}

export interface SnapshotRequest {
  backupId: string;
  portalId: string;
  archive: string;
  /**
   * The archive's password: asked for once the opening is under way (the keychain may wait to be
   * unlocked), so that closing it, opening another or closing the engine stops that wait too.
   */
  password: () => Promise<string>;
  onProgress?: (records: number) => void;
}

export interface BackupSnapshotsOptions {
  dataDir: string;
  /** The live mirror's database file (for the portal's metadata). */
  mirrorFile: string;
  nativeBinding?: string;
}

export class BackupSnapshots {
  private current: OpenSnapshot | null = null;
  private building: {
    backupId: string;
    done: Promise<OpenSnapshot>;
    abort: AbortController;
  } | null = null;
  private readonly folder: string;

  constructor(private readonly options: BackupSnapshotsOptions) {
    this.folder = path.join(options.dataDir, SNAPSHOTS_FOLDER);
    // Whatever a crash or a kill left behind: no decrypted copy outlives its browsing.
    rmSync(this.folder, { recursive: true, force: true });
  }

  private fileOf(backupId: string): string {
    return path.join(this.folder, `backup-${backupId}.sqlite`);
  }

  /** The open snapshot of `backupId`, or undefined. */
  reading(backupId: string): OpenSnapshot | undefined {
    return this.current?.backupId === backupId ? this.current : undefined;
  }

  /**
   * Opens `backupId`'s snapshot, building it first; the one open before is closed once the
   * password is known (a password refused, or a wait cancelled, leaves it open).
   */
  async open(request: SnapshotRequest): Promise<OpenSnapshot> {
    if (this.current?.backupId === request.backupId) return this.current;
    if (this.building?.backupId === request.backupId) return this.building.done;
    this.building?.abort.abort(new BrowsingStopped('another'));
    await this.building?.done.catch(() => undefined);
    const abort = new AbortController();
    const done = this.build(request, abort.signal);
    const building = { backupId: request.backupId, done, abort };
    this.building = building;
    try {
      return await done;
    } finally {
      if (this.building === building) this.building = null;
    }
  }

  private async build(request: SnapshotRequest, signal: AbortSignal): Promise<OpenSnapshot> {
    // Stopped while waiting: nothing was read or written yet, and a late answer opens nothing.
    const password = await untilAborted(request.password(), signal);
    this.closeCurrent();
    mkdirSync(this.folder, { recursive: true });
    const file = this.fileOf(request.backupId);
    const summary = await buildSnapshot({
      archive: request.archive,
      password,
      portalId: request.portalId,
      mirrorFile: this.options.mirrorFile,
      target: file,
      signal,
      ...(this.options.nativeBinding ? { nativeBinding: this.options.nativeBinding } : {}),
      ...(request.onProgress ? { onProgress: request.onProgress } : {}),
    });
    if (signal.aborted) {
      rmSync(file, { force: true });
      throw signal.reason;
    }
    const db = new Database(file, {
      readonly: true,
      fileMustExist: true,
      ...(this.options.nativeBinding ? { nativeBinding: this.options.nativeBinding } : {}),
    });
    const open: OpenSnapshot = {
      backupId: request.backupId,
      portalId: request.portalId,
      summary,
      db,
      mirror: new Mirror(db),
    };
    this.current = open;
    return open;
  }

  /** Closes and deletes `backupId`'s snapshot (any open one when absent); false if none was. */
  close(backupId?: string): boolean {
    if (this.building && (backupId === undefined || this.building.backupId === backupId)) {
      this.building.abort.abort(new BrowsingStopped('closed'));
    }
    if (!this.current || (backupId !== undefined && this.current.backupId !== backupId)) {
      return false;
    }
    this.closeCurrent();
    return true;
  }

  private closeCurrent(): void {
    const open = this.current;
    if (!open) return;
    this.current = null;
    if (open.db.open) open.db.close();
    const file = this.fileOf(open.backupId);
    rmSync(file, { force: true });
    rmSync(snapshotPartOf(file), { force: true });
  }

  /** With the engine: nothing decrypted stays on disk. */
  dispose(): void {
    this.building?.abort.abort(new BrowsingStopped('closing'));
    this.closeCurrent();
    rmSync(this.folder, { recursive: true, force: true });
  }
}
