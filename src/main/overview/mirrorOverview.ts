/**
 * The part of a portal's overview the mirror answers: its counts, statuses named, outbox and last
 * backup, read in one read transaction so the charts agree with each other (a sync's commit
 * between two counts would otherwise show a module's total beside statuses that add up to
 * another). Runs on the overview's thread (overviewWorker.ts) or, without one, on the engine's.
 */
import type Database from 'better-sqlite3';
import type { OverviewStatus, PortalOverview } from '../../shared/ipc/areas/overview';
import { OverviewCounts, type CountedStatus, type StatusRow } from './overviewCounts';
import { chartTimeZone } from './weekStarts';

/** What the engine adds is the request scheduler's: the budgets, and the answer's time. */
export type MirrorOverview = Omit<PortalOverview, 'budgets' | 'at'>;

/** A module's statuses in its order, with their counts; unknown ones after, then "no status". Pure. */
export function namedStatuses(
  known: readonly StatusRow[],
  counted: readonly CountedStatus[],
): OverviewStatus[] {
  const counts = new Map(counted.map((c) => [c.statusId, c.records]));
  const named: OverviewStatus[] = known.map((status) => ({
    statusId: status.id,
    name: status.name,
    color: status.color,
    records: counts.get(status.id) ?? 0,
  }));
  const knownIds = new Set(known.map((status) => status.id));
  for (const { statusId, records } of counted) {
    if (statusId === null || knownIds.has(statusId) || records === 0) continue;
    named.push({ statusId, name: `Status ${statusId} (not in the mirror)`, color: null, records });
  }
  const none = counts.get(null) ?? 0;
  if (none > 0) named.push({ statusId: null, name: 'No status', color: null, records: none });
  return named;
}

/** Reads one portal's overview from the mirror; null when the portal is not in it. */
export class MirrorOverviewReader {
  private readonly counts: OverviewCounts;
  private readonly snapshot: (portalId: string, now: number) => MirrorOverview | null;

  constructor(db: Database.Database) {
    this.counts = new OverviewCounts(db);
    // Deferred: a read transaction. The engine's connection makes transactions IMMEDIATE
    // (immediateTransactions), which would hold the write lock, and every page the sync's
    // writer thread stores would wait, for the whole reading.
    this.snapshot = db.transaction((portalId: string, now: number) =>
      this.readNow(portalId, now),
    ).deferred;
  }

  read(portalId: string, now: number): MirrorOverview | null {
    return this.snapshot(portalId, now);
  }

  private readNow(portalId: string, now: number): MirrorOverview | null {
    const { counts } = this;
    const portal = counts.portal(portalId);
    if (!portal) return null;
    const statusesByModule = new Map<string, StatusRow[]>();
    for (const row of counts.statusNames(portalId)) {
      const list = statusesByModule.get(row.moduleId) ?? [];
      list.push(row);
      statusesByModule.set(row.moduleId, list);
    }
    const counted = counts.statuses(portalId);
    const modules = counts.modules(portalId).map((module) => ({
      moduleId: module.moduleId,
      name: module.name,
      records: module.records,
      statuses: namedStatuses(
        statusesByModule.get(module.moduleId) ?? [],
        counted.get(module.moduleId) ?? [],
      ),
    }));
    const weekly = counts.weeks(portal, now);
    const lastBackup = counts.lastBackup(portalId) ?? null;
    return {
      portalId,
      portalName: portal.name,
      timeZone: chartTimeZone(portal.timeZone),
      modules,
      weeks: weekly.weeks,
      earlier: weekly.earlier,
      later: weekly.later,
      outbox: counts.outbox(portalId),
      lastBackup,
      lastFailure: counts.lastFailure(portalId, lastBackup?.completedTime) ?? null,
    };
  }
}
