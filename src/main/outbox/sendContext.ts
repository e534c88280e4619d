/**
 * What the per-kind sends (sendRecord.ts, sendComment.ts) share: the stores they write, whom they
 * tell, how they call the service, and the exactly-once rule for creates. The replayer
 * (OutboxReplayer) owns the state behind it (the abort signal, the catalogs, the clock).
 */
import type { ApiClient } from '../api/client/apiClient';
import { ALL_PROJECTS } from '../api/client/endpoints';
import type { ListPage } from '../api/client/endpointTypes';
import { paginate } from '../api/client/paginate';
import type { Mirror } from '../store/mirror/mirror';
import type { CallOptions } from '../api/client/apiClient';
import type { EditCatalog } from './editCatalog';
import { madeBeforeSend } from './findLostCreate';
import type { HistoryRepository } from './historyRepository';
import type { ReplayedChange } from './outboxEvents';
import type { OutboxLedger } from './outboxLedger';
import type { OutboxRepository } from './outboxRepository';
import type { OutboxOp } from './outboxTypes';

/** Ours: records (or comments) of one name read a page to find a lost create ("per_page" ≤ 200). */
export const LOOKUP_PAGE = 50;

/**
 * The items of a list read newest first (`DESC(created_time)`), page by page until one reaches an
 * item made before the send (or the list ends): everything a lost create may have made, however
 * many were made after it. One page was not enough: an import's records of one name go in
 * parallel, and more than a page of them may be made while a lost one waits to be looked up.
 */
export async function listMadeSince<A extends { query?: { page?: number; per_page?: number } }, T>(
  ctx: SendContext,
  list: (args: A, options?: CallOptions) => Promise<ListPage<T>>,
  args: A,
  createdOf: (item: T) => string | null | undefined,
  sentAt: string,
): Promise<T[]> {
  const items: T[] = [];
  for await (const page of paginate(list, args, { ...ctx.call, perPage: LOOKUP_PAGE })) {
    items.push(...page.items);
    if (page.items.some((item) => madeBeforeSend(createdOf(item), sentAt))) break;
  }
  return items;
}

/** `stop`: the record's queue waits for the user (a conflict); `done`: the next may go. */
export type Outcome = 'done' | 'stop';

/** The send of one kind of operation, with the client of the op's portal. */
export type Send = (ctx: SendContext, op: OutboxOp, client: ApiClient) => Promise<Outcome>;

/** What a replay changes and whom it tells. */
export interface ReplayEffects {
  repo: OutboxRepository;
  /** What was delivered (the Outbox's "Sent"): written by `delivered`, nothing else. */
  history: HistoryRepository;
  ledger: OutboxLedger;
  mirror: Mirror;
  onReplayed(change: ReplayedChange): void;
  onRemap(remap: { portalId: string; kind: 'record' | 'comment'; from: string; to: string }): void;
  onAttention(message: string): void;
}

/** What the history says of a delivery besides what the run's calls show. */
export interface DeliveryOptions {
  /** The record's id on the service when it differs from the op's (a record created offline). */
  recordId?: string;
  /** Only these fields went (the others stay queued, in conflict). */
  fields?: readonly string[];
  note?: string;
}

export interface SendContext extends ReplayEffects {
  now(): number;
  /**
   * Every call of a replay: ahead of background sync, aborted when PortalDesk closes; each answer
   * is noted for the operation's history row (`onAnswer`).
   */
  call: { priority: 'user'; signal: AbortSignal; onAnswer?: CallOptions['onAnswer'] };
  /** The op's module's catalog (EditCatalogCache); throws when the module left the mirror. */
  catalog(op: OutboxOp): EditCatalog;
  /**
   * The op reached the service: its history row is written and it leaves the queue. Called inside
   * the transaction that stores the service's answer, so a crash keeps both or neither.
   */
  delivered(op: OutboxOp, options?: DeliveryOptions): void;
  /** Part of the op reached the service and the rest stays queued: the history row alone. */
  partlyDelivered(op: OutboxOp, options: DeliveryOptions): void;
  /** For the log: something after a delivery did not work (the delivery stands). */
  warn(message: string): void;
}

/** The arguments every record call of the op's module starts with. */
export function moduleArgs(op: OutboxOp, catalog: EditCatalog) {
  return {
    portal_id: op.portalId,
    scope_path: ALL_PROJECTS,
    module_api_name: catalog.moduleApiName,
  };
}

/** The op's module's catalog, and the arguments of a call on its record (and its comments). */
export function recordCall(ctx: SendContext, op: OutboxOp) {
  const catalog = ctx.catalog(op);
  return { catalog, args: { ...moduleArgs(op, catalog), entity_id: op.recordId } };
}

/**
 * Sends a create at most once across crashes: the body is written as sent before the call, and
 * when an earlier send's answer was lost, `findLost` looks for what it made before resending.
 * `answered` sees what a send made (never what a lookup adopted): who the service names as its
 * creator is who we are in the portal, which the lookups match on.
 */
export async function createOnce<T>(
  ctx: SendContext,
  op: OutboxOp,
  body: unknown,
  findLost: (sentAt: string) => Promise<T | null>,
  send: () => Promise<T>,
  answered?: (made: T) => void,
): Promise<T> {
  if (op.sentBody !== null && op.sentAt !== null) {
    const found = await findLost(op.sentAt);
    if (found) return found;
  }
  ctx.repo.markSending(op.seq, JSON.stringify(body));
  const made = await send();
  answered?.(made);
  return made;
}

/**
 * Keeps who the service named as the creator of a create we sent (a record's owner, a comment's
 * created_by), for the lookups of lost creates in that portal (outbox_authors).
 */
export function learnAuthor(ctx: SendContext, portalId: string, zpuid: string | undefined): void {
  if (zpuid) ctx.repo.learnAuthor(portalId, zpuid, new Date(ctx.now()).toISOString());
}
