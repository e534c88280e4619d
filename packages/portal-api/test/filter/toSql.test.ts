import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  compileFilter,
  evaluate,
  FOLD_SQL_FUNCTION,
  foldSqlValue,
  foldText,
  toSql,
  type FilterCriterion,
  type SqlBinding,
} from '@portaldesk/portal-api/filter';
import { c, FIELDS, filterOf } from './fixtures';

const CONTEXT = { now: Date.parse('2026-03-05T10:00:00Z'), timeZone: 'UTC' };

const BINDINGS: Record<string, SqlBinding> = {
  name: { expr: 'r.name' },
  cf_budget: { expr: "json_extract(r.custom, '$.cf_budget')" },
  status: { expr: 'r.status', closedExpr: 's.is_closed' },
  tag: { expr: "json_extract(r.custom, '$.tag')" },
};

interface Row {
  id: number;
  name: string | null;
  custom: Record<string, unknown>;
  status: string | null;
}

const ROWS: Row[] = [
  { id: 1, name: 'Großer Ärger', custom: { cf_budget: 10, tag: ['101'] }, status: '1' },
  { id: 2, name: 'ÄRGERLICH', custom: { cf_budget: 2.5 }, status: '2' },
  { id: 3, name: '50% off', custom: { cf_budget: '10', tag: ['102', '101'] }, status: null },
  { id: 4, name: '50 percent off', custom: { tag: [] }, status: '2' },
  { id: 5, name: 'a_b', custom: {}, status: '1' },
  { id: 6, name: 'axb', custom: {}, status: '1' },
  { id: 7, name: 'STRASSE', custom: {}, status: '1' },
  { id: 8, name: 'Straße', custom: {}, status: '1' },
  { id: 9, name: 'İstanbul', custom: {}, status: '1' },
  { id: 10, name: null, custom: { cf_budget: null }, status: '1' },
  { id: 11, name: '', custom: {}, status: '1' },
  { id: 12, name: 'O\'Brien"s', custom: {}, status: '1' },
];
const CLOSED_STATUS = new Set(['2']);

let db: Database.Database;

beforeAll(() => {
  db = new Database(':memory:');
  db.function(FOLD_SQL_FUNCTION, { deterministic: true }, foldSqlValue);
  db.exec(`
    CREATE TABLE r (id INTEGER PRIMARY KEY, name, custom, status);
    CREATE TABLE statuses (id TEXT PRIMARY KEY, is_closed INTEGER NOT NULL);
    INSERT INTO statuses VALUES ('1', 0), ('2', 1);
  `);
  const insert = db.prepare('INSERT INTO r VALUES (?, ?, ?, ?)');
  for (const row of ROWS) insert.run(row.id, row.name, JSON.stringify(row.custom), row.status);
});

afterAll(() => db.close());

function compile(criteria: FilterCriterion[], pattern?: string) {
  return compileFilter(filterOf(criteria, pattern), FIELDS, CONTEXT);
}

/** Ids matched by SQL, after checking the evaluator agrees. */
function sqlIds(criteria: FilterCriterion[], pattern?: string): number[] {
  const compiled = compile(criteria, pattern);
  const { sql, params } = toSql(compiled, BINDINGS);
  const ids = db
    .prepare(
      `SELECT r.id FROM r LEFT JOIN statuses s ON s.id = r.status WHERE ${sql} ORDER BY r.id`,
    )
    .pluck()
    .all(...params) as number[];
  const evaluated = ROWS.filter((row) =>
    evaluate(
      compiled,
      (key) => (key === 'name' ? row.name : key === 'status' ? row.status : row.custom[key]),
      () => row.status !== null && CLOSED_STATUS.has(row.status),
    ),
  ).map((row) => row.id);
  expect(ids).toEqual(evaluated);
  return ids;
}

describe('toSql', () => {
  it('writes a plain expression with bound parameters', () => {
    expect(toSql(compile([c('name', 'contains', 'Foo')]), BINDINGS)).toEqual({
      sql: `(instr(${FOLD_SQL_FUNCTION}((r.name)), ?) > 0)`,
      params: ['foo'],
    });
    expect(toSql(compile([c('name', 'is_empty'), c('status', 'all_closed')], '1 OR 2'), BINDINGS))
      .toMatchInlineSnapshot(`
      {
        "params": [],
        "sql": "(((r.name) IS NULL OR (r.name) = '') OR ((s.is_closed) = 1))",
      }
    `);
  });

  it('keeps an injection attempt a parameter', () => {
    const attack = "x') OR 1=1; DROP TABLE r; --";
    const compiled = compile([c('name', 'is', attack), c('name', 'contains', attack)], '1 OR 2');
    const { sql, params } = toSql(compiled, BINDINGS);
    expect(sql).not.toContain('DROP');
    expect(sql).not.toContain("'x");
    expect(params).toEqual([foldText(attack), foldText(attack)]);
    expect(sqlIds([c('name', 'is', attack)])).toEqual([]);
    expect(db.prepare('SELECT count(*) FROM r').pluck().get()).toBe(ROWS.length);
    expect(sqlIds([c('name', 'contains', 'O\'Brien"')])).toEqual([12]);
  });

  it('treats % and _ as literal characters', () => {
    expect(sqlIds([c('name', 'contains', '%')])).toEqual([3]);
    expect(sqlIds([c('name', 'starts_with', '50%')])).toEqual([3]);
    expect(sqlIds([c('name', 'contains', '_')])).toEqual([5]);
    expect(sqlIds([c('name', 'ends_with', '_b')])).toEqual([5]);
  });

  it('folds case beyond ASCII, alike in SQL and JavaScript', () => {
    expect(sqlIds([c('name', 'contains', 'ärger')])).toEqual([1, 2]);
    expect(sqlIds([c('name', 'starts_with', 'ÄrG')])).toEqual([2]);
    expect(sqlIds([c('name', 'is', 'strasse')])).toEqual([7, 8]);
    expect(sqlIds([c('name', 'ends_with', 'SSE')])).toEqual([7, 8]);
    // Default (not Turkish) case rules: İ folds to i + U+0307.
    expect(sqlIds([c('name', 'contains', 'stanbul')])).toEqual([9]);
    expect(sqlIds([c('name', 'is', 'İSTANBUL')])).toEqual([9]);
    expect(sqlIds([c('name', 'is', 'istanbul')])).toEqual([]);
  });

  it('reads custom fields through json_extract, types checked', () => {
    // Row 3 stores the budget as the text "10": not a number, so it does not match.
    expect(sqlIds([c('cf_budget', 'is', '10')])).toEqual([1]);
    expect(sqlIds([c('cf_budget', 'greater_than_or_equal', '2.5')])).toEqual([1, 2]);
    expect(sqlIds([c('cf_budget', 'is_not', '10')])).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(sqlIds([c('cf_budget', 'is_empty')])).toEqual([4, 5, 6, 7, 8, 9, 10, 11, 12]);
  });

  it('reads multi pick lists with json_each', () => {
    expect(sqlIds([c('tag', 'is', '101')])).toEqual([1, 3]);
    expect(sqlIds([c('tag', 'is_not', '102')])).toEqual([1, 2, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(sqlIds([c('tag', 'is_not_empty')])).toEqual([1, 3]);
  });

  it("tests a multi pick list's JSON text for each option id before parsing it", () => {
    const plain = toSql(compile([c('tag', 'is', '101', '102')]), BINDINGS);
    expect(plain.sql).toMatch(/^\(\(instr\(.+, \?\) > 0 OR instr\(.+, \?\) > 0\) AND EXISTS/);
    // Its parameters first, as in the text: each value in quotes, then the list's.
    expect(plain.params).toEqual(['"101"', '"102"', '101', '102']);
    // "101" inside another value's text, or in an object, is not an element equal to 101.
    db.prepare('INSERT INTO r VALUES (?, ?, ?, ?)').run(
      99,
      'x',
      JSON.stringify({ tag: ['x"101"', { id: '101' }] }),
      '1',
    );
    try {
      expect(sqlIds([c('tag', 'is', '101')])).toEqual([1, 3]);
    } finally {
      db.prepare('DELETE FROM r WHERE id = 99').run();
    }
  });

  it('status presets use closedExpr', () => {
    expect(sqlIds([c('status', 'all_closed')])).toEqual([2, 4]);
    expect(sqlIds([c('status', 'custom_condition', '${ALL_OPEN}')])).toEqual([
      1, 3, 5, 6, 7, 8, 9, 10, 11, 12,
    ]);
    expect(sqlIds([c('status', 'all_open'), c('name', 'contains', 'off')], '1 AND 2')).toEqual([3]);
  });

  it('binds long value lists as one JSON array', () => {
    const values = Array.from({ length: 40 }, (_, i) => `n${i}`).concat(['axb', 'Straße']);
    const { sql, params } = toSql(compile([c('name', 'is', ...values)]), BINDINGS);
    expect(sql).toContain('json_each(?)');
    expect(params).toHaveLength(1);
    expect(sqlIds([c('name', 'is', ...values)])).toEqual([6, 7, 8]);
    expect(
      sqlIds([c('tag', 'is', ...Array.from({ length: 30 }, (_, i) => String(90 + i)))]),
    ).toEqual([1, 3]);
  });

  it('refuses to translate without the bindings it needs', () => {
    expect(() =>
      toSql(compile([c('owner', 'is', 'u1'), c('due_date', 'today')]), BINDINGS),
    ).toThrow('Cannot translate the filter to SQL: no SQL binding for owner, due_date');
    expect(() =>
      toSql(compile([c('status', 'all_open')]), { status: { expr: 'r.status' } }),
    ).toThrow('Cannot translate the filter to SQL: no closedExpr for status field status');
    // A status field compared by id needs no closedExpr.
    expect(
      toSql(compile([c('status', 'is', '1')]), { status: { expr: 'r.status' } }).params,
    ).toEqual(['1']);
  });
});

describe('toSql, a field indexed as instants', () => {
  const at: SqlBinding = { expr: 'r.at', indexedAsInstant: true };
  const range = (min?: string, max?: string) => ({
    root: {
      op: 'range' as const,
      field: 'at',
      type: 'text' as const,
      ...(min === undefined ? {} : { min: { value: min, inclusive: true } }),
      ...(max === undefined ? {} : { max: { value: max, inclusive: false } }),
    },
    fields: { at: 'datetime' as const },
    closedFields: [],
  });

  it('compares the instants as numbers, the expression an index holds', () => {
    const { sql, params } = toSql(range('2026-03-01T00:00:00.000Z', '2026-03-02T00:00:00.000Z'), {
      at,
    });
    expect(sql).toBe(
      "(unixepoch(r.at, 'subsec') >= unixepoch(?, 'subsec') AND unixepoch(r.at, 'subsec') < unixepoch(?, 'subsec'))",
    );
    expect(params).toEqual(['2026-03-01T00:00:00.000Z', '2026-03-02T00:00:00.000Z']);
  });

  it('keeps the text comparison when a bound is not an instant written that way', () => {
    const { sql } = toSql(range('2026-03-01T00:00:00Z', '2026-03-02T00:00:00.000Z'), { at });
    expect(sql).toBe("(typeof((r.at)) = 'text' AND (r.at) <> '' AND (r.at) >= ? AND (r.at) < ?)");
  });

  it('without bounds, matches every time', () => {
    const { sql, params } = toSql(range(), { at });
    expect(sql).toBe("(unixepoch(r.at, 'subsec') IS NOT NULL)");
    expect(params).toEqual([]);
    const db = new Database(':memory:');
    db.exec("CREATE TABLE r (at TEXT); INSERT INTO r VALUES ('2026-03-01T00:00:00.000Z'), ('');");
    expect(db.prepare(`SELECT count(*) FROM r WHERE ${sql}`).pluck().get()).toBe(1);
    db.close();
  });
});
