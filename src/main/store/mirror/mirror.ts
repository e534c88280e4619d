import type Database from 'better-sqlite3';
import { registerSqlFunctions } from '../sqlFunctions';
import { CommentRepository } from './commentRepository';
import { FullTextIndex } from './fullTextIndex';
import { LocalEditsRepository } from './localEditsRepository';
import { MetadataRepository } from './metadataRepository';
import { RecordQuery } from './recordQuery';
import { RecordRepository } from './recordRepository';
import { RecordSearch } from './recordSearch';

export interface MirrorOptions {
  /** The clock for cursors, comment sync times and "today" in filters; Date.now by default. */
  now?: () => number;
  /** Whether writers flush the full-text index when enough waits (FullTextIndexOptions). */
  fullTextWritersFlush?: boolean;
}

/**
 * The local mirror on the store's connection (`Store.db`, migrated to 0002_mirror or later): the
 * repositories the sync engine writes through and the queries the UI reads with. Registers the
 * SQL functions its queries and indexes call on the connection (Store.open does too).
 */
export class Mirror {
  readonly fullText: FullTextIndex;
  readonly metadata: MetadataRepository;
  readonly records: RecordRepository;
  readonly comments: CommentRepository;
  /** The user's local changes (the outbox's): overlay, offline records, replayed rows. */
  readonly localEdits: LocalEditsRepository;
  readonly query: RecordQuery;
  readonly search: RecordSearch;

  constructor(db: Database.Database, options: MirrorOptions = {}) {
    const now = options.now ?? Date.now;
    registerSqlFunctions(db);
    this.fullText = new FullTextIndex(db, { writersFlush: options.fullTextWritersFlush ?? true });
    this.metadata = new MetadataRepository(db);
    this.records = new RecordRepository(db, this.metadata, this.fullText, now);
    this.comments = new CommentRepository(db, this.metadata, this.fullText, now);
    this.localEdits = new LocalEditsRepository(db);
    this.query = new RecordQuery(db, this.metadata, now);
    this.search = new RecordSearch(db, this.fullText);
  }
}
