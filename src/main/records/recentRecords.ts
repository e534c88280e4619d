import type Database from 'better-sqlite3';
import { RECENT_RECORDS_MAX, type RecentRecord } from '../../shared/ipc/areas/records';
import { RecordQueryError } from '../store/mirror/recordQueryError';
import { recordsQueries as queries } from './recordsQueries';

/**
 * The records a person opened most recently, per portal (table recent_records, migration 0006):
 * at most RECENT_RECORDS_MAX, newest first. A record deleted from the mirror leaves the list.
 */
export class RecentRecords {
  constructor(
    private readonly db: Database.Database,
    private readonly now: () => number = Date.now,
  ) {}

  list(portalId: string): RecentRecord[] {
    return this.db.prepare(queries.recent).all(portalId, RECENT_RECORDS_MAX) as RecentRecord[];
  }

  viewed(portalId: string, recordId: string): RecentRecord[] {
    const exists = this.db.prepare(queries.recordExists).pluck().get(portalId, recordId);
    if (exists !== 1) {
      throw new RecordQueryError(
        `Record ${recordId} is not in the local mirror of portal ${portalId}. The recent list is unchanged.`,
      );
    }
    this.db
      .transaction(() => {
        this.db
          .prepare(queries.markViewed)
          .run(portalId, recordId, new Date(this.now()).toISOString());
        this.db.prepare(queries.trimRecent).run({ portalId, keep: RECENT_RECORDS_MAX });
      })
      .immediate();
    return this.list(portalId);
  }
}
