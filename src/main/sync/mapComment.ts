import type { Comment } from '@portaldesk/portal-api/domain/comment';
import type { MirrorComment } from '../store/mirror/mirrorTypes';

/**
 * Ours: a comment the server sends without any time sorts first. The mirror needs a time; the
 * domain requires only id and content.
 */
export const UNKNOWN_COMMENT_TIME = '1970-01-01T00:00:00.000Z';

export function mapComment(comment: Comment): MirrorComment {
  const created = comment.created_time ?? comment.last_updated_time ?? UNKNOWN_COMMENT_TIME;
  return {
    id: comment.id,
    content: comment.content,
    attachmentIds: comment.attachments.map((attachment) => attachment.attachment_id),
    createdBy: comment.created_by?.zpuid ?? null,
    createdTime: created,
    lastUpdatedTime: comment.last_updated_time ?? created,
  };
}
