/**
 * A module's queue (moduleOps.planModuleChange) read back through the overlay (moduleOverlay.ts)
 * against a plain model that applies every change in order: whatever the admin does offline
 * (renames back and forth, toggles, overview and layout type), the Configure view shows what the
 * model says, no update carries a setting equal to its base, and undone toggles leave nothing.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  moduleQueue,
  opAction,
  opFields,
  planModuleChange,
  settingsByKey,
  type ModuleSettingsByKey,
} from '../../../src/main/configure/moduleOps';
import { overlayModules, type MirroredModule } from '../../../src/main/configure/moduleOverlay';
import type { OutboxOp } from '../../../src/main/outbox/outboxTypes';
import { outboxOp } from '../outbox/outboxOp';

const SERVER: MirroredModule = {
  id: '9001',
  apiName: 'assets',
  singularName: 'Asset',
  pluralName: 'Assets',
  iconClass: 'icon-box',
  isActive: true,
  isDefault: false,
  details: {
    is_all_projects: true,
    is_overview_needed: false,
    module_property: { default_layout_type: 'public' },
  },
  records: 3,
};

type Step =
  | {
      kind: 'update';
      changes: {
        pluralName?: string;
        isOverviewNeeded?: boolean;
        defaultLayoutType?: 'public' | 'private';
      };
    }
  | { kind: 'activate' | 'deactivate' }
  | { kind: 'sent' };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc
    .record(
      {
        pluralName: fc.constantFrom('Assets', 'Equipment', 'Gear'),
        isOverviewNeeded: fc.boolean(),
        defaultLayoutType: fc.constantFrom('public' as const, 'private' as const),
      },
      { requiredKeys: [] },
    )
    .map((changes) => ({ kind: 'update' as const, changes })),
  fc.constantFrom({ kind: 'activate' as const }, { kind: 'deactivate' as const }),
  // The head of the queue was sent (claimed): nothing more folds into it.
  fc.constant({ kind: 'sent' as const }),
);

function shownOf(ops: readonly OutboxOp[]) {
  return overlayModules({ mirrored: [SERVER], bin: [], ops, projectNames: new Map() })[0]!;
}

describe('a module queue read through the overlay', () => {
  it('shows what applying every change in order shows', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 14 }), (steps) => {
        let ops: OutboxOp[] = [];
        let seq = 0;
        const model = {
          pluralName: 'Assets',
          isOverviewNeeded: false,
          defaultLayoutType: 'public',
          active: true,
        };
        for (const s of steps) {
          if (s.kind === 'sent') {
            const open = ops.find((op) => op.sentBody === null);
            if (open)
              ops = ops.map((op) =>
                op === open ? { ...op, state: 'sending', sentBody: '{}' } : op,
              );
            continue;
          }
          const shown = shownOf(ops);
          const base: ModuleSettingsByKey = {
            singular_name: shown.singularName,
            plural_name: shown.pluralName,
            icon_class: shown.iconClass,
            is_global_module: shown.isGlobal,
            is_all_projects: shown.isAllProjects,
            is_overview_needed: shown.isOverviewNeeded,
            default_layout_type: shown.defaultLayoutType,
            projects: [],
          };
          const action = s.kind;
          let fields = {};
          if (s.kind === 'update') {
            Object.assign(model, s.changes);
            // As the service does: settings equal to what is shown are not a change.
            fields = Object.fromEntries(
              Object.entries(opFields(settingsByKey(s.changes), base)).filter(
                ([, entry]) => JSON.stringify(entry.value) !== JSON.stringify(entry.base),
              ),
            );
            if (Object.keys(fields).length === 0) continue;
          } else {
            model.active = s.kind === 'activate';
            if ((shown.state === 'active') === model.active) continue;
          }
          const plan = planModuleChange(ops, action, fields);
          if (plan.kind === 'insert') {
            ops.push(
              outboxOp({
                seq: ++seq,
                kind: 'config',
                action: opAction(action),
                moduleId: SERVER.id,
                recordId: moduleQueue(SERVER.id),
                fields: plan.fields,
              }),
            );
          } else if (plan.kind === 'fold') {
            ops = ops.map((op) => (op.seq === plan.seq ? { ...op, fields: plan.fields } : op));
          } else if (plan.kind === 'drop') {
            ops = ops.filter((op) => !plan.seqs.includes(op.seq));
          }
        }
        const shown = shownOf(ops);
        expect(shown.pluralName).toBe(model.pluralName);
        expect(shown.isOverviewNeeded).toBe(model.isOverviewNeeded);
        expect(shown.defaultLayoutType).toBe(model.defaultLayoutType);
        expect(shown.state).toBe(model.active ? 'active' : 'inactive');
        for (const op of ops) {
          if (op.action !== 'module.update' || op.sentBody !== null) continue;
          for (const [key, entry] of Object.entries(op.fields)) {
            expect(JSON.stringify(entry.value), key).not.toBe(JSON.stringify(entry.base));
          }
        }
        // With nothing sent, the queue is at most one update and one toggle.
        if (ops.every((op) => op.sentBody === null)) expect(ops.length).toBeLessThanOrEqual(2);
      }),
      { numRuns: 500 },
    );
  });
});
