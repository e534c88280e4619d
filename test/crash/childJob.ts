/** What the crash harness asks of its child process (crashChild.ts), and what the child says. */

/** A change queued offline through the outbox's contract. */
export type QueuedOp =
  | { kind: 'edit'; portalId: string; recordId: string; changes: Record<string, string> }
  | { kind: 'create'; portalId: string; moduleId: string; values: Record<string, string> }
  | { kind: 'comment'; portalId: string; recordId: string; content: string };

interface JobBase {
  dataDir: string;
  /** A ServiceProfile (JSON) for the harness's emulator. */
  profile: unknown;
  dc: string;
  token: string;
  pageSize: number;
}

/** What a backup job needs beyond the account: the portal, its code, the emulator's admin door. */
export interface BackupJob {
  portalId: string;
  accessCode: string;
  /** The emulator's admin secret: the child moves its clock while the backup generates. */
  adminSecret: string;
  apiBase: string;
}

/**
 * - `sync`: one sync of the account (a full pull the first time, or its resumption);
 * - `queue`: work offline, then queue `ops` (not killed: it sets up the replay);
 * - `replay`: online again, syncing until the outbox is empty;
 * - `backup`: go on with the backup a killed run left, or start one, until one is ready.
 */
export type ChildJob =
  | (JobBase & { role: 'sync' })
  | (JobBase & { role: 'queue'; ops: QueuedOp[] })
  | (JobBase & { role: 'replay' })
  | (JobBase & { role: 'backup'; backup: BackupJob });

export interface ChildResult {
  role: ChildJob['role'];
  /** A sync run's state, or `done`/`failed` for the other jobs. */
  state: string;
  message: string | null;
}
