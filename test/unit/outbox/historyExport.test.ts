/**
 * The history's CSV: read back by an RFC 4180 reader it gives every field as written (text a
 * spreadsheet would run as a formula defused), whatever commas, quotes and line breaks it holds.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CSV_HEADER,
  historyCsv,
  historyFileName,
  historyJson,
} from '../../../src/main/outbox/historyExport';
import { csvField, defuseFormula } from '../../../src/shared/csv/csvField';
import { readCsv } from '../../support/readCsv';
import type { HistoryEntry } from '../../../src/shared/ipc/areas/outboxHistory';

const text = fc.oneof(
  fc.string(),
  fc.constantFrom('a,b', 'say "hi"', 'one\ntwo', 'crlf\r\nhere', ' padded ', '=1+1', '-3', '@x'),
  fc.array(fc.constantFrom('a', ',', '"', '\n', '\r', ' ', '=', 'é')).map((cs) => cs.join('')),
);

const entry = fc.record({
  id: fc.integer({ min: 1, max: 1e6 }),
  opId: fc.integer({ min: 1, max: 1e6 }),
  portalId: fc.constant('1001'),
  moduleId: fc.constant('2002'),
  recordId: text,
  recordName: fc.option(text),
  module: fc.option(text),
  kind: fc.constantFrom('update', 'create', 'trash', 'comment_add', 'config' as const),
  action: fc.option(text),
  fields: fc.array(fc.record({ field: text, label: text }), { maxLength: 3 }),
  comment: fc.option(text),
  queuedAt: fc.constant('2025-01-02T03:04:05.000Z'),
  sentAt: fc.option(fc.constant('2025-01-02T03:04:06.000Z')),
  answeredAt: fc.constant('2025-01-02T03:04:07.000Z'),
  method: fc.option(fc.constantFrom('PATCH', 'POST', 'GET')),
  path: fc.option(text),
  requestBody: fc.option(text),
  requestLength: fc.nat(),
  status: fc.option(fc.integer({ min: 100, max: 599 })),
  answer: fc.option(text),
  answerLength: fc.nat(),
  requests: fc.nat({ max: 9 }),
  note: fc.option(text),
}) as fc.Arbitrary<HistoryEntry>;

/** What each column should read back as. */
function expected(e: HistoryEntry): string[] {
  const t = (v: string | null) => (v === null ? '' : defuseFormula(v));
  const n = (v: number | null) => (v === null ? '' : String(v));
  return [
    n(e.id),
    t(e.answeredAt),
    t(e.sentAt),
    t(e.queuedAt),
    t(e.portalId),
    t(e.module),
    t(e.recordId),
    t(e.recordName),
    t(e.kind),
    t(e.action),
    t(e.fields.map((f) => f.label).join('; ')),
    t(e.comment),
    t(e.method),
    t(e.path),
    n(e.status),
    t(e.requestBody),
    n(e.requestLength),
    t(e.answer),
    n(e.answerLength),
    n(e.requests),
    t(e.note),
  ];
}

describe('history export', () => {
  it('reads back field for field, whatever the text holds', () => {
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 6 }), (entries) => {
        const csv = historyCsv(entries);
        expect(csv.startsWith('\uFEFF')).toBe(true);
        expect(readCsv(csv.slice(1))).toEqual([CSV_HEADER, ...entries.map(expected)]);
      }),
    );
  });

  it('quotes commas, quotes and line breaks, and defuses formulas', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('one\ntwo')).toBe('"one\ntwo"');
    expect(csvField('=SUM(A1)')).toBe("'=SUM(A1)");
    expect(csvField('-1, then')).toBe(`"'-1, then"`);
    expect(csvField(null)).toBe('');
    expect(csvField(404)).toBe('404');
  });

  it('writes JSON as the entries are, and names the file by the time it was made', () => {
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 4 }), (entries) => {
        expect(JSON.parse(historyJson(entries))).toEqual(JSON.parse(JSON.stringify(entries)));
      }),
    );
    expect(historyFileName('csv', Date.UTC(2025, 0, 31, 10, 4, 5, 678))).toBe(
      'portaldesk-sent-2025-01-31T10-04-05Z.csv',
    );
  });
});
