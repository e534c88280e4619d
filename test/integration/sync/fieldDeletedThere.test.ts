/**
 * A custom field deleted on the service by someone else, and perhaps made again there under the
 * same name (so the same API name, with a new id). The sync stored the new field before taking
 * the old one out, which still held the API name: every later sync of the module's settings
 * failed. And the service takes the field's values from every record of the module without a new
 * last_updated_time, so no record pull brings that: the mirror must follow, or the field made
 * again shows, here only, the old values.
 */
import { describe, expect, it } from 'vitest';
import { syncSession } from './syncSession';

type Session = Awaited<ReturnType<typeof syncSession>>;

const MODULE = 'assets';
const FIELD = 'cf_serial_number';

/** Per record of the module (trashed ones included), its value of the field, server and mirror. */
function values(s: Session, portalId: string) {
  const server = s.emulator.state.db
    .prepare(
      `SELECT e.id AS id, json_extract(e.custom, '$.${FIELD}') AS value FROM entities e
       JOIN modules m ON m.id = e.module_id WHERE m.portal_id = ? AND m.api_name = ? ORDER BY e.id`,
    )
    .all(Number(portalId), MODULE) as { id: number; value: unknown }[];
  const mirror = s.store.db
    .prepare(
      `SELECT r.id AS id, json_extract(r.custom, '$.${FIELD}') AS value FROM records r
       JOIN modules m ON m.module_key = r.module_key WHERE r.portal_id = ? AND m.api_name = ?
       ORDER BY CAST(r.id AS INTEGER)`,
    )
    .all(portalId, MODULE) as { id: string; value: unknown }[];
  return {
    server: server.map((row) => [String(row.id), row.value ?? null]),
    mirror: mirror.map((row) => [row.id, row.value ?? null]),
  };
}

/** Deletes the field on the service, and makes one of the same name again when asked. */
async function deleteThere(s: Session, portalId: string, again: boolean) {
  const field = s.emulator.state.db
    .prepare(
      `SELECT f.id, f.module_id AS moduleId, f.display_name AS name, f.field_type AS type FROM fields f
       JOIN modules m ON m.id = f.module_id WHERE m.portal_id = ? AND m.api_name = ? AND f.api_name = ?`,
    )
    .get(Number(portalId), MODULE, FIELD) as {
    id: number;
    moduleId: number;
    name: string;
    type: string;
  };
  const base = `/portal/${portalId}/settings/fields`;
  expect((await s.call('DELETE', `${base}/${field.id}?module=${MODULE}`)).status).toBe(204);
  if (!again) return null;
  const made = await s.call('PUT', base, {
    module: MODULE,
    display_name: field.name,
    field_type: field.type,
  });
  expect(made.status).toBeLessThan(300);
  const id = s.emulator.state.db
    .prepare('SELECT id FROM fields WHERE module_id = ? AND api_name = ?')
    .pluck()
    .get(field.moduleId, FIELD);
  return id === undefined ? null : String(id);
}

describe('a custom field deleted on the service', () => {
  it('and made again there under the same name: the sync is done and mirrors the new field', async () => {
    const s = await syncSession();
    const portalId = s.emulator.portals[0]!;
    expect((await s.engine.syncAccount(s.account).done).state).toBe('done');
    const made = await deleteThere(s, portalId, true);
    expect(made).not.toBeNull();
    const result = await s.engine.syncAccount(s.account).done;
    expect(result.message).toBeNull();
    expect(result.state).toBe('done');
    const mirrored = s.store.db
      .prepare(`SELECT id FROM fields WHERE portal_id = ? AND api_name = ? AND id = ?`)
      .pluck()
      .get(portalId, FIELD, made);
    expect(mirrored).toBe(made);
  });

  for (const again of [false, true]) {
    it(`leaves none of its values in the mirror${again ? ', nor in the field made again' : ''}`, async () => {
      const s = await syncSession();
      const portalId = s.emulator.portals[0]!;
      expect((await s.engine.syncAccount(s.account).done).state).toBe('done');
      const before = values(s, portalId);
      expect(before.mirror.filter(([, value]) => value !== null).length).toBeGreaterThan(0);
      expect(before.mirror).toEqual(before.server);
      await deleteThere(s, portalId, again);
      expect((await s.engine.syncAccount(s.account).done).state).toBe('done');
      const after = values(s, portalId);
      expect(after.server.filter(([, value]) => value !== null)).toEqual([]);
      expect(after.mirror).toEqual(after.server);
    });
  }
});
