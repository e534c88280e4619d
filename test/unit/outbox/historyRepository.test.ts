/**
 * The history's store: purged at 30 days by the clock it is given, searched by SQL exactly as a
 * plain reading of the rows finds them, paged newest first, and written only inside a transaction.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { chooseExchange } from '../../../src/main/outbox/exchangeRecorder';
import { bounded, type HistoryRow } from '../../../src/main/outbox/historyRecord';
import { HistoryRepository, likePattern } from '../../../src/main/outbox/historyRepository';
import { historyCutoff } from '../../../src/main/outbox/historyRetention';
import { Store } from '../../../src/main/store/store';
import type { HistoryEntry, HistoryQuery } from '../../../src/shared/ipc/areas/outboxHistory';
import { tempDir } from '../../support/tempDir';

const stores: Store[] = [];
afterEach(() => {
  for (const store of stores.splice(0)) store.close();
});

function open() {
  const store = Store.open({ dataDir: tempDir('portaldesk-history-'), mode: 'test' });
  stores.push(store);
  const history = new HistoryRepository(store.db);
  const insert = (row: HistoryRow) => store.db.transaction(() => history.insert(row)).immediate();
  return { store, history, insert };
}

const DAY = 24 * 60 * 60 * 1000;

function row(over: Partial<HistoryRow> = {}): HistoryRow {
  return {
    opId: 1,
    portalId: '1001',
    moduleId: '2002',
    recordId: '3003',
    recordName: 'Laptop',
    module: 'Assets',
    kind: 'update',
    action: null,
    fields: [{ field: 'name', label: 'Name' }],
    comment: null,
    queuedAt: '2025-01-01T00:00:00.000Z',
    sentAt: '2025-01-01T00:00:01.000Z',
    answeredAt: '2025-01-01T00:00:02.000Z',
    method: 'PATCH',
    path: '/api/v3/portal/1001/projects/assets/entities/3003',
    requestBody: '{"name":"Laptop"}',
    requestLength: 17,
    status: 200,
    answer: '{"entity":{}}',
    answerLength: 13,
    requests: 1,
    note: null,
    ...over,
  };
}

/** The search as the contract says it, read from the rows in memory (ASCII case ignored). */
function matches(entry: HistoryEntry, query: HistoryQuery): boolean {
  if (query.kinds && !query.kinds.includes(entry.kind)) return false;
  const text = query.text?.trim() ?? '';
  if (text === '') return true;
  const lower = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());
  const wanted = lower(text);
  return [
    entry.recordName,
    entry.module,
    entry.recordId,
    entry.kind,
    entry.action,
    JSON.stringify(entry.fields),
    entry.comment,
    entry.path,
    entry.requestBody,
    entry.answer,
    entry.note,
  ].some((value) => value !== null && lower(value).includes(wanted));
}

describe('history store', () => {
  it('purges what was answered more than 30 days before the clock, and nothing newer', () => {
    const { history, insert } = open();
    const now = Date.UTC(2025, 5, 30, 12);
    const ages = [31 * DAY, 30 * DAY + 1, 30 * DAY, 30 * DAY - 1, DAY, 0];
    for (const [i, age] of ages.entries()) {
      insert(row({ opId: i + 1, answeredAt: new Date(now - age).toISOString() }));
    }
    expect(historyCutoff(now)).toBe(new Date(now - 30 * DAY).toISOString());
    expect(history.purge(historyCutoff(now))).toBe(2);
    expect(history.page({}, 0, 10).map((e) => e.opId)).toEqual([6, 5, 4, 3]);
    // A day later the row of exactly 30 days goes too.
    expect(history.purge(historyCutoff(now + DAY))).toBe(2);
    expect(history.page({}, 0, 10).map((e) => e.opId)).toEqual([6, 5]);
  });

  it('refuses a row written outside a transaction (it belongs to its delivery)', () => {
    const { history } = open();
    expect(() => history.insert(row())).toThrow(/only in the transaction/);
    expect(history.count({})).toBe(0);
  });

  it('finds by SQL exactly what a reading of the rows finds, newest first, page by page', () => {
    const { history, insert } = open();
    const words = ['Laptop', 'lap', '100%', 'a_b', 'back\\slash', 'Ünï', 'status', 'x'];
    const piece = fc.oneof(fc.constantFrom(...words), fc.string({ maxLength: 6 }));
    const kinds = ['update', 'create', 'trash', 'comment_add', 'config'] as const;
    const rows = fc.array(
      fc.record({
        recordName: fc.option(piece),
        module: fc.option(piece),
        kind: fc.constantFrom(...kinds),
        requestBody: fc.option(piece),
        answer: fc.option(piece),
        comment: fc.option(piece),
        field: piece,
      }),
      { minLength: 1, maxLength: 25 },
    );
    let opId = 0;
    fc.assert(
      fc.property(
        rows,
        fc.option(piece),
        fc.option(fc.subarray([...kinds], { minLength: 1 })),
        fc.integer({ min: 1, max: 7 }),
        (made, text, wantedKinds, size) => {
          for (const r of made) {
            insert(
              row({
                opId: ++opId,
                recordName: r.recordName,
                module: r.module,
                kind: r.kind,
                requestBody: r.requestBody,
                answer: r.answer,
                comment: r.comment,
                fields: [{ field: r.field, label: r.field }],
              }),
            );
          }
          const query: HistoryQuery = {
            ...(text !== null ? { text } : {}),
            ...(wantedKinds !== null ? { kinds: wantedKinds } : {}),
          };
          const all = history.page({}, 0, 100_000);
          const expectedIds = all.filter((e) => matches(e, query)).map((e) => e.id);
          expect(history.count(query)).toBe(expectedIds.length);
          const paged: number[] = [];
          for (let offset = 0; offset < expectedIds.length + size; offset += size) {
            paged.push(...history.page(query, offset, size).map((e) => e.id));
          }
          expect(paged).toEqual(expectedIds);
          expect(all.map((e) => e.id)).toEqual(all.map((e) => e.id).sort((a, b) => b - a));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('takes the user text literally in LIKE', () => {
    expect(likePattern('100%_a\\b')).toBe('%100\\%\\_a\\\\b%');
  });
});

describe('what a delivery keeps', () => {
  it('bounds a body, keeping its whole length', () => {
    expect(bounded('abcdef', 4)).toEqual({ text: 'abcd', length: 6 });
    expect(bounded('abc', 4)).toEqual({ text: 'abc', length: 3 });
    expect(bounded(null, 4)).toEqual({ text: null, length: 0 });
  });

  it('shows the last change request of a run, else its last read', () => {
    const call = (method: string, status: number, url = 'http://h/api/v3/x?y=1') => ({
      method,
      url,
      requestBody: method === 'GET' ? null : '{}',
      status,
      text: `${method} ${status}`,
    });
    expect(chooseExchange([])).toBeNull();
    expect(chooseExchange([call('GET', 200), call('PATCH', 200), call('GET', 200)])).toEqual({
      method: 'PATCH',
      path: '/api/v3/x?y=1',
      requestBody: '{}',
      status: 200,
      text: 'PATCH 200',
      requests: 1,
    });
    expect(chooseExchange([call('GET', 404), call('GET', 200)])).toMatchObject({
      method: 'GET',
      status: 200,
      requests: 0,
    });
    expect(chooseExchange([call('DELETE', 204), call('POST', 201)])).toMatchObject({
      method: 'POST',
      requests: 2,
    });
  });
});
