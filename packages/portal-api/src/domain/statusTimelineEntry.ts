/**
 * One move of a record between statuses (GET .../entity/{entity_id}/status-timeline; the spec
 * shows no body: this is the emulator's shape). `from_status` is null for the status a record
 * was created in.
 */
import { z } from 'zod';
import { Id, IsoDateTime, StatusRef, UserRef } from './refs';

export const StatusTimelineEntry = z.looseObject({
  id: Id,
  from_status: StatusRef.nullish().transform((value) => value ?? null),
  to_status: StatusRef,
  changed_by: UserRef.nullish().transform((value) => value ?? null),
  changed_time: IsoDateTime,
});
export type StatusTimelineEntry = z.output<typeof StatusTimelineEntry>;
