/**
 * The statements a records window prepares over `records`, with their query plans: for tests
 * that hold a list to the index it should walk or seek.
 */
import { RecordQuery, type RecordQueryInput } from '../../../../src/main/store/mirror/recordQuery';
import { makeRecord, mirroredPortal, MODULE, PORTAL } from './fixture';
import { preparedDuring } from './preparedDuring';

/** Each statement a window prepared over `records`, with its query plan. */
export function plansOf(
  input: Omit<RecordQueryInput, 'portalId' | 'moduleId'>,
): { sql: string; plan: string }[] {
  const { store, mirror } = mirroredPortal();
  mirror.records.upsertRecords(Array.from({ length: 200 }, (_, i) => makeRecord(i, 7)));
  const query = new RecordQuery(store.db, mirror.metadata);
  const statements = preparedDuring(store.db, () =>
    query.queryRecords({ portalId: PORTAL, moduleId: MODULE, ...input }),
  ).filter((sql) => sql.includes('FROM records r WHERE') && !sql.startsWith('EXPLAIN'));
  return statements.map((sql) => {
    const params = Array.from({ length: (sql.match(/\?/g) ?? []).length }, () => 1);
    const steps = store.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as {
      detail: string;
    }[];
    return { sql, plan: steps.map((step) => step.detail).join('\n') };
  });
}
