/**
 * Bodies of the layout and section operations (spec "Layouts and sections"): layout "module (req,
 * max 100), name (req, max 200), type, reference {id}"; PATCH "body: not shown" (the emulator's
 * `{module, name?, type?, is_default?}`); section PUT "module (req), position, id, name (req, max
 * 100)": without id it adds a section, with id it updates one.
 */
import { z } from 'zod';
import { LAYOUT_NAME_MAX, MODULE_PARAM_MAX, SECTION_NAME_MAX } from './limits';
import { LayoutType } from './module';
import { Position } from './position';

const ModuleParam = z.string().min(1).max(MODULE_PARAM_MAX);
const Digits = z.string().regex(/^\d+$/);

export const LayoutCreate = z
  .object({
    module: ModuleParam,
    name: z.string().trim().min(1).max(LAYOUT_NAME_MAX),
    type: LayoutType.optional(),
    reference: z.object({ id: Digits }).strict().optional(),
  })
  .strict();
export type LayoutCreate = z.input<typeof LayoutCreate>;

export const LayoutPatch = z
  .object({
    module: ModuleParam,
    name: z.string().trim().min(1).max(LAYOUT_NAME_MAX).optional(),
    type: LayoutType.optional(),
    is_default: z.literal(true).optional(),
  })
  .strict();
export type LayoutPatch = z.input<typeof LayoutPatch>;

export const SectionPut = z
  .object({
    module: ModuleParam,
    id: Digits.optional(),
    name: z.string().trim().min(1).max(SECTION_NAME_MAX),
    position: Position.optional(),
  })
  .strict();
export type SectionPut = z.input<typeof SectionPut>;
