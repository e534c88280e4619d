import type { Mirror } from './mirror';
import type { MirrorChanges } from './mirrorChanges';
import type { MirrorCursorUpdate, MirrorRecord } from './mirrorTypes';
import type { UpsertOptions } from './recordRepository';

/**
 * Where a sync stores the records it pulls: one page with its cursor in one transaction
 * (RecordRepository.upsertRecordPage), a batch without one (upsertRecords), and the full-text
 * indexing left when a pull ends. Two of them: on the engine's own connection (inline, below),
 * and on a thread with a connection of its own (RecordPageWriterThread), so that storing and
 * indexing a million records never holds up the engine's thread, which answers the UI.
 */
export interface RecordPageWriter {
  storePage(
    records: readonly MirrorRecord[],
    cursor: MirrorCursorUpdate,
    options?: UpsertOptions,
  ): Promise<MirrorChanges>;
  storeRecords(records: readonly MirrorRecord[], options?: UpsertOptions): Promise<MirrorChanges>;
  /** Indexes the text still waiting (FullTextIndex.flush). */
  flushFullText(): Promise<void>;
}

/** Writes on the mirror's own connection, at once (tests, and the fallback of the thread). */
export function inlinePageWriter(mirror: Mirror): RecordPageWriter {
  return {
    storePage: (records, cursor, options) =>
      Promise.resolve(mirror.records.upsertRecordPage(records, cursor, options)),
    storeRecords: (records, options) =>
      Promise.resolve(mirror.records.upsertRecords(records, options)),
    flushFullText: () => Promise.resolve(mirror.fullText.flush()),
  };
}
