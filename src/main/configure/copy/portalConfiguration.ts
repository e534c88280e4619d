/**
 * A portal's configuration as a copy sees it: modules with their layouts, sections, custom fields
 * and options, read through the Configure views (so what is queued here counts: the plan is made
 * against what the portal will be once the Outbox has sent). With ids, for the plan; without, it
 * is the configuration file (exportConfiguration.ts).
 */
import type { ConfigModule } from '../../../shared/ipc/areas/configure';
import { ConfigRefused, type ConfigureService } from '../configureService';
import { fieldSettingsOf } from '../fieldOps';
import type { DocumentField, DocumentLayout, DocumentModule } from './configurationDocument';

export interface PortalSection {
  id: string;
  name: string;
  fields: string[];
}
export interface PortalLayout extends Omit<DocumentLayout, 'sections'> {
  id: string;
  sections: PortalSection[];
}
export interface PortalOption {
  id: string;
  name: string;
}
export interface PortalField extends Omit<DocumentField, 'options'> {
  id: string;
  options: PortalOption[] | null;
}
export interface PortalStatus {
  id: string;
  name: string;
  color: string;
  closed: boolean;
  /** The ids of the statuses it leads to. */
  transitions: string[];
}
export interface PortalModule extends Omit<DocumentModule, 'layouts' | 'fields' | 'statuses'> {
  id: string;
  builtIn: boolean;
  state: ConfigModule['state'];
  layouts: PortalLayout[];
  fields: PortalField[];
  /** Null when they cannot be read here (a module not created on the service yet). */
  statuses: PortalStatus[] | null;
}

const hasOptions = (type: string) => type === 'pick_list' || type === 'multi_select';

/**
 * One module's configuration. A module in the bin has no layouts or fields to read (the service
 * keeps them until it is recovered): it is returned without them.
 */
export function readModuleConfiguration(
  configure: ConfigureService,
  portalId: string,
  module: ConfigModule,
): PortalModule {
  const base: PortalModule = {
    id: module.id,
    apiName: module.apiName,
    singularName: module.singularName,
    pluralName: module.pluralName,
    iconClass: module.iconClass,
    isGlobal: module.isGlobal,
    isAllProjects: module.isAllProjects,
    isOverviewNeeded: module.isOverviewNeeded,
    defaultLayoutType: module.defaultLayoutType ?? 'public',
    builtIn: module.builtIn,
    state: module.state,
    layouts: [],
    fields: [],
    statuses: null,
  };
  if (module.state === 'trashed') return base;
  const layouts = configure.layouts(portalId, module.id).layouts.map((layout) => ({
    id: layout.id,
    name: layout.name,
    type: layout.type ?? 'public',
    isDefault: layout.isDefault,
    sections: layout.sections.map((section) => ({
      id: section.id,
      name: section.name,
      fields: section.fields.map((field) => field.key),
    })),
  }));
  const custom = configure.fields(portalId, module.id).fields.filter((field) => !field.system);
  // Every pick list's options in one read, without counting records (a plan does not need them).
  const options = configure.optionsOf(portalId, module.id, custom);
  const fields = custom.map((field) => ({
    ...fieldSettingsOf(field),
    id: field.id,
    apiName: field.apiName,
    type: field.type,
    options: hasOptions(field.type)
      ? (options.get(field.id) ?? []).map((option) => ({ id: option.id, name: option.name }))
      : null,
  }));
  return { ...base, layouts, fields, statuses: readStatuses(configure, portalId, module) };
}

/** The module's statuses, or null when the Configure view cannot read them yet (says why). */
function readStatuses(
  configure: ConfigureService,
  portalId: string,
  module: ConfigModule,
): PortalStatus[] | null {
  if (module.localOnly) return null;
  try {
    return configure.choices.statuses(portalId, module.id).statuses.map((status) => ({
      id: status.id,
      name: status.name,
      color: status.color,
      closed: status.closed,
      transitions: [...status.transitions],
    }));
  } catch (error) {
    // No status field in the mirror yet (a module just created, not synced again).
    if (error instanceof ConfigRefused) return null;
    throw error;
  }
}

/** The portal's modules (all, or those of `moduleIds` in their order), each read whole. */
export function readPortalConfiguration(
  configure: ConfigureService,
  portalId: string,
  moduleIds?: readonly string[],
): PortalModule[] {
  const modules = configure.modules(portalId).modules;
  const chosen =
    moduleIds === undefined
      ? modules
      : moduleIds.map((id) => {
          const module = modules.find((candidate) => candidate.id === id);
          if (!module) {
            throw new ConfigRefused(
              `Module ${id} is not in this portal's configuration here (deleted, or its creation discarded). Choose the modules again.`,
            );
          }
          return module;
        });
  return chosen.map((module) => readModuleConfiguration(configure, portalId, module));
}
