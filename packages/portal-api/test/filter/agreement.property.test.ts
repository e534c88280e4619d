/**
 * Property: for random catalogs, records, filters and contexts, toSql over better-sqlite3 and
 * evaluate select exactly the same records.
 *
 * Constraints, each a documented limit of the module rather than a way around a disagreement:
 * - text is well-formed UTF-16 without NUL (values.ts refuses anything else in a filter; SQLite
 *   would see U+FFFD for a lone surrogate and its length() stops at NUL);
 * - a JSON custom field holds a JSON scalar, or an array for a multi pick list (json_extract
 *   returns objects and other arrays as JSON text, which a record reader must then return too);
 * - numbers inside JSON are small integers and halves (SQLite parses JSON numbers itself; bound
 *   parameters and column values are exact doubles either way);
 * - a field bound `indexedAsInstant` (`updated`) always holds an instant written
 *   `YYYY-MM-DDTHH:mm:ss.SSSZ`, as the mirror's times do (its ranges compare them as numbers).
 * Unicode case folding needs no constraint: both back ends call the same foldText.
 */
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  compileFilter,
  conditionsFor,
  evaluate,
  FOLD_SQL_FUNCTION,
  foldSqlValue,
  toSql,
  type FieldKind,
  type Filter,
  type FilterContext,
  type FilterCriterion,
  type FilterField,
  type SqlBinding,
} from '@portaldesk/portal-api/filter';
import { parseDate } from '@portaldesk/portal-api/filter/civilDate';
import { startOfDay } from '@portaldesk/portal-api/filter/timeZone';

type Storage = { column: string } | { json: string };

interface TestField extends FilterField {
  storage: Storage;
  /** Bound `indexedAsInstant`: every record holds a canonical instant. */
  instant?: true;
}

const FIELDS: TestField[] = [
  { name: 'name', kind: 'text', storage: { column: 'name' } },
  { name: 'cf_note', kind: 'text', storage: { json: 'cf_note' } },
  { name: 'amount', kind: 'number', storage: { column: 'amount' } },
  { name: 'cf_score', kind: 'number', storage: { json: 'cf_score' } },
  { name: 'due', kind: 'date', storage: { column: 'due' } },
  { name: 'created', kind: 'datetime', storage: { column: 'created' } },
  { name: 'updated', kind: 'datetime', storage: { column: 'updated' }, instant: true },
  { name: 'done', kind: 'boolean', storage: { column: 'done' } },
  { name: 'cf_flag', kind: 'boolean', storage: { json: 'cf_flag' } },
  { name: 'status', kind: 'status', storage: { column: 'status' } },
  { name: 'owner', kind: 'user', storage: { column: 'owner' } },
  { name: 'priority', kind: 'picklist', storage: { column: 'priority' } },
  { name: 'tags', kind: 'multipicklist', storage: { column: 'tags' } },
  { name: 'cf_labels', kind: 'multipicklist', storage: { json: 'cf_labels' } },
  { name: 'name', kind: 'text', module: 'tasklist', storage: { column: 'tl_name' } },
  { name: 'due', kind: 'date', module: 'tasklist', storage: { column: 'tl_due' } },
];
const COLUMNS = FIELDS.flatMap((f) => ('column' in f.storage ? [f.storage.column] : []));
const keyOf = (f: FilterField) => (f.module ? `${f.module}.${f.name}` : f.name);

const BINDINGS: Record<string, SqlBinding> = Object.fromEntries(
  FIELDS.map((f) => {
    const expr =
      'column' in f.storage
        ? `r.${f.storage.column}`
        : `json_extract(r.custom, '$.${f.storage.json}')`;
    return [
      keyOf(f),
      f.kind === 'status'
        ? { expr, closedExpr: '(SELECT st.is_closed FROM statuses st WHERE st.id = r.status)' }
        : f.instant
          ? { expr, indexedAsInstant: true }
          : { expr },
    ];
  }),
);

const WORDS = [
  'Ärger',
  'ärger',
  'A\u0308RGER',
  'İstanbul',
  'istanbul',
  'ISTANBUL',
  'Straße',
  'STRASSE',
  'ΟΔΟΣ',
  'οδός',
  'ﬁle',
  'FILE',
  '50%_off',
  'a_b',
  'a%b',
  "O'Brien",
  '😀 smile',
  'x',
  'xy',
  'Σ',
];
const PICKS = ['High', 'high', 'LOW', 'Ärger', 'ärger', 'İ'];
const USERS = ['u1', 'u2', 'u3', 'u4', 'u5'];
const OPTION_IDS = ['101', '102', '103', '104'];
const STATUS_IDS = ['11', '12', '13'];
const NUMBERS = ['-3', '-0.5', '0', '1', '2', '2.5', '3', '10'];
const DAY_MS = 86_400_000;
const ZONES = ['UTC', 'Asia/Kolkata', 'America/New_York', 'Pacific/Chatham', 'Australia/Lord_Howe'];

const portable = (s: string) => !s.includes('\u0000') && !/\p{Cs}/u.test(s);

/** Everything `g` needs, built from a fast-check generator inside one property run. */
function scenario(g: fc.GeneratorValue) {
  const pick = <T>(items: readonly T[]): T => g(fc.constantFrom, ...items);
  const chance = (p: number) => g(fc.integer, { min: 0, max: 99 }) < p * 100;
  const int = (min: number, max: number) => g(fc.integer, { min, max });

  // A small vocabulary per run, shared by records and filter values, so that conditions often
  // match some records and not others (that is where two back ends could differ).
  const words = g(fc.shuffledSubarray, WORDS, { minLength: 3, maxLength: 5 });
  const now = Date.UTC(2026, 0, 1) + int(0, 364) * DAY_MS + int(0, DAY_MS - 1);
  const timeZone = pick(ZONES);
  const dayText = (offset: number) => new Date(now + offset * DAY_MS).toISOString().slice(0, 10);
  // Mostly near today (presets, equal dates), sometimes a month or more away.
  const recordDate = () => dayText(chance(0.6) ? int(-8, 8) : int(-45, 45));
  const anyText = () => g(fc.string, { unit: 'binary', minLength: 1, maxLength: 6 }).normalize();

  const needle = (): string => {
    if (chance(0.2)) {
      const text = anyText();
      return portable(text) && text !== '' ? text : 'x';
    }
    const chars = Array.from(pick(words));
    const start = int(0, chars.length - 1);
    const text = chars.slice(start, int(start + 1, chars.length)).join('');
    return pick([text, text.toUpperCase(), text.toLowerCase()]);
  };

  // Record values: mostly well typed, some empty, some of the wrong type.
  // The first and last instants four-digit years write, and near them.
  const EDGE_INSTANTS = [
    '0000-01-01T00:00:00.000Z',
    '0000-01-01T00:00:00.001Z',
    '9999-12-31T23:59:59.999Z',
    '9999-12-31T12:00:00.000Z',
  ];
  const recordValue = (field: TestField): unknown => {
    if (field.instant) {
      if (chance(0.1)) return pick(EDGE_INSTANTS);
      const range = chance(0.6) ? 8 * DAY_MS : 45 * DAY_MS;
      // Often the very start of a day near now in the filter's zone: a bound met exactly.
      const at = chance(0.4)
        ? startOfDay(parseDate(dayText(int(-9, 9))) as number, timeZone)
        : now + int(-range, range);
      return new Date(at).toISOString();
    }
    const json = 'json' in field.storage;
    const roll = int(0, 9);
    if (roll === 0) return json && chance(0.5) ? undefined : null;
    if (roll === 1 && field.kind !== 'number' && field.kind !== 'boolean') return '';
    if (roll === 2) {
      // Wrong type for the kind.
      return field.kind === 'number' || field.kind === 'boolean'
        ? pick(['1', '', 'x'])
        : int(-2, 20);
    }
    switch (field.kind) {
      case 'text': {
        const text = chance(0.2) ? anyText() : pick(words);
        return portable(text) ? text : 'y';
      }
      case 'number':
        return json
          ? pick([-2, -0.5, 0, 1, 2.5, 3, 10])
          : pick([-3, -0.5, 0, 1, 2, 2.5, 3, 10, 1e21, -0]);
      case 'date':
        return chance(0.9) ? recordDate() : pick(['2026-1-5', 'soon', '2026-03-05T00:00:00.000Z']);
      case 'datetime': {
        const range = chance(0.6) ? 8 * DAY_MS : 45 * DAY_MS;
        return new Date(now + int(-range, range)).toISOString();
      }
      case 'boolean':
        return json ? pick([true, false, 1, 0]) : pick([0, 1, 2]);
      case 'status':
        return pick([...STATUS_IDS, '99']);
      case 'user':
        return pick(USERS);
      case 'picklist':
        return pick(PICKS);
      case 'multipicklist': {
        const ids = OPTION_IDS.filter(() => chance(0.4));
        if (json) return chance(0.9) ? ids : [...ids, 101];
        return chance(0.85)
          ? JSON.stringify(ids)
          : pick(['[101]', '"101"', '[["101"]]', '["101",', '{"a":"101"}', ' [ "102" ] ']);
      }
    }
  };

  const filterValues = (kind: FieldKind, condition: string, arity: string): string[] => {
    const one = (): string => {
      switch (kind) {
        case 'text':
          return needle();
        case 'picklist': {
          const p = pick(PICKS);
          return pick([p, p.toUpperCase(), p.toLowerCase()]);
        }
        case 'number':
          return pick(NUMBERS);
        case 'date':
        case 'datetime':
          // Now and then the first or last day four-digit years write (a zone's day there ends
          // past year 9999, or starts before year 1).
          return chance(0.05) ? pick(['0001-01-01', '9999-12-31']) : recordDate();
        case 'boolean':
          return pick(['true', 'false', '1', '0']);
        case 'status':
          return condition === 'custom_condition'
            ? pick(['${ALL_OPEN}', '${ALL_CLOSED}'])
            : pick(STATUS_IDS);
        case 'user':
          return pick(USERS);
        case 'multipicklist':
          return pick(OPTION_IDS);
      }
    };
    switch (arity) {
      case 'none':
        return [];
      case 'one':
        return [one()];
      case 'many':
        return Array.from({ length: int(1, 3) }, one);
      default: {
        const pair = [one(), one()];
        const numeric = kind === 'number';
        pair.sort((a, b) => (numeric ? Number(a) - Number(b) : a < b ? -1 : a > b ? 1 : 0));
        return pair;
      }
    }
  };

  const criterion = (): FilterCriterion => {
    const field = pick(FIELDS);
    const condition = pick(conditionsFor(field.kind));
    const value = filterValues(field.kind, condition.name, condition.values);
    return {
      field_name: field.name,
      criteria_condition: condition.name,
      ...(field.module ? { module_name: field.module } : {}),
      ...(value.length > 0 || chance(0.1) ? { value } : {}),
    };
  };

  // A random AND/OR tree using every index at least once, written with random keyword case and
  // random redundant parentheses.
  const pattern = (count: number): string => {
    const leaves = Array.from({ length: count }, (_, i) => String(i + 1));
    for (let i = int(0, 2); i > 0; i -= 1) leaves.push(String(int(1, count)));
    const shuffled = g(fc.shuffledSubarray, leaves, { minLength: leaves.length });
    const build = (items: string[]): string => {
      if (items.length === 1) return chance(0.15) ? `(${items[0]})` : (items[0] as string);
      const split = int(1, items.length - 1);
      const keyword = pick(['AND', 'OR', 'and', 'or', 'And']);
      const text = `${build(items.slice(0, split))} ${keyword} ${build(items.slice(split))}`;
      return chance(0.6) ? `(${text})` : text;
    };
    return build(shuffled);
  };

  const count = int(1, 5);
  const filter: Filter = {
    criteria: Array.from({ length: count }, criterion),
    pattern: pattern(count),
  };
  const statuses = STATUS_IDS.map((id) => ({ id, closed: chance(0.5) }));
  const subset = () => USERS.filter(() => chance(0.4));
  const context: FilterContext = {
    now,
    timeZone,
    ...(chance(0.8) ? { weekStartDay: int(0, 7) } : {}),
    users: {
      deactivated: subset(),
      deleted: subset(),
      teamLeads: subset(),
      pending: subset(),
      accepted: subset(),
      directReports: Object.fromEntries(USERS.map((u) => [u, subset()])),
    },
  };
  const records = Array.from({ length: int(0, 20) }, (_, i) => ({
    id: i + 1,
    values: new Map(FIELDS.map((f) => [keyOf(f), recordValue(f)])),
  }));
  return { filter, context, statuses, records };
}

let db: Database.Database;

beforeAll(() => {
  db = new Database(':memory:');
  db.function(FOLD_SQL_FUNCTION, { deterministic: true }, foldSqlValue);
  // Columns without a declared type have no affinity: values are stored exactly as bound.
  db.exec(`
    CREATE TABLE rec (id INTEGER PRIMARY KEY, ${COLUMNS.join(', ')}, custom);
    CREATE TABLE statuses (id, is_closed);
  `);
});

afterAll(() => db.close());

type Scenario = ReturnType<typeof scenario>;

function load({ statuses, records }: Scenario): void {
  db.transaction(() => {
    db.exec('DELETE FROM rec; DELETE FROM statuses;');
    const status = db.prepare('INSERT INTO statuses VALUES (?, ?)');
    for (const s of statuses) status.run(s.id, s.closed ? 1 : 0);
    const insert = db.prepare(
      `INSERT INTO rec VALUES (${['?', ...COLUMNS.map(() => '?'), '?'].join(', ')})`,
    );
    for (const record of records) {
      const custom: Record<string, unknown> = {};
      const columns: unknown[] = [];
      for (const field of FIELDS) {
        const value = record.values.get(keyOf(field));
        if ('json' in field.storage) {
          if (value !== undefined) custom[field.storage.json] = value;
        } else {
          columns.push(value);
        }
      }
      insert.run(record.id, ...columns, JSON.stringify(custom));
    }
  })();
}

/** Ids one filter selects in SQL and in memory; `mutate` lets a test break the SQL on purpose. */
function bothWays(s: Scenario, filter: Filter, mutate: (sql: string) => string) {
  const compiled = compileFilter(filter, FIELDS, s.context);
  const { sql, params } = toSql(compiled, BINDINGS);
  const fromSql = db
    .prepare(`SELECT r.id FROM rec r WHERE ${mutate(sql)} ORDER BY r.id`)
    .pluck()
    .all(...params) as number[];
  const closed = new Map(s.statuses.map((st) => [st.id, st.closed]));
  const fromJs = s.records
    .filter((record) =>
      evaluate(
        compiled,
        (key) => record.values.get(key),
        (key) => {
          const status = record.values.get(key);
          return typeof status === 'string' && closed.get(status) === true;
        },
      ),
    )
    .map((record) => record.id);
  return { fromSql, fromJs };
}

/**
 * The whole filter, and each criterion on its own: in a combination one criterion's difference
 * is often hidden by another (AND with an empty set), alone it shows.
 */
const agreement = (mutate: (sql: string) => string = (sql) => sql) =>
  fc.property(fc.gen(), (g) => {
    const s = scenario(g);
    load(s);
    const single = s.filter.criteria.map((criterion) => ({ criteria: [criterion], pattern: '1' }));
    for (const filter of [s.filter, ...single]) {
      const { fromSql, fromJs } = bothWays(s, filter, mutate);
      expect({ filter, ids: fromSql }).toEqual({ filter, ids: fromJs });
    }
  });

describe('toSql and evaluate agree', () => {
  it('on random catalogs, records, filters and contexts', () => {
    fc.assert(agreement(), { numRuns: 400 });
  });

  it('and the property notices when one back end is broken', () => {
    const mutations: Record<string, (sql: string) => string> = {
      'negation without COALESCE': (sql) => sql.replaceAll('NOT COALESCE(', 'NOT ('),
      'inclusive bounds made exclusive': (sql) => sql.replaceAll(' <= ?', ' < ?'),
      'empty text not excluded from ranges': (sql) => sql.replaceAll(" <> ''", ' IS NOT NULL'),
      'ASCII-only case folding': (sql) => sql.replaceAll(`${FOLD_SQL_FUNCTION}(`, 'lower('),
    };
    for (const [name, mutate] of Object.entries(mutations)) {
      const result = fc.check(agreement(mutate), {
        numRuns: 400,
        seed: 20260305,
        endOnFailure: true,
      });
      expect([name, result.failed]).toEqual([name, true]);
    }
  });
});
