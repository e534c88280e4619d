/**
 * Response shapes of modules, layouts, sections, fields and statuses (the spec shows none; the
 * field names follow the request bodies: "All field structures are the same in requests and
 * responses"). Positions are 1-based ranks among siblings.
 */
import { idString, type ModuleRow } from '../api/common';
import type { EmulatorState } from '../state';
import {
  portalProjects,
  sectionsOf,
  type FieldRow,
  type LayoutRow,
  type SectionRow,
  type StatusRow,
} from './lookups';

interface StoredProject {
  project: { id: string };
  is_selected: boolean;
}

export function moduleView(state: EmulatorState, row: ModuleRow) {
  const names = portalProjects(state, row.portal_id);
  const projects = (JSON.parse(row.projects) as StoredProject[]).map((item) => ({
    project: { id: item.project.id, name: names.get(Number(item.project.id)) ?? null },
    is_selected: item.is_selected,
  }));
  return {
    id: idString(row.id),
    api_name: row.api_name,
    singular_name: row.singular_name,
    plural_name: row.plural_name,
    icon_class: row.icon_class,
    is_global_module: row.is_global_module === 1,
    is_all_projects: row.is_all_projects === 1,
    is_overview_needed: row.is_overview_needed === 1,
    is_customized: row.is_customized === 1,
    is_default: row.is_default === 1,
    is_web_tab: row.is_web_tab === 1,
    is_active: row.state === 'active',
    status: row.state,
    is_trashed: row.trashed_time !== null,
    trashed_time: row.trashed_time,
    projects,
    module_property: { default_layout_type: row.default_layout_type },
    created_time: row.created_time,
  };
}

export function fieldView(row: FieldRow) {
  return {
    id: idString(row.id),
    api_name: row.api_name,
    display_name: row.display_name,
    field_type: row.field_type,
    data_type: row.data_type,
    is_default: row.is_default === 1,
    is_mandatory: row.is_mandatory === 1,
    is_renamed: row.is_renamed === 1,
    is_formula_based_list: row.is_formula_based_list === 1,
    field_property: JSON.parse(row.field_property) as Record<string, unknown>,
    created_time: row.created_time,
  };
}

export function statusView(state: EmulatorState, row: StatusRow) {
  const transitions = state.db
    .prepare(
      `SELECT t.to_status_id AS id FROM status_transitions t JOIN statuses s ON s.id = t.to_status_id
       WHERE t.from_status_id = ? ORDER BY s.position, s.id`,
    )
    .all(row.id) as { id: number }[];
  return {
    id: idString(row.id),
    name: row.name,
    color: row.color,
    is_closed_type: row.is_closed_type === 1,
    is_default: row.is_default === 1,
    position: row.position,
    transitions: transitions.map((t) => ({ id: idString(t.id) })),
  };
}

interface PlacedField extends FieldRow {
  section_id: number;
  placed_position: number;
}

/** The fields of one section, in order. */
function sectionFields(state: EmulatorState, layoutId: number, section: SectionRow) {
  const rows = state.db
    .prepare(
      `SELECT f.*, lf.section_id, lf.position AS placed_position FROM layout_fields lf
       JOIN fields f ON f.id = lf.field_id
       WHERE lf.layout_id = ? AND lf.section_id = ? ORDER BY lf.position, f.id`,
    )
    .all(layoutId, section.id) as PlacedField[];
  return rows.map((row, index) => ({
    id: idString(row.id),
    api_name: row.api_name,
    display_name: row.display_name,
    field_type: row.field_type,
    data_type: row.data_type,
    is_default: row.is_default === 1,
    is_mandatory: row.is_mandatory === 1,
    position: index + 1,
  }));
}

export function sectionView(state: EmulatorState, layoutId: number, row: SectionRow, rank: number) {
  return {
    id: idString(row.id),
    name: row.name,
    position: rank,
    fields: sectionFields(state, layoutId, row),
  };
}

/** A layout; `withSections` adds its sections and their fields (single reads). */
export function layoutView(
  state: EmulatorState,
  module: ModuleRow,
  row: LayoutRow,
  withSections: boolean,
) {
  return {
    id: idString(row.id),
    name: row.name,
    type: row.type,
    is_default: row.is_default === 1,
    module: { id: idString(module.id), api_name: module.api_name },
    reference: row.reference_id === null ? null : { id: idString(row.reference_id) },
    created_time: row.created_time,
    ...(withSections
      ? {
          sections: sectionsOf(state, row.id).map((section, index) =>
            sectionView(state, row.id, section, index + 1),
          ),
        }
      : {}),
  };
}
