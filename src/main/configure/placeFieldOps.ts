/**
 * Placing a field on a layout, and moving it within its section or to another section of the
 * same layout, as an outbox operation (pure). The action is `layout.placeField` in the module's
 * layout queue (`layouts:<module id>`), so it goes after the creation of the layout, section or
 * field it names; their temporary ids are rewritten when those answer, as for every layout change.
 *
 * Parameters (`fields[name].value`): `layout_id`, `section_id` and `section_name` (where it goes),
 * `field_id` (the service's id, or `tmp-f-…`), `field_label`, `position` (its 1-based place in
 * the section once there, as the spec's `exact_position`), `placing` (true: it was not on the
 * layout), `from_section_id` and `from_position` (where it was; null when placing), and
 * `section_copied` (the section is a copy of another layout's, made by a layout copied here and
 * not created yet: its id on the service is only known by its name once the layout exists).
 */
import type { ConfigLayout, ConfigSection, PlacedField } from '../../shared/ipc/areas/configure';
import type { OpFields, OutboxOp } from '../outbox/outboxTypes';

// layoutOps.ts's `param`, repeated: layoutOps imports this module.
const param = (op: Pick<OutboxOp, 'fields'>, name: string): unknown => op.fields[name]?.value;

const quote = (s: unknown) => `“${String(s)}”`;

/** "Move “Cost” to Details, place 2" / "Place “Cost” in Details, place 2". */
export function placeFieldSummary(op: Pick<OutboxOp, 'fields'>): string {
  const field = quote(param(op, 'field_label') ?? param(op, 'field_id'));
  const section = String(param(op, 'section_name') ?? 'a section');
  const place = `place ${String(param(op, 'position'))}`;
  return param(op, 'placing') === true
    ? `Place ${field} in ${section}, ${place}`
    : `Move ${field} to ${section}, ${place}`;
}

/**
 * The PUT settings/fields body. A PUT naming an existing field by `id` is an update, and a
 * placement by `exact_position` leaves the field at that place among the others of the section
 * whether or not it was there before (the spec's position; the emulator's `arrange`): sent twice,
 * the second changes nothing. So a resend after a lost answer is safe and needs no lookup first.
 */
export function placeFieldBody(op: Pick<OutboxOp, 'fields'>, module: string, sectionId?: string) {
  return {
    module,
    id: String(param(op, 'field_id')),
    layout_id: String(param(op, 'layout_id')),
    section_id: sectionId ?? String(param(op, 'section_id')),
    position: { exact_position: Number(param(op, 'position')) },
  };
}

/** Where a field is on a layout: its section and 1-based place there; null when it is not on it. */
export function placementOf(
  layout: Pick<ConfigLayout, 'sections'>,
  key: string,
): { section: ConfigSection; position: number } | null {
  for (const section of layout.sections) {
    const index = section.fields.findIndex((field) => field.key === key);
    if (index !== -1) return { section, position: index + 1 };
  }
  return null;
}

/**
 * The overlay of a placement, in place: the field leaves wherever it is on the layout and goes at
 * `position` among the target section's other fields (past the end: last), as the service does.
 * A target section no longer on the layout (deleted on the service meanwhile) leaves it as it is.
 */
export function applyPlacement(
  layout: Pick<ConfigLayout, 'sections'>,
  field: PlacedField,
  sectionId: string,
  position: number,
): void {
  const target = layout.sections.find((section) => section.id === sectionId);
  if (!target) return;
  for (const section of layout.sections) {
    section.fields = section.fields.filter((candidate) => candidate.key !== field.key);
  }
  target.fields.splice(Math.min(Math.max(position, 1) - 1, target.fields.length), 0, field);
}

/**
 * Why a placement is refused (words, for the control that asked), or null. `key` is the field as
 * sections list it; `fieldName` its label.
 */
export function placementProblem(
  layout: Pick<ConfigLayout, 'name' | 'sections'>,
  key: string,
  fieldName: string,
  sectionId: string,
  position: number,
): string | null {
  const target = layout.sections.find((section) => section.id === sectionId);
  if (!target) return `Section ${sectionId} is not in “${layout.name}”.`;
  const others = target.fields.filter((field) => field.key !== key).length;
  if (!Number.isInteger(position) || position < 1 || position > others + 1) {
    return `Place ${position}: ${fieldName} can go at places 1 to ${others + 1} of ${target.name}.`;
  }
  return null;
}

export type PlacementPlan =
  | { kind: 'none' }
  | { kind: 'insert' }
  | { kind: 'fold'; seq: number; fields: OpFields }
  | { kind: 'drop'; seq: number };

/**
 * Where a placement goes in the layout queue. A field moved again while its last move is still
 * the queue's newest operation and unsent folds into it: the service's end state after placing a
 * field depends only on its final section and place (the others keep their order), so one request
 * does what both would. A move back to where the folded one started drops it. Anything queued
 * after the first move (another field placed, a section deleted) may shift places, so then a new
 * operation is queued instead.
 */
export function planPlacement(
  queue: readonly OutboxOp[],
  change: {
    layoutId: string;
    fieldId: string;
    sectionId: string;
    sectionName: string;
    sectionCopied: boolean;
    position: number;
  },
  current: { sectionId: string; position: number } | null,
): PlacementPlan {
  if (current && current.sectionId === change.sectionId && current.position === change.position) {
    return { kind: 'none' };
  }
  const last = queue.at(-1);
  if (
    !last ||
    last.kind !== 'config' ||
    last.action !== 'layout.placeField' ||
    last.state !== 'pending' ||
    last.sentBody !== null ||
    param(last, 'layout_id') !== change.layoutId ||
    param(last, 'field_id') !== change.fieldId
  ) {
    return { kind: 'insert' };
  }
  if (
    param(last, 'placing') !== true &&
    param(last, 'from_section_id') === change.sectionId &&
    param(last, 'from_position') === change.position
  ) {
    return { kind: 'drop', seq: last.seq };
  }
  const fields: OpFields = {
    ...last.fields,
    section_id: { value: change.sectionId, base: null },
    section_name: { value: change.sectionName, base: null },
    position: { value: change.position, base: null },
  };
  if (change.sectionCopied) fields.section_copied = { value: true, base: null };
  else delete fields.section_copied;
  return { kind: 'fold', seq: last.seq, fields };
}
