/**
 * The counts behind the portal overview's charts, read from the mirror as the records workspace
 * lists it: records not in the recycle bin, with local edits laid over (an edited status counts
 * under the status the user chose). Each chart reads index ranges (overview.sql); the weekly
 * created counts read the records per created hour that the mirror keeps beside them (migration
 * 0023), since a walk of every record's created time made that chart miss its 100 ms.
 * bench/overview.bench.ts times them at a million records.
 */
import type Database from 'better-sqlite3';
import { parseNamedQueries, requireQueries } from '../store/sqlFile';
import overviewSql from './overview.sql?raw';
import { weekSpan } from './weekStarts';
import { idOf } from '../store/mirror/mergeRecordEdits';
import { statusesNamedAsQueued, type StatusChangeOp } from '../outbox/catalogOverlay';
import type { OpFields, OpKind, OpState } from '../outbox/outboxTypes';
import { formatDate } from '@portaldesk/portal-api/filter/civilDate';

const queries = requireQueries(
  parseNamedQueries(overviewSql, 'overview.sql'),
  [
    'modules',
    'moduleRecords',
    'statusRecords',
    'editedStatuses',
    'statuses',
    'createdSpan',
    'updatedSpan',
    'createdPerWeek',
    'updatedPerWeek',
    'createdBefore',
    'updatedBefore',
    'createdFrom',
    'updatedFrom',
    'outboxStates',
    'outboxAll',
    'lastBackup',
    'failedBackups',
    'statuses',
    'queuedStatusChanges',
    'portal',
  ] as const,
  'overview.sql',
);

export interface OverviewPortal {
  id: string;
  name: string;
  timeZone: string;
  weekStartDay: number | null;
}

export interface CountedModule {
  moduleKey: number;
  moduleId: string;
  name: string;
  records: number;
}

export interface CountedStatus {
  /** Null: records without a status. */
  statusId: string | null;
  records: number;
}

export interface WeekCounts {
  /** The week's first day in the portal's zone, YYYY-MM-DD. */
  start: string;
  created: number;
  updated: number;
}

export interface WeeklyCounts {
  weeks: WeekCounts[];
  /** Records created (updated) before the first week shown (more than MAX_WEEKS weeks back). */
  earlier: { created: number; updated: number };
  /** Records created (updated) after the last week shown (dated after now: weekSpan). */
  later: { created: number; updated: number };
}

export interface OutboxStateCounts {
  pending: number;
  sending: number;
  failed: number;
  conflict: number;
  /** Operations of every portal: the Outbox view lists them together. */
  allPortals: number;
}

/** A status of a module as the mirror names it. */
export interface StatusRow {
  id: string;
  moduleId: string;
  name: string;
  color: string | null;
}

/** A queued status change of one of the portal's modules (queuedStatusChanges). */
interface QueuedStatusRow {
  moduleId: string;
  kind: OpKind;
  action: string | null;
  state: OpState;
  fields: string;
}

interface ModuleRow {
  moduleKey: number;
  id: string;
  name: string;
  builtIn: number;
}

/** A time as the time indexes hold it (seconds, milliseconds as the fraction) in epoch ms. */
const epochMs = (seconds: number): number => Math.round(seconds * 1000);
/** The hour of record_created_hours (migration 0023) an instant (epoch ms) falls in. */
const hourOf = (at: number): number => Math.floor(at / 3_600_000);

export class OverviewCounts {
  private readonly statements = new Map<string, Database.Statement>();

  constructor(private readonly db: Database.Database) {}

  private statement(name: keyof typeof queries): Database.Statement {
    let statement = this.statements.get(name);
    if (!statement) {
      statement = this.db.prepare(queries[name]);
      this.statements.set(name, statement);
    }
    return statement;
  }

  portal(portalId: string): OverviewPortal | undefined {
    return this.statement('portal').get(portalId) as OverviewPortal | undefined;
  }

  /** The portal's custom modules (built-in ones are never mirrored), by name. */
  private moduleRows(portalId: string): ModuleRow[] {
    return (this.statement('modules').all(portalId) as ModuleRow[]).filter((m) => !m.builtIn);
  }

  /** Records per module. */
  modules(portalId: string): CountedModule[] {
    const count = this.statement('moduleRecords').pluck();
    return this.moduleRows(portalId).map((module) => ({
      moduleKey: module.moduleKey,
      moduleId: module.id,
      name: module.name,
      records: count.get(module.moduleKey) as number,
    }));
  }

  /** Records per status of each module (by module id), edited statuses as edited. */
  statuses(portalId: string): Map<string, CountedStatus[]> {
    const stored = this.statement('statusRecords');
    const edited = this.statement('editedStatuses');
    const result = new Map<string, CountedStatus[]>();
    for (const module of this.moduleRows(portalId)) {
      const counts = new Map<string | null, number>();
      for (const row of stored.all(module.moduleKey) as CountedStatus[]) {
        counts.set(row.statusId, row.records);
      }
      const rows = edited.all(module.moduleKey) as {
        statusId: string | null;
        edited: string | null;
      }[];
      for (const row of rows) {
        const statusId =
          row.edited === null ? row.statusId : idOf(JSON.parse(row.edited) as unknown);
        counts.set(statusId, (counts.get(statusId) ?? 0) + 1);
      }
      result.set(
        module.id,
        [...counts].map(([statusId, records]) => ({ statusId, records })),
      );
    }
    return result;
  }

  /** Records created and updated per week of the portal (its zone and week start), all modules. */
  weeks(portal: OverviewPortal, now: number = Date.now()): WeeklyCounts {
    const modules = this.moduleRows(portal.id);
    let first = Infinity;
    let last = -Infinity;
    let past = -Infinity;
    for (const module of modules) {
      for (const span of ['createdSpan', 'updatedSpan'] as const) {
        const row = this.statement(span).get({
          moduleKey: module.moduleKey,
          now,
        }) as Record<'first0' | 'first1' | 'last0' | 'last1' | 'past0' | 'past1', number | null>;
        for (const at of [row.first0, row.first1]) {
          if (at !== null) first = Math.min(first, epochMs(at));
        }
        for (const at of [row.last0, row.last1]) {
          if (at !== null) last = Math.max(last, epochMs(at));
        }
        for (const at of [row.past0, row.past1]) {
          if (at !== null) past = Math.max(past, epochMs(at));
        }
      }
    }
    if (!Number.isFinite(first) || !Number.isFinite(last)) {
      return { weeks: [], earlier: { created: 0, updated: 0 }, later: { created: 0, updated: 0 } };
    }
    const span = weekSpan(
      first,
      last,
      portal.timeZone,
      portal.weekStartDay,
      Number.isFinite(past) ? past : null,
    );
    const bounds = JSON.stringify(span.bounds);
    const hourBounds = JSON.stringify(span.bounds.map((at) => [at, hourOf(at)]));
    const created = new Array<number>(span.days.length).fill(0);
    const updated = new Array<number>(span.days.length).fill(0);
    const earlier = { created: 0, updated: 0 };
    const later = { created: 0, updated: 0 };
    const start = span.bounds[0] as number;
    const end = span.bounds.at(-1) as number;
    for (const module of modules) {
      for (const row of this.statement('createdPerWeek').all({
        bounds: hourBounds,
        moduleKey: module.moduleKey,
      }) as {
        week: number;
        records: number;
      }[]) {
        created[row.week] = (created[row.week] as number) + row.records;
      }
      for (const row of this.statement('updatedPerWeek').all({
        bounds,
        moduleKey: module.moduleKey,
      }) as {
        week: number;
        records: number;
      }[]) {
        updated[row.week] = (updated[row.week] as number) + row.records;
      }
      earlier.created += this.statement('createdBefore')
        .pluck()
        .get({ moduleKey: module.moduleKey, at: start, hour: hourOf(start) }) as number;
      earlier.updated += this.statement('updatedBefore')
        .pluck()
        .get(module.moduleKey, start) as number;
      later.created += this.statement('createdFrom')
        .pluck()
        .get({ moduleKey: module.moduleKey, at: end, hour: hourOf(end) }) as number;
      later.updated += this.statement('updatedFrom').pluck().get(module.moduleKey, end) as number;
    }
    return {
      weeks: span.days.map((day, i) => ({
        start: formatDate(day),
        created: created[i] as number,
        updated: updated[i] as number,
      })),
      earlier,
      later,
    };
  }

  /**
   * The portal's statuses, per module in their order, named as queued renames leave them (a
   * rename not delivered yet shows its new name, as in the records workspace).
   */
  statusNames(portalId: string): StatusRow[] {
    const queued = new Map<string, StatusChangeOp[]>();
    for (const row of this.statement('queuedStatusChanges').all(portalId) as QueuedStatusRow[]) {
      const ops = queued.get(row.moduleId) ?? [];
      ops.push({ ...row, fields: JSON.parse(row.fields) as OpFields });
      queued.set(row.moduleId, ops);
    }
    return (this.statement('statuses').all(portalId) as StatusRow[]).map((row) => {
      const ops = queued.get(row.moduleId);
      return ops ? statusesNamedAsQueued([row], ops)[0]! : row;
    });
  }

  /** The portal's outbox operations per state, and every portal's in all. */
  outbox(portalId: string): OutboxStateCounts {
    const counts: OutboxStateCounts = {
      pending: 0,
      sending: 0,
      failed: 0,
      conflict: 0,
      allPortals: this.statement('outboxAll').pluck().get() as number,
    };
    for (const row of this.statement('outboxStates').all(portalId) as {
      state: Exclude<keyof OutboxStateCounts, 'allPortals'>;
      operations: number;
    }[]) {
      counts[row.state] = row.operations;
    }
    return counts;
  }

  /** The newest backup the service made of the portal (completed), or undefined. */
  lastBackup(portalId: string): { completedTime: string; stage: string } | undefined {
    const rows = this.statement('lastBackup').all(portalId) as {
      completedTime: string;
      stage: string;
    }[];
    let newest: { completedTime: string; stage: string } | undefined;
    for (const row of rows) {
      const at = Date.parse(row.completedTime);
      if (Number.isNaN(at)) continue;
      if (!newest || at > Date.parse(newest.completedTime)) newest = row;
    }
    return newest;
  }

  /**
   * The newest failed backup attempt of the portal after `after` (the last backup's completion,
   * ISO; undefined: none made), or undefined.
   */
  lastFailure(
    portalId: string,
    after: string | undefined,
  ): { at: string; problem: string | null } | undefined {
    const since = after === undefined ? -Infinity : Date.parse(after);
    let newest: { at: string; problem: string | null } | undefined;
    for (const row of this.statement('failedBackups').all(portalId) as {
      at: string;
      problem: string | null;
    }[]) {
      const at = Date.parse(row.at);
      if (Number.isNaN(at) || !(at > since)) continue;
      if (!newest || at > Date.parse(newest.at)) newest = row;
    }
    return newest;
  }
}
