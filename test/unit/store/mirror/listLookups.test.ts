/**
 * The list lookups of migrations/0017_list_lookups.sql, held against independent readings:
 * - record_multi_values equals the text items of the listed server copies' arrays, read in
 *   JavaScript from the rows, after every kind of write the app makes to `records`;
 * - the name trigrams find exactly the names that hold a needle of three or more characters
 *   (what the filter's instr and the evaluator's `includes` find), for any characters;
 * - the lists use them: a name's `contains` and a multi-select's "includes" are counted without
 *   reading the module's rows, and a sparse one reads only its few rows.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { foldText } from '@portaldesk/portal-api/filter';
import type Database from 'better-sqlite3';
import { trigramNeedle } from '../../../../src/main/store/mirror/filterLookup';
import { trigramMatch } from '../../../../src/main/store/mirror/listLookups';
import type { Mirror } from '../../../../src/main/store/mirror/mirror';
import type { MirrorRecord } from '../../../../src/main/store/mirror/mirrorTypes';
import { RecordQuery } from '../../../../src/main/store/mirror/recordQuery';
import { makeRecord, mirroredPortal, MODULE, PORTAL } from './fixture';
import { preparedDuring } from './preparedDuring';

interface Row {
  row_key: number;
  module_key: number;
  list_state: number;
  custom: string;
}

/** The table as the migration defines it, read from the rows in JavaScript. */
function expectedMultiValues(db: Database.Database): string[] {
  const rows = db
    .prepare('SELECT row_key, module_key, list_state, custom FROM records')
    .all() as Row[];
  const items = new Set<string>();
  for (const row of rows) {
    if (row.list_state !== 0) continue;
    for (const [field, value] of Object.entries(
      JSON.parse(row.custom) as Record<string, unknown>,
    )) {
      if (!Array.isArray(value)) continue;
      for (const item of value) {
        if (typeof item === 'string') {
          items.add(JSON.stringify([row.module_key, field, item, row.row_key]));
        }
      }
    }
  }
  return [...items].sort();
}

function storedMultiValues(db: Database.Database): string[] {
  return (
    db
      .prepare('SELECT module_key, field, value, row_key FROM record_multi_values')
      .raw()
      .all() as unknown[][]
  )
    .map((row) => JSON.stringify(row))
    .sort();
}

const tagged = (record: MirrorRecord, tags: unknown, at: string): MirrorRecord => ({
  ...record,
  custom: { ...record.custom, cf_tags: tags },
  lastUpdatedTime: at,
});

describe('record_multi_values', () => {
  it('holds the text items of every listed server copy, after every kind of write', () => {
    const { store, mirror } = mirroredPortal();
    const db = store.db;
    const agree = (after: string) =>
      expect({ after, rows: storedMultiValues(db) }).toEqual({
        after,
        rows: expectedMultiValues(db),
      });
    const records = Array.from({ length: 40 }, (_, i) => makeRecord(i, 9));
    // A page holding a record twice (a list that shifted between two pages).
    mirror.records.upsertRecords([
      ...records,
      tagged(records[3]!, ['Leased'], '2027-01-01T00:00:00.000Z'),
    ]);
    agree('a pull');
    expect(storedMultiValues(db).length).toBeGreaterThan(20);

    const later = '2027-02-01T00:00:00.000Z';
    mirror.records.upsertRecords([
      tagged(records[0]!, ['Critical', 'Critical', 'Obsolete', 3, null, { zpuid: '5001' }], later),
      tagged(records[1]!, [], later),
      tagged(records[2]!, null, later),
      { ...records[4]!, lastUpdatedTime: later, trashedTime: later },
    ]);
    agree('changed, emptied and trashed copies');
    mirror.records.upsertRecords([{ ...records[4]!, lastUpdatedTime: '2027-03-01T00:00:00.000Z' }]);
    agree('a copy back from the bin');

    const edit = db.prepare(
      `INSERT INTO record_edits (portal_id, record_id, field, value, edited_at)
       VALUES (?, ?, 'name', '"x"', '2027-01-01T00:00:00.000Z')`,
    );
    edit.run(PORTAL, records[5]!.id);
    agree('a pending edit');
    // A record pulled again while its edit is pending stays edited (markEdited).
    mirror.records.deleteRecords(PORTAL, [records[5]!.id]);
    mirror.records.upsertRecords([records[5]!]);
    agree('a record pulled again under its pending edit');
    db.prepare('DELETE FROM record_edits WHERE record_id = ?').run(records[5]!.id);
    agree('the edit reverted');

    mirror.localEdits.setTrashed(PORTAL, records[6]!.id, later);
    agree('trashed offline');
    mirror.localEdits.setTrashed(PORTAL, records[6]!.id, null);
    agree('restored offline');

    const moduleKey = mirror.metadata.moduleKey(PORTAL, MODULE)!;
    const values = (tags: string[]) => ({
      name: 'Made offline',
      description: '',
      statusId: null,
      isClosed: false,
      isExternal: false,
      custom: { cf_tags: tags },
    });
    mirror.localEdits.insertLocalRecord(
      PORTAL,
      moduleKey,
      'local-1',
      null,
      values(['Critical']),
      later,
    );
    agree('a record created offline');
    mirror.localEdits.updateLocalRecord(PORTAL, 'local-1', values(['Leased', 'Warranty']), later);
    agree('a record created offline, changed');
    mirror.localEdits.deleteLocalRecord(PORTAL, 'local-1');
    agree('a record created offline, deleted');

    mirror.records.relabelOptions(
      PORTAL,
      MODULE,
      { apiName: 'cf_tags', multi: true },
      new Map([['Leased', 'Rented']]),
    );
    agree('an option renamed');
    mirror.records.relabelOptions(
      PORTAL,
      MODULE,
      { apiName: 'cf_tags', multi: true },
      new Map([['Critical', null]]),
    );
    agree('an option removed');
    expect(mirror.records.clearFieldValues(PORTAL, MODULE, 'cf_tags')).toBeGreaterThan(0);
    agree('a field deleted');

    mirror.localEdits.deleteServerCopy(PORTAL, records[7]!.id);
    mirror.records.deleteRecords(PORTAL, [records[8]!.id]);
    mirror.records.deleteRecordsNotIn(
      PORTAL,
      MODULE,
      records.slice(10).map((r) => r.id),
    );
    agree('deletions and a reconciliation');

    mirror.metadata.replaceModules(PORTAL, []);
    agree("the module's removal");
    expect(storedMultiValues(db)).toEqual([]);
  });
});

describe('the name trigrams', () => {
  // Names and needles with what the filter SQL must take literally or count by code point.
  const piece = fc.constantFrom(
    '%',
    '_',
    '"',
    "'",
    'ß',
    'SS',
    'ﬁ',
    'Σ',
    'ς',
    'İ',
    'i̇',
    '🙂',
    '東京',
    ' ',
    'a',
    'B',
    '\\',
    '*',
  );
  const text = fc.oneof(
    fc.string({ unit: 'grapheme', maxLength: 10 }),
    fc.array(piece, { maxLength: 8 }).map((parts) => parts.join('')),
  );

  it('find exactly the names that hold a needle, as the filter and the evaluator read them', () => {
    const { store, mirror } = mirroredPortal();
    let serial = 0;
    fc.assert(
      fc.property(
        fc.array(text, { minLength: 1, maxLength: 12 }),
        fc.array(fc.oneof(text, fc.nat()), { minLength: 1, maxLength: 3 }),
        (names, asked) => {
          store.db.prepare('DELETE FROM records').run();
          const records = names.map((name) => ({ ...makeRecord(serial++, 4), name }));
          mirror.records.upsertRecords(records);
          mirror.fullText.flush();
          // A needle is a folded filter value: some are pieces of the names.
          const needles = asked
            .map((a) =>
              typeof a === 'number'
                ? Array.from(names[a % names.length]!)
                    .slice(a % 3)
                    .join('')
                : a,
            )
            .map(foldText)
            .filter(trigramNeedle);
          fc.pre(needles.length > 0);
          const found = (
            store.db
              .prepare(
                'SELECT r.id FROM record_name_trigrams t JOIN records r ON r.row_key = t.rowid WHERE record_name_trigrams MATCH ?',
              )
              .pluck()
              .all(trigramMatch(needles)) as string[]
          ).sort();
          const byInstr = (
            store.db
              .prepare(
                `SELECT id FROM records WHERE ${needles.map(() => 'instr(name_fold, ?) > 0').join(' OR ')}`,
              )
              .pluck()
              .all(...needles) as string[]
          ).sort();
          const byEvaluator = records
            .filter((r) => needles.some((needle) => foldText(r.name).includes(needle)))
            .map((r) => r.id)
            .sort();
          expect({ names, needles, found }).toEqual({ names, needles, found: byInstr });
          expect(found).toEqual(byEvaluator);
        },
      ),
      { numRuns: 150 },
    );
  });
});

/** The SQL texts a fresh RecordQuery prepares for one list (every statement is new to it). */
function preparedFor(mirror: Mirror, db: Database.Database, filter: object): string[] {
  const fresh = new RecordQuery(db, mirror.metadata);
  return preparedDuring(db, () =>
    fresh.queryRecords({
      portalId: PORTAL,
      moduleId: MODULE,
      offset: 0,
      limit: 50,
      filter: JSON.stringify(filter),
    }),
  );
}

describe('lists with a lookup', () => {
  const filter = (field: string, condition: string, value: string) => ({
    criteria: [{ field_name: field, criteria_condition: condition, value: [value] }],
    pattern: '1',
  });
  /** A statement that reads every listed row of the module to test a condition (not a bare count). */
  const moduleScan = (sql: string) =>
    /^SELECT count\(\*\) FROM records r WHERE r\.module_key = \? AND r\.list_state = 0 AND \+r\.module_key = \d+ AND /.test(
      sql,
    );

  it("count a name's contains from the trigrams and the rows waiting for them, never the module's names", () => {
    const { store, mirror } = mirroredPortal();
    const records = Array.from({ length: 300 }, (_, i) => makeRecord(i, 5));
    mirror.records.upsertRecords(records);
    const ask = filter('name', 'contains', 'thinkp');
    const total = () =>
      mirror.query.queryRecords({
        portalId: PORTAL,
        moduleId: MODULE,
        offset: 0,
        limit: 10,
        filter: JSON.stringify(ask),
      }).total;
    const expected = () => records.filter((r) => foldText(r.name).includes('thinkp')).length;
    const check = (when: string) => {
      const prepared = preparedFor(mirror, store.db, ask);
      expect({ when, scans: prepared.some(moduleScan) }).toEqual({ when, scans: false });
      expect({ when, total: total() }).toEqual({ when, total: expected() });
    };
    check('every row waiting for the flush');
    mirror.fullText.flush();
    expect(expected()).toBeGreaterThan(10);
    check('every row in the trigrams');
    // Renamed on the server: queued, still in the trigrams with their old names.
    const later = '2027-01-01T00:00:00.000Z';
    const renamed = records.slice(0, 40).map((r, i) => ({
      ...r,
      name: i % 2 === 0 ? `Renamed ${i}` : `Lenovo ThinkPad again ${i}`,
      lastUpdatedTime: later,
    }));
    mirror.records.upsertRecords(renamed);
    records.splice(0, 40, ...renamed);
    mirror.records.deleteRecords(PORTAL, [records[50]!.id, records[51]!.id]);
    records.splice(50, 2);
    check('renamed and deleted rows waiting');
    mirror.fullText.flush();
    check('renamed and deleted rows flushed');
    // Only descriptions changed: queued, and their names stay in the trigrams as they are.
    const described = records.slice(60, 90).map((r) => ({
      ...r,
      description: 'Described again',
      lastUpdatedTime: '2027-02-01T00:00:00.000Z',
    }));
    mirror.records.upsertRecords(described);
    records.splice(60, 30, ...described);
    check('descriptions changed, waiting');
    mirror.fullText.flush();
    check('descriptions changed, flushed');
    // A needle of two characters has no trigram: read from the names.
    expect(preparedFor(mirror, store.db, filter('name', 'contains', 'th')).some(moduleScan)).toBe(
      true,
    );
  });

  it("count a multi-select's includes from its option's rows", () => {
    const { store, mirror } = mirroredPortal();
    mirror.records.upsertRecords(Array.from({ length: 300 }, (_, i) => makeRecord(i, 5)));
    const prepared = preparedFor(mirror, store.db, filter('cf_tags', 'is', '3001'));
    expect(prepared.some(moduleScan)).toBe(false);
    expect(
      prepared.some((sql) => sql.includes('FROM record_multi_values WHERE module_key = ?')),
    ).toBe(true);
  });
});
