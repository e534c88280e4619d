import type { ApiClient, CallOptions } from '../api/client/apiClient';
import { ALL_PROJECTS } from '../api/client/endpoints';
import { paginate } from '../api/client/paginate';
import type { StatusTimelineEntry } from '@portaldesk/portal-api/domain/statusTimelineEntry';
import type { Mirror } from '../store/mirror/mirror';
import type { MirrorStatusChange } from '../store/mirror/mirrorTypes';
import { MentionedUsers } from './mentionedUsers';
import type { ModuleRef } from './syncContext';

export function mapStatusChange(entry: StatusTimelineEntry): MirrorStatusChange {
  return {
    id: entry.id,
    fromStatusId: entry.from_status?.id ?? null,
    toStatusId: entry.to_status.id,
    changedBy: entry.changed_by?.zpuid ?? null,
    changedTime: entry.changed_time,
  };
}

/**
 * Reads one record's status timeline (one request per page, like its comments: which is why it is
 * read for the record the user opens rather than for every record) and stores it whole. Returns
 * the number of entries stored.
 */
export async function fetchRecordTimeline(
  client: ApiClient,
  mirror: Mirror,
  portalId: string,
  module: ModuleRef,
  recordId: string,
  options: CallOptions = {},
): Promise<number> {
  const entries: StatusTimelineEntry[] = [];
  let skipped = 0;
  const args = {
    portal_id: portalId,
    scope_path: ALL_PROJECTS,
    module_api_name: module.apiName,
    entity_id: recordId,
  };
  for await (const page of paginate(client.listStatusTimeline, args, options)) {
    entries.push(...page.items);
    skipped += page.skipped.length;
  }
  // A malformed entry would make the stored timeline look complete when it is not: keep the
  // stored one instead of replacing it with a partial list.
  if (skipped > 0) return mirror.comments.statusTimeline(portalId, recordId).length;
  const users = new MentionedUsers();
  for (const entry of entries) {
    if (entry.changed_by)
      users.add(entry.changed_by.zpuid, entry.changed_by.name, entry.changed_by.email);
  }
  if (users.list().length > 0) mirror.metadata.upsertUsers(portalId, users.list());
  mirror.comments.replaceStatusTimeline(portalId, recordId, entries.map(mapStatusChange));
  return entries.length;
}
