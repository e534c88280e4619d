/**
 * A view's rows read for a few columns only (the records export): the same rows recordViews.ts
 * makes, with only what those columns show filled in. An export of a million rows spent most of
 * its time reading (bench/README.md, "Rows read for their columns"): every column of `records`,
 * two joins, and the whole custom JSON parsed for the six values a file holds. Here
 * SQLite reads only the chosen columns and takes the chosen custom values out of the JSON itself
 * (`json_extract`, one small array to parse). A row that is not a plain server copy (pending
 * edits, trashed meanwhile) is read by recordViews, whose merge of the edits stays the only one.
 *
 * Only the chosen columns' values are meant to be read from these rows (`fieldValue`,
 * src/shared/recordValues/describeValue.ts); the rest hold empty values.
 */
import { listQueries as queries, type StatementCache } from './listStatements';
import type { MirrorRecordView } from './mirrorTypes';
import type { ModuleContext } from './moduleContext';
import { recordViews } from './recordViews';
import { customAsQueued } from './storedRowAsQueued';

/** The row fields each fixed column's value is made from (`fieldValue`'s keys). */
const FIXED_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  id: [],
  name: ['r.name'],
  description: ['r.description'],
  status: ['r.status_id'],
  owner: ['r.owner_zpuid'],
  project: ['r.project_id', 'r.project_name'],
  created_time: ['r.created_time'],
  last_updated_time: ['r.last_updated_time'],
  is_closed: ['r.is_closed'],
  is_external: ['r.is_external'],
};

/**
 * A custom value's key as a JSON path SQLite reads as it is. Any other key (an api_name is
 * letters, digits and underscores) makes the whole read go through recordViews: a path with
 * quotes or dots would need escaping SQLite's path syntax does not have.
 */
const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** How a batch of rows is read for some columns: the statement, its paths, a row from an array. */
export interface ColumnRowsPlan {
  sql: string;
  paths: string[];
  /** Fixed columns in the order their SQL follows `row_key, id, list_state`. */
  fixed: string[];
  /** Custom keys in their paths' order. */
  custom: string[];
  /** Where the owner's zpuid is in a row the SQL returns, when the owner is a column. */
  ownerAt: number | null;
}

/**
 * The plan for `keys` (fields' keys, as `fieldValue` reads them), or null when one of them cannot
 * be read this way (then recordViews reads every row). Pure.
 */
export function columnRowsPlan(keys: readonly string[]): ColumnRowsPlan | null {
  const fixed: string[] = [];
  const custom: string[] = [];
  for (const key of new Set(keys)) {
    if (Object.hasOwn(FIXED_COLUMNS, key)) fixed.push(key);
    // `__proto__` would set the values' prototype rather than hold a value: read it by parsing.
    else if (PLAIN_KEY.test(key) && key !== '__proto__') custom.push(key);
    else return null;
  }
  const expressions = fixed.flatMap((key) => FIXED_COLUMNS[key]!);
  // After `row_key, id, list_state`, the fixed columns' expressions in their order.
  const ownerAt = fixed.includes('owner')
    ? 3 + fixed.slice(0, fixed.indexOf('owner')).flatMap((key) => FIXED_COLUMNS[key]!).length
    : null;
  const paths = custom.map((key) => `$.${key}`);
  // More than one path: one JSON array of the values (null where a record has none). A custom
  // text that is not JSON reads as no values, as recordViews' parse reads it, not as an error
  // failing the export (json_valid's parse is the one json_extract then reuses).
  if (paths.length > 0) {
    const values =
      paths.length === 1
        ? 'r.custom -> ?'
        : `json_extract(r.custom, ${paths.map(() => '?').join(', ')})`;
    expressions.push(`CASE WHEN json_valid(r.custom) THEN ${values} END`);
    // Whether the record was made here: its values name options as queued changes leave them.
    expressions.push('r.local_only');
  }
  const columns = expressions.map((expression) => `, ${expression}`).join('');
  return {
    sql: queries.columnRowsByKeys.replace('/*columns*/', columns),
    paths,
    fixed,
    custom,
    ownerAt,
  };
}

/**
 * A row with only its id: a literal of every field (an object spread of a template was the
 * larger part of a row's cost, V8 copying it the slow way).
 */
function emptyRow(id: string, portalId: string, moduleId: string): MirrorRecordView {
  return {
    id,
    portalId,
    moduleId,
    name: '',
    description: '',
    status: null,
    layoutId: null,
    project: null,
    owner: null,
    isClosed: false,
    isExternal: false,
    createdTime: '',
    lastUpdatedTime: '',
    custom: NO_CUSTOM,
    localOnly: false,
    pendingFields: [],
    commentsMirrored: false,
  };
}

/** The custom values of a row when no custom column is chosen (never written to). */
const NO_CUSTOM: Record<string, unknown> = Object.freeze({}) as Record<string, unknown>;

/** The custom values' JSON (an array of them for several keys) as the row's `custom`. */
function customOf(plan: ColumnRowsPlan, json: string | null): Record<string, unknown> {
  const custom: Record<string, unknown> = {};
  if (json === null) return custom;
  if (plan.custom.length === 1) {
    custom[plan.custom[0]!] = JSON.parse(json);
    return custom;
  }
  const values = JSON.parse(json) as unknown[];
  for (let i = 0; i < plan.custom.length; i++) {
    // A value the record does not have is left out, as recordViews' parsed JSON leaves it.
    if (values[i] !== null) custom[plan.custom[i]!] = values[i];
  }
  return custom;
}

/** An owner as rowsByKeys' join gives it: name and email null when the portal has no such person. */
type Owner = NonNullable<MirrorRecordView['owner']>;

/**
 * The owners of a batch's rows, one object each (rows with one owner share it), read once for the
 * batch: what the join with portal_users gave every row.
 */
function ownersOf(
  statements: StatementCache,
  portalId: string,
  raw: readonly unknown[][],
  at: number,
): Map<string, Owner> {
  const zpuids = new Set<string>();
  for (const a of raw) if (a[2] === 0 && typeof a[at] === 'string') zpuids.add(a[at] as string);
  const owners = new Map<string, Owner>();
  for (const zpuid of zpuids) owners.set(zpuid, { zpuid, name: null, email: null });
  if (zpuids.size === 0) return owners;
  const people = statements
    .get(queries.ownersOfZpuids)
    .all(portalId, JSON.stringify([...zpuids])) as {
    zpuid: string;
    name: string;
    email: string | null;
  }[];
  for (const person of people) owners.set(person.zpuid, person);
  return owners;
}

/**
 * The rows of `keys` in their order, for the plan's columns (a key no longer stored is left out).
 * Rows with one status, or one owner, share its object: the values of these rows are only read
 * (an export's cells), and a cell made once for an object serves every row holding it
 * (`rowCellsOf`).
 */
export function columnRows(
  statements: StatementCache,
  context: ModuleContext,
  view: { portalId: string; moduleId: string },
  keys: number[],
  plan: ColumnRowsPlan,
): MirrorRecordView[] {
  if (keys.length === 0) return [];
  const statement = statements.get(plan.sql);
  statement.raw(true);
  const raw = statement.all(...plan.paths, JSON.stringify(keys)) as unknown[][];
  const byKey = new Map<number, MirrorRecordView>();
  /** Row keys of the rows recordViews reads, by record id. */
  const others = new Map<string, number>();
  const { portalId, moduleId } = view;
  const owners = plan.ownerAt === null ? null : ownersOf(statements, portalId, raw, plan.ownerAt);
  const statuses = new Map<string, NonNullable<MirrorRecordView['status']>>();
  for (const a of raw) {
    if (a[2] !== 0) {
      others.set(a[1] as string, a[0] as number);
      continue;
    }
    const row = emptyRow(a[1] as string, portalId, moduleId);
    let at = 3;
    for (const key of plan.fixed) {
      switch (key) {
        case 'name':
          row.name = a[at++] as string;
          break;
        case 'description':
          row.description = a[at++] as string;
          break;
        case 'status': {
          const id = a[at++] as string | null;
          if (id === null) break;
          let status = statuses.get(id);
          if (!status) {
            const stored = context.statuses.get(id);
            status = {
              id,
              name: stored?.name ?? null,
              color: stored?.color ?? null,
              isClosedType: stored?.isClosedType === 1,
            };
            statuses.set(id, status);
          }
          row.status = status;
          break;
        }
        case 'owner': {
          const zpuid = a[at++] as string | null;
          row.owner = zpuid === null ? null : owners!.get(zpuid)!;
          break;
        }
        case 'project': {
          const id = a[at++] as string | null;
          const name = a[at++] as string | null;
          row.project = id === null ? null : { id, name };
          break;
        }
        case 'created_time':
          row.createdTime = a[at++] as string;
          break;
        case 'last_updated_time':
          row.lastUpdatedTime = a[at++] as string;
          break;
        case 'is_closed':
          row.isClosed = a[at++] === 1;
          break;
        case 'is_external':
          row.isExternal = a[at++] === 1;
          break;
      }
    }
    if (plan.custom.length > 0) {
      const custom = customOf(plan, a[at] as string | null);
      // As recordViews shows a server copy: its options as queued option changes leave them.
      row.custom =
        a[at + 1] === 0 && context.relabel.size > 0
          ? customAsQueued(custom, context.relabel)
          : custom;
    }
    byKey.set(a[0] as number, row);
  }
  if (others.size > 0) {
    for (const row of recordViews(statements, context, moduleId, [...others.values()])) {
      byKey.set(others.get(row.id)!, row);
    }
  }
  const rows: MirrorRecordView[] = [];
  for (const key of keys) {
    const row = byKey.get(key);
    if (row) rows.push(row);
  }
  return rows;
}
