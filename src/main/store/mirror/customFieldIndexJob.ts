/**
 * One change to the custom-field indexes, run on a connection of its own (the index worker's):
 * drop the indexes given, then create the one given, in one transaction. Building an index over a
 * million records takes seconds; on that connection the engine's thread never waits for it (its
 * reads go on in WAL mode, and its writes wait only while this transaction holds the write lock).
 */
import type Database from 'better-sqlite3';
import {
  CUSTOM_FIELD_INDEX_PREFIX,
  customFieldIndexDefinition,
} from './customFieldIndexDefinition';

export interface CustomFieldIndexJob {
  /** Indexes to drop first (names from customFieldIndexDefinition). */
  drop: string[];
  /** The index to create, for this expression of the lists (as customFieldIndexDefinition takes it). */
  create?: { moduleKey: number; queryExpression: string };
}

export interface CustomFieldIndexJobResult {
  created: string | null;
  dropped: string[];
  /** From the start of the transaction (the write lock) to its commit. */
  lockedMs: number;
}

/** Only our own index names reach DROP INDEX. */
const OWN_NAME = new RegExp(`^${CUSTOM_FIELD_INDEX_PREFIX}\\d+_[a-z0-9_]+$`);

/** Runs the job on `db`; throws on any SQLite error (the transaction is then rolled back). */
export function runCustomFieldIndexJob(
  db: Database.Database,
  job: CustomFieldIndexJob,
): CustomFieldIndexJobResult {
  // The statement is made here from the expression, never taken as SQL text.
  const create = job.create
    ? customFieldIndexDefinition(job.create.moduleKey, job.create.queryExpression)
    : undefined;
  for (const name of job.drop) {
    if (!OWN_NAME.test(name)) {
      throw new Error(`Not a custom field index: ${name}`);
    }
  }
  const started = performance.now();
  db.transaction(() => {
    for (const name of job.drop) db.exec(`DROP INDEX IF EXISTS ${name}`);
    if (create) db.exec(create.sql);
  }).immediate();
  return {
    created: create?.name ?? null,
    dropped: job.drop,
    lockedMs: performance.now() - started,
  };
}
