import type { ApiClient, CallOptions } from '../api/client/apiClient';
import { ALL_PROJECTS } from '../api/client/endpoints';
import { paginate } from '../api/client/paginate';
import type { Comment } from '@portaldesk/portal-api/domain/comment';
import type { Mirror } from '../store/mirror/mirror';
import type { MirrorWriter } from '../store/mirror/mirrorWriter';
import type { MirrorComment } from '../store/mirror/mirrorTypes';
import { mapComment } from './mapComment';
import { MentionedUsers } from './mentionedUsers';
import type { ModuleRef } from './syncContext';

export interface CommentFetchOptions extends CallOptions {
  /** Called before each list call (pages of comments), for call counts. */
  onCall?: () => void | Promise<void>;
}

/** The comments list's endpoint key for a portal (one key for every record of the portal). */
export function commentsKey(client: ApiClient, portalId: string, module: ModuleRef): string {
  return client.endpointKey('listComments', {
    portal_id: portalId,
    scope_path: ALL_PROJECTS,
    module_api_name: module.apiName,
    entity_id: '0',
  });
}

/**
 * Ours: reads of a record's comments, while comments deleted meanwhile leave one of them unread,
 * before giving up in words (the stored list is kept).
 */
export const COMMENT_READS = 3;

/** One read of every page: the comments, the ids of those skipped, and whether one was missed. */
async function readComments(
  list: (...args: Parameters<ApiClient['listComments']>) => ReturnType<ApiClient['listComments']>,
  args: Parameters<ApiClient['listComments']>[0],
  callOptions: CallOptions,
) {
  const comments: Comment[] = [];
  const skippedIds = new Set<string>();
  let unnamed = 0;
  const counts: (number | null)[] = [];
  for await (const page of paginate(list, args, callOptions)) {
    comments.push(...page.items);
    for (const item of page.skipped) {
      if (item.id === null) unnamed++;
      else skippedIds.add(item.id);
    }
    counts.push(page.pageInfo.page_count);
  }
  const read = new Set([...comments.map((c) => c.id), ...skippedIds]).size + unnamed;
  // Pages are read by number: a comment deleted behind the reading point moved the first of the
  // next page onto one read already, and storing the rest as the whole list would drop it. Such a
  // deletion changes the count between pages, or leaves fewer read than listed.
  const listed = counts.at(-1) ?? null;
  const missed = (listed !== null && read < listed) || counts.some((n) => n !== counts[0]);
  return { comments, skippedIds, missed };
}

/**
 * Reads all comments of one record (one request per page, almost always one) and stores them as
 * the record's whole list, marking its comments mirrored; read again when the service listed more
 * than came (COMMENT_READS). A comment the server sent malformed is skipped; its stored copy, if
 * any, is kept rather than deleted. Returns how many are stored.
 */
export async function fetchRecordComments(
  client: ApiClient,
  mirror: Mirror,
  /** Where the comments are stored (the sync's writer: the thread's, or the mirror's own). */
  writer: Pick<MirrorWriter, 'comments'>,
  portalId: string,
  module: ModuleRef,
  recordId: string,
  options: CommentFetchOptions = {},
): Promise<number> {
  const { onCall, ...callOptions } = options;
  const list = Object.assign(
    async (...args: Parameters<ApiClient['listComments']>) => {
      await onCall?.();
      return client.listComments(...args);
    },
    { endpoint: (client.listComments as { endpoint?: unknown }).endpoint },
  );
  const args = {
    portal_id: portalId,
    scope_path: ALL_PROJECTS,
    module_api_name: module.apiName,
    entity_id: recordId,
  };
  let reading = await readComments(list, args, callOptions);
  for (let reads = 1; reading.missed; reads++) {
    if (reads === COMMENT_READS) {
      throw new Error(
        `the comments of record ${recordId} kept changing while they were read (${reads} times), so some were not read; the stored ones are kept.`,
      );
    }
    reading = await readComments(list, args, callOptions);
  }
  const { comments, skippedIds } = reading;
  const mapped: MirrorComment[] = comments.map(mapComment);
  if (skippedIds.size > 0) {
    mapped.push(
      ...mirror.comments.comments(portalId, recordId).filter((c) => skippedIds.has(c.id)),
    );
  }
  const users = new MentionedUsers();
  users.addComments(comments);
  await writer.comments.replaceRecordComments(portalId, recordId, mapped, {
    users: users.list(),
  });
  return mapped.length;
}
