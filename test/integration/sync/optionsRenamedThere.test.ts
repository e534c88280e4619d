/**
 * Options of a pick list and a multi-select renamed on the service by someone else: the service
 * relabels the records holding them without a new last_updated_time, so no record pull brings
 * it. After the next sync the mirror must show, record by record, what the service shows.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { syncSession } from './syncSession';

type Session = Awaited<ReturnType<typeof syncSession>>;

const FIELDS = ['cf_category', 'cf_tags'] as const;

function fieldOf(s: Session, portalId: string, apiName: string) {
  return s.store.db
    .prepare(
      `SELECT f.id FROM fields f JOIN modules m ON m.portal_id = f.portal_id AND m.id = f.module_id
       WHERE f.portal_id = ? AND m.api_name = 'assets' AND f.api_name = ?`,
    )
    .pluck()
    .get(portalId, apiName) as string;
}

/** Each record's values of the fields, as the service's record list shows them. */
async function serverValues(s: Session, portalId: string): Promise<Map<string, unknown[]>> {
  const values = new Map<string, unknown[]>();
  for (let page = 1; ; page++) {
    const reply = await s.call(
      'GET',
      `/portal/${portalId}/projects/assets/entities?page=${page}&per_page=200`,
    );
    expect(reply.status).toBe(200);
    for (const entity of reply.body.entities as Record<string, unknown>[]) {
      values.set(
        String(entity.id),
        FIELDS.map((f) => entity[f] ?? null),
      );
    }
    if (!reply.body.page_info?.has_next_page) return values;
  }
}

/** The same from the mirror's server copies. */
function mirroredValues(s: Session, portalId: string): Map<string, unknown[]> {
  const rows = s.store.db
    .prepare(
      `SELECT r.id, r.custom FROM records r JOIN modules m ON m.module_key = r.module_key
       WHERE r.portal_id = ? AND m.api_name = 'assets' AND r.trashed_time IS NULL`,
    )
    .all(portalId) as { id: string; custom: string }[];
  return new Map(
    rows.map((row) => {
      const custom = JSON.parse(row.custom) as Record<string, unknown>;
      return [row.id, FIELDS.map((f) => custom[f] ?? null)];
    }),
  );
}

describe('options renamed on the service', () => {
  it('the mirror shows each record’s pick list and multi-select values by their new names after a sync', async () => {
    const s = await syncSession({ emulator: { records: 60 } });
    expect((await s.engine.syncAccount(s.account).done).state).toBe('done');
    const portalId = s.emulator.portals[0]!;
    expect(mirroredValues(s, portalId)).toEqual(await serverValues(s, portalId));
    let renamed = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...FIELDS),
        fc.nat(),
        fc.boolean(),
        async (apiName, pick, pickListToo) => {
          const renames = pickListToo && apiName === 'cf_tags' ? FIELDS : [apiName];
          for (const field of renames) {
            const fieldId = fieldOf(s, portalId, field);
            const listed = await s.call(
              'GET',
              `/portal/${portalId}/settings/options?module=assets&field=${fieldId}&page=1&per_page=200&index=1&range=200`,
            );
            expect(listed.status).toBe(200);
            const options = listed.body.custom_options as { id: string; value: string }[];
            const option = options[pick % options.length]!;
            const reply = await s.call('PATCH', `/portal/${portalId}/settings/options`, {
              module: 'assets',
              field: fieldId,
              custom_options: [{ id: option.id, value: `Renamed there ${++renamed}` }],
            });
            expect(reply.status).toBe(200);
          }
          expect((await s.engine.syncAccount(s.account).done).state).toBe('done');
          expect(mirroredValues(s, portalId)).toEqual(await serverValues(s, portalId));
        },
      ),
      { numRuns: 6 },
    );
  });
});
