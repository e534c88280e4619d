/**
 * Helpers every route group uses: pagination, ids, lookups that enforce portal membership, and
 * field-by-field validation that names what is wrong. A failed check throws an ApiError and
 * nothing is written.
 */
import { apiErrors } from '../http/apiError';
import type { ApiRequest } from '../http/types';
import { prepared } from '../model/prepared';
import type { EmulatorState } from '../state';

/** "page (integer, from 1, default 1) and per_page (integer, default 100, supported 1-200)". */
export const PAGE_DEFAULT = 1;
export const PER_PAGE_DEFAULT = 100;
export const PER_PAGE_MAX = 200;

export interface Page {
  page: number;
  perPage: number;
  offset: number;
}

function intParam(query: URLSearchParams, name: string, fallback: number | undefined): number {
  const text = query.get(name);
  if (text === null || text === '') {
    if (fallback === undefined) throw apiErrors.invalidParameter(`${name} is required.`);
    return fallback;
  }
  if (!/^-?\d+$/.test(text))
    throw apiErrors.invalidParameter(`${name} must be an integer, not "${text}".`);
  return Number(text);
}

/** Reads page/per_page; `required` for the endpoints whose table marks them "(req)". */
export function readPage(query: URLSearchParams, required = false): Page {
  const page = intParam(query, 'page', required ? undefined : PAGE_DEFAULT);
  const perPage = intParam(query, 'per_page', required ? undefined : PER_PAGE_DEFAULT);
  if (page < 1) throw apiErrors.invalidParameter(`page must be 1 or more, not ${page}.`);
  if (perPage < 1 || perPage > PER_PAGE_MAX) {
    throw apiErrors.invalidParameter(`per_page must be from 1 to ${PER_PAGE_MAX}, not ${perPage}.`);
  }
  return { page, perPage, offset: (page - 1) * perPage };
}

/** "page_count (integer, total records in the result set)" — not a page count, as specified. */
export function pageInfo(page: Page, total: number) {
  return {
    page: page.page,
    per_page: page.perPage,
    page_count: total,
    has_next_page: page.offset + page.perPage < total,
  };
}

/** Slices an in-memory list into one page with its page_info. */
export function paginate<T>(
  items: readonly T[],
  page: Page,
): { items: T[]; page_info: ReturnType<typeof pageInfo> } {
  return {
    items: items.slice(page.offset, page.offset + page.perPage),
    page_info: pageInfo(page, items.length),
  };
}

/** Ids travel as strings of digits ("long"); ours stay below 2^53 so numbers are exact. */
export function idString(id: number | bigint | null | undefined): string | null {
  return id === null || id === undefined ? null : String(id);
}

export function parseId(value: unknown, name: string): number {
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text !== 'string' || !/^\d{1,16}$/.test(text) || Number(text) === 0) {
    throw apiErrors.invalidParameter(`${name} must be a numeric id, not ${JSON.stringify(value)}.`);
  }
  return Number(text);
}

export interface PortalRow {
  id: number;
  portal_name: string;
  org_name: string;
  zsoid: string;
  dc: string;
  owner_zpuid: string;
  timezone: string;
  is_default: number;
  profile_id: number;
  profile_name: string;
  project_plan: string;
  bug_plan: string;
  logo_url: string;
  business_details: string;
  is_customdomain_enabled: number;
}

/**
 * The portal named in the path, if the caller is a member and it lives in this data center.
 * Anything else is "not found": the service does not reveal other organisations' portals.
 */
export function requirePortal(state: EmulatorState, request: ApiRequest): PortalRow {
  const portalId = parseId(request.params.portal_id, 'portal_id');
  const row = prepared(
    state.db,
    `SELECT p.* FROM portals p JOIN portal_users pu ON pu.portal_id = p.id
     WHERE p.id = ? AND pu.zpuid = ? AND p.dc = ?`,
  ).get(portalId, request.caller?.zpuid ?? '', request.dc) as PortalRow | undefined;
  if (!row) throw apiErrors.notFound(`Portal ${portalId}`);
  return row;
}

export interface ModuleRow {
  id: number;
  portal_id: number;
  api_name: string;
  singular_name: string;
  plural_name: string;
  icon_class: string;
  is_global_module: number;
  is_all_projects: number;
  is_overview_needed: number;
  is_customized: number;
  is_default: number;
  is_web_tab: number;
  default_layout_type: string;
  projects: string;
  state: string;
  trashed_time: string | null;
  created_time: string;
}

/** "module parameters accept a module API name or id". Trashed modules are not found. */
export function requireModule(
  state: EmulatorState,
  portalId: number,
  nameOrId: string | null | undefined,
  options: { includeTrashed?: boolean; parameter?: string } = {},
): ModuleRow {
  const parameter = options.parameter ?? 'module';
  if (nameOrId === null || nameOrId === undefined || nameOrId === '') {
    throw apiErrors.invalidParameter(`${parameter} is required.`);
  }
  const row = prepared(
    state.db,
    `SELECT * FROM modules WHERE portal_id = ? AND (api_name = ? OR CAST(id AS TEXT) = ?)
     ${options.includeTrashed ? '' : 'AND trashed_time IS NULL'}`,
  ).get(portalId, nameOrId, nameOrId) as ModuleRow | undefined;
  if (!row) throw apiErrors.notFound(`Module ${nameOrId}`);
  return row;
}

/** The JSON body as an object, or a clear INVALID_INPUTSTREAM. */
export function bodyObject(request: ApiRequest): Record<string, unknown> {
  const body = request.json();
  if (body === undefined) return {};
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw apiErrors.invalidInputStream('the body must be a JSON object');
  }
  return body as Record<string, unknown>;
}

/** A string field with the spec's maximum length; `required` refuses missing and empty. */
export function text(
  body: Record<string, unknown>,
  name: string,
  max: number,
  required = false,
): string | undefined {
  const value = body[name];
  if (value === undefined || value === null) {
    if (required) throw apiErrors.invalidParameter(`${name} is required.`);
    return undefined;
  }
  if (typeof value !== 'string') throw apiErrors.invalidParameter(`${name} must be a string.`);
  if (required && value.trim() === '')
    throw apiErrors.invalidParameter(`${name} must not be empty.`);
  if ([...value].length > max) {
    throw apiErrors.invalidParameter(`${name} is longer than ${max} characters.`);
  }
  return value;
}

export function bool(body: Record<string, unknown>, name: string): boolean | undefined {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean')
    throw apiErrors.invalidParameter(`${name} must be true or false.`);
  return value;
}

/** Query booleans arrive as strings in the spec's examples ("booleans given as strings"). */
export function queryBool(value: unknown, name: string): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  throw apiErrors.invalidParameter(`${name} must be true or false, not ${JSON.stringify(value)}.`);
}

/** A JSON object passed in a query parameter (`filter=...`), or undefined when absent. */
export function queryJson(
  query: URLSearchParams,
  name: string,
): Record<string, unknown> | undefined {
  const text = query.get(name);
  if (text === null || text === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw apiErrors.invalidParameter(`${name} must be a JSON object.`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw apiErrors.invalidParameter(`${name} must be a JSON object.`);
  }
  return value as Record<string, unknown>;
}

export function userSummary(state: EmulatorState, zpuid: string | null) {
  if (!zpuid) return null;
  const user = prepared(
    state.db,
    'SELECT zpuid, first_name, last_name, email FROM users WHERE zpuid = ?',
  ).get(zpuid) as
    { zpuid: string; first_name: string; last_name: string; email: string } | undefined;
  if (!user) return null;
  return { zpuid: user.zpuid, name: `${user.first_name} ${user.last_name}`, email: user.email };
}
