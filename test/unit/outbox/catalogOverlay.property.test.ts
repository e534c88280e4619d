/**
 * The record editor's options under queued option changes (catalogOverlay.ts, reading the
 * operations by their stored parameters) agree with the Configure view's overlay of the same
 * operations (configure/optionOps.ts overlayOptions): any adds, renames, moves and removals, in
 * any order. And a mirrored record's value follows: renamed by the new name, removed cleared.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { paramFields } from '../../../src/main/configure/layoutOps';
import { optionOpAction, overlayOptions } from '../../../src/main/configure/optionOps';
import { overlayCatalogFields, relabelled } from '../../../src/main/outbox/catalogOverlay';
import type { EditableField } from '../../../src/shared/ipc/areas/outbox';
import type { OptionAction } from '../../../src/shared/ipc/areas/configure';
import { outboxOp } from './outboxOp';

const FIELD_ID = '77';
const MIRRORED = ['Red', 'Green', 'Blue', 'Cyan'].map((name, i) => ({ id: String(i + 1), name }));

type Step =
  | { kind: 'add'; name: string }
  | { kind: 'rename'; pick: number; name: string }
  | { kind: 'move'; pick: number; position: number }
  | { kind: 'remove'; pick: number };

const name = fc.constantFrom('Red', 'Green', 'Blue', 'Cyan', 'Plum', 'Teal', 'Ω');
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('add' as const), name }),
  fc.record({ kind: fc.constant('rename' as const), pick: fc.nat(20), name }),
  fc.record({
    kind: fc.constant('move' as const),
    pick: fc.nat(20),
    position: fc.integer({ min: 1, max: 8 }),
  }),
  fc.record({ kind: fc.constant('remove' as const), pick: fc.nat(20) }),
);

describe('the editor offers the options the Configure view shows', () => {
  it('for any sequence of option changes', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 12 }), (steps) => {
        // Each step picks among the options as the view shows them then, as a user would.
        const ops = [];
        let shown: { id: string; name: string }[] = MIRRORED;
        let added = 0;
        for (const s of steps) {
          const op = (action: OptionAction, values: Record<string, unknown>) =>
            outboxOp({
              kind: 'config',
              recordId: 'layouts:2',
              action: optionOpAction(action),
              fields: paramFields({ field_id: FIELD_ID, ...values }),
            });
          const picked =
            shown.length > 0 ? shown[('pick' in s ? s.pick : 0) % shown.length]! : null;
          if (s.kind === 'add') {
            ops.push(op('addOptions', { options: [{ id: `tmp-o-${++added}`, name: s.name }] }));
          } else if (!picked) {
            continue;
          } else if (s.kind === 'rename') {
            ops.push(
              op('renameOptions', {
                options: [{ id: picked.id, name: s.name }],
                was: { [picked.id]: picked.name },
              }),
            );
          } else if (s.kind === 'move') {
            ops.push(op('moveOption', { options: [picked], position: s.position }));
          } else {
            ops.push(op('removeOptions', { options: [picked] }));
          }
          shown = overlayOptions(
            MIRRORED.map((o) => ({ ...o, records: 0, localOnly: false, pending: [] })),
            ops,
          ).map(({ id, name }) => ({ id, name }));
        }
        const field: EditableField = {
          key: 'cf_colour',
          label: 'Colour',
          type: 'multi_select',
          mandatory: false,
          options: MIRRORED,
          users: [],
          usersRestricted: false,
          statuses: [],
          currencyCode: 'USD',
          precision: 2,
        };
        const overlay = overlayCatalogFields([field], () => FIELD_ID, ops);
        expect(overlay.fields[0]!.options).toEqual(shown);
        // A record holding every mirrored option holds, once the changes go, each one still
        // there by its name then.
        const byId = new Map(shown.map((o) => [o.id, o.name]));
        expect(
          relabelled(
            MIRRORED.map((o) => o.name),
            overlay.relabel.get('cf_colour'),
          ),
        ).toEqual(MIRRORED.filter((o) => byId.has(o.id)).map((o) => byId.get(o.id)));
      }),
      { numRuns: 300 },
    );
  });
});
