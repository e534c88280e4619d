import type { Field } from '@portaldesk/portal-api/domain/field';
import type { Status } from '@portaldesk/portal-api/domain/fieldOption';
import type { FieldsConfiguration } from '@portaldesk/portal-api/domain/fieldsConfiguration';
import type { Layout } from '@portaldesk/portal-api/domain/layout';
import type {
  MirrorField,
  MirrorLayout,
  MirrorSection,
  MirrorStatus,
} from '../store/mirror/mirrorTypes';

/** Ours: a layout without a type is public ("default_layout_type: public or private"). */
const DEFAULT_LAYOUT_TYPE = 'public';

/** A module's settings as the mirror stores them, from one fields-configuration read. */
export interface MirrorConfiguration {
  fields: MirrorField[];
  layouts: MirrorLayout[];
  /** Sections of each layout, by layout id (every layout listed, with [] when it has none). */
  sections: Map<string, MirrorSection[]>;
  statuses: MirrorStatus[];
}

export function mapField(field: Field): MirrorField {
  return {
    id: field.id,
    apiName: field.api_name,
    displayName: field.display_name,
    fieldType: field.field_type,
    dataType: field.data_type ?? field.field_type,
    isDefault: field.is_default,
    isMandatory: field.is_mandatory,
    fieldProperty: field.field_property,
    createdTime: field.created_time,
  };
}

function mapLayout(layout: Layout): MirrorLayout {
  return {
    id: layout.id,
    name: layout.name,
    type: layout.type ?? DEFAULT_LAYOUT_TYPE,
    isDefault: layout.is_default,
    referenceId: layout.reference?.id ?? null,
    createdTime: layout.created_time,
  };
}

/**
 * Sections in the order given, ranks 1-based where the server leaves positions out. A field the
 * module's field list does not have is left out: the mirror places only fields it stores.
 */
function mapSections(layout: Layout, known: ReadonlySet<string>): MirrorSection[] {
  return (layout.sections ?? []).map((section, index) => ({
    id: section.id,
    name: section.name,
    position: section.position ?? index + 1,
    fields: section.fields
      .map((field, rank) => ({ fieldId: field.id, position: field.position ?? rank + 1 }))
      .filter((placed) => known.has(placed.fieldId)),
  }));
}

export function mapStatus(status: Status, index: number): MirrorStatus {
  return {
    id: status.id,
    name: status.name,
    color: status.color,
    isClosedType: status.is_closed_type,
    isDefault: status.is_default,
    position: status.position ?? index + 1,
    transitions: status.transitions.map((to) => to.id),
  };
}

export function mapFieldsConfiguration(config: FieldsConfiguration): MirrorConfiguration {
  const fields = config.fields.map(mapField);
  const known = new Set(fields.map((field) => field.id));
  return {
    fields,
    layouts: config.layouts.map(mapLayout),
    sections: new Map(config.layouts.map((layout) => [layout.id, mapSections(layout, known)])),
    statuses: config.statuses.map(mapStatus),
  };
}
