/**
 * Writes a delivery's history row (historyRecord.ts) from the operation as the Outbox showed it
 * and the exchange its run had with the service. Inside the delivery's transaction; describing the
 * operation never stops a delivery (a module left the mirror, a describer that throws: the row
 * keeps what the operation itself knows).
 */
import type { OutboxEntry } from '../../shared/ipc/areas/outbox';
import type { LocalEditsRepository } from '../store/mirror/localEditsRepository';
import type { EditCatalog } from './editCatalog';
import type { ExchangeRecorder } from './exchangeRecorder';
import type { HistoryRepository } from './historyRepository';
import { historyRow } from './historyRecord';
import { outboxEntry, type ConfigDescriber } from './outboxEntries';
import type { OutboxRepository } from './outboxRepository';
import type { OutboxOp } from './outboxTypes';
import type { DeliveryOptions } from './sendContext';

export interface DeliveryStores {
  repo: OutboxRepository;
  history: HistoryRepository;
  edits: LocalEditsRepository;
  catalog(op: OutboxOp): EditCatalog;
  describeConfig: ConfigDescriber | undefined;
}

function describe(stores: DeliveryStores, op: OutboxOp): OutboxEntry {
  try {
    return op.kind === 'config'
      ? outboxEntry(op, undefined, undefined, stores.describeConfig)
      : outboxEntry(op, stores.catalog(op), stores.edits.record(op.portalId, op.recordId));
  } catch {
    return outboxEntry(op, undefined, stores.edits.record(op.portalId, op.recordId));
  }
}

export function writeDelivery(
  stores: DeliveryStores,
  op: OutboxOp,
  recorder: ExchangeRecorder,
  answeredAt: string,
  options: DeliveryOptions = {},
): number {
  // As stored now: `sent_at` is this run's when it sent.
  const current = stores.repo.op(op.seq) ?? op;
  const kept = options.fields;
  const shown = kept
    ? {
        ...current,
        fields: Object.fromEntries(Object.entries(op.fields).filter(([f]) => kept.includes(f))),
      }
    : current;
  return stores.history.insert(
    historyRow({
      op: shown,
      entry: describe(stores, shown),
      exchange: recorder.delivery(),
      answeredAt,
      ...(options.recordId !== undefined ? { recordId: options.recordId } : {}),
      ...(options.note !== undefined ? { note: options.note } : {}),
    }),
  );
}
