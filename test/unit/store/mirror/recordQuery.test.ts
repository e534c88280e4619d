import { beforeAll, describe, expect, it } from 'vitest';
import {
  NATURAL_SORT_SQL_FUNCTION,
  naturalCompare,
  naturalSortSqlValue,
} from '@portaldesk/portal-api/domain/naturalOrder';
import {
  compileFilter,
  evaluate,
  foldText,
  parseFilter,
  type FilterCriterion,
} from '@portaldesk/portal-api/filter';
import type { Mirror } from '../../../../src/main/store/mirror/mirror';
import type { MirrorRecord } from '../../../../src/main/store/mirror/mirrorTypes';
import { filterFacts } from './filterFacts';
import { recordFilterSetup } from '../../../../src/main/store/mirror/recordFilterSetup';
import { RecordQueryError } from '../../../../src/main/store/mirror/recordQueryError';
import type { Store } from '../../../../src/main/store/store';
import {
  FIELDS,
  makeRecord,
  mirroredPortal,
  MODULE,
  NOW,
  PORTAL,
  STATUSES,
  TAGS,
  USERS,
} from './fixture';

const COUNT = 600;
const RECORDS: MirrorRecord[] = Array.from({ length: COUNT }, (_, i) => makeRecord(i));
const TAG_IDS = new Map(Object.entries(TAGS).map(([id, name]) => [name, id]));
const CLOSED = new Set(STATUSES.filter((s) => s.isClosedType).map((s) => s.id));

/** The filter language's view of a record (option ids, zpuids), as the API's filters see it. */
const semantic = (record: MirrorRecord, key: string): unknown =>
  filterFacts(record, {
    closedIds: CLOSED,
    typeOf: (apiName) => FIELDS.find((f) => f.apiName === apiName && !f.isDefault)?.fieldType,
    optionId: (name) => TAG_IDS.get(name),
  })(key);

const setup = recordFilterSetup(FIELDS, STATUSES, []);
const CONTEXT = { now: NOW, timeZone: 'Asia/Kolkata', weekStartDay: 1, users: {} };

/** The ids `evaluate` selects for the filter, in id order. */
function expected(criteria: FilterCriterion[], pattern: string, rows = RECORDS): string[] {
  const parsed = parseFilter({ criteria, pattern });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  const compiled = compileFilter(parsed.filter, setup.fields, CONTEXT);
  return rows
    .filter((r) =>
      evaluate(
        compiled,
        (key) => semantic(r, key),
        () => r.statusId !== null && CLOSED.has(r.statusId),
      ),
    )
    .map((r) => r.id)
    .sort();
}

let mirror: Mirror;
let store: Store;

function list(
  filter?: object,
  sort?: { field: string; descending: boolean },
  offset = 0,
  limit = 1000,
) {
  return mirror.query.queryRecords({
    portalId: PORTAL,
    moduleId: MODULE,
    ...(filter ? { filter: JSON.stringify(filter) } : {}),
    ...(sort ? { sort } : {}),
    offset,
    limit,
  });
}

beforeAll(() => {
  ({ mirror, store } = mirroredPortal({ forFile: true }));
  mirror.records.upsertRecords(RECORDS);
});

const c = (field_name: string, criteria_condition: string, value?: string[]): FilterCriterion => ({
  field_name,
  criteria_condition,
  ...(value ? { value } : {}),
});

const CASES: [string, FilterCriterion[], string][] = [
  ['status is one of two', [c('status', 'is', ['2001', '2002'])], '1'],
  ['status preset: all closed', [c('status', 'all_closed')], '1'],
  ['status preset: all open', [c('status', 'custom_condition', ['${ALL_OPEN}'])], '1'],
  ['name contains, case and umlauts folded', [c('name', 'contains', ['ärger'])], '1'],
  ['name contains ß as ss', [c('name', 'contains', ['STRASSE'])], '1'],
  [
    'name starts with / ends with',
    [c('name', 'starts_with', ['dell']), c('name', 'ends_with', ['#7'])],
    '1 OR 2',
  ],
  [
    'name is (exact, folded)',
    [c('name', 'is', [RECORDS[3]!.name.toUpperCase(), RECORDS[10]!.name.toLowerCase()])],
    '1',
  ],
  ['name does not contain', [c('name', 'not_contains', ['laptop'])], '1'],
  ['description contains (fold function)', [c('description', 'contains', ['münchen'])], '1'],
  ['description is empty', [c('description', 'is_empty')], '1'],
  ['multi-select by option id', [c('cf_tags', 'is', ['3001'])], '1'],
  ['multi-select is not', [c('cf_tags', 'is_not', ['3002', '3003'])], '1'],
  ['multi-select is empty', [c('cf_tags', 'is_empty')], '1'],
  ['unknown option id matches nothing', [c('cf_tags', 'is', ['3404'])], '1'],
  ['multi-user holds a user', [c('cf_watchers', 'is', ['5002'])], '1'],
  ['multi-user is empty', [c('cf_watchers', 'is_empty')], '1'],
  ['multi-user is not', [c('cf_watchers', 'is_not', ['5001', '5004'])], '1'],
  ['user pick list', [c('cf_custodian', 'is', ['5001'])], '1'],
  ['owner is not', [c('owner', 'is_not', ['5003'])], '1'],
  ['pick list', [c('cf_category', 'is', ['hardware', 'Network'])], '1'],
  ['currency by amount', [c('cf_cost', 'between', ['1000', '2500'])], '1'],
  ['number', [c('cf_quantity', 'greater_than', ['5'])], '1'],
  ['number is empty', [c('cf_quantity', 'is_empty')], '1'],
  ['check box', [c('cf_insured', 'is', ['true'])], '1'],
  ['closed flag from the status', [c('is_closed', 'is', ['false'])], '1'],
  ['date preset in the portal time zone', [c('cf_purchase', 'this_month')], '1'],
  ['date-time preset', [c('cf_audit', 'last_week')], '1'],
  ['date-time overdue', [c('cf_audit', 'overdue')], '1'],
  ['created after a day', [c('created_time', 'greater_than_or_equal', ['2025-12-01'])], '1'],
  [
    'a pattern over several kinds',
    [
      c('status', 'all_open'),
      c('name', 'contains', ['laptop']),
      c('cf_tags', 'is', ['3003']),
      c('cf_quantity', 'less_than', ['3']),
    ],
    '(1 AND 2) OR (3 AND 4)',
  ],
];

describe('local filters agree with the filter language on the same data', () => {
  it.each(CASES)('%s', (_, criteria, pattern) => {
    const want = expected(criteria, pattern);
    const { rows, total } = list({ criteria, pattern });
    expect(total).toBe(want.length);
    expect(rows.map((r) => r.id).sort()).toEqual(want);
  });

  it('the cases are not trivial: each selects some records and not all', () => {
    for (const [name, criteria, pattern] of CASES) {
      const n = expected(criteria, pattern).length;
      if (name.includes('nothing')) expect(n).toBe(0);
      else expect({ name, some: n > 0 && n < COUNT }).toEqual({ name, some: true });
    }
  });
});

/** The names are `<word> #<serial>`: '#148' before '#1014' (issue 19). */
function byName(a: MirrorRecord, b: MirrorRecord): number {
  return naturalCompare(a.name, b.name) || (a.id < b.id ? -1 : 1);
}

describe('speed on large modules', () => {
  it('compares names through their folded column, never calling the fold function per row', () => {
    let calls = 0;
    store.db.function('pd_fold', { deterministic: true }, (value: unknown) => {
      calls++;
      return typeof value === 'string' ? foldText(value) : null;
    });
    try {
      list(
        { criteria: [c('name', 'contains', ['laptop'])], pattern: '1' },
        { field: 'name', descending: false },
      );
      expect(calls).toBe(0);
      list({ criteria: [c('description', 'contains', ['vendor'])], pattern: '1' });
      expect(calls).toBeGreaterThan(0);
    } finally {
      store.db.function('pd_fold', { deterministic: true }, (value: unknown) =>
        typeof value === 'string' ? foldText(value) : null,
      );
    }
  });

  it('sorts names by their stored key, never calling the natural-order function per row', () => {
    let calls = 0;
    store.db.function(NATURAL_SORT_SQL_FUNCTION, { deterministic: true }, (value: unknown) => {
      calls++;
      return naturalSortSqlValue(value);
    });
    try {
      for (const descending of [false, true]) {
        list(undefined, { field: 'name', descending }, 0, 50);
        list(undefined, { field: 'name', descending }, COUNT - 50, 50);
      }
      expect(calls).toBe(0);
      list(undefined, { field: 'description', descending: false }, 0, 50);
      expect(calls).toBeGreaterThan(0);
    } finally {
      store.db.function(NATURAL_SORT_SQL_FUNCTION, { deterministic: true }, naturalSortSqlValue);
    }
  });
});

describe('sorted windows', () => {
  it('pages through the name order, each window the slice of the whole order', () => {
    const want = [...RECORDS].sort(byName).map((r) => r.id);
    const seen: string[] = [];
    for (let offset = 0; offset < COUNT; offset += 70) {
      const { rows, total } = list(undefined, { field: 'name', descending: false }, offset, 70);
      expect(total).toBe(COUNT);
      seen.push(...rows.map((r) => r.id));
    }
    expect(seen).toEqual(want);
    const last = list(undefined, { field: 'name', descending: true }, 0, 5).rows.map((r) => r.id);
    expect(last).toEqual([...want].reverse().slice(0, 5));
  });

  it('sorts by a custom number with empty values last in both directions, ties by id', () => {
    const quantity = (r: MirrorRecord) => r.custom.cf_quantity as number | undefined;
    const order = (descending: boolean) =>
      [...RECORDS]
        .sort((a, b) => {
          const [x, y] = [quantity(a), quantity(b)];
          if (x === undefined || y === undefined) {
            if (x === y) return descending ? (a.id < b.id ? 1 : -1) : a.id < b.id ? -1 : 1;
            return x === undefined ? 1 : -1;
          }
          if (x !== y) return descending ? y - x : x - y;
          return descending ? (a.id < b.id ? 1 : -1) : a.id < b.id ? -1 : 1;
        })
        .map((r) => r.id);
    for (const descending of [false, true]) {
      const { rows } = list(undefined, { field: 'cf_quantity', descending });
      expect(rows.map((r) => r.id)).toEqual(order(descending).slice(0, 1000));
    }
  });

  it('sorts statuses in workflow order and filters and sorts together', () => {
    const position = new Map(STATUSES.map((s) => [s.id, s.position]));
    const filter = { criteria: [c('name', 'contains', ['#1'])], pattern: '1' };
    const want = RECORDS.filter((r) => r.name.includes('#1'))
      .sort((a, b) => {
        const d = (position.get(b.statusId!) ?? 0) - (position.get(a.statusId!) ?? 0);
        return d !== 0 ? d : a.id < b.id ? 1 : -1;
      })
      .map((r) => r.id);
    const { rows, total } = list(filter, { field: 'status', descending: true }, 10, 30);
    expect(total).toBe(want.length);
    expect(rows.map((r) => r.id)).toEqual(want.slice(10, 40));
  });

  it('shows rows the way the UI needs them', () => {
    const record = RECORDS[3]!;
    const { rows } = list({ criteria: [c('name', 'is', [record.name])], pattern: '1' });
    const owner = USERS.find((u) => u.zpuid === record.ownerZpuid)!;
    expect(rows).toEqual([
      expect.objectContaining({
        id: record.id,
        moduleId: MODULE,
        name: record.name,
        status: expect.objectContaining({ id: record.statusId, name: expect.any(String) }),
        owner: { zpuid: owner.zpuid, name: owner.name, email: owner.email },
        custom: record.custom,
        localOnly: false,
        pendingFields: [],
        commentsMirrored: false,
      }),
    ]);
  });
});

describe('refusals say what is wrong', () => {
  it.each([
    [{ filter: '{"criteria": [' }, /not valid JSON/],
    [
      { filter: JSON.stringify({ criteria: [c('cf_nope', 'is', ['x'])], pattern: '1' }) },
      /cf_nope/,
    ],
    [
      { filter: JSON.stringify({ criteria: [c('owner', 'deactivated_users')], pattern: '1' }) },
      /deactivated/,
    ],
    [{ sort: { field: 'cf_tags', descending: false } }, /several values/],
    [{ sort: { field: 'nope', descending: false } }, /sortable fields: id, name/],
    [{ moduleId: 'nope' }, /not in the local mirror/],
    [{ limit: 5000 }, /1 to 1000 rows/],
  ])('%j', (input, message) => {
    const call = () =>
      mirror.query.queryRecords({
        portalId: PORTAL,
        moduleId: MODULE,
        offset: 0,
        limit: 10,
        ...input,
      });
    expect(call).toThrow(RecordQueryError);
    expect(call).toThrow(message);
  });
});

describe('pending edits and counts', () => {
  it('filters, sorts and counts rows by their edited values, and counts follow writes', () => {
    const { mirror: m, store: s } = mirroredPortal();
    m.records.upsertRecords(RECORDS.slice(0, 100));
    const zebra = { criteria: [c('name', 'contains', ['zebra'])], pattern: '1' };
    const closed = { criteria: [c('status', 'all_closed')], pattern: '1' };
    const query = (filter?: object, sort?: { field: string; descending: boolean }) =>
      m.query.queryRecords({
        portalId: PORTAL,
        moduleId: MODULE,
        offset: 0,
        limit: 1000,
        ...(filter ? { filter: JSON.stringify(filter) } : {}),
        ...(sort ? { sort } : {}),
      });
    expect(query(zebra).total).toBe(0);
    const closedBefore = query(closed).total;

    const target = RECORDS[10]!;
    const open = RECORDS.slice(0, 100).find((r) => !CLOSED.has(r.statusId!))!;
    const insert = s.db.prepare(
      `INSERT INTO record_edits (portal_id, record_id, field, value, edited_at)
       VALUES (?, ?, ?, ?, '2026-03-05T09:00:00.000Z')`,
    );
    insert.run(PORTAL, target.id, 'name', JSON.stringify('Aardvark zebra'));
    insert.run(PORTAL, open.id, 'status', JSON.stringify({ id: '2004' }));

    const found = query(zebra);
    expect(found.total).toBe(1);
    expect(found.rows[0]).toMatchObject({
      id: target.id,
      name: 'Aardvark zebra',
      pendingFields: ['name'],
    });
    expect(query(closed).total).toBe(closedBefore + 1);
    // The edited name sorts first ("aardvark"), merged into the index order of the others.
    expect(query(undefined, { field: 'name', descending: false }).rows[0]?.id).toBe(target.id);

    // Replayed: the overlay goes, the server copy counts again.
    s.db.prepare('DELETE FROM record_edits').run();
    expect(query(zebra).total).toBe(0);
    expect(query(closed).total).toBe(closedBefore);
    m.records.deleteRecords(PORTAL, [open.id]);
    expect(query().total).toBe(99);
  });
});
