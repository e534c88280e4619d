/**
 * Random interleavings of option renames, additions and removals of a pick list and edits of
 * records choosing its options, all queued offline, then replayed against the emulator: every
 * record holds exactly the option the user last chose, by that option's final name (a record not
 * edited: the option it held, renamed, or nothing if removed), and nothing is refused or left in
 * the Outbox. A removal that a queued edit holds is refused before queuing (and changes nothing).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConfigRefused } from '../../../src/main/configure/configureService';
import { outboxSession } from '../outbox/outboxSession';
import { configureOn } from './configureSession';

type Step =
  | { kind: 'rename'; pick: number }
  | { kind: 'add' }
  | { kind: 'remove'; pick: number }
  | { kind: 'edit'; record: number; pick: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('rename' as const), pick: fc.nat(30) }),
  fc.record({ kind: fc.constant('add' as const) }),
  fc.record({ kind: fc.constant('remove' as const), pick: fc.nat(30) }),
  fc.record({ kind: fc.constant('edit' as const), record: fc.nat(3), pick: fc.nat(30) }),
  fc.record({ kind: fc.constant('edit' as const), record: fc.nat(3), pick: fc.nat(30) }),
);

const RECORDS = 4;

describe('record edits interleaved with option changes, replayed', () => {
  it('leave every record holding the option last chosen, by its final name, nothing refused', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 10 }), async (steps) => {
        run++;
        const s = await outboxSession({ records: 30 });
        const configure = configureOn(s);
        const assets = configure.modules(s.portalId).modules.find((m) => m.apiName === 'assets')!;
        const category = configure
          .fields(s.portalId, assets.id)
          .fields.find((f) => f.apiName === 'cf_category')!;
        const options = () => configure.fieldOptions(s.portalId, assets.id, category.id).options;
        const records = s.recordsWithField('cf_category').slice(0, RECORDS);
        // What each record should end holding, by option id (null: nothing).
        const expected = new Map<string, string | null>();
        for (const id of records) {
          const held = s.outbox.form(s.portalId, assets.id, id).values.cf_category;
          expected.set(id, options().find((o) => o.name === held)?.id ?? null);
        }
        s.outbox.setWorkOffline(true);
        let fresh = 0;
        const removed = new Set<string>();
        for (const st of steps) {
          const shown = options();
          const picked = shown[('pick' in st ? st.pick : 0) % Math.max(1, shown.length)];
          const change = { portalId: s.portalId, moduleId: assets.id, fieldId: category.id };
          if (st.kind === 'add') {
            configure.changeOptions({ ...change, add: [`Added ${run}.${++fresh}`] });
          } else if (!picked) {
            continue;
          } else if (st.kind === 'rename') {
            configure.changeOptions({
              ...change,
              rename: [{ id: picked.id, name: `Renamed ${run}.${++fresh}` }],
            });
          } else if (st.kind === 'remove') {
            if (shown.length === 1) continue;
            try {
              configure.changeOptions({ ...change, remove: [picked.id] });
              removed.add(picked.id);
            } catch (error) {
              // Refused only while a queued edit holds it: nothing was queued.
              expect(error).toBeInstanceOf(ConfigRefused);
              expect(options().map((o) => o.id)).toContain(picked.id);
            }
          } else {
            const record = records[st.record % records.length]!;
            // The user picks among what the editor offers.
            const form = s.outbox.form(s.portalId, assets.id, record);
            const offered = form.fields.find((f) => f.key === 'cf_category')!.options;
            const choice = offered[st.pick % offered.length]!;
            expect(shown.map((o) => o.name)).toContain(choice.name);
            s.outbox.edit(s.portalId, record, { cf_category: choice.name });
            expect(expected.get(record) === undefined).toBe(false);
            expected.set(record, choice.id);
          }
        }
        const finalNames = new Map(options().map((o) => [o.id, o.name]));
        const want = new Map(
          [...expected].map(([id, option]) => [
            id,
            option === null || removed.has(option) ? null : (finalNames.get(option) ?? null),
          ]),
        );

        s.outbox.setWorkOffline(false);
        await s.outbox.idle();
        expect(s.outbox.list()).toEqual([]);
        const served = new Map(
          records.map((id) => [
            id,
            (s.emulator.state.db
              .prepare(`SELECT custom ->> '$.cf_category' FROM entities WHERE id = ?`)
              .pluck()
              .get(Number(id)) as string | null) ?? null,
          ]),
        );
        expect(served).toEqual(want);
      }),
      { numRuns: 25 },
    );
  }, 120_000);
});
