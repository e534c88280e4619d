/**
 * An engine killed while an import queues, simulated in process: before a chosen row is queued
 * (between two rows' transactions) the database as it stands is copied with the
 * import's kept file into a new data directory, as a kill -9 or a power cut would leave them; a
 * fresh engine then starts on that copy.
 */
import { cpSync, existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { vi } from 'vitest';
import { IMPORT_RUNS_FOLDER, RecordsImports } from '../../../src/main/recordsImport/recordsImports';
import { DATABASE_FILE } from '../../../src/main/store/store';
import { tempDir } from '../../support/tempDir';
import type { recordsWorkspace } from '../records/workspace';

type Workspace = ReturnType<typeof recordsWorkspace>;

/**
 * Copies `w`'s data directory as it stands just before the import queues its `atRow`-th row
 * (counted from 1; between two rows' transactions, as a kill leaves it), or throws if fewer were
 * queued; answers the copy's directory.
 */
export function snapshotWhileQueuing(w: Workspace, atRow: number): () => string {
  const copy = tempDir();
  let rows = 0;
  const take = () => {
    writeFileSync(path.join(copy, DATABASE_FILE), w.engine.store.db.serialize());
    const runs = path.join(w.engine.store.file, '..', IMPORT_RUNS_FOLDER);
    if (existsSync(runs)) cpSync(runs, path.join(copy, IMPORT_RUNS_FOLDER), { recursive: true });
  };
  const prototype = RecordsImports.prototype as unknown as {
    queueRow: (...args: unknown[]) => boolean;
  };
  const queueRow = prototype.queueRow;
  const spy = vi.spyOn(prototype, 'queueRow').mockImplementation(function (
    this: unknown,
    ...args: unknown[]
  ) {
    if (++rows === atRow) take();
    return queueRow.apply(this, args);
  });
  return () => {
    spy.mockRestore();
    if (rows < atRow) throw new Error(`Only ${rows} rows were queued, not ${atRow}.`);
    return copy;
  };
}

/**
 * The outbox as the user would see it, comparable across engines: temporary ids of new records
 * named by their place, times left out.
 */
export function outboxShape(w: Workspace) {
  const ops = w.engine.store.db
    .prepare('SELECT kind, record_id, state, fields, edits FROM outbox_ops ORDER BY seq')
    .all() as { kind: string; record_id: string; state: string; fields: string; edits: number }[];
  const temp = new Map<string, string>();
  return ops.map((op) => ({
    ...op,
    record_id: op.record_id.startsWith('tmp-')
      ? (temp.get(op.record_id) ??
        (temp.set(op.record_id, `new ${temp.size}`), temp.get(op.record_id)!))
      : op.record_id,
    fields: JSON.parse(op.fields) as unknown,
  }));
}
