/**
 * What a list needs to know about a module, read from the mirror's metadata once per write: its
 * key, its portal's zone and week, its fields, statuses and options as the filter language sees
 * them (statuses named as queued renames leave them: MetadataRepository.statusesAsQueued; option
 * values read as queued option changes leave them: optionsAsQueued), and its people's facts.
 */
import type { FilterUsers } from '@portaldesk/portal-api/filter';
import { customFieldIndexScope } from './customFieldIndexDefinition';
import type {
  MetadataRepository,
  StoredField,
  StoredStatus,
  StoredUser,
} from './metadataRepository';
import { recordFilterSetup, type OptionRelabel, type RecordFilterSetup } from './recordFilterSetup';
import { RecordQueryError } from './recordQueryError';

export interface ModuleContext {
  moduleKey: number;
  /**
   * The module's listed server copies, over `r`, binding the module key once: every statement of
   * a list starts its WHERE with it. It names the module key a second time as a literal
   * (customFieldIndexScope), the only way a statement may use the module's custom-field indexes.
   */
  listed: string;
  timeZone: string;
  weekStartDay: number | null;
  setup: RecordFilterSetup;
  fields: StoredField[];
  statuses: Map<string, StoredStatus>;
  closedStatusIds: Set<string>;
  /**
   * What queued option changes make of the option names server copies hold, per field
   * (MetadataRepository.optionsAsQueued): rows are shown so (storedRowAsQueued), filters read so.
   */
  relabel: OptionRelabel;
  users: FilterUsers;
}

/** What the filter language needs to know about people, from the facts the mirror has. */
export function filterUsers(users: readonly StoredUser[]): FilterUsers {
  const out: FilterUsers = {};
  // A list is given only when some user's fact is known: an unknown list makes its condition an
  // error (a user must hear "not known offline"), never a silent "nobody".
  const known = (pick: (u: StoredUser) => unknown) => users.some((u) => pick(u) !== null);
  const ids = (test: (u: StoredUser) => boolean) => users.filter(test).map((u) => u.zpuid);
  if (known((u) => u.status)) {
    out.deactivated = ids((u) => u.status === 'deactivated');
    out.deleted = ids((u) => u.status === 'deleted');
  }
  if (known((u) => u.isTeamLead)) out.teamLeads = ids((u) => u.isTeamLead === 1);
  if (known((u) => u.inviteStatus)) {
    out.pending = ids((u) => u.inviteStatus === 'pending');
    out.accepted = ids((u) => u.inviteStatus === 'accepted');
  }
  if (known((u) => u.reportsTo)) {
    const reports: Record<string, string[]> = {};
    for (const user of users) {
      if (user.reportsTo === null) continue;
      (reports[user.reportsTo] ??= []).push(user.zpuid);
    }
    out.directReports = reports;
  }
  return out;
}

/** Throws RecordQueryError when the portal or module is not mirrored. */
export function loadModuleContext(
  metadata: MetadataRepository,
  portalId: string,
  moduleId: string,
): ModuleContext {
  const portal = metadata.portal(portalId);
  const moduleKey = metadata.moduleKey(portalId, moduleId);
  if (!portal || moduleKey === undefined) {
    throw new RecordQueryError(
      `Module ${moduleId} of portal ${portalId} is not in the local mirror. Nothing was listed; sync the portal, then open the module again.`,
    );
  }
  const fields = metadata.fields(portalId, moduleId);
  // Named as queued renames leave them; which there are and their closed types stay the mirror's.
  const statuses = metadata.statusesAsQueued(portalId, moduleId);
  const { relabel } = metadata.optionsAsQueued(portalId, moduleId);
  const apiNames = new Map(fields.map((f) => [f.id, f.apiName]));
  const options = metadata
    .moduleOptions(portalId, moduleId)
    .filter((o) => o.kind === 'custom_option')
    .map((o) => ({
      fieldApiName: apiNames.get(o.fieldId) ?? '',
      valueId: o.valueId,
      value: o.value,
    }));
  return {
    moduleKey,
    listed: `r.module_key = ? AND r.list_state = 0 AND ${customFieldIndexScope(moduleKey, 'r')}`,
    timeZone: portal.timeZone,
    weekStartDay: portal.weekStartDay,
    setup: recordFilterSetup(fields, statuses, options, relabel),
    fields,
    statuses: new Map(statuses.map((s) => [s.id, s])),
    closedStatusIds: new Set(statuses.filter((s) => s.isClosedType === 1).map((s) => s.id)),
    relabel,
    users: filterUsers(metadata.users(portalId)),
  };
}
