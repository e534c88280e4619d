/**
 * Integration fields (spec "Integration fields"; bodies not shown: the emulator's shapes): the
 * services a portal is integrated with, their modules, and the fields of a module.
 */
import { z } from 'zod';
import { Id, OptionalFlag, OptionalText } from './refs';

export const IntegrationService = z.looseObject({
  id: Id,
  name: z.string(),
  service_type: OptionalText,
  is_enabled: OptionalFlag,
  module_count: z.number().int().nullish(),
});
export type IntegrationService = z.output<typeof IntegrationService>;

export const IntegrationModule = z.looseObject({
  id: Id,
  api_name: z.string().min(1),
  singular_name: OptionalText,
  plural_name: OptionalText,
});
export type IntegrationModule = z.output<typeof IntegrationModule>;

export const IntegrationField = z.looseObject({
  id: Id,
  api_name: z.string().min(1),
  display_name: OptionalText,
  field_type: OptionalText,
  data_type: OptionalText,
});
export type IntegrationField = z.output<typeof IntegrationField>;
