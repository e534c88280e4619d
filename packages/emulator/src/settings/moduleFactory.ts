/**
 * What a new custom module starts with, so records can be created in it right away: the system
 * fields every record has, a default layout with sections, and statuses with transitions. The
 * shapes are those of model/seed.ts (which seeds the demo modules the same way). Callers run
 * these inside their write transaction.
 */
import type { ModuleRow } from '../api/common';
import type { EmulatorState } from '../state';
import { sectionsOf, type LayoutRow } from './lookups';
import { DEFAULT_LAYOUT_NAME, DEFAULT_SECTION_NAMES, SYSTEM_FIELDS } from '../model/moduleDefaults';

export { DEFAULT_LAYOUT_NAME, DEFAULT_SECTION_NAMES, SYSTEM_FIELDS };

/** The first status is the default one records start in. */
export const DEFAULT_STATUSES = [
  { name: 'Open', color: '#2a64d6', closed: false },
  { name: 'In Progress', color: '#b7791f', closed: false },
  { name: 'On Hold', color: '#718096', closed: false },
  { name: 'Closed', color: '#1f8a4c', closed: true },
  { name: 'Cancelled', color: '#c53030', closed: true },
] as const;

export interface NewModule {
  apiName: string;
  singularName: string;
  pluralName: string;
  iconClass: string;
  isGlobalModule: boolean;
  isAllProjects: boolean;
  isOverviewNeeded: boolean;
  defaultLayoutType: 'public' | 'private';
  projects: { project: { id: string }; is_selected: boolean }[];
}

/** Inserts a custom module with its system fields, default layout and statuses; returns its id. */
export function createModule(state: EmulatorState, portalId: number, input: NewModule): number {
  const db = state.db;
  const now = state.nowIso();
  const moduleId = state.nextId();
  db.prepare(
    `INSERT INTO modules (id, portal_id, api_name, singular_name, plural_name, icon_class,
       is_global_module, is_all_projects, is_overview_needed, is_customized, is_default, is_web_tab,
       default_layout_type, projects, state, created_time)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1, 0, 0, ?, ?, 'active', ?)`,
  ).run(
    moduleId,
    portalId,
    input.apiName,
    input.singularName,
    input.pluralName,
    input.iconClass,
    input.isGlobalModule ? 1 : 0,
    input.isAllProjects ? 1 : 0,
    input.isOverviewNeeded ? 1 : 0,
    input.defaultLayoutType,
    JSON.stringify(input.projects),
    now,
  );
  const insertField = db.prepare(
    `INSERT INTO fields (id, module_id, api_name, display_name, field_type, data_type, is_default,
       is_mandatory, field_property, created_time)
     VALUES (?, ?, ?, ?, ?, ?, 1, ?, '{}', ?)`,
  );
  for (const field of SYSTEM_FIELDS) {
    insertField.run(
      state.nextId(),
      moduleId,
      field.apiName,
      field.label,
      field.type,
      field.dataType,
      field.mandatory,
      now,
    );
  }
  const module = db.prepare('SELECT * FROM modules WHERE id = ?').get(moduleId) as ModuleRow;
  createLayout(state, module, {
    name: DEFAULT_LAYOUT_NAME,
    type: input.defaultLayoutType,
    isDefault: true,
    reference: undefined,
  });

  const insertStatus = db.prepare(
    `INSERT INTO statuses (id, module_id, name, color, is_closed_type, is_default, position)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const statuses = DEFAULT_STATUSES.map((status, index) => {
    const id = state.nextId();
    insertStatus.run(
      id,
      moduleId,
      status.name,
      status.color,
      status.closed ? 1 : 0,
      index === 0 ? 1 : 0,
      index + 1,
    );
    return { id, closed: status.closed };
  });
  // As in the seed: open statuses lead anywhere; a closed one can only be reopened to the first.
  const insertTransition = db.prepare(
    'INSERT INTO status_transitions (from_status_id, to_status_id) VALUES (?, ?)',
  );
  const first = statuses[0]!.id;
  for (const from of statuses) {
    const targets = from.closed
      ? [first]
      : statuses.filter((to) => to.id !== from.id).map((to) => to.id);
    for (const to of targets) insertTransition.run(from.id, to);
  }
  return moduleId;
}

/**
 * A new layout. With `reference` it is a copy of that layout (sections, field placements and the
 * options scoped to it); without, it gets the default sections with the module's system fields in
 * the first. Returns the new layout's id.
 */
export function createLayout(
  state: EmulatorState,
  module: ModuleRow,
  input: {
    name: string;
    type: 'public' | 'private';
    isDefault: boolean;
    reference: LayoutRow | undefined;
  },
): number {
  const db = state.db;
  const now = state.nowIso();
  const layoutId = state.nextId();
  db.prepare(
    `INSERT INTO layouts (id, module_id, name, type, reference_id, is_default, created_time)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    layoutId,
    module.id,
    input.name,
    input.type,
    input.reference?.id ?? null,
    input.isDefault ? 1 : 0,
    now,
  );
  const insertSection = db.prepare(
    'INSERT INTO sections (id, layout_id, name, position) VALUES (?, ?, ?, ?)',
  );
  const place = db.prepare(
    'INSERT INTO layout_fields (layout_id, field_id, section_id, position) VALUES (?, ?, ?, ?)',
  );

  if (input.reference) {
    const sectionIds = new Map<number, number>();
    sectionsOf(state, input.reference.id).forEach((section, index) => {
      const id = state.nextId();
      sectionIds.set(section.id, id);
      insertSection.run(id, layoutId, section.name, index + 1);
    });
    const placements = db
      .prepare('SELECT field_id, section_id, position FROM layout_fields WHERE layout_id = ?')
      .all(input.reference.id) as { field_id: number; section_id: number; position: number }[];
    for (const placement of placements) {
      place.run(
        layoutId,
        placement.field_id,
        sectionIds.get(placement.section_id),
        placement.position,
      );
    }
    const options = db
      .prepare('SELECT field_id, kind, value, position FROM field_options WHERE layout_id = ?')
      .all(input.reference.id) as {
      field_id: number;
      kind: string;
      value: string;
      position: number;
    }[];
    const insertOption = db.prepare(
      'INSERT INTO field_options (id, field_id, layout_id, kind, value, position) VALUES (?, ?, ?, ?, ?, ?)',
    );
    for (const option of options) {
      insertOption.run(
        state.nextId(),
        option.field_id,
        layoutId,
        option.kind,
        option.value,
        option.position,
      );
    }
    return layoutId;
  }

  const sectionIds = DEFAULT_SECTION_NAMES.map((name, index) => {
    const id = state.nextId();
    insertSection.run(id, layoutId, name, index + 1);
    return id;
  });
  const system = db
    .prepare('SELECT id FROM fields WHERE module_id = ? AND is_default = 1 ORDER BY id')
    .all(module.id) as { id: number }[];
  system.forEach((field, index) => place.run(layoutId, field.id, sectionIds[0], index + 1));
  return layoutId;
}
