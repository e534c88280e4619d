/**
 * The bulk-edit service over a test session's store, mirror and outbox, as the engine builds it,
 * with no rate budget (so no ETA) unless a test gives one; `options` replaces any part.
 */
import {
  BulkEditService,
  type BulkEditServiceOptions,
} from '../../../src/main/bulkEdit/bulkEditService';
import { EventHub } from '../../../src/main/bridge/eventHub';
import type { outboxSession } from '../outbox/outboxSession';

type Session = Awaited<ReturnType<typeof outboxSession>>;

export function bulkEditOn(
  s: Session,
  options: Partial<BulkEditServiceOptions> = {},
): BulkEditService {
  return new BulkEditService({
    db: s.store.db,
    mirror: s.mirror,
    outbox: s.outbox,
    events: new EventHub(),
    patchBudget: () => undefined,
    ...options,
  });
}
