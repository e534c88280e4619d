/**
 * A record edit held in flight while random option renames, removals, discards of them in the
 * Outbox and edits of other records are queued, some before the edit settles (answered,
 * unanswered or its answer lost) and some after; then everything replayed against the emulator.
 * Every record ends holding the option last chosen for it, by the name the Configure view shows
 * at the end (nothing if that option is gone), and nothing is refused or left in the Outbox. A
 * step refused in words changes nothing. Renames back to an earlier name and discards make chains
 * collapse (A → B → A, the first discarded) while the edit is in flight and after it settled.
 * It found an option removable that the edit in flight would hold once it followed a rename, and
 * edits made after a removal left based on the cleared value once the removal was discarded.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConfigRefused } from '../../../src/main/configure/configureService';
import { LedgerError } from '../../../src/main/outbox/ledgerError';
import { outboxSession } from '../outbox/outboxSession';
import { configureOn } from './configureSession';
import { holdFirstPatch, type Outcome } from './heldPatch';

type Step =
  | { kind: 'rename'; pick: number; back: boolean }
  | { kind: 'remove'; pick: number }
  | { kind: 'discard'; pick: number }
  | { kind: 'edit'; record: number; pick: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('rename' as const), pick: fc.nat(30), back: fc.boolean() }),
  fc.record({ kind: fc.constant('rename' as const), pick: fc.nat(30), back: fc.boolean() }),
  fc.record({ kind: fc.constant('remove' as const), pick: fc.nat(30) }),
  fc.record({ kind: fc.constant('discard' as const), pick: fc.nat(30) }),
  fc.record({ kind: fc.constant('discard' as const), pick: fc.nat(30) }),
  fc.record({ kind: fc.constant('edit' as const), record: fc.nat(2), pick: fc.nat(30) }),
);

const until = async (check: () => boolean, what: () => string) => {
  for (let i = 0; i < 500; i++) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`Timed out waiting for ${what()}`);
};

const OTHERS = 2;

describe('option changes and their discards while a record edit is in flight', () => {
  it('leave every record holding the option last chosen, by its final name, nothing refused', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<Outcome>('answered', 'unanswered', 'answer lost'),
        fc.array(step, { minLength: 1, maxLength: 8 }),
        fc.nat(8),
        async (outcome, steps, settleAt) => {
          run++;
          const s = await outboxSession({ records: 30 });
          const configure = configureOn(s);
          const category = configure
            .fields(s.portalId, s.module.id)
            .fields.find((f) => f.apiName === 'cf_category')!;
          const options = () =>
            configure.fieldOptions(s.portalId, s.module.id, category.id).options;
          const [sent, ...others] = s.recordsWithField('cf_category').slice(0, OTHERS + 1) as [
            string,
            ...string[],
          ];
          // What each record should end holding, by option id (null: nothing).
          const expected = new Map<string, string | null>();
          for (const id of [sent, ...others]) {
            const held = s.outbox.form(s.portalId, s.module.id, id).values.cf_category;
            expected.set(id, options().find((o) => o.name === held)?.id ?? null);
          }
          // Names an option had, to rename it back to (a chain that collapses).
          const earlier = new Map(options().map((o) => [o.id, [o.name]]));
          const chosen = options().find((o) => o.id !== expected.get(sent))!;
          const { inFlight, release } = holdFirstPatch(s, sent, outcome);
          s.outbox.edit(s.portalId, sent, { cf_category: chosen.name });
          expected.set(sent, chosen.id);
          await inFlight;
          const edit = s.outbox.repo.allOps()[0]!;
          expect(edit.state).toBe('sending');

          let fresh = 0;
          const settle = async () => {
            // Nothing else goes until every step is queued: the replay is held offline.
            s.outbox.setWorkOffline(true);
            s.setFault(() => 'refuse');
            release();
            await until(
              () => s.outbox.repo.op(edit.seq)?.state !== 'sending',
              () => 'the edit to settle',
            );
          };
          for (const [i, st] of steps.entries()) {
            if (i === settleAt) await settle();
            const shown = options();
            const picked = shown[('pick' in st ? st.pick : 0) % shown.length]!;
            const change = { portalId: s.portalId, moduleId: s.module.id, fieldId: category.id };
            const before = JSON.stringify(s.outbox.repo.allOps());
            try {
              if (st.kind === 'rename') {
                const names = earlier.get(picked.id)!;
                const name = st.back && names.length > 1 ? names[0]! : `Renamed ${run}.${++fresh}`;
                configure.changeOptions({ ...change, rename: [{ id: picked.id, name }] });
                names.push(name);
              } else if (st.kind === 'remove') {
                if (shown.length === 1) continue;
                configure.changeOptions({ ...change, remove: [picked.id] });
              } else if (st.kind === 'discard') {
                const queued = s.outbox.repo.allOps().filter((op) => op.kind === 'config');
                if (queued.length === 0) continue;
                s.outbox.discard(queued[st.pick % queued.length]!.seq);
              } else {
                const record = others[st.record % others.length]!;
                const form = s.outbox.form(s.portalId, s.module.id, record);
                const offered = form.fields.find((f) => f.key === 'cf_category')!.options;
                const choice = offered[st.pick % offered.length]!;
                s.outbox.edit(s.portalId, record, { cf_category: choice.name });
                expected.set(record, shown.find((o) => o.name === choice.name)!.id);
              }
            } catch (error) {
              // Refused in words: nothing changed.
              if (!(error instanceof ConfigRefused) && !(error instanceof LedgerError)) throw error;
              expect(JSON.stringify(s.outbox.repo.allOps())).toBe(before);
            }
          }
          if (settleAt >= steps.length) await settle();

          const finalNames = new Map(options().map((o) => [o.id, o.name]));
          s.setFault(() => 'pass');
          s.outbox.setWorkOffline(false);
          await until(
            () =>
              s.outbox.status().total === 0 ||
              s.outbox.list().some((e) => e.state !== 'pending' && e.state !== 'sending'),
            () => `the outbox to empty: ${JSON.stringify(s.outbox.list())}`,
          );
          await s.outbox.idle();
          expect(s.outbox.list()).toEqual([]);
          for (const [id, option] of expected) {
            const want = option === null ? null : (finalNames.get(option) ?? null);
            expect({ id, held: (await s.serverRecord(id)).cf_category ?? null }).toEqual({
              id,
              held: want,
            });
          }
        },
      ),
      {
        numRuns: 40,
        examples: [
          // Found in CI: the edit delivered, then a refused removal rewrote the rename's in-flight
          // list (dropping the delivered edit) before refusing. It now leaves at delivery.
          [
            'answered',
            [
              { kind: 'edit', record: 0, pick: 29 },
              { kind: 'rename', pick: 0, back: false },
              { kind: 'remove', pick: 0 },
              { kind: 'remove', pick: 19 },
              { kind: 'rename', pick: 0, back: false },
            ],
            3,
          ],
        ],
      },
    );
  }, 300_000);
});
