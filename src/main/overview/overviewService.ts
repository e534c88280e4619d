/**
 * One portal's overview: what the mirror answers (mirrorOverview.ts, on the overview's thread
 * where the build has one: overviewThread.ts), with the rate budgets of its endpoint keys from the
 * request scheduler, put together as the contract's PortalOverview.
 */
import type { PortalOverview } from '../../shared/ipc/areas/overview';
import type { EndpointBudgetReport } from '../api/requestScheduler';
import type { MirrorOverview } from './mirrorOverview';

/** The portal a key belongs to: endpoint keys end with ` portal=<id>` (api/client/requestParts.ts). */
export function keyPortal(key: string): string | undefined {
  return /\sportal=(\S+)$/.exec(key)?.[1];
}

/**
 * Whether the overview lists a budget as in use: calls occupy its window, were sent in the current
 * or the previous window (the Sync view draws those: busyEndpoints), wait for it, or the service
 * blocks it. Only occupied windows were kept before, and a sync of minutes ago, whose calls the
 * Sync view still charts, read as "no calls since PortalDesk started". Pure.
 */
export function budgetInUse(budget: EndpointBudgetReport, now: number): boolean {
  return (
    budget.spent + budget.calls.current + budget.calls.previous + budget.queued + budget.inFlight >
      0 ||
    (budget.blockedUntil !== null && budget.blockedUntil > now)
  );
}

export class PortalNotMirrored extends Error {
  override name = 'PortalNotMirrored';
}

/** Reads a portal's overview from the mirror; null when the portal is not in it. */
export interface OverviewSource {
  read(portalId: string, now: number): MirrorOverview | null | Promise<MirrorOverview | null>;
}

export class OverviewService {
  constructor(
    private readonly source: OverviewSource,
    private readonly budgets: () => readonly EndpointBudgetReport[],
    private readonly now: () => number = Date.now,
  ) {}

  async portal(portalId: string): Promise<PortalOverview> {
    const at = this.now();
    const mirrored = await this.source.read(portalId, at);
    if (!mirrored) {
      throw new PortalNotMirrored(
        `Portal ${portalId} is not in the local mirror, so it has no overview. Sign in to it and let its first sync run, or pick another portal.`,
      );
    }
    return {
      ...mirrored,
      // Read when the counts arrive: the Sync view's figures of the same moment.
      budgets: this.budgets()
        .filter((budget) => keyPortal(budget.key) === portalId && budgetInUse(budget, at))
        .sort((a, b) => b.spent - a.spent || (a.key < b.key ? -1 : 1)),
      at,
    };
  }
}
