/**
 * Bodies of POST and PATCH settings/modules (spec "Module settings"): names and icon "max 50
 * each", projects "array size 0-100", module_property "default_layout_type public or private".
 */
import { z } from 'zod';
import { MODULE_TEXT_MAX } from './customFieldTypes';
import { MODULE_PROJECTS_MAX } from './limits';
import { LayoutType } from './module';

const ModuleText = z.string().trim().min(1).max(MODULE_TEXT_MAX);

const ProjectChoice = z
  .object({
    project: z.object({ id: z.string().regex(/^\d+$/) }).strict(),
    is_selected: z.boolean(),
  })
  .strict();

export const ModuleCreate = z
  .object({
    singular_name: ModuleText,
    plural_name: ModuleText,
    icon_class: ModuleText.optional(),
    is_global_module: z.boolean().optional(),
    is_all_projects: z.boolean().optional(),
    is_overview_needed: z.boolean().optional(),
    projects: z.array(ProjectChoice).max(MODULE_PROJECTS_MAX).optional(),
    module_property: z.object({ default_layout_type: LayoutType }).strict().optional(),
  })
  .strict();
export type ModuleCreate = z.input<typeof ModuleCreate>;

export const ModulePatch = ModuleCreate.omit({ is_global_module: true }).partial();
export type ModulePatch = z.input<typeof ModulePatch>;
