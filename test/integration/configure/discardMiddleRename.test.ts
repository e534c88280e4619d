/**
 * An option renamed twice offline (A → B, then B → C), and the first rename discarded in the
 * Outbox: the service still has A, so the second rename must say it renames A (its "was", which
 * the replay checks against the service and relabels the mirror's records from). Left saying B,
 * it was refused as "B was renamed to A on the service meanwhile", a name the service never had.
 * Renamed back (A → B → A), the second has nothing left to do once the first is discarded. A
 * removal after the discarded rename names the option as the service has it too. A later change
 * taking the name the discard gives back would be refused by the service: the discard is refused.
 */
import { describe, expect, it } from 'vitest';
import { outboxSession } from '../outbox/outboxSession';
import { configureOn } from './configureSession';

async function setUp() {
  const s = await outboxSession({ records: 80 });
  const configure = configureOn(s);
  const field = configure
    .fields(s.portalId, s.module.id)
    .fields.find((f) => f.apiName === 'cf_category')!;
  const options = () => configure.fieldOptions(s.portalId, s.module.id, field.id).options;
  // An option some records hold (and no queued change does): what the service does to them shows.
  const option = options().find((o) => o.records > 0)!;
  const A = option.name;
  const holders = () =>
    s.store.db
      .prepare(
        `SELECT id FROM records WHERE portal_id = ? AND custom ->> '$.cf_category' = ? ORDER BY id`,
      )
      .pluck()
      .all(s.portalId, A) as string[];
  const holding = holders();
  expect(holding.length).toBeGreaterThan(0);
  const change = (args: { rename?: { id: string; name: string }[]; remove?: string[] }) =>
    configure.changeOptions({
      portalId: s.portalId,
      moduleId: s.module.id,
      fieldId: field.id,
      ...args,
    });
  const rename = (name: string) => change({ rename: [{ id: option.id, name }] });
  const mirrored = (id: string) =>
    s.store.db
      .prepare(`SELECT custom ->> '$.cf_category' FROM records WHERE portal_id = ? AND id = ?`)
      .pluck()
      .get(s.portalId, id) as string | null;
  const configOps = () => s.outbox.list().filter((entry) => entry.kind === 'config');
  s.outbox.setWorkOffline(true);
  return { s, option, A, holding, change, rename, mirrored, configOps, options };
}

describe('discarding a rename of an option renamed again after it', () => {
  it('leaves the later rename renaming what the service has, and it goes', async () => {
    const { s, option, A, holding, rename, mirrored, configOps, options } = await setUp();
    rename('Middle name');
    rename('Final name');
    const [first, second] = configOps();
    expect(second!.config!.summary).toBe('Rename “Middle name” to “Final name”');
    s.outbox.discard(first!.id);
    expect(configOps().map((entry) => entry.config!.summary)).toEqual([
      `Rename “${A}” to “Final name”`,
    ]);

    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    expect(s.outbox.list()).toEqual([]);
    // As the replay read the options back from the service.
    expect(options().find((o) => o.id === option.id)?.name).toBe('Final name');
    // The mirror's records holding A follow the rename the service made (A → Final name).
    for (const id of holding) {
      expect(mirrored(id)).toBe('Final name');
      expect((await s.serverRecord(id)).cf_category).toBe('Final name');
    }
  });

  it('drops a later rename back to the name the service has: nothing is sent', async () => {
    const { s, A, holding, rename, mirrored, configOps } = await setUp();
    rename('Middle name');
    rename(A);
    s.outbox.discard(configOps()[0]!.id);
    expect(configOps()).toEqual([]);
    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    expect(s.writes()).toEqual([]);
    for (const id of holding) expect(mirrored(id)).toBe(A);
  });

  it('names the option of a later removal as the service has it', async () => {
    const { s, option, A, holding, rename, change, mirrored, configOps } = await setUp();
    rename('Middle name');
    change({ remove: [option.id] });
    s.outbox.discard(configOps()[0]!.id);
    expect(configOps().map((entry) => entry.config!.summary)).toEqual([`Remove option “${A}”`]);
    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    expect(s.outbox.list()).toEqual([]);
    // The service cleared the option from its records; the mirror's copies follow.
    for (const id of holding) {
      expect((await s.serverRecord(id)).cf_category ?? null).toBeNull();
      expect(mirrored(id)).toBeNull();
    }
  });

  it('is refused in words when a later change takes the name it gives back', async () => {
    const { s, option, A, rename, change, configOps, options } = await setUp();
    const other = options().find((o) => o.id !== option.id)!;
    rename('Middle name');
    change({ rename: [{ id: other.id, name: A }] });
    const before = configOps();
    expect(() => s.outbox.discard(before[0]!.id)).toThrow(
      `Discarding this rename gives “${A}” back to its option, but a change queued after it takes that name (Rename “${other.name}” to “${A}”), and the service would refuse it. Nothing was discarded; discard that change first.`,
    );
    expect(configOps()).toEqual(before);
  });
});
