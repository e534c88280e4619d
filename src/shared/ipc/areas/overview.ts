/**
 * The overview area: one portal at a glance, read from the local mirror (records per module and
 * per status, created and updated per week), with its outbox's pending work, the rate budgets of
 * its endpoints and its last backup. contract.ts composes these with every other area's.
 */
import { z } from 'zod';
import { request } from '../contractSpec';
import { EndpointBudget } from './sync';

const PortalId = z.string().regex(/^\d{1,20}$/, 'a portal id (digits)');

export const OverviewArgs = z.object({ portalId: PortalId }).strict();

export const OverviewStatus = z.object({
  /** Null: the records without a status. */
  statusId: z.string().nullable(),
  /** The status's name; for a status the mirror does not know, its id in words. */
  name: z.string(),
  /** The status's colour as the service gives it (#rrggbb), null when none. */
  color: z.string().nullable(),
  records: z.number().int().nonnegative(),
});
export type OverviewStatus = z.infer<typeof OverviewStatus>;

export const OverviewModule = z.object({
  moduleId: z.string(),
  /** Plural name. */
  name: z.string(),
  /** Records listed in the records workspace: the recycle bin's left out, local edits laid over. */
  records: z.number().int().nonnegative(),
  /** In the module's status order; statuses without records included, unknown ones last. */
  statuses: z.array(OverviewStatus),
});
export type OverviewModule = z.infer<typeof OverviewModule>;

export const OverviewWeek = z.object({
  /** The week's first day in the portal's time zone (its week start day), YYYY-MM-DD. */
  start: z.string(),
  created: z.number().int().nonnegative(),
  updated: z.number().int().nonnegative(),
});
export type OverviewWeek = z.infer<typeof OverviewWeek>;

export const PortalOverview = z.object({
  portalId: z.string(),
  portalName: z.string(),
  /** The zone the weeks are counted in (the portal's, or UTC when this runtime does not know it). */
  timeZone: z.string(),
  modules: z.array(OverviewModule),
  /**
   * Oldest first, every week from the first record's to the last's (at most five years, ending at
   * now's week when records dated after now would not fit).
   */
  weeks: z.array(OverviewWeek),
  /** Records created (updated) before the first week shown. */
  earlier: z.object({
    created: z.number().int().nonnegative(),
    updated: z.number().int().nonnegative(),
  }),
  /** Records created (updated) after the last week shown: dated after now. */
  later: z.object({
    created: z.number().int().nonnegative(),
    updated: z.number().int().nonnegative(),
  }),
  /** The portal's outbox operations per state, and every portal's in all. */
  outbox: z.object({
    pending: z.number().int().nonnegative(),
    sending: z.number().int().nonnegative(),
    failed: z.number().int().nonnegative(),
    conflict: z.number().int().nonnegative(),
    /** Operations of every portal: the Outbox view lists them together, under these states. */
    allPortals: z.number().int().nonnegative(),
  }),
  /**
   * The rate budgets of the portal's endpoints in use (calls in the current or the previous
   * window, waiting or in flight, or blocked: overviewService.ts budgetInUse), busiest first.
   */
  budgets: z.array(EndpointBudget),
  /** The newest backup the service made of the portal (downloaded here or not); null if none. */
  lastBackup: z
    .object({
      /** ISO time the service completed it. */
      completedTime: z.string(),
      /** BackupStage: `ready` once downloaded and verified here. */
      stage: z.string(),
    })
    .nullable(),
  /**
   * The newest failed backup attempt of the portal made after its last backup (or with none
   * made): when this computer asked for it (ISO) and why it failed; null when none.
   */
  lastFailure: z.object({ at: z.string(), problem: z.string().nullable() }).nullable(),
  /** Epoch ms of this reading, to tell the backup's age against. */
  at: z.number(),
});
export type PortalOverview = z.infer<typeof PortalOverview>;

export const overviewRequests = {
  'overview.portal': request(
    OverviewArgs,
    PortalOverview,
    'One portal at a glance from the local mirror: records per module, status and week, its outbox, budgets and last backup.',
  ),
} as const;
