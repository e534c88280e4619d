/**
 * A rename discarded from a field's queue of option changes (planRenameDiscard): the later
 * changes it leaves, rewritten, must be exactly those the queue would hold had the rename never
 * been asked for (each built as the Configure service builds them: a rename's `was` is the option's
 * name then, a rename to the name it has is not queued, moves and removals name the option as it
 * is then); and the queued record changes' relabel takes each option's end name with the rename
 * to its end name without it. Unless a later change takes a name the discard gives back: the
 * queue left would then be refused by the service, and optionQueueClash finds it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  optionOpAction,
  optionQueueClash,
  planRenameDiscard,
} from '../../../src/main/configure/optionOps';
import type { OutboxOp } from '../../../src/main/outbox/outboxTypes';
import { outboxOp } from '../outbox/outboxOp';

const IDS = ['o1', 'o2', 'o3'];
const SERVICE: Record<string, string> = { o1: 'Alpha', o2: 'Beta', o3: 'Gamma' };
const NAMES = ['Alpha', 'Beta', 'Gamma', 'P', 'Q'];

type Intent =
  | { kind: 'rename'; to: [string, string][] }
  | { kind: 'remove'; id: string }
  | { kind: 'move'; id: string; position: number };

const intent: fc.Arbitrary<Intent> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc
      .uniqueArray(fc.tuple(fc.constantFrom(...IDS), fc.constantFrom(...NAMES)), {
        minLength: 1,
        maxLength: 2,
        selector: ([id]) => id,
      })
      .map((to) => ({ kind: 'rename' as const, to })),
  },
  { weight: 1, arbitrary: fc.constantFrom(...IDS).map((id) => ({ kind: 'remove' as const, id })) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom(...IDS), fc.integer({ min: 1, max: 3 }))
      .map(([id, position]) => ({ kind: 'move' as const, id, position })),
  },
);

const param = (value: unknown) => ({ value, base: null });

/** The queue the intents make, each op tagged with its intent's index; and the end names. */
function build(intents: readonly Intent[], skip = -1) {
  const names = new Map(Object.entries(SERVICE));
  let refused = 0;
  const ops: { intent: number; op: OutboxOp }[] = [];
  const queue = (index: number, action: string, fields: Record<string, unknown>) =>
    ops.push({
      intent: index,
      op: outboxOp({
        kind: 'config',
        action: optionOpAction(action as never),
        recordId: 'layouts:2',
        fields: Object.fromEntries(
          Object.entries({ field_id: 'f1', ...fields }).map(([k, v]) => [k, param(v)]),
        ),
      }),
    });
  intents.forEach((step, index) => {
    if (index === skip) return;
    if (step.kind === 'rename') {
      const renames = step.to.filter(([id, name]) => names.has(id) && names.get(id) !== name);
      if (renames.length === 0) return;
      // Names stay unique: the Configure service (and the service) refuses a rename otherwise.
      const next = new Map(names);
      for (const [id, name] of renames) next.set(id, name);
      if (new Set([...next.values()].map((n) => n.toLowerCase())).size < next.size) {
        refused++;
        return;
      }
      queue(index, 'renameOptions', {
        options: renames.map(([id, name]) => ({ id, name })),
        was: Object.fromEntries(renames.map(([id]) => [id, names.get(id)!])),
      });
      for (const [id, name] of renames) names.set(id, name);
    } else if (names.has(step.id)) {
      const options = [{ id: step.id, name: names.get(step.id)! }];
      if (step.kind === 'remove') {
        queue(index, 'removeOptions', { options });
        names.delete(step.id);
      } else queue(index, 'moveOption', { options, position: step.position });
    }
  });
  return { ops, names, refused };
}

/** The intent a queued operation carries out. */
function asIntent(op: OutboxOp): Intent {
  const options = op.fields.options!.value as { id: string; name: string }[];
  if (op.action === 'option.renameOptions') {
    return { kind: 'rename', to: options.map(({ id, name }) => [id, name]) };
  }
  if (op.action === 'option.removeOptions') return { kind: 'remove', id: options[0]!.id };
  return { kind: 'move', id: options[0]!.id, position: op.fields.position!.value as number };
}

const shape = (op: OutboxOp) => ({ action: op.action, fields: op.fields });

describe('planRenameDiscard', () => {
  it('leaves the later changes as if the rename had never been queued', () => {
    fc.assert(
      fc.property(fc.array(intent, { minLength: 1, maxLength: 8 }), fc.nat(), (intents, pick) => {
        // What the user asked that was queued (a rename to the name the option has is not):
        // built again from only that, the queue is the same.
        const queued = build(intents).ops.map(({ op }) => asIntent(op));
        const { ops, names: endWith } = build(queued);
        const renames = ops.filter(({ op }) => op.action === 'option.renameOptions');
        fc.pre(renames.length > 0);
        const discarded = renames[pick % renames.length]!;
        const later = ops.filter(({ op }) => op.seq > discarded.op.seq).map(({ op }) => op);
        const { rewrites, relabel } = planRenameDiscard(discarded.op, later);

        const rewritten = new Map(rewrites.map(({ seq, fields }) => [seq, fields]));
        const after = later.flatMap((op) => {
          if (!rewritten.has(op.seq)) return [shape(op)];
          const fields = rewritten.get(op.seq);
          return fields === null ? [] : [shape({ ...op, fields: fields! })];
        });
        const { ops: without, names: endWithout, refused } = build(queued, discarded.intent);
        const mirrored = Object.entries(SERVICE).map(([id, name]) => ({
          id,
          name,
          records: 0,
          localOnly: false,
          pending: [],
        }));
        const afterOps = later.flatMap((op) => {
          if (!rewritten.has(op.seq)) return [op];
          const fields = rewritten.get(op.seq);
          return fields === null ? [] : [{ ...op, fields: fields! }];
        });
        // A later change taking the name the discard gives back: the service would refuse it,
        // and the discard is refused for it (optionQueueClash); otherwise nothing clashes.
        const clash = optionQueueClash(mirrored, [
          ...ops.filter(({ op }) => op.seq < discarded.op.seq).map(({ op }) => op),
          ...afterOps,
        ]);
        expect(clash !== null).toBe(refused > 0);
        if (refused > 0) return;
        expect(after).toEqual(
          without.filter(({ intent: i }) => i > discarded.intent).map(({ op }) => shape(op)),
        );

        const expected = new Map<string, string>();
        for (const [id, name] of endWith) {
          const other = endWithout.get(id);
          if (other !== undefined && other !== name) expected.set(name, other);
        }
        expect(relabel).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  });
});
