/**
 * The query parameters of record lists (spec, "Custom-module records": index, range, page,
 * per_page, sort_by, view_id, project_id) read into a window, an ORDER BY and a view condition.
 * Pure, apart from the SQL text it writes for trusted expressions (never a client's value).
 */
import { apiErrors } from '../http/apiError';
import { PER_PAGE_MAX, readPage, type Page } from '../api/common';
import { SAFE_API_NAME } from '@portaldesk/portal-api/domain/customFieldFilterKinds';
import { currencyOrderTerms } from '@portaldesk/portal-api/domain/currencyOrder';
import { NATURAL_SORT_SQL_FUNCTION } from '@portaldesk/portal-api/domain/naturalOrder';
import { closedExpr, customExpr } from './entityFilter';
import type { ModuleMeta } from './recordMeta';

/** `index`/`range` (v2's offset paging, still listed): 1-based first record, and how many. */
export const RANGE_DEFAULT = 100;

const invalid = (message: string) => apiErrors.invalidParameter(message);

/** The slice of the ordered result a request asks for, and how to describe it in page_info. */
export interface ListWindow {
  offset: number;
  limit: number;
  /** page_info.page and per_page. */
  page: number;
  perPage: number;
}

function intOf(query: URLSearchParams, name: string): number | undefined {
  const text = query.get(name);
  if (text === null || text === '') return undefined;
  if (!/^-?\d+$/.test(text)) throw invalid(`${name} must be an integer, not "${text}".`);
  return Number(text);
}

/**
 * page/per_page ("page from 1, default 1; per_page default 100, supported 1-200"), or v2's
 * index/range: index = 1-based position of the first record, range = how many (1-200). Mixing
 * the two styles is refused. With index/range, page_info.page is the page `index` falls in.
 */
export function readWindow(query: URLSearchParams): ListWindow {
  const index = intOf(query, 'index');
  const range = intOf(query, 'range');
  if (index === undefined && range === undefined) {
    const page: Page = readPage(query);
    return { offset: page.offset, limit: page.perPage, page: page.page, perPage: page.perPage };
  }
  if (query.has('page') || query.has('per_page')) {
    throw invalid('give either page and per_page or index and range, not both.');
  }
  const first = index ?? 1;
  const count = range ?? RANGE_DEFAULT;
  if (first < 1) throw invalid(`index must be 1 or more, not ${first}.`);
  if (count < 1 || count > PER_PAGE_MAX) {
    throw invalid(`range must be from 1 to ${PER_PAGE_MAX}, not ${count}.`);
  }
  return {
    offset: first - 1,
    limit: count,
    page: Math.floor((first - 1) / count) + 1,
    perPage: count,
  };
}

export function windowInfo(window: ListWindow, total: number) {
  return {
    page: window.page,
    per_page: window.perPage,
    page_count: total,
    has_next_page: window.offset + window.limit < total,
  };
}

export interface SortSpec {
  field: string;
  descending: boolean;
}

/** `ASC(field_name)` or `DESC(field_name)` (keywords in any case, as the bin's `asc(...)`). */
export function parseSortBy(text: string | null, fallback: SortSpec): SortSpec {
  if (text === null || text === '') return fallback;
  const match = /^\s*(asc|desc)\(\s*([A-Za-z0-9_]+)\s*\)\s*$/i.exec(text);
  if (!match) {
    throw invalid(`sort_by must be ASC(field_name) or DESC(field_name), not "${text}".`);
  }
  return { field: match[2] as string, descending: (match[1] as string).toLowerCase() === 'desc' };
}

/** Text in natural order: digit runs by value, the rest ignoring case (naturalOrder.ts). */
const natural = (expr: string) => `${NATURAL_SORT_SQL_FUNCTION}(${expr})`;
const userName = (zpuidExpr: string) =>
  `(SELECT ${natural(`u.first_name || ' ' || u.last_name`)} FROM users u WHERE u.zpuid = ${zpuidExpr})`;

/** System fields a list can be sorted by and what each sorts on. */
function systemSort(module: ModuleMeta): Record<string, string> {
  const positions = [...module.statuses.values()]
    .map((status) => `WHEN ${status.id} THEN ${status.position}`)
    .join(' ');
  return {
    id: 'e.id',
    name: natural('e.name'),
    description: natural('e.description'),
    // Statuses sort in their workflow order (position), not by name.
    status: positions === '' ? 'NULL' : `(CASE e.status_id ${positions} END)`,
    owner: userName('e.owner_zpuid'),
    project: `(SELECT ${natural('w.name')} FROM work_items w WHERE w.id = e.project_id)`,
    created_time: 'e.created_time',
    last_updated_time: 'e.last_updated_time',
    is_closed: closedExpr(module),
    is_external: 'e.is_external',
  };
}

/**
 * The ORDER BY for a sort: text in natural order, a currency by code then amount, empty values
 * last in both directions, ties by id in the same direction. Multi-valued fields cannot be sorted
 * by.
 */
export function orderBy(sort: SortSpec, module: ModuleMeta): string {
  const direction = sort.descending ? 'DESC' : 'ASC';
  const system = systemSort(module);
  let expr = Object.hasOwn(system, sort.field) ? system[sort.field] : undefined;
  const field = module.fields.get(sort.field);
  if (expr === undefined && field && SAFE_API_NAME.test(field.apiName)) {
    const value = customExpr(field.apiName, field.type);
    switch (field.type) {
      case 'multi_select':
      case 'multi_user':
        throw invalid(`sort_by: ${sort.field} holds several values and cannot be sorted by.`);
      case 'single_line':
      case 'multi_line':
      case 'pick_list':
      case 'email':
      case 'phone':
      case 'url':
        expr = natural(value);
        break;
      case 'user_pick_list':
        expr = userName(value);
        break;
      case 'currency': {
        // The code is NULL exactly when the amount is: only it needs NULLS LAST.
        const { code, amount } = currencyOrderTerms(
          (member) => `json_extract(e.custom, '$.${field.apiName}.${member}')`,
        );
        return `${code} ${direction} NULLS LAST, ${amount} ${direction}, e.id ${direction}`;
      }
      default:
        expr = value;
    }
  }
  if (expr === undefined) {
    const sortable = [
      ...Object.keys(system),
      ...[...module.fields.values()]
        .filter((f) => f.type !== 'multi_select' && f.type !== 'multi_user')
        .map((f) => f.apiName),
    ];
    throw invalid(
      `sort_by: ${sort.field} is not a sortable field; fields: ${sortable.join(', ')}.`,
    );
  }
  return expr === 'e.id'
    ? `e.id ${direction}`
    : `${expr} ${direction} NULLS LAST, e.id ${direction}`;
}

/**
 * Built-in views for `view_id` (custom views are not shown in the spec, and the API has no way to
 * make one): all records, open ones, closed ones.
 */
export const VIEWS: Record<string, { name: string; condition: (module: ModuleMeta) => string }> = {
  '1': { name: 'All records', condition: () => '1' },
  '2': { name: 'Open records', condition: (module) => `NOT ${closedExpr(module)}` },
  '3': { name: 'Closed records', condition: (module) => closedExpr(module) },
};

/** The SQL condition of `view_id`, or none. */
export function viewCondition(text: string | null, module: ModuleMeta): string | undefined {
  if (text === null || text === '') return undefined;
  const view = Object.hasOwn(VIEWS, text) ? VIEWS[text] : undefined;
  if (!view) {
    const known = Object.entries(VIEWS).map(([id, v]) => `${id} (${v.name})`);
    throw invalid(`view_id ${JSON.stringify(text)} is not a view; views: ${known.join(', ')}.`);
  }
  return view.condition(module);
}
