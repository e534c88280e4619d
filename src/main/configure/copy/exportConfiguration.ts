/**
 * Modules of a portal as a configuration file (configurationDocument.ts): what the Configure view
 * shows, queued changes included, ids left out. The product's own modules are refused (every
 * portal has them; they are not configured by copying), and so is a module in the bin (its layouts
 * and fields cannot be read until it is recovered).
 */
import { ConfigRefused, type ConfigureService } from '../configureService';
import { TEMP_FIELD_PREFIX } from '../fieldOps';
import {
  CONFIGURATION_FORMAT,
  CONFIGURATION_VERSION,
  type ConfigurationDocument,
  type DocumentModule,
} from './configurationDocument';
import { readPortalConfiguration, type PortalModule } from './portalConfiguration';

export function copyableModules(
  configure: ConfigureService,
  portalId: string,
  moduleIds: readonly string[],
): PortalModule[] {
  const modules = readPortalConfiguration(configure, portalId, [...new Set(moduleIds)]);
  for (const module of modules) {
    if (module.builtIn) {
      throw new ConfigRefused(
        `${module.pluralName} is one of the product's own modules; only custom modules are copied. Nothing was planned.`,
      );
    }
    if (module.state === 'trashed') {
      throw new ConfigRefused(
        `${module.pluralName} is in the module bin; recover it first to copy its layouts and fields. Nothing was planned.`,
      );
    }
  }
  return modules;
}

/** A module without its ids: what a file keeps. */
export function documentModule(module: PortalModule): DocumentModule {
  return {
    apiName: module.apiName,
    singularName: module.singularName,
    pluralName: module.pluralName,
    iconClass: module.iconClass,
    isGlobal: module.isGlobal,
    isAllProjects: module.isAllProjects,
    isOverviewNeeded: module.isOverviewNeeded,
    defaultLayoutType: module.defaultLayoutType,
    layouts: module.layouts.map((layout) => ({
      name: layout.name,
      type: layout.type,
      isDefault: layout.isDefault,
      sections: layout.sections.map((section) => ({
        name: section.name,
        // A field made here and not sent yet is listed by its temporary id, which means nothing
        // in another portal (and is no API name): it is in the file without its place.
        fields: section.fields.filter((key) => !key.startsWith(TEMP_FIELD_PREFIX)),
      })),
    })),
    fields: module.fields.map(({ id: _id, options, ...field }) => ({
      ...field,
      options: options === null ? null : options.map((option) => option.name),
    })),
    statuses:
      module.statuses === null
        ? null
        : module.statuses.map((status) => ({
            name: status.name,
            color: status.color,
            closed: status.closed,
            // By name: ids belong to one portal.
            transitions: status.transitions.flatMap(
              (id) => module.statuses!.find((other) => other.id === id)?.name ?? [],
            ),
          })),
  };
}

export function configurationDocument(
  portal: { id: string; name: string },
  modules: readonly PortalModule[],
  now: Date,
): ConfigurationDocument {
  return {
    format: CONFIGURATION_FORMAT,
    version: CONFIGURATION_VERSION,
    exportedAt: now.toISOString(),
    source: { portalId: portal.id, portalName: portal.name },
    modules: modules.map(documentModule),
  };
}

/** `Demo Portal` + `Assets, Vendors` → `demo-portal-assets-vendors.configuration.json`. */
export function configurationFileName(
  portalName: string,
  modules: readonly PortalModule[],
): string {
  const words = [portalName, ...modules.slice(0, 3).map((module) => module.pluralName)]
    .join(' ')
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);
  return `${words || 'portal'}${modules.length > 3 ? '-and-more' : ''}.configuration.json`;
}
