/**
 * The pure rules of placing and moving a field on a layout (placeFieldOps.ts) and how the layouts
 * overlay shows them with fields created and deleted here (layoutOps.ts): where the field lands,
 * what is refused and in which words, when a second move folds into the first or drops it, what
 * is sent, and the Outbox line.
 */
import { describe, expect, it } from 'vitest';
import { layoutRequest, overlayLayouts, paramFields } from '../../../src/main/configure/layoutOps';
import {
  applyPlacement,
  placeFieldSummary,
  placementOf,
  placementProblem,
  planPlacement,
} from '../../../src/main/configure/placeFieldOps';
import type { OutboxOp } from '../../../src/main/outbox/outboxTypes';
import type { ConfigLayout, PlacedField } from '../../../src/shared/ipc/areas/configure';

const field = (key: string, label = key): PlacedField => ({
  key,
  label,
  type: 'single_line',
  system: false,
});

function layout(): ConfigLayout {
  return {
    id: '10',
    name: 'Standard',
    type: 'public',
    isDefault: true,
    localOnly: false,
    pending: [],
    sections: [
      { id: '11', name: 'Overview', localOnly: false, fields: [field('a'), field('b')] },
      { id: '12', name: 'Details', localOnly: false, fields: [field('c'), field('d'), field('e')] },
    ],
  };
}

const keys = (l: Pick<ConfigLayout, 'sections'>) =>
  l.sections.map((s) => s.fields.map((f) => f.key));

let seq = 0;
function op(action: string, values: Record<string, unknown>, over: Partial<OutboxOp> = {}) {
  return {
    seq: ++seq,
    portalId: '1',
    moduleId: '2',
    recordId: 'layouts:2',
    kind: 'config',
    state: 'pending',
    fields: paramFields(values),
    commentId: null,
    content: null,
    baseContent: null,
    edits: 0,
    queuedAt: '',
    updatedAt: '',
    attempts: 0,
    nextAttemptAt: null,
    sentBody: null,
    sentAt: null,
    error: null,
    conflict: null,
    action,
    ...over,
  } satisfies OutboxOp;
}

const move = (values: Record<string, unknown>, over: Partial<OutboxOp> = {}) =>
  op(
    'layout.placeField',
    {
      layout_id: '10',
      field_id: '900',
      field_label: 'Cost',
      section_id: '12',
      section_name: 'Details',
      position: 2,
      placing: false,
      from_section_id: '11',
      from_position: 1,
      ...values,
    },
    over,
  );

const change = {
  layoutId: '10',
  fieldId: '900',
  sectionId: '12',
  sectionName: 'Details',
  sectionCopied: false,
  position: 3,
};

describe('a placement in the overlay', () => {
  it('moves within a section, across sections, and places a new one; past the end is last', () => {
    const l = layout();
    applyPlacement(l, field('e'), '12', 1);
    expect(keys(l)).toEqual([
      ['a', 'b'],
      ['e', 'c', 'd'],
    ]);
    applyPlacement(l, field('a'), '12', 2);
    expect(keys(l)).toEqual([['b'], ['e', 'a', 'c', 'd']]);
    applyPlacement(l, field('z'), '11', 9);
    expect(keys(l)).toEqual([
      ['b', 'z'],
      ['e', 'a', 'c', 'd'],
    ]);
    expect(placementOf(l, 'c')).toMatchObject({ section: { id: '12' }, position: 3 });
    expect(placementOf(l, 'nowhere')).toBeNull();
  });

  it('leaves the layout as it is when the target section is gone', () => {
    const l = layout();
    applyPlacement(l, field('a'), '99', 1);
    expect(keys(l)).toEqual(keys(layout()));
  });
});

describe('what is refused, in words', () => {
  it('a section not on the layout, and a place out of range (the field itself not counted)', () => {
    const l = layout();
    expect(placementProblem(l, 'a', 'A', '99', 1)).toBe('Section 99 is not in “Standard”.');
    expect(placementProblem(l, 'a', 'A', '12', 5)).toBe(
      'Place 5: A can go at places 1 to 4 of Details.',
    );
    expect(placementProblem(l, 'c', 'C', '12', 4)).toBe(
      'Place 4: C can go at places 1 to 3 of Details.',
    );
    expect(placementProblem(l, 'c', 'C', '12', 0)).toMatch(/places 1 to 3/);
    expect(placementProblem(l, 'a', 'A', '12', 4)).toBeNull();
    expect(placementProblem(l, 'c', 'C', '12', 3)).toBeNull();
  });
});

describe('where a placement goes in the queue', () => {
  it('nothing when the field is already there', () => {
    expect(planPlacement([], change, { sectionId: '12', position: 3 })).toEqual({ kind: 'none' });
  });

  it('folds into the same field’s move when it is the newest unsent operation', () => {
    const first = move({});
    const plan = planPlacement([first], change, { sectionId: '12', position: 2 });
    expect(plan).toMatchObject({ kind: 'fold', seq: first.seq });
    if (plan.kind !== 'fold') return;
    expect(plan.fields.position!.value).toBe(3);
    // Where it started is kept: a later move back there drops the operation.
    expect(plan.fields.from_section_id!.value).toBe('11');
    expect(plan.fields.from_position!.value).toBe(1);
  });

  it('drops the move when the field goes back where it started', () => {
    const first = move({});
    expect(planPlacement([first], { ...change, sectionId: '11', position: 1 }, null)).toEqual({
      kind: 'drop',
      seq: first.seq,
    });
    // A field placed here never goes "back": the placement stays, folded.
    const placed = move({ placing: true, from_section_id: null, from_position: null });
    expect(
      planPlacement([placed], { ...change, sectionId: '11', position: 1 }, null),
    ).toMatchObject({ kind: 'fold' });
  });

  it('a new operation after anything else, or when the last one left or is another field’s', () => {
    const first = move({});
    const after = op('layout.putSection', { layout_id: '10', name: 'X' });
    const current = { sectionId: '12', position: 2 };
    expect(planPlacement([first, after], change, current)).toEqual({ kind: 'insert' });
    expect(planPlacement([move({}, { state: 'sending' })], change, current)).toEqual({
      kind: 'insert',
    });
    expect(planPlacement([move({}, { sentBody: '{}' })], change, current)).toEqual({
      kind: 'insert',
    });
    expect(planPlacement([move({ field_id: '901' })], change, current)).toEqual({
      kind: 'insert',
    });
    expect(planPlacement([move({ layout_id: '20' })], change, current)).toEqual({
      kind: 'insert',
    });
  });

  it('a folded move into a copied section carries the mark; one out of it loses it', () => {
    const first = move({ section_copied: true });
    const plan = planPlacement([first], change, null);
    expect(plan.kind === 'fold' && plan.fields.section_copied).toBeUndefined();
    const again = planPlacement([move({})], { ...change, sectionCopied: true }, null);
    expect(again.kind === 'fold' && again.fields.section_copied?.value).toBe(true);
  });
});

describe('what is sent and said', () => {
  it('a PUT settings/fields with the id, layout, section and exact place', () => {
    const placed = move({ placing: true });
    expect(layoutRequest(placed, 'assets')).toEqual({
      method: 'PUT',
      path: '/api/v3/portal/1/settings/fields',
      body: {
        module: 'assets',
        id: '900',
        layout_id: '10',
        section_id: '12',
        position: { exact_position: 2 },
      },
    });
    expect(placeFieldSummary(placed)).toBe('Place “Cost” in Details, place 2');
    expect(placeFieldSummary(move({}))).toBe('Move “Cost” to Details, place 2');
  });
});

describe('the layouts overlay with fields made, placed and deleted here', () => {
  it('a created field shows last in its section (the first one by default) and moves by its temporary id', () => {
    const fieldsByKey = new Map([['c', field('c', 'Cost')]]);
    const keyOfFieldId = new Map([
      ['900', 'c'],
      ['901', 'a'],
    ]);
    const ops = [
      op('field.createField', {
        field_id: 'tmp-f-0000000000000001',
        layout_id: '10',
        label: 'Inspector',
        type: 'single_line',
      }),
      op('field.createField', {
        field_id: 'tmp-f-0000000000000002',
        layout_id: '10',
        section_id: '12',
        label: 'Auditor',
        type: 'single_line',
      }),
      move({ field_id: 'tmp-f-0000000000000001', section_id: '12', position: 1 }),
      move({ field_id: '900', section_id: '11', position: 1 }),
      op('field.deleteField', { field_id: '901' }),
    ];
    const [shown] = overlayLayouts([layout()], ops, fieldsByKey, keyOfFieldId);
    expect(keys(shown!)).toEqual([
      ['c', 'b'],
      ['tmp-f-0000000000000001', 'd', 'e', 'tmp-f-0000000000000002'],
    ]);
    expect(shown!.sections[1]!.fields[0]).toMatchObject({ label: 'Inspector', system: false });
    // Labels are the mirror's where it has them; the operation marks the layout as pending.
    expect(shown!.sections[0]!.fields[0]!.label).toBe('Cost');
    expect(shown!.pending.map((p) => p.action)).toEqual(['placeField', 'placeField']);
  });
});
