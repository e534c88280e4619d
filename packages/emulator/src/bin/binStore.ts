/**
 * The recycle bin's reads and writes on `work_items`. A record is in the bin when its
 * `trashed_time` is set. A trashed project keeps its phases, tasklists, tasks and issues
 * untouched: they are "inside" it, hidden with it and restored with it, and removed with it.
 */
import type { EmulatorState } from '../state';
import {
  isTrashableModule,
  TRASHABLE_MODULES,
  type BinFilter,
  type BinSort,
  type TrashableModule,
} from './binRules';

type Db = EmulatorState['db'];

export interface WorkItemRow {
  id: number;
  portal_id: number;
  module: TrashableModule;
  name: string;
  project_id: number | null;
  created_time: string;
  trashed_time: string | null;
  trashed_by: string | null;
}

export interface BinRow extends WorkItemRow {
  trashed_time: string;
  project_name: string | null;
}

/** Ids are passed as one JSON array so a statement takes any number of them. */
const idList = (ids: Iterable<number>) => JSON.stringify([...ids]);

/** A module API name, or the id of one of the portal's built-in trashable modules. */
export function resolveTrashableModule(
  db: Db,
  portalId: number,
  text: string,
): TrashableModule | null {
  if (isTrashableModule(text)) return text;
  if (!/^\d{1,16}$/.test(text)) return null;
  const row = db
    .prepare('SELECT api_name FROM modules WHERE portal_id = ? AND id = ?')
    .get(portalId, Number(text)) as { api_name: string } | undefined;
  return row && isTrashableModule(row.api_name) ? row.api_name : null;
}

/** The portal's work items among `ids`; ids of other portals are simply absent. */
export function loadWorkItems(
  db: Db,
  portalId: number,
  ids: Iterable<number>,
): Map<number, WorkItemRow> {
  const rows = db
    .prepare(
      `SELECT * FROM work_items
       WHERE portal_id = ? AND id IN (SELECT value FROM json_each(?))`,
    )
    .all(portalId, idList(ids)) as WorkItemRow[];
  return new Map(rows.map((row) => [row.id, row]));
}

/** The projects that the given records belong to, for the "inside a trashed project" rules. */
export function loadParents(
  db: Db,
  portalId: number,
  rows: Iterable<WorkItemRow>,
): Map<number, WorkItemRow> {
  const parents = new Set<number>();
  for (const row of rows) if (row.project_id !== null) parents.add(row.project_id);
  return loadWorkItems(db, portalId, parents);
}

function whereClause(portalId: number, filter: BinFilter): { sql: string; params: unknown[] } {
  const clauses = ['w.portal_id = ?', 'w.trashed_time IS NOT NULL'];
  const params: unknown[] = [portalId];
  if (filter.modules) {
    clauses.push('w.module IN (SELECT value FROM json_each(?))');
    params.push(JSON.stringify(filter.modules));
  }
  if (filter.trashedBy !== undefined) {
    clauses.push('w.trashed_by = ?');
    params.push(filter.trashedBy);
  }
  if (filter.projectId !== undefined) {
    clauses.push('w.project_id = ?');
    params.push(filter.projectId);
  }
  if (filter.searchTerm !== undefined) {
    clauses.push("w.name LIKE '%' || ? || '%' ESCAPE '\\'");
    params.push(filter.searchTerm.replace(/[\\%_]/g, (c) => `\\${c}`));
  }
  return { sql: clauses.join(' AND '), params };
}

/** One page of the bin and the total count. Ties are broken by id so pages never overlap. */
export function listBin(
  db: Db,
  portalId: number,
  filter: BinFilter,
  sort: BinSort,
  page: { perPage: number; offset: number },
): { rows: BinRow[]; total: number } {
  const where = whereClause(portalId, filter);
  const direction = sort.descending ? 'DESC' : 'ASC';
  const order =
    sort.field === 'name'
      ? `w.name COLLATE NOCASE ${direction}, w.id ${direction}`
      : `w.trashed_time ${direction}, w.id ${direction}`;
  const rows = db
    .prepare(
      `SELECT w.*, p.name AS project_name FROM work_items w
       LEFT JOIN work_items p ON p.id = w.project_id
       WHERE ${where.sql} ORDER BY ${order} LIMIT ? OFFSET ?`,
    )
    .all(...where.params, page.perPage, page.offset) as BinRow[];
  const total = (
    db
      .prepare(`SELECT COUNT(*) AS n FROM work_items w WHERE ${where.sql}`)
      .get(...where.params) as {
      n: number;
    }
  ).n;
  return { rows, total };
}

/** The given records as bin rows (after they were trashed), in the order of `ids`. */
export function binRows(db: Db, portalId: number, ids: readonly number[]): BinRow[] {
  const rows = db
    .prepare(
      `SELECT w.*, p.name AS project_name FROM work_items w
       LEFT JOIN work_items p ON p.id = w.project_id
       WHERE w.portal_id = ? AND w.id IN (SELECT value FROM json_each(?))`,
    )
    .all(portalId, idList(ids)) as BinRow[];
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.map((id) => byId.get(id)).filter((row): row is BinRow => row !== undefined);
}

export function trashItems(db: Db, ids: Iterable<number>, trashedTime: string, zpuid: string) {
  db.prepare(
    `UPDATE work_items SET trashed_time = ?, trashed_by = ?
     WHERE id IN (SELECT value FROM json_each(?))`,
  ).run(trashedTime, zpuid, idList(ids));
}

export function restoreItems(db: Db, ids: Iterable<number>) {
  db.prepare(
    `UPDATE work_items SET trashed_time = NULL, trashed_by = NULL
     WHERE id IN (SELECT value FROM json_each(?))`,
  ).run(idList(ids));
}

/** Everything in the portal's bin: trashed records (a trashed project's contents come with it). */
export function trashedIds(db: Db, portalId: number): number[] {
  return (
    db
      .prepare('SELECT id FROM work_items WHERE portal_id = ? AND trashed_time IS NOT NULL')
      .all(portalId) as { id: number }[]
  ).map((row) => row.id);
}

export type RemovedGroups = { module: TrashableModule; items: string[] }[];

/**
 * Permanently removes the records and, for projects, everything inside them. Custom-module
 * records that pointed at a removed project keep existing without a project.
 */
export function deletePermanently(db: Db, portalId: number, ids: Iterable<number>): RemovedGroups {
  const list = idList(ids);
  const doomed = db
    .prepare(
      `SELECT id, module FROM work_items WHERE portal_id = ? AND (
         id IN (SELECT value FROM json_each(?))
         OR project_id IN (SELECT value FROM json_each(?)))
       ORDER BY id`,
    )
    .all(portalId, list, list) as { id: number; module: TrashableModule }[];
  const doomedList = idList(doomed.map((row) => row.id));
  db.prepare(
    'UPDATE entities SET project_id = NULL WHERE project_id IN (SELECT value FROM json_each(?))',
  ).run(doomedList);
  // Contents before their projects: work_items.project_id is a foreign key.
  db.prepare(
    `DELETE FROM work_items WHERE project_id IS NOT NULL
     AND id IN (SELECT value FROM json_each(?))`,
  ).run(doomedList);
  db.prepare('DELETE FROM work_items WHERE id IN (SELECT value FROM json_each(?))').run(doomedList);
  return groupByModule(doomed);
}

/** `[{module, items}]` in the spec's module order, leaving out modules with nothing. */
export function groupByModule(rows: readonly { id: number; module: TrashableModule }[]) {
  return TRASHABLE_MODULES.map((module) => ({
    module,
    items: rows.filter((row) => row.module === module).map((row) => String(row.id)),
  })).filter((group) => group.items.length > 0);
}
