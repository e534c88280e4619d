/**
 * A portal as the list operation returns it (spec "Portal (list item from the list
 * operation)"). Required: `id` and `portal_name`, without which the app cannot address or show a
 * portal; every other field may be missing or null, and unknown fields are kept.
 */
import { z } from 'zod';
import { Id, OptionalFlag, OptionalText, Zpuid } from './refs';

/** "owner: object: zpuid, full_name, name, first_name, last_name, id, is_client_user, email". */
export const PortalOwner = z.looseObject({
  zpuid: Zpuid,
  full_name: OptionalText,
  name: OptionalText,
  first_name: OptionalText,
  last_name: OptionalText,
  id: Id.nullish().transform((value) => value ?? null),
  is_client_user: OptionalFlag,
  email: OptionalText,
});
export type PortalOwner = z.output<typeof PortalOwner>;

/** The owner, or null when the server leaves it out. */
export const OptionalOwner = PortalOwner.nullish().transform((value) => value ?? null);

export const Portal = z.looseObject({
  /** A string in the list, an integer in portal details; a string of digits here. */
  id: Id,
  portal_name: z.string().min(1),
  owner: OptionalOwner,
  is_default_portal: OptionalFlag,
  profile_id: Id.nullish().transform((value) => value ?? null),
  profile: z
    .looseObject({ name: OptionalText, id: Id.nullish() })
    .nullish()
    .transform((value) => value ?? null),
  /** The portal's IANA zone: "today" in a filter is a day there. */
  timezone: OptionalText,
  portal_owner: Id.nullish().transform((value) => value ?? null),
  org_name: OptionalText,
  zsoid: OptionalText,
  org_logo: OptionalText,
  bug_plan: OptionalText,
  project_plan: OptionalText,
});
export type Portal = z.output<typeof Portal>;
