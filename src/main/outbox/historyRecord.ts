/**
 * One delivery as the history keeps it (pure): the operation as the Outbox showed it when it went
 * (its record's name, module and fields, or a configuration change's summary), the exchange that
 * delivered it, bounded (HISTORY_BODY_MAX characters of each body; their whole sizes kept).
 */
import type { OutboxEntry } from '../../shared/ipc/areas/outbox';
import {
  HISTORY_BODY_MAX,
  HISTORY_COMMENT_MAX,
  type HistoryEntry,
} from '../../shared/ipc/areas/outboxHistory';
import type { DeliveryExchange } from './exchangeRecorder';
import type { OutboxOp } from './outboxTypes';

/** A history row before the store numbers it. */
export type HistoryRow = Omit<HistoryEntry, 'id'>;

/** At most `max` characters of `text`, and its whole length. */
export function bounded(
  text: string | null,
  max = HISTORY_BODY_MAX,
): { text: string | null; length: number } {
  if (text === null) return { text: null, length: 0 };
  return { text: text.length > max ? text.slice(0, max) : text, length: text.length };
}

/** Why a delivery shows a read rather than a change request, or none at all. */
function noteFor(op: OutboxOp, exchange: DeliveryExchange | null, note: string | undefined) {
  if (note !== undefined) return note;
  if (exchange === null) return 'Nothing was sent: the service needed no request for this change.';
  if (exchange.requests > 0) return null;
  return op.sentBody !== null
    ? "Not sent again: an earlier send's answer was lost, and this read showed the service already had the change."
    : 'Not sent: this read showed the service already had the change.';
}

export function historyRow(input: {
  op: OutboxOp;
  /** The operation as the Outbox listed it (outboxEntry). */
  entry: OutboxEntry;
  exchange: DeliveryExchange | null;
  answeredAt: string;
  /** The record's id on the service when it differs from the op's (a created record's). */
  recordId?: string;
  note?: string;
}): HistoryRow {
  const { op, entry, exchange } = input;
  const request = bounded(exchange?.requests ? exchange.requestBody : null);
  const answer = bounded(exchange?.text ?? null);
  const config = entry.config;
  const fields = config
    ? Object.keys(op.fields).map((field) => ({ field, label: field }))
    : entry.fields.map((f) => ({ field: f.field, label: f.label }));
  return {
    opId: op.seq,
    portalId: op.portalId,
    moduleId: op.moduleId,
    recordId: input.recordId ?? op.recordId,
    recordName: config ? config.summary : entry.recordName,
    module: entry.module,
    kind: op.kind,
    action: op.action,
    fields,
    comment: bounded(entry.comment?.content ?? null, HISTORY_COMMENT_MAX).text,
    queuedAt: op.queuedAt,
    sentAt: op.sentAt,
    answeredAt: input.answeredAt,
    method: exchange?.method ?? null,
    path: exchange?.path ?? null,
    requestBody: request.text,
    requestLength: request.length,
    status: exchange?.status ?? null,
    answer: answer.text,
    answerLength: answer.length,
    requests: exchange?.requests ?? 0,
    note: noteFor(op, exchange, input.note),
  };
}
