/**
 * What the sync engine takes and tells: the account it pulls for, progress and state events,
 * and each run's result.
 */
import type { ApiClient } from '../api/client/apiClient';

/** One signed-in account in one data center: the client's token and data center are its own. */
export interface SyncAccount {
  accountId: string;
  client: ApiClient;
}

/**
 * - `portals`: listing the account's portals and their details
 * - `metadata`: a portal's modules, and a module's layouts, sections, fields, options, statuses
 * - `records`: the full pull of a module's records, page by page
 * - `incremental`: records changed since the module's cursor
 * - `reconcile`: every id compared with the server's, to drop deleted records
 * - `comments`: comments of records, one request each
 * - `done` / `failed`: this portal or module is finished, or failed (see `message`)
 */
export type SyncPhase =
  'portals' | 'metadata' | 'records' | 'incremental' | 'reconcile' | 'comments' | 'done' | 'failed';

export interface SyncProgress {
  /** The run; null for the background comment backfill. */
  runId: string | null;
  accountId: string;
  dc: string;
  portalId: string | null;
  moduleId: string | null;
  /** The module's plural name, for display. */
  module: string | null;
  phase: SyncPhase;
  /** Records (or, for comments, records whose comments were read) done so far. */
  done: number;
  /** Out of: `page_info.page_count` (the total of records) once a page told it; else null. */
  total: number | null;
  /** API calls made for this portal or module in this run. */
  calls: number;
  /** Records the server sent that could not be read (logged with the endpoint, left out). */
  skipped: number;
  /** Estimated milliseconds until this part is done, from its remaining calls and the budgets. */
  etaMs: number | null;
  message: string | null;
}

/** `paused`: no new request is sent until resumed; `offline`: stopped, no connection. */
export type SyncState = 'running' | 'paused' | 'done' | 'failed' | 'offline' | 'cancelled';

export type SyncEvent =
  | ({ type: 'progress' } & SyncProgress)
  | ({ type: 'optionsRenamed' } & OptionsRenamedThere)
  | {
      type: 'state';
      runId: string;
      accountId: string;
      dc: string;
      state: SyncState;
      message: string | null;
    };

/**
 * Options of a pick list or multi-select renamed on the service, which a sync found and the
 * mirror's records followed (optionRenames.ts): what still names the old names (changes queued
 * in the outbox) follows too.
 */
export interface OptionsRenamedThere {
  portalId: string;
  moduleId: string;
  field: { apiName: string; multi: boolean };
  /** Old name → new name. */
  relabel: [string, string][];
}

/** How one portal (moduleId null) or module ended. */
export interface SyncOutcome {
  portalId: string;
  moduleId: string | null;
  ok: boolean;
  message: string | null;
}

export interface SyncResult {
  runId: string;
  /** `done`: everything pulled; `failed`: some part failed (see outcomes) or access was refused. */
  state: Exclude<SyncState, 'running' | 'paused'>;
  message: string | null;
  calls: number;
  /** Records read from the service in this run (pages of every phase). */
  records: number;
  outcomes: SyncOutcome[];
}

/** A sync in progress. */
export interface SyncRun {
  readonly id: string;
  readonly accountId: string;
  readonly dc: string;
  /** Resolves (never rejects) when the run ends, however it ends. */
  readonly done: Promise<SyncResult>;
  state(): SyncState;
  pause(): void;
  resume(): void;
  /** Aborts requests in flight; pages already stored stay stored. */
  cancel(): void;
}
