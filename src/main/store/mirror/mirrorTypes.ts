/**
 * The shapes the mirror's repositories take and give. The sync engine maps API payloads to the
 * input shapes (Mirror*); the UI reads the output shapes (MirrorRecordView, RecordSearchHit).
 * Ids are the API's strings of digits; times are the API's ISO 8601 strings.
 */

/** A portal: the list item and details the API returned. */
export interface MirrorPortal {
  id: string;
  /** The signed-in account that reaches the portal (sign-in's id; no foreign key). */
  accountId: string;
  /** The data center the portal was reached through. */
  dc: string;
  name: string;
  orgName: string | null;
  /** IANA zone (portal `timezone`): "today" in filters is a day there. */
  timeZone: string;
  /** business_details.week_start_day, when known. */
  weekStartDay: number | null;
  isDefault: boolean;
  /** Everything else the API returned, kept as given. */
  details: Record<string, unknown>;
}

/**
 * Someone seen in a portal (record owner, comment author, user of a user field). The API has no
 * user list, so the optional facts are undefined or null when nothing said them: an upsert then
 * keeps what is stored.
 */
export interface MirrorUser {
  zpuid: string;
  name?: string | null;
  email?: string | null;
  status?: 'active' | 'deactivated' | 'deleted' | null;
  inviteStatus?: 'pending' | 'accepted' | null;
  isTeamLead?: boolean | null;
  /** The zpuid of the user they report to. */
  reportsTo?: string | null;
}

export interface MirrorModule {
  id: string;
  apiName: string;
  singularName: string;
  pluralName: string;
  iconClass: string | null;
  isActive: boolean;
  isDefault: boolean;
  createdTime: string | null;
  /** Everything else the API returned (projects, module_property, ...), kept as given. */
  details: Record<string, unknown>;
}

export interface MirrorLayout {
  id: string;
  name: string;
  type: string;
  isDefault: boolean;
  referenceId: string | null;
  createdTime: string | null;
}

/** A section of a layout with the fields placed in it, in order. */
export interface MirrorSection {
  id: string;
  name: string;
  position: number;
  fields: { fieldId: string; position: number }[];
}

export interface MirrorField {
  id: string;
  apiName: string;
  displayName: string;
  /** A key of CUSTOM_FIELD_TYPES for custom fields; the system field's type otherwise. */
  fieldType: string;
  dataType: string;
  /** A system field (name, status, owner, ...). */
  isDefault: boolean;
  isMandatory: boolean;
  fieldProperty: Record<string, unknown>;
  createdTime: string | null;
}

/**
 * An option of a field: a pick-list or multi-select option (value_id = option id, value = display
 * name), or whom a user field may pick (a user by zpuid, a role by id; value = their name).
 */
export interface MirrorFieldOption {
  kind: 'custom_option' | 'user' | 'role';
  valueId: string;
  value: string | null;
  /** Null: the option exists in every layout. */
  layoutId: string | null;
  position: number;
}

export interface MirrorStatus {
  id: string;
  name: string;
  color: string | null;
  isClosedType: boolean;
  isDefault: boolean;
  position: number;
  /** Ids of the statuses a record in this status may move to. */
  transitions: string[];
}

/** A record of a custom module, as the API showed it. */
export interface MirrorRecord {
  portalId: string;
  moduleId: string;
  id: string;
  name: string;
  /** '' when the record has none. */
  description: string;
  statusId: string | null;
  layoutId: string | null;
  projectId: string | null;
  projectName: string | null;
  ownerZpuid: string | null;
  isClosed: boolean;
  isExternal: boolean;
  createdTime: string;
  lastUpdatedTime: string;
  trashedTime: string | null;
  /**
   * Custom field values by api_name, in the shapes the API shows them: multi-select as option
   * names, user as {zpuid, name}, multi-user as [{zpuid, name}], currency as an object.
   */
  custom: Record<string, unknown>;
}

export interface MirrorComment {
  id: string;
  content: string;
  attachmentIds: string[];
  /** zpuid of the author. */
  createdBy: string | null;
  createdTime: string;
  lastUpdatedTime: string;
}

/** One entry of a record's status timeline. */
export interface MirrorStatusChange {
  id: string;
  fromStatusId: string | null;
  toStatusId: string | null;
  /** zpuid. */
  changedBy: string | null;
  changedTime: string;
}

/** Where the pull of one module of a portal stands. */
export interface MirrorCursor {
  portalId: string;
  moduleId: string;
  /** The highest last_updated_time fully upserted: the incremental pull asks from its day on. */
  highWater: string | null;
  /**
   * Where a full pull resumes after a crash or a kill (null when none is running): the 1-based
   * position in the id-ordered list where `scanAfter`, the greatest id it stored, stood when read
   * (src/main/sync/scanWindow.ts).
   */
  scanIndex: number | null;
  scanAfter: string | null;
  fullStartedAt: string | null;
  fullCompletedAt: string | null;
  /** The last full comparison of ids that removed records deleted on the server. */
  lastReconciledAt: string | null;
  updatedAt: string;
}

/** A change to a cursor: the fields given are written, the others keep their stored value. */
export type MirrorCursorUpdate = Pick<MirrorCursor, 'portalId' | 'moduleId'> &
  Partial<Omit<MirrorCursor, 'portalId' | 'moduleId' | 'updatedAt'>>;

/** A record as the UI lists it: the server copy with the pending local edits laid over it. */
export interface MirrorRecordView {
  id: string;
  portalId: string;
  moduleId: string;
  name: string;
  description: string;
  status: { id: string; name: string | null; color: string | null; isClosedType: boolean } | null;
  layoutId: string | null;
  project: { id: string; name: string | null } | null;
  owner: { zpuid: string; name: string | null; email: string | null } | null;
  isClosed: boolean;
  isExternal: boolean;
  createdTime: string;
  lastUpdatedTime: string;
  custom: Record<string, unknown>;
  /** Created offline under a temporary id, not on the server yet. */
  localOnly: boolean;
  /** Fields with a local edit not replayed yet (API body keys or custom api_names). */
  pendingFields: string[];
  /** The record's comments are in the mirror (as of its current version). */
  commentsMirrored: boolean;
}
