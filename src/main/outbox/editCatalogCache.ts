/**
 * The edit catalogs a replay sends with, by portal and module. Reading a module's catalog from
 * the mirror took ~1 ms a record, so while records are in flight one read serves the module for
 * CATALOG_REUSE_MS; the replayer clears it when nothing is in flight.
 */
import { ApiError } from '../api/client/apiError';
import { loadEditCatalog, type EditCatalog } from './editCatalog';
import type { OutboxRepository } from './outboxRepository';
import type { OutboxOp } from './outboxTypes';

/** Ours: a metadata pull reaches the replay within this long. */
export const CATALOG_REUSE_MS = 1_000;

export class EditCatalogCache {
  private readonly catalogs = new Map<string, { catalog: EditCatalog; readAt: number }>();

  constructor(
    private readonly repo: OutboxRepository,
    private readonly now: () => number,
  ) {}

  /** The catalog of the op's module; a module no longer mirrored refuses the send for good. */
  get(op: OutboxOp): EditCatalog {
    const key = `${op.portalId}\u0000${op.moduleId}`;
    const now = this.now();
    const kept = this.catalogs.get(key);
    if (kept && now - kept.readAt < CATALOG_REUSE_MS) return kept.catalog;
    const catalog = loadEditCatalog(this.repo, op.portalId, op.moduleId, null, null);
    if (catalog) this.catalogs.set(key, { catalog, readAt: now });
    else this.catalogs.delete(key);
    if (!catalog) {
      throw new ApiError({
        kind: 'permanent',
        status: null,
        errorCode: 'NOT_MIRRORED',
        message: `Module ${op.moduleId} is no longer in the local mirror, so PortalDesk does not know where to send this change. It is kept; sync the portal, then retry.`,
        endpoint: { name: 'outbox', label: 'outbox' },
      });
    }
    return catalog;
  }

  clear(): void {
    this.catalogs.clear();
  }
}
