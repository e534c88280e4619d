/**
 * One portal's details (spec "Portal details (single-portal operation; wrapped in an object named
 * portal_details)"). Required: `id` and `name`.
 */
import { z } from 'zod';
import { OptionalOwner } from './portal';
import { Id, OptionalFlag, OptionalText } from './refs';

/** "business_details: start_time, end_time, data_format, time_format, weekends, working_days, week_start_day, week_start_year". */
export const BusinessDetails = z.looseObject({
  start_time: OptionalText,
  end_time: OptionalText,
  data_format: OptionalText,
  time_format: OptionalText,
  weekends: z.array(z.unknown()).nullish(),
  working_days: z.array(z.string()).nullish(),
  /** First day of the week; its numbering is not shown (see packages/portal-api/src/filter's FilterContext). */
  week_start_day: z.number().int().nullish(),
  week_start_year: z.number().int().nullish(),
});
export type BusinessDetails = z.output<typeof BusinessDetails>;

export const PortalDetails = z.looseObject({
  id: Id,
  name: z.string().min(1),
  owner: OptionalOwner,
  business_details: BusinessDetails.nullish().transform((value) => value ?? null),
  logo_url: OptionalText,
  timezone: OptionalText,
  plan_details: z
    .looseObject({ projects_service_plan: OptionalText, bugtracker_service_plan: OptionalText })
    .nullish()
    .transform((value) => value ?? null),
  org_name: OptionalText,
  is_customdomain_enabled: OptionalFlag,
});
export type PortalDetails = z.output<typeof PortalDetails>;
