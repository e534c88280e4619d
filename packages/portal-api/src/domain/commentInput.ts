/**
 * Bodies of POST and PATCH comments (spec "Comments on records": "content (string, req, max
 * 65535), attachments (array of {add:[{attachment_id}], remove:[{attachment_id}], attachment_id})").
 */
import { z } from 'zod';
import { COMMENT_CONTENT_MAX } from './customFieldTypes';

const AttachmentRef = z.object({ attachment_id: z.string().min(1) }).strict();

export const CommentAttachmentChange = z
  .object({
    add: z.array(AttachmentRef).optional(),
    remove: z.array(AttachmentRef).optional(),
    attachment_id: z.string().min(1).optional(),
  })
  .strict();

export const CommentInput = z
  .object({
    content: z.string().min(1).max(COMMENT_CONTENT_MAX),
    attachments: z.array(CommentAttachmentChange).optional(),
  })
  .strict();
export type CommentInput = z.input<typeof CommentInput>;
