/**
 * A module's settings (spec "Other resources": Module; "addressed by API name"). Required:
 * `api_name` (every route names a module by it) and the two names shown for it.
 */
import { z } from 'zod';
import { Id, OptionalDateTime, OptionalFlag, OptionalText } from './refs';

/** "projects (array of {project:{id}, is_selected})". */
export const ModuleProject = z.looseObject({
  project: z.looseObject({ id: Id, name: OptionalText }),
  is_selected: OptionalFlag,
});
export type ModuleProject = z.output<typeof ModuleProject>;

/** "default_layout_type: public or private". */
export const LayoutType = z.enum(['public', 'private']);
export type LayoutType = z.output<typeof LayoutType>;

export const Module = z.looseObject({
  api_name: z.string().min(1),
  id: Id.nullish().transform((value) => value ?? null),
  singular_name: z.string(),
  plural_name: z.string(),
  icon_class: OptionalText,
  is_global_module: OptionalFlag,
  is_all_projects: OptionalFlag,
  is_overview_needed: OptionalFlag,
  is_customized: OptionalFlag,
  /** The product's own modules (projects, tasks, ...): they have no custom records. */
  is_default: OptionalFlag,
  is_web_tab: OptionalFlag,
  /** Absent means active: only a deactivated module says so. */
  is_active: z
    .boolean()
    .nullish()
    .transform((value) => value ?? true),
  is_trashed: OptionalFlag,
  trashed_time: OptionalDateTime,
  projects: z
    .array(ModuleProject)
    .nullish()
    .transform((value) => value ?? []),
  module_property: z
    .looseObject({ default_layout_type: LayoutType.nullish() })
    .nullish()
    .transform((value) => value ?? null),
  created_time: OptionalDateTime,
});
export type Module = z.output<typeof Module>;
