/**
 * The history as a file (pure): CSV (RFC 4180: every field quoted when it holds a comma, a quote,
 * a line break or leading/trailing space, quotes doubled, CRLF between rows, a UTF-8 byte order
 * mark so spreadsheet programs read the text as UTF-8; fields by src/shared/csv/csvField.ts) or JSON (the entries as the view has them).
 */
import { csvField } from '../../shared/csv/csvField';
import type { HistoryEntry, HistoryFormat } from '../../shared/ipc/areas/outboxHistory';

/** The CSV's columns, in order, and how each is written from an entry. */
const COLUMNS: readonly [string, (e: HistoryEntry) => string | number | null][] = [
  ['id', (e) => e.id],
  ['answered_at', (e) => e.answeredAt],
  ['sent_at', (e) => e.sentAt],
  ['queued_at', (e) => e.queuedAt],
  ['portal_id', (e) => e.portalId],
  ['module', (e) => e.module],
  ['record_id', (e) => e.recordId],
  ['record_name', (e) => e.recordName],
  ['kind', (e) => e.kind],
  ['action', (e) => e.action],
  ['fields', (e) => e.fields.map((f) => f.label).join('; ')],
  ['comment', (e) => e.comment],
  ['method', (e) => e.method],
  ['path', (e) => e.path],
  ['status', (e) => e.status],
  ['request_body', (e) => e.requestBody],
  ['request_length', (e) => e.requestLength],
  ['answer', (e) => e.answer],
  ['answer_length', (e) => e.answerLength],
  ['requests', (e) => e.requests],
  ['note', (e) => e.note],
];

export const CSV_HEADER = COLUMNS.map(([name]) => name);

export function historyCsv(entries: readonly HistoryEntry[]): string {
  const lines = [CSV_HEADER.join(',')];
  for (const entry of entries) lines.push(COLUMNS.map(([, of]) => csvField(of(entry))).join(','));
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

export function historyJson(entries: readonly HistoryEntry[]): string {
  return `${JSON.stringify(entries, null, 2)}\n`;
}

/** `portaldesk-sent-2025-01-31T10-04-05Z.csv`: when it was made, safe in any file system. */
export function historyFileName(format: HistoryFormat, now: number): string {
  const stamp = new Date(now)
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replaceAll(':', '-');
  return `portaldesk-sent-${stamp}.${format}`;
}
