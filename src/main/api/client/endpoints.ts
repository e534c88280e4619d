/**
 * Every endpoint of the spec (001, "Endpoints"), declared once: method, route template (after the
 * profile's API prefix), scopes, body kind, reply shape and the action in a user's words. The
 * client's functions, the rate limit's endpoint keys and the scopes to ask for at sign-in are all
 * derived from this table.
 *
 * `{comment_segment}` is the profile's literal comment segment, not an argument. The spec writes
 * the module-fields route with `{module_id}`; it is `{module_api_name}` here (the emulator's name
 * for the same segment, which "accepts a module API name or id"), so endpoint keys match.
 */
import type { z } from 'zod';
import type { Filter } from '@portaldesk/portal-api/filter';
import type { ScopeService } from '@portaldesk/portal-api/serviceProfile';
import { BackupExport, BackupSchedule } from '@portaldesk/portal-api/domain/backupExport';
import type { BackupRequest } from '@portaldesk/portal-api/domain/backupRequest';
import type { TrashBatch, TrashBatches } from '@portaldesk/portal-api/domain/binInput';
import { BinDeleted, BinItem, BinRestored } from '@portaldesk/portal-api/domain/binItem';
import { Comment } from '@portaldesk/portal-api/domain/comment';
import type { CommentInput } from '@portaldesk/portal-api/domain/commentInput';
import { Entity } from '@portaldesk/portal-api/domain/entity';
import type { EntityCreate, EntityPatch } from '@portaldesk/portal-api/domain/entityInput';
import { Field, FieldPlacement } from '@portaldesk/portal-api/domain/field';
import type { FieldPut } from '@portaldesk/portal-api/domain/fieldInput';
import type {
  FieldOptionsChange,
  FieldOptionsRemoval,
} from '@portaldesk/portal-api/domain/fieldOptionsInput';
import { FieldsConfiguration } from '@portaldesk/portal-api/domain/fieldsConfiguration';
import {
  IntegrationField,
  IntegrationModule,
  IntegrationService,
} from '@portaldesk/portal-api/domain/integration';
import { AssociatedEntity, Layout } from '@portaldesk/portal-api/domain/layout';
import type {
  LayoutCreate,
  LayoutPatch,
  SectionPut,
} from '@portaldesk/portal-api/domain/layoutInput';
import { Module } from '@portaldesk/portal-api/domain/module';
import type { ModuleCreate, ModulePatch } from '@portaldesk/portal-api/domain/moduleInput';
import { Portal } from '@portaldesk/portal-api/domain/portal';
import { PortalDetails } from '@portaldesk/portal-api/domain/portalDetails';
import { Section } from '@portaldesk/portal-api/domain/section';
import { StatusTimelineEntry } from '@portaldesk/portal-api/domain/statusTimelineEntry';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** How the request body travels: JSON ("Bodies are JSON unless stated") or form fields. */
export type BodyKind = 'none' | 'json' | 'form';

export type ScopeOperation = 'READ' | 'CREATE' | 'UPDATE' | 'DELETE' | 'ALL';

/** A scope without its vendor prefix: `{api, portals, READ}` is `PMS.portals.READ`. */
export interface ScopeRef {
  service: ScopeService;
  name: string;
  operation: ScopeOperation;
}

/**
 * What a successful reply holds:
 * - `none`: nothing (204)
 * - `one`: one item under `member` (`{"entity": {...}}`)
 * - `object`: the whole body is one object
 * - `list`: items under `member` and `page_info`
 * - `items`: items under `member`, no `page_info`
 * - `bareList`: the body is an array (the portal list, "returns array of portal objects")
 * - `count`: `{"count": N}`
 * - `options`: a field's option lists (`custom_options`, `users`, `roles`, `statuses`), paged or not
 */
export type ReplySpec =
  | { kind: 'none' }
  | { kind: 'one'; member: string; schema: z.ZodType }
  | { kind: 'object'; schema: z.ZodType }
  | { kind: 'list'; member: string; schema: z.ZodType }
  | { kind: 'items'; member: string; schema: z.ZodType }
  | { kind: 'bareList'; schema: z.ZodType }
  | { kind: 'count' }
  | { kind: 'options'; paged: boolean };

/**
 * Query parameters the spec marks required and the client fills when the caller does not:
 * `page` = page and per_page (from 1, default per_page); `page+index` also sends index and range
 * for the same window (options: "page, per_page, index, range (all req)").
 */
export type PagingRule = 'optional' | 'page' | 'page+index';

export interface EndpointSpec<R extends string = string, Rep extends ReplySpec = ReplySpec> {
  method: HttpMethod;
  route: R;
  scopes: readonly ScopeRef[];
  body: BodyKind;
  reply: Rep;
  /** What the call does, completing "The service refused to ...". */
  action: string;
  paging?: PagingRule;
  /**
   * A PUT that "adds or updates" (spec: sections, fields): without an `id` in its body it adds,
   * so it is not sent twice (retryPolicy.ts, isIdempotentCall).
   */
  addsWithoutId?: true;
}

/** Phantom types of an endpoint's query and body; never set at run time. */
export interface Typed<Q, B> {
  readonly __query?: Q;
  readonly __body?: B;
}

/** Declares an endpoint with its query type `Q` and body type `B` (`never`: no body). */
function def<Q extends object = NoQuery, B = never>() {
  return <const R extends string, const Rep extends ReplySpec>(
    spec: EndpointSpec<R, Rep>,
  ): EndpointSpec<R, Rep> & Typed<Q, B> => spec;
}

// ---- reply shapes ----------------------------------------------------------------------------

const none = { kind: 'none' } as const;
const count = { kind: 'count' } as const;
const one = <S extends z.ZodType>(member: string, schema: S) =>
  ({ kind: 'one', member, schema }) as const;
const object = <S extends z.ZodType>(schema: S) => ({ kind: 'object', schema }) as const;
const list = <S extends z.ZodType>(member: string, schema: S) =>
  ({ kind: 'list', member, schema }) as const;
const items = <S extends z.ZodType>(member: string, schema: S) =>
  ({ kind: 'items', member, schema }) as const;
const bareList = <S extends z.ZodType>(schema: S) => ({ kind: 'bareList', schema }) as const;
const options = (paged: boolean) => ({ kind: 'options', paged }) as const;

// ---- scopes ----------------------------------------------------------------------------------

const apiScope = (name: string, operation: ScopeOperation): ScopeRef => ({
  service: 'api',
  name,
  operation,
});
const PORTALS_READ = apiScope('portals', 'READ');
const PORTALS_CREATE = apiScope('portals', 'CREATE');
const PORTALS_UPDATE = apiScope('portals', 'UPDATE');
const PORTALS_DELETE = apiScope('portals', 'DELETE');
const FIELDS_READ = apiScope('custom_fields', 'READ');
const FIELDS_CREATE = apiScope('custom_fields', 'CREATE');
const FIELDS_UPDATE = apiScope('custom_fields', 'UPDATE');
const FIELDS_DELETE = apiScope('custom_fields', 'DELETE');
/** "PMS.portals.READ, PMSFiles.files.READ" for every backup row. */
const BACKUP_SCOPES = [
  PORTALS_READ,
  { service: 'files', name: 'files', operation: 'READ' },
] as const;

// ---- query types -----------------------------------------------------------------------------

export type NoQuery = Record<never, never>;

/** "page (integer, from 1, default 1) and per_page (integer, default 100, supported 1-200)". */
export interface PageQuery {
  page?: number;
  per_page?: number;
}

/** v2's offset paging, still listed on some reads. */
export interface IndexRangeQuery {
  index?: number;
  range?: number;
}

/** `ASC(field_name)` or `DESC(field_name)`. */
export type SortBy = `${'ASC' | 'DESC'}(${string})`;

export interface ModuleQuery {
  /** "module parameters accept a module API name or id". */
  module: string;
}

export interface EntityListQuery extends PageQuery, IndexRangeQuery {
  filter?: Filter;
  sort_by?: SortBy;
  view_id?: string;
  project_id?: string;
}

export interface EntityCountQuery {
  filter?: Filter;
  view_id?: string;
  project_id?: string;
}

export interface BinQuery extends PageQuery {
  /** "accepted trashed_time or name, written as asc(trashed_time) style". */
  sort_by?: `${'asc' | 'desc'}(${'trashed_time' | 'name'})`;
  filter?: Record<string, unknown>;
}

export interface ModuleListQuery extends PageQuery, IndexRangeQuery {
  filter?: { is_customized?: boolean; is_default?: boolean; is_web_tab?: boolean };
}

export interface LayoutListQuery extends ModuleQuery, PageQuery {
  filter?: {
    is_association_info_needed?: boolean | 'true' | 'false';
    is_current_user_profile_associated?: boolean | 'true' | 'false';
    search_term?: string;
    search_by?: string;
  };
}

export interface AssociatedEntitiesQuery extends ModuleQuery, PageQuery {
  is_unassociated: boolean;
  /** Required; may be empty. */
  search_term: string;
  filter?: { ignore?: { id: string }[] };
}

export interface FieldListQuery extends ModuleQuery, PageQuery, IndexRangeQuery {
  filter?: {
    is_mandatory?: boolean;
    is_renamed?: boolean;
    is_default?: boolean;
    is_unassociated?: boolean;
    is_association_info_needed?: boolean;
    is_formula_based_list?: boolean;
    layout_id?: string;
    project_id?: string;
    field_ids?: string[];
    fields?: string[];
    search_term?: string;
  };
}

export interface FieldLayoutsQuery extends ModuleQuery, PageQuery {
  filter?: { ignore?: { id: string }[]; search_term?: string };
}

export interface OptionListQuery extends ModuleQuery, PageQuery, IndexRangeQuery {
  /** The field's api name or id. */
  field: string;
  filter?: { project_id?: string; layout_id?: string; is_unassociated?: boolean };
}

export interface CommentListQuery extends PageQuery {
  sort_by?: SortBy;
}

// ---- the table -------------------------------------------------------------------------------

const PORTAL = '/portal/{portal_id}';
const RECORDS = `${PORTAL}/{scope_path}/{module_api_name}`;
const COMMENTS = `${RECORDS}/entity/{entity_id}/{comment_segment}`;
const SETTINGS = `${PORTAL}/settings`;
const INTEGRATION = `${PORTAL}/integration-field/service`;

export const ENDPOINTS = {
  // Portals
  listPortals: def<PageQuery>()({
    method: 'GET',
    route: '/portals',
    scopes: [PORTALS_READ],
    body: 'none',
    reply: bareList(Portal),
    action: 'list your portals',
  }),
  getPortal: def()({
    method: 'GET',
    route: PORTAL,
    scopes: [PORTALS_READ],
    body: 'none',
    reply: one('portal_details', PortalDetails),
    action: "read the portal's details",
  }),

  // Data backup
  scheduleBackup: def<NoQuery, BackupRequest>()({
    method: 'POST',
    route: `${PORTAL}/portal_export`,
    scopes: BACKUP_SCOPES,
    body: 'form',
    reply: object(BackupSchedule),
    action: 'start a backup of the portal',
  }),
  getBackupStatus: def()({
    method: 'GET',
    route: `${PORTAL}/portal_export/{export_id}/status`,
    scopes: BACKUP_SCOPES,
    body: 'none',
    reply: one('portal_export', BackupExport),
    action: "read the backup's status",
  }),
  listBackupHistory: def<PageQuery>()({
    method: 'GET',
    route: `${PORTAL}/portal_export/history`,
    scopes: BACKUP_SCOPES,
    body: 'none',
    reply: list('portal_exports', BackupExport),
    action: "list the portal's earlier backups",
  }),

  // Recycle bin
  listBin: def<BinQuery>()({
    method: 'GET',
    route: `${PORTAL}/bin`,
    scopes: [PORTALS_READ],
    body: 'none',
    reply: list('bin_items', BinItem),
    action: 'list the recycle bin',
  }),
  trashItems: def<NoQuery, TrashBatch>()({
    method: 'POST',
    route: `${PORTAL}/trash`,
    scopes: [PORTALS_CREATE],
    body: 'json',
    reply: items('bin_items', BinItem),
    action: 'move the items to the recycle bin',
  }),
  deleteFromBin: def<NoQuery, TrashBatches>()({
    method: 'DELETE',
    route: `${PORTAL}/bin`,
    scopes: [PORTALS_CREATE],
    body: 'json',
    reply: object(BinDeleted),
    action: 'delete the items from the recycle bin',
  }),
  restoreFromBin: def<NoQuery, TrashBatches>()({
    method: 'POST',
    route: `${PORTAL}/bin/restore`,
    scopes: [PORTALS_CREATE],
    body: 'json',
    reply: object(BinRestored),
    action: 'restore the items from the recycle bin',
  }),
  emptyBin: def()({
    method: 'DELETE',
    route: `${PORTAL}/empty-bin`,
    scopes: [PORTALS_CREATE],
    body: 'none',
    reply: object(BinDeleted),
    action: 'empty the recycle bin',
  }),

  // Module settings
  listModuleFields: def()({
    method: 'GET',
    route: `${RECORDS}/fields`,
    scopes: [FIELDS_READ],
    body: 'none',
    reply: items('fields', Field),
    action: "list the module's fields",
  }),
  listModules: def<ModuleListQuery>()({
    method: 'GET',
    route: `${SETTINGS}/modules`,
    scopes: [FIELDS_READ],
    body: 'none',
    reply: list('modules', Module),
    action: "list the portal's modules",
    paging: 'page',
  }),
  getModule: def()({
    method: 'GET',
    route: `${SETTINGS}/modules/{module_api_name}`,
    scopes: [FIELDS_READ],
    body: 'none',
    reply: one('module', Module),
    action: 'read the module',
  }),
  createModule: def<NoQuery, ModuleCreate>()({
    method: 'POST',
    route: `${SETTINGS}/modules`,
    scopes: [FIELDS_CREATE],
    body: 'json',
    reply: one('module', Module),
    action: 'create the module',
  }),
  updateModule: def<NoQuery, ModulePatch>()({
    method: 'PATCH',
    route: `${SETTINGS}/modules/{module_api_name}`,
    scopes: [FIELDS_UPDATE],
    body: 'json',
    reply: one('module', Module),
    action: 'change the module',
  }),
  activateModule: def()({
    method: 'PATCH',
    route: `${SETTINGS}/modules/{module_api_name}/activate`,
    scopes: [FIELDS_UPDATE],
    body: 'none',
    reply: one('module', Module),
    action: 'activate the module',
  }),
  deactivateModule: def()({
    method: 'PATCH',
    route: `${SETTINGS}/modules/{module_api_name}/deactivate`,
    scopes: [FIELDS_UPDATE],
    body: 'none',
    reply: one('module', Module),
    action: 'deactivate the module',
  }),
  // The spec lists READ for the three module-trash rows; honoured as written.
  trashModule: def()({
    method: 'DELETE',
    route: `${SETTINGS}/modules/{module_api_name}`,
    scopes: [FIELDS_READ],
    body: 'none',
    reply: none,
    action: 'move the module to the trash',
  }),
  deleteTrashedModule: def()({
    method: 'DELETE',
    route: `${SETTINGS}/modules/bin/{module_api_name}`,
    scopes: [FIELDS_READ],
    body: 'none',
    reply: none,
    action: 'delete the module permanently',
  }),
  recoverModule: def()({
    method: 'POST',
    route: `${SETTINGS}/modules/bin/{module_api_name}/recover`,
    scopes: [FIELDS_READ],
    body: 'none',
    reply: one('module', Module),
    action: 'restore the module from the trash',
  }),
  getFieldsConfiguration: def<ModuleQuery>()({
    method: 'GET',
    route: `${SETTINGS}/fields-configuration`,
    scopes: [FIELDS_READ],
    body: 'none',
    reply: object(FieldsConfiguration),
    action: "read the module's layouts, fields and statuses",
  }),

  // Layouts and sections ("Scope names in this table are PMS.custom_fields.<OP>")
  listLayouts: def<LayoutListQuery>()({
    method: 'GET',
    route: `${SETTINGS}/layouts`,
    scopes: [FIELDS_READ],
    body: 'none',
    reply: list('layouts', Layout),
    action: "list the module's layouts",
    paging: 'page',
  }),
  getDefaultLayout: def<ModuleQuery>()({
    method: 'GET',
    route: `${SETTINGS}/layouts/default-layout`,
    scopes: [FIELDS_READ],
    body: 'none',
    reply: one('layout', Layout),
    action: "read the module's default layout",
  }),
  getLayout: def<ModuleQuery>()({
    method: 'GET',
    route: `${SETTINGS}/layouts/{layout_id}`,
    scopes: [FIELDS_READ],
    body: 'none',
    reply: one('layout', Layout),
    action: 'read the layout',
  }),
  createLayout: def<NoQuery, LayoutCreate>()({
    method: 'POST',
    route: `${SETTINGS}/layouts`,
    scopes: [FIELDS_CREATE],
    body: 'json',
    reply: one('layout', Layout),
    action: 'create the layout',
  }),
  updateLayout: def<NoQuery, LayoutPatch>()({
    method: 'PATCH',
    route: `${SETTINGS}/layouts/{layout_id}`,
    scopes: [FIELDS_UPDATE],
    body: 'json',
    reply: one('layout', Layout),
    action: 'change the layout',
  }),
  deleteLayout: def<ModuleQuery>()({
    method: 'DELETE',
    route: `${SETTINGS}/layouts/{layout_id}`,
    scopes: [FIELDS_DELETE],
    body: 'none',
    reply: none,
    action: 'delete the layout',
  }),
  removeLayoutField: def<ModuleQuery>()({
    method: 'DELETE',
    route: `${SETTINGS}/layouts/{layout_id}/fields/{field_api_name}`,
    scopes: [FIELDS_DELETE],
    body: 'none',
    reply: none,
    action: 'remove the field from the layout',
  }),
  listLayoutAssociatedEntities: def<AssociatedEntitiesQuery>()({
    method: 'GET',
    route: `${SETTINGS}/layouts/{layout_id}/associated-entities`,
    scopes: [FIELDS_READ],
    body: 'none',
    reply: list('entities', AssociatedEntity),
    action: 'list what uses the layout',
  }),
  putSection: def<NoQuery, SectionPut>()({
    method: 'PUT',
    route: `${SETTINGS}/layouts/{layout_id}/sections`,
    scopes: [FIELDS_CREATE],
    body: 'json',
    reply: one('section', Section),
    action: 'save the section',
    addsWithoutId: true,
  }),
  deleteSection: def<ModuleQuery>()({
    method: 'DELETE',
    route: `${SETTINGS}/layouts/{layout_id}/sections/{section_id}`,
    scopes: [FIELDS_DELETE],
    body: 'none',
    reply: none,
    action: 'delete the section',
  }),

  // Fields and options
  listFields: def<FieldListQuery>()({
    method: 'GET',
    route: `${SETTINGS}/fields`,
    scopes: [FIELDS_READ],
    body: 'none',
    reply: list('fields', Field),
    action: "list the module's fields",
    paging: 'page',
  }),
  putField: def<NoQuery, FieldPut>()({
    method: 'PUT',
    route: `${SETTINGS}/fields`,
    scopes: [FIELDS_CREATE],
    body: 'json',
    reply: one('field', Field),
    action: 'save the field',
    addsWithoutId: true,
  }),
  deleteField: def<ModuleQuery>()({
    method: 'DELETE',
    route: `${SETTINGS}/fields/{field_id}`,
    scopes: [FIELDS_DELETE],
    body: 'none',
    reply: none,
    action: 'delete the field',
  }),
  listFieldAssociatedLayouts: def<FieldLayoutsQuery>()({
    method: 'GET',
    route: `${SETTINGS}/fields/{field_id}/associated-layouts`,
    scopes: [FIELDS_READ],
    body: 'none',
    reply: list('layouts', FieldPlacement),
    action: 'list the layouts the field is on',
  }),
  listFieldOptions: def<OptionListQuery>()({
    method: 'GET',
    route: `${SETTINGS}/options`,
    scopes: [FIELDS_READ],
    body: 'none',
    reply: options(true),
    action: "list the field's options",
    paging: 'page+index',
  }),
  createFieldOptions: def<NoQuery, FieldOptionsChange>()({
    method: 'POST',
    route: `${SETTINGS}/options`,
    scopes: [FIELDS_CREATE],
    body: 'json',
    reply: options(false),
    action: 'add the options',
  }),
  updateFieldOptions: def<NoQuery, FieldOptionsChange>()({
    method: 'PATCH',
    route: `${SETTINGS}/options`,
    scopes: [FIELDS_UPDATE],
    body: 'json',
    reply: options(false),
    action: 'change the options',
  }),
  deleteFieldOptions: def<NoQuery, FieldOptionsRemoval>()({
    method: 'DELETE',
    route: `${SETTINGS}/options`,
    scopes: [FIELDS_DELETE],
    body: 'json',
    reply: none,
    action: 'remove the options',
  }),

  // Integration fields (scope PMS.custom_fields.READ)
  listIntegrationServices: def<PageQuery>()({
    method: 'GET',
    route: INTEGRATION,
    scopes: [FIELDS_READ],
    body: 'none',
    reply: list('services', IntegrationService),
    action: 'list the integrated services',
  }),
  listIntegrationModules: def<PageQuery>()({
    method: 'GET',
    route: `${INTEGRATION}/{service_id}/modules`,
    scopes: [FIELDS_READ],
    body: 'none',
    reply: list('modules', IntegrationModule),
    action: "list the integrated service's modules",
  }),
  listIntegrationFields: def<PageQuery>()({
    method: 'GET',
    route: `${INTEGRATION}/{service_id}/{scope_path}/{module_id}/fields`,
    scopes: [FIELDS_READ],
    body: 'none',
    reply: list('fields', IntegrationField),
    action: "list the integrated module's fields",
  }),

  // Custom-module records
  listEntities: def<EntityListQuery>()({
    method: 'GET',
    route: `${RECORDS}/entities`,
    scopes: [PORTALS_READ],
    body: 'none',
    reply: list('entities', Entity),
    action: 'list the records',
  }),
  getEntity: def()({
    method: 'GET',
    route: `${RECORDS}/entities/{entity_id}`,
    scopes: [PORTALS_READ],
    body: 'none',
    reply: one('entity', Entity),
    action: 'read the record',
  }),
  createEntity: def<NoQuery, EntityCreate>()({
    method: 'POST',
    route: `${RECORDS}/entities`,
    scopes: [PORTALS_CREATE],
    body: 'json',
    reply: one('entity', Entity),
    action: 'create the record',
  }),
  // "PATCH ... PMS.portals.CREATE", as the spec's table says.
  updateEntity: def<NoQuery, EntityPatch>()({
    method: 'PATCH',
    route: `${RECORDS}/entities/{entity_id}`,
    scopes: [PORTALS_CREATE],
    body: 'json',
    reply: one('entity', Entity),
    action: 'change the record',
  }),
  trashEntity: def()({
    method: 'POST',
    route: `${RECORDS}/entities/{entity_id}/trash`,
    scopes: [PORTALS_UPDATE],
    body: 'none',
    reply: one('entity', Entity),
    action: 'move the record to the trash',
  }),
  restoreEntity: def()({
    method: 'POST',
    route: `${RECORDS}/entities/{entity_id}/restore`,
    scopes: [PORTALS_UPDATE],
    body: 'none',
    reply: one('entity', Entity),
    action: 'restore the record from the trash',
  }),
  deleteEntity: def()({
    method: 'DELETE',
    route: `${RECORDS}/entities/{entity_id}`,
    scopes: [PORTALS_DELETE],
    body: 'none',
    reply: none,
    action: 'delete the record permanently',
  }),
  // "note singular entity".
  listStatusTimeline: def<PageQuery>()({
    method: 'GET',
    route: `${RECORDS}/entity/{entity_id}/status-timeline`,
    scopes: [PORTALS_READ],
    body: 'none',
    reply: list('status_timeline', StatusTimelineEntry),
    action: "read the record's status history",
  }),
  // "the last path segment is the fixed numeric segment 20".
  countEntities: def<EntityCountQuery>()({
    method: 'GET',
    route: `${RECORDS}/entities/20`,
    scopes: [PORTALS_READ],
    body: 'none',
    reply: count,
    action: 'count the records',
  }),

  // Comments on records ("Scopes are PMS.custom_fields.<READ|CREATE|UPDATE|DELETE>")
  listComments: def<CommentListQuery>()({
    method: 'GET',
    route: COMMENTS,
    scopes: [FIELDS_READ],
    body: 'none',
    reply: list('comments', Comment),
    action: "list the record's comments",
  }),
  getComment: def()({
    method: 'GET',
    route: `${COMMENTS}/{comment_id}`,
    scopes: [FIELDS_READ],
    body: 'none',
    reply: one('comment', Comment),
    action: 'read the comment',
  }),
  createComment: def<NoQuery, CommentInput>()({
    method: 'POST',
    route: COMMENTS,
    scopes: [FIELDS_CREATE],
    body: 'json',
    reply: one('comment', Comment),
    action: 'add the comment',
  }),
  updateComment: def<NoQuery, CommentInput>()({
    method: 'PATCH',
    route: `${COMMENTS}/{comment_id}`,
    scopes: [FIELDS_UPDATE],
    body: 'json',
    reply: one('comment', Comment),
    action: 'change the comment',
  }),
  deleteComment: def()({
    method: 'DELETE',
    route: `${COMMENTS}/{comment_id}`,
    scopes: [FIELDS_DELETE],
    body: 'none',
    reply: none,
    action: 'delete the comment',
  }),
  // "entity/{entity_id}/commentscount (replaces the comment segment)".
  countComments: def()({
    method: 'GET',
    route: `${RECORDS}/entity/{entity_id}/commentscount`,
    scopes: [FIELDS_READ],
    body: 'none',
    reply: count,
    action: "count the record's comments",
  }),
} as const;

export type Endpoints = typeof ENDPOINTS;
export type EndpointName = keyof Endpoints;
export const ENDPOINT_NAMES = Object.keys(ENDPOINTS) as EndpointName[];

/** "`{scope_path}` ... the literal `projects` or a numeric id": all projects of the portal. */
export const ALL_PROJECTS = 'projects';

/** The profile's constant in route templates; not a caller's argument. */
export const COMMENT_SEGMENT_PARAM = 'comment_segment';
