/**
 * Bodies of comments on records (spec, "Comments on records" and the Comment resource): content
 * (string, required, max 65535) and attachments, an "array of `{add:[{attachment_id}],
 * remove:[{attachment_id}], attachment_id}`". Pure; the first problem throws
 * INVALID_PARAMETER_VALUE.
 */
import { COMMENT_CONTENT_MAX } from '@portaldesk/portal-api/domain/customFieldTypes';
import { apiErrors } from '../http/apiError';
import { parseId, text } from '../api/common';

export { COMMENT_CONTENT_MAX };
/** Attachments on one comment. Not shown in the spec; ours. */
export const MAX_ATTACHMENTS = 20;

const COMMENT_KEYS = new Set(['content', 'attachments']);
const ITEM_KEYS = new Set(['add', 'remove', 'attachment_id']);

const invalid = (message: string) => apiErrors.invalidParameter(message);

export interface CommentPlan {
  content: string;
  /** Attachment ids, in the order they were added. */
  attachments: string[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function attachmentIds(items: unknown, where: string): string[] {
  if (!Array.isArray(items)) throw invalid(`${where} must be an array of {"attachment_id": ...}.`);
  return items.map((item, i) => {
    if (!isRecord(item)) throw invalid(`${where}[${i}] must be an object {"attachment_id": ...}.`);
    return String(parseId(item.attachment_id, `${where}[${i}].attachment_id`));
  });
}

/**
 * The comment after applying `body`: a new one when `current` is absent. Each attachments item
 * may name `attachment_id` (attach it), `add` (attach these) and `remove` (detach these); a new
 * comment has nothing to remove.
 */
export function planComment(body: Record<string, unknown>, current?: CommentPlan): CommentPlan {
  for (const key of Object.keys(body)) {
    if (!COMMENT_KEYS.has(key)) {
      throw invalid(`${key} is not a comment field; fields: content, attachments.`);
    }
  }
  // "content (string, req, max 65535)" on both POST and PATCH.
  const content = text(body, 'content', COMMENT_CONTENT_MAX, true) as string;
  const attachments = [...(current?.attachments ?? [])];
  if (body.attachments !== undefined && body.attachments !== null) {
    if (!Array.isArray(body.attachments)) throw invalid('attachments must be an array.');
    body.attachments.forEach((item, i) => {
      const where = `attachments[${i}]`;
      if (!isRecord(item)) throw invalid(`${where} must be an object.`);
      for (const key of Object.keys(item)) {
        if (!ITEM_KEYS.has(key)) {
          throw invalid(`${where}.${key} is not allowed; use add, remove or attachment_id.`);
        }
      }
      const added = [
        ...(item.attachment_id === undefined
          ? []
          : [String(parseId(item.attachment_id, `${where}.attachment_id`))]),
        ...(item.add === undefined ? [] : attachmentIds(item.add, `${where}.add`)),
      ];
      const removed =
        item.remove === undefined ? [] : attachmentIds(item.remove, `${where}.remove`);
      if (removed.length > 0 && !current) {
        throw invalid(`${where}.remove: a new comment has no attachments to remove.`);
      }
      for (const id of removed) {
        const at = attachments.indexOf(id);
        if (at === -1) throw invalid(`${where}.remove: attachment ${id} is not on the comment.`);
        attachments.splice(at, 1);
      }
      for (const id of added) if (!attachments.includes(id)) attachments.push(id);
    });
  }
  if (attachments.length > MAX_ATTACHMENTS) {
    throw invalid(
      `attachments would hold ${attachments.length} files; at most ${MAX_ATTACHMENTS} are allowed.`,
    );
  }
  return { content, attachments };
}
