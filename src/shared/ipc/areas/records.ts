/**
 * The records area: the records workspace reads the local mirror (portals, modules with counts,
 * a module's fields and layout, windows of filtered and sorted records, one record's detail,
 * full-text search) and keeps its own small state (saved filters per module, recently viewed
 * records). Nothing here reaches the network. contract.ts composes these with every other area's.
 */
import { z } from 'zod';
import { NoArgs, request } from '../contractSpec';

/**
 * Ids are the API's strings of digits; records created offline carry the outbox's temporary ids,
 * so record ids also allow letters and `-`/`_`/`:`.
 */
const Id = z.string().regex(/^\d{1,20}$/, 'an id (digits)');
const RecordId = z.string().regex(/^[A-Za-z0-9_:-]{1,64}$/, 'a record id');
/**
 * A backup opened for browsing (`backups.browse`): the read requests that take it read that
 * backup's snapshot instead of the live mirror. Absent: the live mirror.
 */
const Snapshot = z
  .string()
  .regex(/^\d{1,15}$/, 'a backup id (digits)')
  .optional();

/** Our limits (the spec has no saved filters): a name fits a menu, a list fits a menu too. */
export const SAVED_FILTER_NAME_MAX = 100;
export const SAVED_FILTERS_PER_MODULE_MAX = 200;
/**
 * The longest filter text accepted: 100 criteria of 500 values each (packages/portal-api/src/filter/limits.ts)
 * of ids up to 20 digits stay below it.
 */
export const FILTER_TEXT_MAX = 1_500_000;
/** What the user types into search. */
export const SEARCH_TEXT_MAX = 500;
/** Records of a module's recycle bin listed at once (the service keeps them 30 days). */
export const TRASHED_LISTED_MAX = 500;
/**
 * Ours: rows one selection of the records table names one by one (a range's ids read at once,
 * or a selection's rows read again); a bulk edit takes as many (bulkEdit.ts's BULK_RECORDS_MAX
 * is this). A larger range is refused in words; selecting the whole list has no limit.
 */
export const LIST_IDS_MAX = 50_000;
/** Records kept in a portal's "recently viewed" list. */
export const RECENT_RECORDS_MAX = 30;

export const RecordsPortal = z.object({
  id: z.string(),
  /** The signed-in account that reaches it (sign-in's id). */
  accountId: z.string(),
  dc: z.string(),
  name: z.string(),
  orgName: z.string().nullable(),
  timeZone: z.string(),
  isDefault: z.boolean(),
});
export type RecordsPortal = z.infer<typeof RecordsPortal>;

export const RecordsModule = z.object({
  id: z.string(),
  apiName: z.string(),
  singularName: z.string(),
  pluralName: z.string(),
  isActive: z.boolean(),
  /**
   * One of the product's own modules (projects, phases, tasklists, tasks, issues: `is_default`).
   * The API's record endpoints are for custom modules, so no sync brings records of these.
   */
  builtIn: z.boolean(),
  /** Records in the mirror that lists show (trashed ones not counted). */
  records: z.number().int().nonnegative(),
});
export type RecordsModule = z.infer<typeof RecordsModule>;

export const FilterKind = z.enum([
  'text',
  'number',
  'date',
  'datetime',
  'boolean',
  'status',
  'user',
  'picklist',
  'multipicklist',
]);

/** A column of the records table and a field of the detail panel. */
export const RecordsField = z.object({
  /** System fields by their API body key (name, status, owner, ...), custom ones by api_name. */
  key: z.string(),
  label: z.string(),
  /** A custom field type (packages/portal-api/src/domain/customFieldTypes.ts) or a system field's own type. */
  type: z.string(),
  system: z.boolean(),
  sortable: z.boolean(),
  /** How the filter language treats it; null when it cannot be filtered by. */
  filterKind: FilterKind.nullable(),
  /** Pick lists and multi-selects: their options (id and display name), in order. */
  options: z.array(z.object({ id: z.string(), name: z.string() })),
});
export type RecordsField = z.infer<typeof RecordsField>;

export const RecordsStatus = z.object({
  id: z.string(),
  name: z.string(),
  color: z.string().nullable(),
  isClosedType: z.boolean(),
});
export type RecordsStatus = z.infer<typeof RecordsStatus>;

export const RecordsUser = z.object({
  zpuid: z.string(),
  name: z.string().nullable(),
  email: z.string().nullable(),
});
export type RecordsUser = z.infer<typeof RecordsUser>;

export const RecordsSection = z.object({
  id: z.string(),
  name: z.string(),
  /** Field keys in the section's order. */
  fields: z.array(z.string()),
});
export type RecordsSection = z.infer<typeof RecordsSection>;

export const RecordsLayout = z.object({
  id: z.string(),
  name: z.string(),
  isDefault: z.boolean(),
  sections: z.array(RecordsSection),
});
export type RecordsLayout = z.infer<typeof RecordsLayout>;

export const RecordsColumns = z.object({
  portalId: z.string(),
  moduleId: z.string(),
  timeZone: z.string(),
  fields: z.array(RecordsField),
  statuses: z.array(RecordsStatus),
  /** People the portal's mirror knows, for user pickers and names. */
  users: z.array(RecordsUser),
  layouts: z.array(RecordsLayout),
});
export type RecordsColumns = z.infer<typeof RecordsColumns>;

/** A record as lists show it: the server copy with pending local edits laid over it. */
export const RecordRow = z.object({
  id: z.string(),
  portalId: z.string(),
  moduleId: z.string(),
  name: z.string(),
  description: z.string(),
  status: z
    .object({
      id: z.string(),
      name: z.string().nullable(),
      color: z.string().nullable(),
      isClosedType: z.boolean(),
    })
    .nullable(),
  layoutId: z.string().nullable(),
  project: z.object({ id: z.string(), name: z.string().nullable() }).nullable(),
  owner: z
    .object({ zpuid: z.string(), name: z.string().nullable(), email: z.string().nullable() })
    .nullable(),
  isClosed: z.boolean(),
  isExternal: z.boolean(),
  createdTime: z.string(),
  lastUpdatedTime: z.string(),
  /** Custom values by api_name, in the shapes the API shows them. */
  custom: z.record(z.string(), z.unknown()),
  localOnly: z.boolean(),
  pendingFields: z.array(z.string()),
  commentsMirrored: z.boolean(),
});
export type RecordRow = z.infer<typeof RecordRow>;

export const RecordsSort = z.object({
  field: z.string().min(1).max(200),
  descending: z.boolean(),
});
export type RecordsSort = z.infer<typeof RecordsSort>;

export const RecordsQueryArgs = z
  .object({
    portalId: Id,
    moduleId: Id,
    snapshot: Snapshot,
    /** The API's `filter` value (JSON text); absent or blank lists every record. */
    filter: z.string().max(FILTER_TEXT_MAX).optional(),
    sort: RecordsSort.optional(),
    offset: z.number().int().nonnegative(),
    limit: z.number().int().positive(),
  })
  .strict();

export const RecordsWindow = z.object({
  rows: z.array(RecordRow),
  total: z.number().int().nonnegative(),
});
export type RecordsWindow = z.infer<typeof RecordsWindow>;

export const RecordsIdsArgs = RecordsQueryArgs.extend({
  limit: z.number().int().positive().max(LIST_IDS_MAX),
}).strict();

export const RecordsIds = z.object({
  /** The ids of the window's rows, in the list's order. */
  ids: z.array(z.string()),
  total: z.number().int().nonnegative(),
});
export type RecordsIds = z.infer<typeof RecordsIds>;

/** Records of a list named by id: at most LIST_IDS_MAX of them. */
const ListedIds = z.array(RecordId).max(LIST_IDS_MAX);

export const RecordsRowsArgs = RecordsQueryArgs.pick({
  portalId: true,
  moduleId: true,
  snapshot: true,
})
  .extend({ ids: ListedIds })
  .strict();

export const RecordsListedArgs = RecordsQueryArgs.pick({
  portalId: true,
  moduleId: true,
  snapshot: true,
  filter: true,
})
  .extend({ ids: ListedIds })
  .strict();

export const TimelineEntry = z.object({
  id: z.string(),
  from: RecordsStatus.nullable(),
  to: RecordsStatus.nullable(),
  changedBy: RecordsUser.nullable(),
  changedTime: z.string(),
});
export type TimelineEntry = z.infer<typeof TimelineEntry>;

export const RecordComment = z.object({
  id: z.string(),
  content: z.string(),
  author: RecordsUser.nullable(),
  createdTime: z.string(),
  lastUpdatedTime: z.string(),
  attachmentIds: z.array(z.string()),
});
export type RecordComment = z.infer<typeof RecordComment>;

export const RecordDetail = z.object({
  record: RecordRow,
  /** Set when the record is in the service's recycle bin. */
  trashedTime: z.string().nullable(),
  /** The record's layout (or the module's default one), its sections and their fields. */
  layout: RecordsLayout.nullable(),
  timeline: z.array(TimelineEntry),
  comments: z.array(RecordComment),
  /** When the comments were last read from the service; null: never. */
  commentsSyncedAt: z.string().nullable(),
  timeZone: z.string(),
});
export type RecordDetail = z.infer<typeof RecordDetail>;

export const HighlightPart = z.object({ text: z.string(), highlighted: z.boolean() });
export type HighlightPart = z.infer<typeof HighlightPart>;

export const SearchHit = z.object({
  recordId: z.string(),
  moduleId: z.string(),
  /** The module's plural name. */
  module: z.string(),
  source: z.enum(['name', 'description', 'comment']),
  commentId: z.string().nullable(),
  name: z.array(HighlightPart),
  snippet: z.array(HighlightPart),
});
export type SearchHit = z.infer<typeof SearchHit>;

export const SavedFilter = z.object({
  id: z.number().int(),
  name: z.string(),
  /** The API's `filter` value (JSON text). */
  filter: z.string(),
  updatedAt: z.string(),
});
export type SavedFilter = z.infer<typeof SavedFilter>;

export const RecentRecord = z.object({
  recordId: z.string(),
  moduleId: z.string(),
  module: z.string(),
  name: z.string(),
  viewedAt: z.string(),
});
export type RecentRecord = z.infer<typeof RecentRecord>;

export const TrashedRecord = z.object({
  recordId: z.string(),
  name: z.string(),
  trashedTime: z.string(),
});
export type TrashedRecord = z.infer<typeof TrashedRecord>;

const ModuleArgs = z.object({ portalId: Id, moduleId: Id }).strict();
const ModuleReadArgs = z.object({ portalId: Id, moduleId: Id, snapshot: Snapshot }).strict();

export const recordsRequests = {
  'records.portals': request(
    NoArgs,
    z.array(RecordsPortal),
    'Portals in the mirror, with the account that reaches each.',
  ),
  'records.modules': request(
    z.object({ portalId: Id, snapshot: Snapshot }).strict(),
    z.array(RecordsModule),
    "A portal's mirrored modules with their record counts.",
  ),
  'records.columns': request(
    ModuleReadArgs,
    RecordsColumns,
    "A module's fields, statuses, people and layouts: the table's columns and the filter's fields.",
  ),
  'records.query': request(
    RecordsQueryArgs,
    RecordsWindow,
    'One window of a module’s records with a filter in the API’s language and a sort, plus the total.',
  ),
  'records.ids': request(
    RecordsIdsArgs,
    RecordsIds,
    'The ids of one window of a list (as records.query lists it, up to 50,000 rows) and its total, read at once: a range of rows the table selects.',
  ),
  'records.rows': request(
    RecordsRowsArgs,
    z.array(RecordRow),
    'Records of a module by id, as its lists show them, in the order asked; those no longer in its lists are left out.',
  ),
  'records.listed': request(
    RecordsListedArgs,
    z.array(z.string()),
    'Which of some records the list (its filter, local edits laid over) holds now, in the order asked: a selection drops those a sync trashed, deleted or changed out of the filter.',
  ),
  'records.get': request(
    z.object({ portalId: Id, recordId: RecordId, snapshot: Snapshot }).strict(),
    RecordDetail,
    'One record with its sections, status timeline and comments (trashed records too).',
  ),
  'records.trashed': request(
    ModuleReadArgs,
    z.array(TrashedRecord),
    "A module's records in the recycle bin (lists and search leave them out).",
  ),
  'records.search': request(
    z
      .object({
        portalId: Id,
        text: z.string().max(SEARCH_TEXT_MAX),
        moduleId: Id.optional(),
        limit: z.number().int().positive().optional(),
        snapshot: Snapshot,
      })
      .strict(),
    z.array(SearchHit),
    'Full-text search of names, descriptions and comments, matched words highlighted.',
  ),
  'records.savedFilters': request(
    ModuleArgs,
    z.array(SavedFilter),
    "A module's saved filters, by name.",
  ),
  'records.saveFilter': request(
    z
      .object({
        portalId: Id,
        moduleId: Id,
        name: z.string().trim().min(1).max(SAVED_FILTER_NAME_MAX),
        filter: z.string().min(1).max(FILTER_TEXT_MAX),
      })
      .strict(),
    z.array(SavedFilter),
    'Save a filter under a name (replacing one of the same name); returns the module’s list.',
  ),
  'records.deleteFilter': request(
    z.object({ portalId: Id, moduleId: Id, id: z.number().int().positive() }).strict(),
    z.array(SavedFilter),
    'Delete a saved filter; returns the module’s list.',
  ),
  'records.recent': request(
    z.object({ portalId: Id }).strict(),
    z.array(RecentRecord),
    'Records of the portal opened most recently, newest first.',
  ),
  'records.viewed': request(
    z.object({ portalId: Id, recordId: RecordId }).strict(),
    z.array(RecentRecord),
    'Remember that a record was opened; returns the recent list.',
  ),
} as const;

export const recordsEvents = {
  /** The mirror's records changed (a sync page, a replayed edit); moduleId null: any module. */
  'records.changed': z.object({ portalId: z.string(), moduleId: z.string().nullable() }),
} as const;
