/**
 * What the `bin.*` requests do: the portal's recycle bin read from the service (through the
 * request scheduler, at the user's priority) and kept, shown as last read when the service cannot
 * be reached; restores, deletes and emptying checked against it and queued in the outbox.
 */
import type { ApiClient } from '../api/client/apiClient';
import { collectAll } from '../api/client/paginate';
import type { BinListArgs, BinListing } from '../../shared/ipc/areas/bin';
import type { OutboxService } from '../outbox/outboxService';
import type { Mirror } from '../store/mirror/mirror';
import {
  BIN_MODULE_ID,
  BIN_QUEUE,
  binActionOf,
  binBatches,
  binEntries,
  binFields,
  binOpAction,
  restorableAt,
  type BinAction,
} from './binOps';
import type { PortalBinRepository } from './portalBinRepository';

/** A change refused before anything was queued; the message says why, for the user. */
export class BinRefused extends Error {
  override name = 'BinRefused';
}

export interface PortalBinOptions {
  bin: PortalBinRepository;
  mirror: Mirror;
  outbox: OutboxService;
  clientFor(portalId: string): ApiClient | undefined;
  changed(portalId: string): void;
  now?: () => number;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export class PortalBinService {
  private readonly now: () => number;

  constructor(private readonly options: PortalBinOptions) {
    this.now = options.now ?? Date.now;
  }

  private portalName(portalId: string): string {
    const portal = this.options.mirror.metadata.portal(portalId);
    if (!portal) {
      throw new BinRefused(
        `Portal ${portalId} is not in the local mirror. Choose another portal, or sync this one first.`,
      );
    }
    return portal.name;
  }

  async list(args: BinListArgs): Promise<BinListing> {
    this.portalName(args.portalId);
    let problem: string | null = null;
    if (args.refresh) {
      const client = this.options.clientFor(args.portalId);
      if (!client) {
        problem =
          'The account that reaches this portal is signed out, so the recycle bin could not be read; this is the list as last read.';
      } else {
        try {
          const items = await collectAll(
            client.listBin,
            { portal_id: args.portalId },
            { priority: 'user' },
          );
          this.options.bin.replace(args.portalId, items, new Date(this.now()).toISOString());
        } catch (error) {
          problem = `The recycle bin could not be read from the service (${messageOf(error)}); this is the list as last read.`;
        }
      }
    }
    const items = this.options.bin.items(args.portalId);
    const ops = this.options.outbox.repo.configOps(args.portalId);
    return {
      portalId: args.portalId,
      items: binEntries(items, ops, args, this.now()),
      total: items.length,
      readAt: this.options.bin.readAt(args.portalId),
      problem,
      emptyQueued: ops.some((op) => binActionOf(op) === 'empty'),
    };
  }

  /** Queues restoring or deleting items the bin lists (as last read). */
  queueItems(
    portalId: string,
    action: 'restore' | 'delete',
    selection: readonly { module: string; id: string }[],
  ): { queued: number } {
    this.portalName(portalId);
    const listed = new Map(
      this.options.bin.items(portalId).map((item) => [`${item.module}\u0000${item.id}`, item]),
    );
    const entries = binEntries(
      [...listed.values()],
      this.options.outbox.repo.configOps(portalId),
      {
        sort: { by: 'name', descending: false },
      },
      this.now(),
    );
    const pending = new Map(entries.map((entry) => [`${entry.module}\u0000${entry.id}`, entry]));
    for (const chosen of selection) {
      const key = `${chosen.module}\u0000${chosen.id}`;
      const item = listed.get(key);
      if (!item) {
        throw new BinRefused(
          `${chosen.module} ${chosen.id} is not in the recycle bin as last read; read it again. Nothing was queued.`,
        );
      }
      if (pending.get(key)?.pending) {
        throw new BinRefused(
          `"${item.name}" already has a ${pending.get(key)!.pending} queued. Nothing was queued.`,
        );
      }
      if (action === 'restore' && !restorableAt(item, this.now())) {
        throw new BinRefused(
          `"${item.name}" is past its 30 days in the bin and can only be deleted for good. Nothing was queued.`,
        );
      }
    }
    if (this.options.outbox.repo.configOps(portalId).some((op) => binActionOf(op) === 'empty')) {
      throw new BinRefused('Emptying the bin is queued; it takes every item. Nothing was queued.');
    }
    this.queue(portalId, action, binBatches(selection));
    return { queued: 1 };
  }

  empty(portalId: string, confirmName: string): { queued: number } {
    const name = this.portalName(portalId);
    if (confirmName.trim() !== name.trim()) {
      throw new BinRefused(
        `Type the portal's name, ${name}, exactly to empty its recycle bin. Nothing was queued.`,
      );
    }
    if (this.options.outbox.repo.configOps(portalId).some((op) => binActionOf(op) === 'empty')) {
      throw new BinRefused('Emptying the bin is already queued.');
    }
    this.queue(portalId, 'empty', []);
    return { queued: 1 };
  }

  private queue(portalId: string, action: BinAction, batches: ReturnType<typeof binBatches>) {
    this.options.outbox.repo.insertOp({
      portalId,
      moduleId: BIN_MODULE_ID,
      recordId: BIN_QUEUE,
      kind: 'config',
      action: binOpAction(action),
      fields: action === 'empty' ? {} : binFields(batches),
    });
    this.options.outbox.configQueued(null);
    this.options.changed(portalId);
  }
}
