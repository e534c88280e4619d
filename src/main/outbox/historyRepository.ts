/**
 * The outbox's history table (`outbox_history`, queries/history.sql): written by the replay in the
 * transaction that takes a delivered operation out of the queue (SendContext.delivered), read a
 * page at a time by the Outbox's "Sent" view, purged after 30 days. No decisions here.
 */
import type Database from 'better-sqlite3';
import type { OpKind } from '../../shared/ipc/areas/outbox';
import type { HistoryEntry, HistoryQuery } from '../../shared/ipc/areas/outboxHistory';
import { namedStatements } from '../store/namedStatements';
import { parseNamedQueries, requireQueries } from '../store/sqlFile';
import type { HistoryRow } from './historyRecord';
import historySql from './queries/history.sql?raw';

const NAMES = ['insert', 'purge', 'page', 'count'] as const;
const queries = requireQueries(parseNamedQueries(historySql, 'history.sql'), NAMES, 'history.sql');

interface Row {
  id: number;
  op_seq: number;
  portal_id: string;
  module_id: string;
  record_id: string;
  record_name: string | null;
  module_name: string | null;
  kind: OpKind;
  action: string | null;
  fields: string;
  comment: string | null;
  queued_at: string;
  sent_at: string | null;
  answered_at: string;
  method: string | null;
  path: string | null;
  request_body: string | null;
  request_length: number;
  status: number | null;
  answer: string | null;
  answer_length: number;
  requests: number;
  note: string | null;
}

function parseRow(row: Row): HistoryEntry {
  return {
    id: row.id,
    opId: row.op_seq,
    portalId: row.portal_id,
    moduleId: row.module_id,
    recordId: row.record_id,
    recordName: row.record_name,
    module: row.module_name,
    kind: row.kind,
    action: row.action,
    fields: JSON.parse(row.fields) as HistoryEntry['fields'],
    comment: row.comment,
    queuedAt: row.queued_at,
    sentAt: row.sent_at,
    answeredAt: row.answered_at,
    method: row.method,
    path: row.path,
    requestBody: row.request_body,
    requestLength: row.request_length,
    status: row.status,
    answer: row.answer,
    answerLength: row.answer_length,
    requests: row.requests,
    note: row.note,
  };
}

/** The user's text as a LIKE pattern matching it anywhere, `%`, `_` and `\` taken literally. */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function searchParams(query: HistoryQuery) {
  const text = query.text?.trim() ?? '';
  return {
    pattern: text === '' ? null : likePattern(text),
    kinds: query.kinds ? JSON.stringify(query.kinds) : null,
  };
}

export class HistoryRepository {
  private readonly statement: (name: (typeof NAMES)[number]) => Database.Statement;

  constructor(readonly db: Database.Database) {
    this.statement = namedStatements(db, queries);
  }

  /**
   * Called inside the transaction that records the delivery (the op's deletion, the mirror's
   * answer): a delivery is never kept without its history, nor the other way round.
   */
  insert(row: HistoryRow): number {
    if (!this.db.inTransaction) {
      throw new Error(
        'A history row is written only in the transaction that records its delivery.',
      );
    }
    return this.statement('insert')
      .pluck()
      .get({ ...row, fields: JSON.stringify(row.fields) }) as number;
  }

  /** Rows answered before `cutoff` (ISO) are deleted; returns how many. */
  purge(cutoff: string): number {
    return this.statement('purge').run({ cutoff }).changes;
  }

  page(query: HistoryQuery, offset: number, limit: number): HistoryEntry[] {
    return (this.statement('page').all({ ...searchParams(query), offset, limit }) as Row[]).map(
      parseRow,
    );
  }

  count(query: HistoryQuery): number {
    return this.statement('count').pluck().get(searchParams(query)) as number;
  }
}
