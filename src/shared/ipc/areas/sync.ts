/**
 * The sync area: start, pause, resume and cancel the pull of signed-in accounts into the local
 * mirror, read a record's comments now, and one pushed snapshot of everything the Sync view and
 * the status bar show (progress per portal and module, every endpoint's rate-limit budget, the
 * log of recent runs). contract.ts composes these with every other area's.
 */
import { z } from 'zod';
import { NoArgs, request } from '../contractSpec';

const AccountId = z.string().min(1).max(200);

/** What the sync is doing for one portal (module null) or module. */
export const SyncPhase = z.enum([
  'portals',
  'metadata',
  'records',
  'incremental',
  'reconcile',
  'comments',
  'done',
  'failed',
]);
export type SyncPhase = z.infer<typeof SyncPhase>;

export const SyncProgress = z.object({
  /** The run; null for the background comment backfill. */
  runId: z.string().nullable(),
  accountId: z.string(),
  dc: z.string(),
  portalId: z.string().nullable(),
  moduleId: z.string().nullable(),
  /** The module's plural name, for display. */
  module: z.string().nullable(),
  phase: SyncPhase,
  done: z.number().int().nonnegative(),
  /** Null until the service has told the total. */
  total: z.number().int().nonnegative().nullable(),
  calls: z.number().int().nonnegative(),
  /** Items the service sent that could not be read (logged, left out). */
  skipped: z.number().int().nonnegative(),
  etaMs: z.number().nonnegative().nullable(),
  message: z.string().nullable(),
  /** Epoch ms of this report. */
  at: z.number(),
});
export type SyncProgress = z.infer<typeof SyncProgress>;

export const SyncRunState = z.enum(['running', 'paused', 'done', 'failed', 'offline', 'cancelled']);
export type SyncRunState = z.infer<typeof SyncRunState>;

/**
 * One endpoint key's calls over the previous and the current window (src/main/api/endpointCalls.ts):
 * `inWindow[i]` is the number of calls in the window ending `(inWindow.length - 1 - i) * stepMs`
 * before the snapshot, so the last point is the current window.
 */
export const EndpointCallsChart = z.object({
  stepMs: z.number().positive(),
  inWindow: z.array(z.number().int().nonnegative()),
  current: z.number().int().nonnegative(),
  previous: z.number().int().nonnegative(),
});
export type EndpointCallsChart = z.infer<typeof EndpointCallsChart>;

/** One endpoint key's rate-limit budget (times are epoch ms). */
export const EndpointBudget = z.object({
  key: z.string(),
  limit: z.number().int(),
  windowMs: z.number(),
  spent: z.number().int(),
  remaining: z.number().int(),
  nextSlotAt: z.number().nullable(),
  blockedUntil: z.number().nullable(),
  queued: z.number().int(),
  inFlight: z.number().int(),
  calls: EndpointCallsChart,
});
export type EndpointBudget = z.infer<typeof EndpointBudget>;

export const SyncOutcome = z.object({
  portalId: z.string(),
  moduleId: z.string().nullable(),
  ok: z.boolean(),
  message: z.string().nullable(),
});

/** A run, in progress or finished (the log keeps the last ones across restarts). */
export const SyncRunEntry = z.object({
  runId: z.string(),
  accountId: z.string(),
  dc: z.string(),
  startedAt: z.number(),
  /** Null while it runs. */
  endedAt: z.number().nullable(),
  state: SyncRunState,
  message: z.string().nullable(),
  calls: z.number().int(),
  records: z.number().int(),
  outcomes: z.array(SyncOutcome),
});
export type SyncRunEntry = z.infer<typeof SyncRunEntry>;

/** When a portal's module was last pulled (its cursor's last write). */
export const LastSynced = z.object({
  portalId: z.string(),
  moduleId: z.string(),
  at: z.number(),
});

export const SyncStatus = z.object({
  /** Pausing holds every run and the background comment reads until resumed. */
  paused: z.boolean(),
  /** False after a run found no connection, true after one reached the service, null before. */
  online: z.boolean().nullable(),
  /** Accounts PortalDesk can sync now (signed in). */
  accounts: z.array(z.object({ accountId: z.string(), dc: z.string(), label: z.string() })),
  running: z.array(SyncRunEntry),
  /** The latest report per portal and module of the running (or last) runs. */
  progress: z.array(SyncProgress),
  budgets: z.array(EndpointBudget),
  lastSynced: z.array(LastSynced),
  /** Most recent first. */
  log: z.array(SyncRunEntry),
  /** When an automatic retry (after going offline) or the next periodic sync is due. */
  nextAutoSyncAt: z.number().nullable(),
  /** Epoch ms of this snapshot, to count down `nextSlotAt` and `blockedUntil` against. */
  at: z.number(),
});
export type SyncStatus = z.infer<typeof SyncStatus>;

export const SyncStartArgs = z
  .object({
    /** One account; every signed-in account when left out. */
    accountId: AccountId.optional(),
    /** One portal of the account (needs accountId). */
    portalId: z
      .string()
      .regex(/^\d{1,20}$/, 'a portal id (digits)')
      .optional(),
    /** Compare every module's ids with the server's now, to drop records deleted there. */
    reconcile: z.boolean().optional(),
  })
  .strict()
  .refine((args) => args.portalId === undefined || args.accountId !== undefined, {
    message: 'portalId needs the accountId it belongs to',
    path: ['portalId'],
  })
  .optional();

export const FetchCommentsArgs = z
  .object({
    portalId: z.string().regex(/^\d{1,20}$/),
    moduleId: z.string().regex(/^\d{1,20}$/),
    recordId: z.string().regex(/^\d{1,20}$/),
  })
  .strict();

export const syncRequests = {
  'sync.status': request(NoArgs, SyncStatus, 'Progress, budgets, log: what the Sync view shows.'),
  'sync.start': request(
    SyncStartArgs,
    SyncStatus,
    'Sync now: every signed-in account, one account, or one portal.',
  ),
  'sync.pause': request(NoArgs, SyncStatus, 'Hold every run; requests in flight finish.'),
  'sync.resume': request(NoArgs, SyncStatus, 'Go on where the paused runs stopped.'),
  'sync.cancel': request(NoArgs, SyncStatus, 'Stop every run; what was pulled stays.'),
  'sync.fetchComments': request(
    FetchCommentsArgs,
    z.object({
      /** Comments stored for the record. */
      stored: z.number().int().nonnegative(),
      /** Status timeline entries stored; null when the timeline could not be read. */
      timeline: z.number().int().nonnegative().nullable(),
    }),
    "Read one record's comments and status timeline now, ahead of background work.",
  ),
} as const;

export const syncEvents = {
  /** After any change of progress, state or budgets; at most a few times a second. */
  'sync.status': SyncStatus,
} as const;
