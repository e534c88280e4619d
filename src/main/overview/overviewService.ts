/**
 * One portal's overview: the mirror's counts (OverviewCounts), its statuses' names and colours,
 * the rate budgets of its endpoint keys and its last backup, put together as the contract's
 * PortalOverview.
 */
import type Database from 'better-sqlite3';
import type { PortalOverview, OverviewStatus } from '../../shared/ipc/areas/overview';
import type { EndpointBudgetReport } from '../api/requestScheduler';
import { OverviewCounts, type CountedStatus, type StatusRow } from './overviewCounts';
import { chartTimeZone } from './weekStarts';

/** The portal a key belongs to: endpoint keys end with ` portal=<id>` (api/client/requestParts.ts). */
export function keyPortal(key: string): string | undefined {
  return /\sportal=(\S+)$/.exec(key)?.[1];
}

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

export class PortalNotMirrored extends Error {
  override name = 'PortalNotMirrored';
}

export class OverviewService {
  private readonly counts: OverviewCounts;

  constructor(
    db: Database.Database,
    private readonly budgets: () => readonly EndpointBudgetReport[],
    private readonly now: () => number = Date.now,
  ) {
    this.counts = new OverviewCounts(db);
  }

  portal(portalId: string): PortalOverview {
    const portal = this.counts.portal(portalId);
    if (!portal) {
      throw new PortalNotMirrored(
        `Portal ${portalId} is not in the local mirror, so it has no overview. Sign in to it and let its first sync run, or pick another portal.`,
      );
    }
    const statusesByModule = new Map<string, StatusRow[]>();
    for (const row of this.counts.statusNames(portalId)) {
      const list = statusesByModule.get(row.moduleId) ?? [];
      list.push(row);
      statusesByModule.set(row.moduleId, list);
    }
    const counted = this.counts.statuses(portalId);
    const modules = this.counts.modules(portalId).map((module) => ({
      moduleId: module.moduleId,
      name: module.name,
      records: module.records,
      statuses: namedStatuses(
        statusesByModule.get(module.moduleId) ?? [],
        counted.get(module.moduleId) ?? [],
      ),
    }));
    const weekly = this.counts.weeks(portal, this.now());
    const backup = this.counts.lastBackup(portalId);
    return {
      portalId,
      portalName: portal.name,
      timeZone: chartTimeZone(portal.timeZone),
      modules,
      weeks: weekly.weeks,
      earlier: weekly.earlier,
      later: weekly.later,
      outbox: this.counts.outbox(portalId),
      budgets: this.budgets()
        .filter(
          (budget) => keyPortal(budget.key) === portalId && budget.spent + budget.calls.current > 0,
        )
        .sort((a, b) => b.spent - a.spent || (a.key < b.key ? -1 : 1)),
      lastBackup: backup ?? null,
      at: this.now(),
    };
  }
}
