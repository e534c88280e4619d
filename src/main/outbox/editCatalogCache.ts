/**
 * The edit catalogs a replay sends with, by portal and module. Reading a module's catalog from
 * the mirror took ~1 ms a record, so while records are in flight one read serves the module for
 * CATALOG_REUSE_MS; the replayer clears it when nothing is in flight.
 */
import { ApiError } from '../api/client/apiError';
import { loadEditCatalog, type EditCatalog } from './editCatalog';
import { moduleGoneMessage, type GoneModule } from './moduleGone';
import type { OutboxRepository } from './outboxRepository';
import type { OutboxOp } from './outboxTypes';

/** Ours: a metadata pull reaches the replay within this long. */
export const CATALOG_REUSE_MS = 1_000;

export class EditCatalogCache {
  private readonly catalogs = new Map<string, { catalog: EditCatalog; readAt: number }>();

  constructor(
    private readonly repo: OutboxRepository,
    private readonly now: () => number,
    /** A module a sync found gone from the service's list, by its last mirrored names. */
    private readonly gone: (portalId: string, moduleId: string) => GoneModule | undefined = () =>
      undefined,
  ) {}

  /**
   * The catalog of the op's module; a module no longer mirrored (trashed or deleted on the
   * service) stops the send, kept, with words saying so and what to do (moduleGone.ts).
   */
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
        message: moduleGoneMessage(op.moduleId, this.gone(op.portalId, op.moduleId)),
        endpoint: { name: 'outbox', label: 'outbox' },
      });
    }
    return catalog;
  }

  clear(): void {
    this.catalogs.clear();
  }
}
