/**
 * The hook for the event router (issue 7: "each replayed change feeds the event router as a
 * default-publisher event (Create, Update, Delete)"). The outbox calls every connected listener
 * after a change is confirmed by the service; it knows nothing of the router, so the engine
 * connects the two (OutboxService.onReplayed).
 */

export interface ReplayedChange {
  portalId: string;
  moduleId: string;
  /** The service's id (a record created offline has its server id by now). */
  recordId: string;
  /** A record created, changed (fields, restore, comments) or moved to the trash. */
  kind: 'create' | 'update' | 'delete';
  /** The record as the service answered (its API JSON, parsed), and what changed. */
  data: { record: unknown; fields?: string[]; comment?: { id: string; action: string } };
}

export interface OutboxEvents {
  onReplayed(change: ReplayedChange): void;
}
