/**
 * A bulk edit or trash names its module, and the records it acts on are that module's. Ids come
 * over the contract (the renderer's selection, or anything a hostile page sends): an id of another
 * module's record must not be edited or trashed under this module's name (the Outbox would list
 * the group under the wrong module, and that module's list would not refresh).
 */
import { describe, expect, it } from 'vitest';
import { outboxSession } from '../outbox/outboxSession';
import { bulkEditOn } from './bulkEditOn';

type Session = Awaited<ReturnType<typeof outboxSession>>;

function bulkService(s: Session) {
  return bulkEditOn(s);
}

/** Records of the portal that are not the session module's. */
function otherModuleRecords(s: Session, n: number): string[] {
  return s.store.db
    .prepare(
      `SELECT r.id FROM records r JOIN modules m ON m.module_key = r.module_key
       WHERE r.portal_id = ? AND m.id != ? AND r.trashed_time IS NULL ORDER BY r.id LIMIT ?`,
    )
    .pluck()
    .all(s.portalId, s.module.id, n) as string[];
}

describe('a bulk change acts only on records of the module it names', () => {
  it("refuses, queuing nothing, a selection naming another module's records", async () => {
    const s = await outboxSession({ records: 40 });
    const bulk = bulkService(s);
    s.outbox.setWorkOffline(true);
    const strangers = otherModuleRecords(s, 2);
    expect(strangers).toHaveLength(2);
    const selection = { kind: 'ids' as const, ids: [s.recordIds[0]!, ...strangers] };
    const args = {
      portalId: s.portalId,
      moduleId: s.module.id,
      selection,
      field: 'name',
      action: 'set' as const,
      value: 'Renamed in bulk',
    };
    await expect(bulk.preview(args)).rejects.toThrow(
      /2 of the 3 selected records are not records of this module.*Nothing was changed/,
    );
    await expect(
      bulk.askTrash({ portalId: s.portalId, moduleId: s.module.id, selection, restore: false }),
    ).rejects.toThrow(/2 of the 3 selected records are not records of this module/);
    expect(s.outbox.repo.allOps()).toEqual([]);
  });

  it("counts another portal's record ids as records it cannot find, and changes nothing of them", async () => {
    const s = await outboxSession({ records: 40 });
    const bulk = bulkService(s);
    s.outbox.setWorkOffline(true);
    const [otherPortal] = s.emulator.portals.filter((p) => p !== s.portalId);
    const foreign = s.store.db
      .prepare(`SELECT id FROM records WHERE portal_id = ? LIMIT 1`)
      .pluck()
      .get(otherPortal) as string;
    expect(foreign).toBeDefined();
    const preview = await bulk.preview({
      portalId: s.portalId,
      moduleId: s.module.id,
      selection: { kind: 'ids', ids: [foreign] },
      field: 'name',
      action: 'set',
      value: 'Renamed in bulk',
    });
    expect(preview).toMatchObject({ selected: 1, changes: 0, failed: 1 });
    expect(preview.failures[0]?.reason).toMatch(/not in the local mirror of portal/);
    expect(s.outbox.repo.allOps()).toEqual([]);
  });
});
