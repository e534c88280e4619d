/**
 * Property: the overview's counts (index ranges, overview.sql) equal a naive reading of the same
 * mirror: every row of `records` and `record_edits` read whole, the recycle bin's left out by
 * trashed_time, a record's status taken from its last status edit, and each record put in its week
 * by walking back day by day in the portal's zone to its week start day. Random mirrors of two
 * modules, after random record pulls (new, changed, older copies), local status edits and their
 * undoing, offline creates, local trash and restore, and deletes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatDate, weekday } from '@portaldesk/portal-api/filter/civilDate';
import { localDay, startOfDay } from '@portaldesk/portal-api/filter/timeZone';
import { OverviewCounts } from '../../../src/main/overview/overviewCounts';
import { MAX_WEEKS, weekOf, weekSpan } from '../../../src/main/overview/weekStarts';
import type { MirrorRecord } from '../../../src/main/store/mirror/mirrorTypes';
import { MODULE, PORTAL, STATUSES, makeRecord, mirroredPortal } from '../store/mirror/fixture';

const OTHER_MODULE = 'm300';
const DAY = 86_400_000;
const HOUR = 3_600_000;
const BASE = Date.parse('2025-01-01T00:00:00.000Z');
const ZONES = ['Asia/Kolkata', 'America/New_York', 'UTC', 'Pacific/Chatham', 'Europe/Berlin'];
const STATUS_CHOICES = [...STATUSES.map((s) => s.id), '9999', null];

/** Where the portal's weeks start: its zone and week start day. */
interface Setting {
  timeZone: string;
  weekStartDay: number;
}

/** Record times for a portal: spread over years, or at its week starts' local midnights. */
function timeIn(setting: Setting, atCuts: boolean): fc.Arbitrary<string> {
  const spread = fc
    .oneof(
      fc.integer({ min: -400, max: 800 }).map((days) => BASE + days * DAY),
      // Far back: more than MAX_WEEKS weeks before the others, counted as "earlier".
      fc.integer({ min: -4000, max: -3000 }).map((days) => BASE + days * DAY),
      // Around 1970: the created hours (migration 0023) before it are negative.
      fc.integer({ min: -20_100, max: -20_000 }).map((days) => BASE + days * DAY),
      // The last weeks of year 9999, whose week ends in year 10000 (a bound ISO strings of four
      // digits cannot write).
      fc.integer({ min: 1, max: 12 }).map((days) => Date.UTC(10_000, 0, 1) - days * DAY),
    )
    .chain((day) => fc.integer({ min: 0, max: DAY - 1 }).map((ms) => day + ms));
  // A week's bound, and the UTC hour it cuts in a zone whose midnight is not a whole UTC hour
  // (the hour's first millisecond is a quarter, half or three quarters of an hour before it):
  // what the weekly counts read apart from the hours' counts. Near 2025, and near 1970, whose
  // hours before it are negative.
  const atWeekStart = fc
    .tuple(
      fc.constantFrom(BASE, Date.UTC(1969, 10, 20)),
      fc.integer({ min: 0, max: 12 }),
      fc.oneof(
        fc
          .constantFrom(0, HOUR / 4, HOUR / 2, (3 * HOUR) / 4, HOUR)
          .chain((cut) => fc.constantFrom(-cut, -cut - 1, -cut + 1, cut)),
        ...(atCuts ? [] : [fc.integer({ min: -2 * HOUR, max: 2 * HOUR })]),
      ),
    )
    .map(
      ([anchor, week, ms]) =>
        startOfDay(
          weekOf(localDay(anchor, setting.timeZone), setting.weekStartDay) + 7 * week,
          setting.timeZone,
        ) + ms,
    );
  return (
    atCuts
      ? atWeekStart
      : fc.oneof({ weight: 2, arbitrary: spread }, { weight: 3, arbitrary: atWeekStart })
  ).map((at) => new Date(at).toISOString());
}

function actionIn(setting: Setting, atCuts: boolean): fc.Arbitrary<Action> {
  const time = timeIn(setting, atCuts);
  const pulled = fc.record({
    ordinal: fc.integer({ min: 1, max: 30 }),
    other: fc.boolean(),
    status: fc.constantFrom(...STATUS_CHOICES),
    created: time,
    updated: time,
    trashed: fc.boolean(),
  });
  return fc.oneof(
    fc.record({ kind: fc.constant('pull' as const), records: fc.array(pulled, { maxLength: 12 }) }),
    fc.record({
      kind: fc.constant('edit' as const),
      ordinal,
      status: fc.constantFrom(...STATUS_CHOICES),
    }),
    fc.record({ kind: fc.constant('unedit' as const), ordinal }),
    fc.record({
      kind: fc.constant('create' as const),
      ordinal,
      status: fc.constantFrom(...STATUS_CHOICES),
    }),
    fc.record({ kind: fc.constant('trash' as const), ordinal, trashed: fc.boolean() }),
    fc.record({ kind: fc.constant('delete' as const), ordinal }),
  );
}

interface Pulled {
  ordinal: number;
  other: boolean;
  status: string | null;
  created: string;
  updated: string;
  trashed: boolean;
}

type Action =
  | { kind: 'pull'; records: Pulled[] }
  | { kind: 'edit'; ordinal: number; status: string | null }
  | { kind: 'unedit'; ordinal: number }
  | { kind: 'create'; ordinal: number; status: string | null }
  | { kind: 'trash'; ordinal: number; trashed: boolean }
  | { kind: 'delete'; ordinal: number };

const ordinal = fc.integer({ min: 1, max: 30 });

const idOf = (n: number) => String(1_000_000_000_000 + n);

interface RawRecord {
  id: string;
  module_key: number;
  status_id: string | null;
  created_time: string;
  last_updated_time: string;
  trashed_time: string | null;
}

/**
 * A portal's setting, then what happens to its mirror and when it is read. `atCuts`: every time at
 * or about a week's bound, at the first millisecond of the UTC hour it cuts and either side.
 */
function scenarioOf(zones: readonly string[], atCuts: boolean) {
  return fc
    .record({ timeZone: fc.constantFrom(...zones), weekStartDay: fc.integer({ min: 0, max: 7 }) })
    .chain((setting) =>
      fc.record({
        setting: fc.constant(setting),
        actions: fc.array(actionIn(setting, atCuts), { minLength: 1, maxLength: 14 }),
        now: timeIn(setting, atCuts),
      }),
    );
}

type Scenario = typeof scenarioOf extends (...args: never[]) => fc.Arbitrary<infer T> ? T : never;

/** The overview's counts of a scenario's mirror, held to the naive reading. */
function agreesWithNaiveReading({ setting: { timeZone, weekStartDay }, actions, now }: Scenario) {
  const { store, mirror } = mirroredPortal();
  mirror.metadata.upsertPortals([
    {
      id: PORTAL,
      accountId: 'acc1',
      dc: 'us',
      name: 'northwind',
      orgName: null,
      timeZone,
      weekStartDay,
      isDefault: true,
      details: {},
    },
  ]);
  const moduleOf = (id: string, plural: string) => ({
    id,
    apiName: plural.toLowerCase(),
    singularName: plural,
    pluralName: plural,
    iconClass: null,
    isActive: true,
    isDefault: false,
    createdTime: null,
    details: {},
  });
  mirror.metadata.replaceModules(PORTAL, [
    moduleOf(MODULE, 'Assets'),
    moduleOf(OTHER_MODULE, 'Vendors'),
  ]);
  const moduleKey = (id: string) =>
    store.db
      .prepare('SELECT module_key FROM modules WHERE portal_id = ? AND id = ?')
      .pluck()
      .get(PORTAL, id) as number;
  for (const step of actions) {
    switch (step.kind) {
      case 'pull': {
        const records: MirrorRecord[] = step.records.map((r) => ({
          ...makeRecord(r.ordinal),
          moduleId: r.other ? OTHER_MODULE : MODULE,
          statusId: r.status,
          createdTime: r.created,
          lastUpdatedTime: r.updated,
          trashedTime: r.trashed ? r.updated : null,
        }));
        // One page holds a record once, as the API's pages do.
        const unique = [...new Map(records.map((r) => [r.id, r])).values()];
        mirror.records.upsertRecords(unique);
        break;
      }
      case 'edit':
        mirror.localEdits.writeOverlay(
          PORTAL,
          idOf(step.ordinal),
          new Map([
            [
              'status',
              {
                value: step.status === null ? null : { id: step.status, name: 'x' },
                base: null,
                editedAt: '2026-01-01T00:00:00.000Z',
              },
            ],
          ]),
        );
        break;
      case 'unedit':
        mirror.localEdits.writeOverlay(PORTAL, idOf(step.ordinal), new Map());
        break;
      case 'create':
        if (!mirror.localEdits.record(PORTAL, `local-${step.ordinal}`)) {
          mirror.localEdits.insertLocalRecord(
            PORTAL,
            moduleKey(step.ordinal % 2 ? MODULE : OTHER_MODULE),
            `local-${step.ordinal}`,
            null,
            {
              name: 'Offline',
              description: '',
              statusId: step.status,
              isClosed: false,
              isExternal: false,
              custom: {},
            },
            new Date(BASE + step.ordinal * DAY).toISOString(),
          );
        }
        break;
      case 'trash':
        mirror.localEdits.setTrashed(
          PORTAL,
          idOf(step.ordinal),
          step.trashed ? '2026-01-02T00:00:00.000Z' : null,
        );
        break;
      case 'delete':
        mirror.records.deleteRecords(PORTAL, [idOf(step.ordinal)]);
        break;
    }
  }

  // The naive reading.
  const rows = (
    store.db
      .prepare(
        'SELECT id, module_key, status_id, created_time, last_updated_time, trashed_time FROM records WHERE portal_id = ?',
      )
      .all(PORTAL) as RawRecord[]
  ).filter((r) => r.trashed_time === null);
  const statusEdits = new Map(
    (
      store.db
        .prepare(
          "SELECT record_id AS id, value FROM record_edits WHERE portal_id = ? AND field = 'status'",
        )
        .all(PORTAL) as { id: string; value: string }[]
    ).map((e) => {
      const value = JSON.parse(e.value) as { id?: string } | null;
      return [e.id, value?.id ?? null] as const;
    }),
  );
  const statusOf = (r: RawRecord) =>
    statusEdits.has(r.id) ? (statusEdits.get(r.id) as string | null) : r.status_id;

  const counts = new OverviewCounts(store.db);
  const modules = counts.modules(PORTAL);
  expect(modules.map((m) => [m.moduleId, m.records])).toEqual(
    [MODULE, OTHER_MODULE].map((id) => [
      id,
      rows.filter((r) => r.module_key === moduleKey(id)).length,
    ]),
  );
  const statuses = counts.statuses(PORTAL);
  for (const id of [MODULE, OTHER_MODULE]) {
    const naive = new Map<string | null, number>();
    for (const r of rows.filter((row) => row.module_key === moduleKey(id))) {
      naive.set(statusOf(r), (naive.get(statusOf(r)) ?? 0) + 1);
    }
    const counted = new Map(
      (statuses.get(id) ?? []).filter((s) => s.records > 0).map((s) => [s.statusId, s.records]),
    );
    expect(counted).toEqual(naive);
  }

  // Weeks: each record's week found day by day.
  const first = weekStartDay % 7;
  const weekStart = (iso: string) => {
    let day = localDay(Date.parse(iso), timeZone);
    while (weekday(day) !== first) day--;
    return day;
  };
  const created = new Map<number, number>();
  const updated = new Map<number, number>();
  for (const r of rows) {
    const c = weekStart(r.created_time);
    const u = weekStart(r.last_updated_time);
    created.set(c, (created.get(c) ?? 0) + 1);
    updated.set(u, (updated.get(u) ?? 0) + 1);
  }
  const weekly = counts.weeks(counts.portal(PORTAL)!, Date.parse(now));
  if (rows.length === 0) {
    expect(weekly.weeks).toEqual([]);
    return;
  }
  const all = [...created.keys(), ...updated.keys()];
  const span = 7 * (MAX_WEEKS - 1);
  // The window ends at the week of the newest time not after now (a record dated
  // after now is "later"); the records' own when every one is dated after now.
  const times = rows.flatMap((r) => [r.created_time, r.last_updated_time]);
  const past = times.filter((t) => Date.parse(t) <= Date.parse(now));
  const firstWeek = Math.min(...all);
  const lastShown =
    past.length > 0
      ? weekStart(past.reduce((a, b) => (Date.parse(a) >= Date.parse(b) ? a : b)))
      : Math.min(Math.max(...all), firstWeek + span);
  const firstShown = Math.max(Math.min(...all), lastShown - span);
  const expected = [];
  for (let day = firstShown; day <= lastShown; day += 7) {
    expected.push({
      start: formatDate(day),
      created: created.get(day) ?? 0,
      updated: updated.get(day) ?? 0,
    });
  }
  const outside = (map: Map<number, number>, away: (day: number) => boolean) =>
    [...map].filter(([day]) => away(day)).reduce((sum, [, n]) => sum + n, 0);
  const before = (day: number) => day < firstShown;
  const after = (day: number) => day > lastShown;
  expect(weekly).toEqual({
    weeks: expected,
    earlier: { created: outside(created, before), updated: outside(updated, before) },
    later: { created: outside(created, after), updated: outside(updated, after) },
  });
}

describe('overview counts', () => {
  it('equal a naive reading of the mirror after pulls, edits, creates, trash and deletes', () => {
    fc.assert(fc.property(scenarioOf(ZONES, false), agreesWithNaiveReading), { numRuns: 100 });
  });

  // Zones whose midnights are not whole UTC hours (+5:30, +12:45 or +13:45, +5:45): the weeks'
  // created counts read the records of the hours their bounds cut apart from the hours' counts.
  it('count the records of the hours a week bound cuts, on either side of it', () => {
    fc.assert(
      fc.property(
        scenarioOf(['Asia/Kolkata', 'Pacific/Chatham', 'Asia/Kathmandu'], true),
        agreesWithNaiveReading,
      ),
      { numRuns: 100 },
    );
  });

  it('are not pushed into "earlier" by one record dated decades ahead', () => {
    // A history that ended in 2018, one record dated 2099 (a typo, a clock set wrong), read in
    // 2026: the window is the history's, the stray record "later".
    const first = Date.parse('2018-01-08T00:00:00.000Z');
    const newest = Date.parse('2018-05-21T00:00:00.000Z');
    const stray = Date.parse('2099-06-01T00:00:00.000Z');
    const span = weekSpan(first, stray, 'UTC', 1, newest);
    expect(formatDate(span.days[0]!)).toBe('2018-01-08');
    expect(formatDate(span.days.at(-1)!)).toBe('2018-05-21');
    expect(span.days).toEqual(weekSpan(first, newest, 'UTC', 1).days);
    // Every record dated after now: the records' own window, from the first.
    const future = weekSpan(
      Date.parse('2026-11-24T00:00:00Z'),
      Date.parse('2027-06-01T00:00:00Z'),
      'UTC',
      1,
      null,
    );
    expect(future.days).toHaveLength(28);
  });
});
