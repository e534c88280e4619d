/**
 * A create whose answer was lost (a crash or a timeout after the request left) may have made the
 * record. Before any resend the outbox lists the module's records of that name, newest first, and
 * adopts the one that matches what was sent (issue 7: "reconciled by looking the record up before
 * any retry, so no duplicate is made"). The API takes no idempotency key, so a match is: created
 * no earlier than the send (less clock skew), every sent value equal, made by us (the creator the
 * service names, when we know who we are in the portal), and not adopted by another operation
 * already. Pure; the same rule finds a lost comment.
 */
import type { Comment } from '@portaldesk/portal-api/domain/comment';
import type { Entity } from '@portaldesk/portal-api/domain/entity';
import { sameFieldValue } from '../../shared/fieldValues/sameFieldValue';
import { typeOf, type FieldTypes, type OpFields } from './outboxTypes';

/** Ours: how far the service's clock may lag ours and still count as "after the send". */
export const CLOCK_SKEW_MS = 10 * 60_000;

function createdAfter(created: string | null | undefined, sentAt: string): boolean {
  if (!created) return true;
  const at = Date.parse(created);
  const sent = Date.parse(sentAt);
  return Number.isNaN(at) || Number.isNaN(sent) || at >= sent - CLOCK_SKEW_MS;
}

/**
 * Whether an item of a list read newest first was made before a send (less the clock skew): the
 * items after it are older still, so none of them is what the send made.
 */
export function madeBeforeSend(created: string | null | undefined, sentAt: string): boolean {
  return !createdAfter(created, sentAt);
}

/** The value an entity shows for a field key (its own fields, then custom ones). */
export function entityValue(entity: Entity, field: string): unknown {
  switch (field) {
    case 'name':
      return entity.name;
    case 'description':
      return entity.description;
    case 'status':
      return entity.status;
    case 'is_external':
      return entity.is_external;
    default:
      return entity.custom[field] ?? null;
  }
}

/**
 * Whether a candidate may be ours by who made it: `author` is who the service names as the
 * creator of our creates in the portal (learnt from its answers), null before any was answered;
 * `creator` is the candidate's, null when the service does not say. Only a known creator who is
 * known not to be us rules it out: another user's identical record or comment, made at about
 * the same time, adopted as ours, would leave ours never made.
 */
function byUs(creator: string | null | undefined, author: string | null): boolean {
  return author === null || creator === null || creator === undefined || creator === author;
}

export function findLostCreate(
  candidates: readonly Entity[],
  fields: OpFields,
  types: FieldTypes,
  sentAt: string,
  taken: ReadonlySet<string>,
  author: string | null = null,
): Entity | null {
  const matches = candidates.filter(
    (entity) =>
      !taken.has(entity.id) &&
      entity.trashed_time === null &&
      byUs(entity.owner?.zpuid, author) &&
      createdAfter(entity.created_time, sentAt) &&
      Object.entries(fields).every(([field, entry]) =>
        sameFieldValue(typeOf(types, field), entityValue(entity, field), entry.value),
      ),
  );
  // Oldest first: identical creates sent one after another adopt their records in queue order.
  matches.sort((a, b) => (a.created_time ?? '').localeCompare(b.created_time ?? ''));
  return matches[0] ?? null;
}

export function findLostComment(
  candidates: readonly Comment[],
  content: string,
  sentAt: string,
  taken: ReadonlySet<string>,
  author: string | null = null,
): Comment | null {
  const matches = candidates.filter(
    (comment) =>
      !taken.has(comment.id) &&
      byUs(comment.created_by?.zpuid, author) &&
      comment.content === content &&
      createdAfter(comment.created_time, sentAt),
  );
  matches.sort((a, b) => (a.created_time ?? '').localeCompare(b.created_time ?? ''));
  return matches[0] ?? null;
}
