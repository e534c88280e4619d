/**
 * Layouts and sections as outbox operations (pure). Every change of a module's layouts queues in
 * one queue, `layouts:<module id>`, so a section added to a layout made offline goes after the
 * layout's creation; the module's own creation is waited for by the send (its id is remapped into
 * these operations when it answers). A layout or a section created here has a temporary id
 * (`tmp-l-…`, `tmp-s-…`) in the operations that name it until its creation answers, when the
 * ids in every later operation are rewritten (`rewriteTempId`). Parameters live in `fields` as
 * `{name: {value, base}}`, as a record's do.
 */
import type {
  ConfigLayout,
  LayoutAction,
  PendingLayoutChange,
  PlacedField,
} from '../../shared/ipc/areas/configure';
import { configQueueOf } from '../outbox/catalogOverlay';
import type { OpFields, OutboxOp } from '../outbox/outboxTypes';
import { applyPlacement, placeFieldBody, placeFieldSummary } from './placeFieldOps';

export const TEMP_LAYOUT_PREFIX = 'tmp-l-';
export const TEMP_SECTION_PREFIX = 'tmp-s-';
/**
 * The queue of a module's layouts, fields and options: named where the outbox reads it too (the
 * record editor's overlay, the hold of record changes; outbox.sql spells it `'layouts:' || …`).
 */
export const layoutsQueue = configQueueOf;
export const layoutOpAction = (action: LayoutAction) => `layout.${action}`;

export function layoutActionOf(op: Pick<OutboxOp, 'kind' | 'action'>): LayoutAction | null {
  if (op.kind !== 'config' || !op.action?.startsWith('layout.')) return null;
  return op.action.slice('layout.'.length) as LayoutAction;
}

/** A parameter of an operation (`fields[name].value`). */
export function param<T = unknown>(op: Pick<OutboxOp, 'fields'>, name: string): T | undefined {
  return op.fields[name]?.value as T | undefined;
}

export function paramFields(values: Record<string, unknown>, bases: Record<string, unknown> = {}) {
  const fields: OpFields = {};
  for (const [key, value] of Object.entries(values)) {
    if (value !== undefined) fields[key] = { value, base: bases[key] ?? null };
  }
  return fields;
}

const quote = (s: unknown) => `“${String(s)}”`;

const adoptNote = (op: Pick<OutboxOp, 'fields'>) =>
  param(op, 'adopt_existing') === true ? ' (or take the one of that name the service made)' : '';

/** One line for the Outbox and the Configure view. */
export function layoutSummary(op: Pick<OutboxOp, 'kind' | 'action' | 'fields'>): string {
  const name = param<string>(op, 'name');
  switch (layoutActionOf(op)) {
    case 'createLayout':
      return `Create layout ${quote(name)}${param(op, 'reference_id') ? ' (copied)' : ''}${adoptNote(op)}`;
    case 'updateLayout': {
      const parts: string[] = [];
      if (name !== undefined) parts.push(`rename to ${quote(name)}`);
      const type = param<string>(op, 'type');
      if (type !== undefined) parts.push(`make it ${type}`);
      if (param(op, 'is_default') === true) parts.push('make it the default');
      const text = parts.join('; ') || 'Change the layout';
      return text.charAt(0).toUpperCase() + text.slice(1);
    }
    case 'deleteLayout':
      return 'Delete the layout';
    case 'putSection':
      return param(op, 'section_id') === undefined
        ? `Add section ${quote(name)}${adoptNote(op)}`
        : param(op, 'position') !== undefined
          ? `Move section ${quote(name)} to place ${String(param(op, 'position'))}`
          : `Rename a section to ${quote(name)}`;
    case 'deleteSection':
      return `Delete section ${quote(param(op, 'section_name') ?? '')}`;
    case 'removeField':
      return `Take ${quote(param(op, 'field_label') ?? param(op, 'field'))} off the layout`;
    case 'placeField':
      return placeFieldSummary(op);
    default:
      return op.action ?? 'Layout change';
  }
}

/** What an operation will send (ids as known now; a temporary one is replaced before it goes). */
export function layoutRequest(
  op: Pick<OutboxOp, 'kind' | 'action' | 'fields' | 'portalId'>,
  moduleApiName: string | null,
): { method: string; path: string; body: unknown } {
  const base = `/api/v3/portal/${op.portalId}/settings/layouts`;
  const module = moduleApiName ?? '(its API name, once created)';
  const layout = String(param(op, 'layout_id') ?? '');
  switch (layoutActionOf(op)) {
    case 'createLayout':
      return { method: 'POST', path: base, body: createLayoutBody(op, module) };
    case 'updateLayout':
      return { method: 'PATCH', path: `${base}/${layout}`, body: updateLayoutBody(op, module) };
    case 'deleteLayout':
      return { method: 'DELETE', path: `${base}/${layout}?module=${module}`, body: null };
    case 'putSection':
      return { method: 'PUT', path: `${base}/${layout}/sections`, body: sectionBody(op, module) };
    case 'deleteSection':
      return {
        method: 'DELETE',
        path: `${base}/${layout}/sections/${String(param(op, 'section_id'))}?module=${module}`,
        body: null,
      };
    case 'removeField':
      return {
        method: 'DELETE',
        path: `${base}/${layout}/fields/${String(param(op, 'field'))}?module=${module}`,
        body: null,
      };
    case 'placeField':
      return {
        method: 'PUT',
        path: `/api/v3/portal/${op.portalId}/settings/fields`,
        body: placeFieldBody(op, module),
      };
    default:
      return { method: '?', path: base, body: null };
  }
}

export function createLayoutBody(op: Pick<OutboxOp, 'fields'>, module: string) {
  const reference = param<string | null>(op, 'reference_id');
  return {
    module,
    name: param<string>(op, 'name'),
    type: param<string>(op, 'type'),
    ...(reference ? { reference: { id: reference } } : {}),
  };
}

export function updateLayoutBody(op: Pick<OutboxOp, 'fields'>, module: string) {
  const body: Record<string, unknown> = { module };
  for (const key of ['name', 'type', 'is_default']) {
    if (param(op, key) !== undefined) body[key] = param(op, key);
  }
  return body;
}

export function sectionBody(op: Pick<OutboxOp, 'fields'>, module: string) {
  const id = param<string>(op, 'section_id');
  const position = param<number>(op, 'position');
  return {
    module,
    ...(id !== undefined ? { id } : {}),
    name: param<string>(op, 'name'),
    ...(position !== undefined ? { position: { exact_position: position } } : {}),
  };
}

/** The temporary ids an operation names that are not server ids yet. */
export function tempIdsOf(op: Pick<OutboxOp, 'fields' | 'moduleId'>): string[] {
  const ids: string[] = [];
  for (const key of ['layout_id', 'section_id', 'reference_id']) {
    const value = param(op, key);
    if (
      typeof value === 'string' &&
      (value.startsWith(TEMP_LAYOUT_PREFIX) || value.startsWith(TEMP_SECTION_PREFIX))
    ) {
      ids.push(value);
    }
  }
  return ids;
}

interface LayoutDraft extends Omit<ConfigLayout, 'pending'> {
  pending: PendingLayoutChange[];
}

/**
 * A module's layouts as the Configure view shows them: the mirror's (as `layouts` gives them,
 * sections and fields included) with the queued operations applied in order. `keyOfFieldId`
 * gives the key sections list a mirrored field by (its API name) from its id; a field created
 * here is listed by its temporary id until the service names it.
 */
export function overlayLayouts(
  mirrored: readonly ConfigLayout[],
  ops: readonly OutboxOp[],
  fieldsByKey: ReadonlyMap<string, PlacedField>,
  keyOfFieldId: ReadonlyMap<string, string> = new Map(),
): ConfigLayout[] {
  const layouts: LayoutDraft[] = mirrored.map((layout) => ({
    ...layout,
    sections: layout.sections.map((section) => ({ ...section, fields: [...section.fields] })),
    pending: [],
  }));
  const find = (id: unknown) => layouts.find((layout) => layout.id === id);
  const keyOf = (fieldId: unknown) => keyOfFieldId.get(String(fieldId)) ?? String(fieldId);
  for (const op of ops) {
    if (overlayFieldOp(op, layouts, keyOf)) continue;
    const action = layoutActionOf(op);
    if (action === null) continue;
    const pending: PendingLayoutChange = {
      opId: op.seq,
      action,
      summary: layoutSummary(op),
      state: op.state,
      error: op.error,
    };
    if (action === 'createLayout') {
      const reference = find(param(op, 'reference_id'));
      layouts.push({
        id: String(param(op, 'layout_id')),
        name: String(param(op, 'name') ?? ''),
        type: param(op, 'type') === 'private' ? 'private' : 'public',
        isDefault: layouts.length === 0,
        localOnly: true,
        sections: (reference?.sections ?? []).map((section) => ({
          ...section,
          fields: [...section.fields],
          localOnly: true,
        })),
        pending: [pending],
      });
      continue;
    }
    const layout = find(param(op, 'layout_id'));
    if (!layout) continue;
    layout.pending.push(pending);
    if (action === 'updateLayout') {
      const name = param<string>(op, 'name');
      const type = param<string>(op, 'type');
      if (name !== undefined) layout.name = name;
      if (type === 'public' || type === 'private') layout.type = type;
      if (param(op, 'is_default') === true) {
        for (const other of layouts) other.isDefault = other === layout;
      }
    } else if (action === 'deleteLayout') {
      layouts.splice(layouts.indexOf(layout), 1);
    } else if (action === 'putSection') {
      const id = param<string>(op, 'section_id') ?? String(param(op, 'new_section_id'));
      let section = layout.sections.find((candidate) => candidate.id === id);
      if (!section) {
        section = { id, name: '', fields: [], localOnly: true };
        layout.sections.push(section);
      }
      section.name = String(param(op, 'name') ?? section.name);
      const position = param<number>(op, 'position');
      if (position !== undefined) {
        layout.sections.splice(layout.sections.indexOf(section), 1);
        layout.sections.splice(Math.min(position - 1, layout.sections.length), 0, section);
      }
    } else if (action === 'deleteSection') {
      const index = layout.sections.findIndex((s) => s.id === param(op, 'section_id'));
      if (index !== -1 && layout.sections.length > 1) {
        const [gone] = layout.sections.splice(index, 1);
        // Its fields move to the end of the section before it (the next one, if it was first).
        const heir = layout.sections[index === 0 ? 0 : index - 1]!;
        heir.fields.push(...gone!.fields);
      }
    } else if (action === 'removeField') {
      const key = param<string>(op, 'field');
      for (const section of layout.sections) {
        section.fields = section.fields.filter((field) => field.key !== key);
      }
    } else if (action === 'placeField') {
      const key = keyOf(param(op, 'field_id'));
      // As shown where it already is (a field made here has no mirror copy), else as queued.
      const shown = layouts
        .flatMap((candidate) => candidate.sections.flatMap((section) => section.fields))
        .find((candidate) => candidate.key === key);
      applyPlacement(
        layout,
        fieldsByKey.get(key) ??
          shown ?? {
            key,
            label: String(param(op, 'field_label') ?? key),
            type: String(param(op, 'field_type') ?? ''),
            system: param(op, 'field_system') === true,
          },
        String(param(op, 'section_id')),
        Number(param(op, 'position')),
      );
    }
  }
  // Fields a queued change names but the mirror does not place stay out; labels are current.
  for (const layout of layouts) {
    for (const section of layout.sections) {
      section.fields = section.fields.map((field) => fieldsByKey.get(field.key) ?? field);
    }
  }
  return layouts;
}

/**
 * A field's creation or deletion as the layouts show it (true when `op` was one): a field created
 * here goes last in its section (the layout's first when none was chosen), as the service places
 * it; a deleted one leaves every layout. Other field changes do not move fields.
 */
function overlayFieldOp(
  op: OutboxOp,
  layouts: readonly LayoutDraft[],
  keyOf: (fieldId: unknown) => string,
): boolean {
  if (op.kind !== 'config' || !op.action?.startsWith('field.')) return false;
  if (op.action === 'field.createField') {
    const layout = layouts.find((candidate) => candidate.id === param(op, 'layout_id'));
    const sectionId = param<string>(op, 'section_id');
    const section =
      sectionId === undefined
        ? layout?.sections[0]
        : layout?.sections.find((candidate) => candidate.id === sectionId);
    const key = String(param(op, 'field_id'));
    section?.fields.push({
      key,
      label: String(param(op, 'label') ?? ''),
      type: String(param(op, 'type') ?? ''),
      system: false,
    });
  } else if (op.action === 'field.deleteField') {
    const key = keyOf(param(op, 'field_id'));
    for (const layout of layouts) {
      for (const section of layout.sections) {
        section.fields = section.fields.filter((field) => field.key !== key);
      }
    }
  }
  return true;
}
