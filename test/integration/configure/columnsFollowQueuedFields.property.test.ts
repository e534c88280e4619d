/**
 * Fields renamed and deleted offline, not delivered yet: the records workspace's columns (and
 * the filter fields and record panel built from them) name each custom field as the record
 * editor does, and leave out the same deleted ones (generated sequences; the editor's overlay and
 * the columns' are two readings of one queue). Before, the columns kept the mirror's name and a
 * deleted field's column and place in the record panel until the replay.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RecordsReader } from '../../../src/main/records/recordsReader';
import { outboxSession } from '../outbox/outboxSession';
import { configureOn } from './configureSession';

const step = fc.oneof(
  fc.record({
    kind: fc.constant('rename' as const),
    field: fc.nat(),
    name: fc.constantFrom('Kept as', 'Where', 'Renamed here', 'Label 4'),
  }),
  fc.record({ kind: fc.constant('delete' as const), field: fc.nat() }),
  fc.record({ kind: fc.constant('discard' as const), entry: fc.nat() }),
);

describe('columns of fields renamed or deleted offline', () => {
  it('name and leave out fields as the record editor does', async () => {
    const s = await outboxSession({ records: 5 });
    s.outbox.setWorkOffline(true);
    const configure = configureOn(s);
    const reader = new RecordsReader(s.store.db, s.mirror);
    const p = s.portalId;
    const m = s.module.id;
    const recordId = s.mirror.query.queryRecords({ portalId: p, moduleId: m, offset: 0, limit: 1 })
      .rows[0]!.id;
    let changed = 0;
    await fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 6 }), (steps) => {
        for (const st of steps) {
          const custom = configure.fields(p, m).fields.filter((f) => !f.system);
          if (st.kind === 'discard') {
            const entries = s.outbox.list();
            if (entries.length > 0) s.outbox.discard(entries[st.entry % entries.length]!.id);
            continue;
          }
          const field = custom[st.field % Math.max(1, custom.length)];
          if (!field) continue;
          try {
            if (st.kind === 'rename') {
              configure.updateField({
                portalId: p,
                moduleId: m,
                fieldId: field.id,
                changes: { label: st.name },
              });
            } else {
              configure.deleteField(p, m, field.id, field.label);
            }
            changed++;
          } catch (error) {
            expect(String(error)).toMatch(/Nothing was queued/);
          }
        }
        const editor = s.outbox
          .form(p, m, recordId)
          .fields.filter((f) => f.key.startsWith('cf_'))
          .map((f) => [f.key, f.label]);
        const columns = reader.columns(p, m);
        const shown = columns.fields
          .filter((c) => c.key.startsWith('cf_'))
          .map((c) => [c.key, c.label]);
        const sort = (list: string[][]) => [...list].sort((a, b) => (a[0]! < b[0]! ? -1 : 1));
        expect(sort(shown)).toEqual(sort(editor));
        // The Configure view names them so too.
        expect(
          sort(
            configure
              .fields(p, m)
              .fields.filter((f) => !f.system)
              .map((f) => [f.apiName!, f.label]),
          ),
        ).toEqual(sort(shown));
        // The record panel places only fields the columns know.
        const keys = new Set(columns.fields.map((c) => c.key));
        for (const layout of columns.layouts) {
          for (const section of layout.sections) {
            for (const key of section.fields) expect(keys.has(key)).toBe(true);
          }
        }
      }),
      { numRuns: 40 },
    );
    expect(changed).toBeGreaterThan(10);
  });
});
