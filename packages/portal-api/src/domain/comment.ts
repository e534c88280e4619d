/**
 * A comment on a record (spec "Other resources": Comment "content (string, max 65535),
 * attachments"). Required: id and content.
 */
import { z } from 'zod';
import { Id, OptionalDateTime, UserRef } from './refs';

export const CommentAttachment = z.looseObject({ attachment_id: Id });

export const Comment = z.looseObject({
  id: Id,
  content: z.string(),
  attachments: z
    .array(CommentAttachment)
    .nullish()
    .transform((value) => value ?? []),
  created_by: UserRef.nullish().transform((value) => value ?? null),
  created_time: OptionalDateTime,
  last_updated_time: OptionalDateTime,
});
export type Comment = z.output<typeof Comment>;
