/**
 * One portal's mirrored metadata (modules, fields and their options, layouts and sections,
 * statuses and their transitions, the people the mirror knows) copied from the mirror's own
 * database file into a fresh database of the same schema. A backup's snapshot (backups/
 * backupSnapshot.ts) is read in the light of the portal as mirrored now: the same columns,
 * statuses and names as the live records workspace. The source is attached only for the copy and
 * only read.
 */
import type Database from 'better-sqlite3';
import { parseNamedQueries, requireQueries } from '../sqlFile';
import snapshotSql from '../queries/mirrorSnapshot.sql?raw';

const queries = requireQueries(parseNamedQueries(snapshotSql, 'mirrorSnapshot.sql'), [
  'portals',
  'users',
  'modules',
  'layouts',
  'sections',
  'fields',
  'layoutFields',
  'fieldOptions',
  'statuses',
  'statusTransitions',
] as const);

/** Parents before children: the order of the foreign keys. */
const ORDER = [
  'portals',
  'users',
  'modules',
  'layouts',
  'sections',
  'fields',
  'layoutFields',
  'fieldOptions',
  'statuses',
  'statusTransitions',
] as const;

/**
 * Copies `portalId`'s metadata from the mirror in `sourceFile` into `target` (migrated, and
 * without that portal yet), in one transaction. Returns false, copying nothing, when the source
 * does not hold the portal.
 */
export function copyPortalMetadata(
  target: Database.Database,
  sourceFile: string,
  portalId: string,
): boolean {
  target.prepare('ATTACH DATABASE ? AS source').run(sourceFile);
  try {
    return target.transaction(() => {
      for (const name of ORDER) {
        const { changes } = target.prepare(queries[name]).run(portalId);
        if (name === 'portals' && changes === 0) return false;
      }
      return true;
    })();
  } finally {
    target.exec('DETACH DATABASE source');
  }
}
