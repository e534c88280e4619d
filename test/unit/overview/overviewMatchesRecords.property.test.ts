/**
 * Property: every bar of the portal overview shows the number of records the records workspace
 * lists after a click on it, read through the contract (`overview.portal` against
 * `records.query`'s total). Module bars open the module unfiltered, status bars the module with
 * `statusFilter`'s filter; each week of the weekly chart is held to the lists' `created_time`
 * (`last_updated_time`) between the week's first and last day, a second way to put a record in
 * a local week. Random mirrors: pulled records in known statuses, a status the mirror does not
 * know, none; in the service's recycle bin or not; a second portal with modules of the same
 * names; created at and about the portal's week bounds (23:30 local the day before, across DST
 * changes) in its zone and week start day; then queued status edits, offline creates, local trash
 * and restore, statuses renamed, added and removed in the Outbox, and pulls of changed copies.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatDate, parseDate } from '@portaldesk/portal-api/filter/civilDate';
import { startOfDay } from '@portaldesk/portal-api/filter/timeZone';
import { statusFilter } from '../../../src/renderer/src/features/overview/overviewFormat';
import { weekOf } from '../../../src/main/overview/weekStarts';
import { STATUSES } from '../store/mirror/fixture';
import { EMPTY_MODULE, MODULE, PORTAL, record, recordsWorkspace } from '../records/workspace';

const OTHER_PORTAL = '7100000001';
const OTHER_MODULE = '7100000002';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const STATUS_IDS = STATUSES.map((s) => s.id);
const STATUS_CHOICES = [...STATUS_IDS, '9999', null];
const ZONES = ['America/New_York', 'Europe/Berlin', 'Asia/Kolkata', 'Australia/Lord_Howe', 'UTC'];
/** Days of DST changes in the zones above (2025), the weeks drawn about them. */
const ANCHORS = [
  '2025-03-09',
  '2025-03-30',
  '2025-04-06',
  '2025-10-05',
  '2025-10-26',
  '2025-11-02',
];
const ordinal = fc.integer({ min: 1, max: 10 });
const idOf = (n: number) => String(1_000_000_000_000 + n);

interface Setting {
  timeZone: string;
  weekStartDay: number;
}

/** A time at or about a local week bound near a DST change, or anywhere in those weeks. */
function timeIn({ timeZone, weekStartDay }: Setting): fc.Arbitrary<string> {
  return fc
    .record({
      anchor: fc.constantFrom(...ANCHORS),
      week: fc.integer({ min: -1, max: 1 }),
      day: fc.integer({ min: 0, max: 7 }),
      at: fc.oneof(
        fc.constantFrom(0, -1, 1, -30 * MINUTE, 30 * MINUTE, -HOUR, 23 * HOUR + 30 * MINUTE),
        fc.integer({ min: 0, max: 24 * HOUR - 1 }),
      ),
    })
    .map(({ anchor, week, day, at }) => {
      const start = weekOf(parseDate(anchor)!, weekStartDay) + 7 * week;
      return new Date(startOfDay(start + day, timeZone) + at).toISOString();
    });
}

function scenario(setting: Setting) {
  const time = timeIn(setting);
  const pulled = fc.record({
    ordinal,
    status: fc.constantFrom(...STATUS_CHOICES),
    trashed: fc.integer({ min: 0, max: 3 }).map((n) => n === 0),
    where: fc.constantFrom('module', 'module', 'module', 'empty', 'otherPortal'),
    created: time,
    updated: time,
  });
  const action = fc.oneof(
    fc.record({
      kind: fc.constant('edit' as const),
      ordinal,
      status: fc.constantFrom(...STATUS_IDS),
    }),
    fc.record({
      kind: fc.constant('create' as const),
      status: fc.option(fc.constantFrom(...STATUS_IDS), { nil: undefined }),
    }),
    fc.record({ kind: fc.constant('trash' as const), ordinal, restore: fc.boolean() }),
    fc.record({
      kind: fc.constant('rename' as const),
      status: fc.constantFrom(...STATUS_IDS),
      name: fc.constantFrom('Doing', 'Done', 'Open'),
    }),
    fc.record({
      kind: fc.constant('addStatus' as const),
      name: fc.constantFrom('Blocked', 'Later'),
    }),
    fc.record({
      kind: fc.constant('removeStatus' as const),
      status: fc.constantFrom(...STATUS_IDS),
    }),
    // The service's newer copies: changed status, trashed or back, while local edits wait.
    fc.record({ kind: fc.constant('pull' as const), records: fc.array(pulled, { maxLength: 6 }) }),
  );
  return fc.record({
    setting: fc.constant(setting),
    records: fc.array(pulled, { minLength: 4, maxLength: 20 }),
    actions: fc.array(action, { maxLength: 12 }),
  });
}

const scenarios = fc
  .record({ timeZone: fc.constantFrom(...ZONES), weekStartDay: fc.integer({ min: 0, max: 7 }) })
  .chain(scenario);

type Scenario = typeof scenarios extends fc.Arbitrary<infer T> ? T : never;
type Pulled = Scenario['records'][number];

async function overviewMatchesRecords({ setting, records, actions }: Scenario) {
  const { mirror, ok, call } = recordsWorkspace({ autoSync: false });
  mirror.metadata.upsertPortals([
    {
      id: PORTAL,
      accountId: 'acc-1',
      dc: 'us',
      name: 'northwind',
      orgName: 'Northwind Traders',
      ...setting,
      isDefault: true,
      details: {},
    },
    // A second portal whose module has the same name: its records are never this one's.
    {
      id: OTHER_PORTAL,
      accountId: 'acc-1',
      dc: 'us',
      name: 'southwind',
      orgName: null,
      timeZone: 'UTC',
      weekStartDay: 0,
      isDefault: false,
      details: {},
    },
  ]);
  mirror.metadata.replaceModules(OTHER_PORTAL, [
    {
      id: OTHER_MODULE,
      apiName: 'assets',
      singularName: 'Asset',
      pluralName: 'Assets',
      iconClass: null,
      isActive: true,
      isDefault: false,
      createdTime: null,
      details: {},
    },
  ]);
  mirror.metadata.replaceStatuses(OTHER_PORTAL, OTHER_MODULE, STATUSES);
  let version = 0;
  const pull = (list: readonly Pulled[]) => {
    version += 1;
    const unique = [...new Map(list.map((r) => [r.ordinal, r])).values()];
    mirror.records.upsertRecords(
      unique.map((r) =>
        record(r.ordinal, {
          statusId: r.status,
          createdTime: r.created,
          // Newer than every copy before, so a pull replaces what it pulled.
          lastUpdatedTime: new Date(Date.parse(r.updated) + version).toISOString(),
          trashedTime: r.trashed ? '2026-03-01T00:00:00.000Z' : null,
          ...(r.where === 'empty' ? { moduleId: EMPTY_MODULE, layoutId: null } : {}),
          ...(r.where === 'otherPortal'
            ? { portalId: OTHER_PORTAL, moduleId: OTHER_MODULE, layoutId: null }
            : {}),
        }),
      ),
    );
  };
  pull(records);
  for (const step of actions) {
    // A refusal (a record not in this portal, a status in use) changes nothing: what the queue
    // accepted is what both sides must show.
    switch (step.kind) {
      case 'edit':
        await call('outbox.edit', {
          portalId: PORTAL,
          recordId: idOf(step.ordinal),
          changes: { status: { id: step.status } },
        });
        break;
      case 'create':
        await call('outbox.create', {
          portalId: PORTAL,
          moduleId: MODULE,
          values: { name: 'Made offline', ...(step.status ? { status: { id: step.status } } : {}) },
        });
        break;
      case 'trash':
        await call(step.restore ? 'outbox.restore' : 'outbox.trash', {
          portalId: PORTAL,
          recordId: idOf(step.ordinal),
        });
        break;
      case 'rename':
        await call('configure.changeStatuses', {
          portalId: PORTAL,
          moduleId: MODULE,
          update: [{ id: step.status, name: step.name }],
        });
        break;
      case 'addStatus':
        await call('configure.changeStatuses', {
          portalId: PORTAL,
          moduleId: MODULE,
          add: [{ name: step.name, color: '#123456', closed: false, transitions: [] }],
        });
        break;
      case 'removeStatus':
        await call('configure.changeStatuses', {
          portalId: PORTAL,
          moduleId: MODULE,
          remove: [step.status],
        });
        break;
      case 'pull':
        pull(step.records);
        break;
    }
  }

  const overview = await ok('overview.portal', { portalId: PORTAL });
  expect(overview.modules.map((m) => m.moduleId).sort()).toEqual([MODULE, EMPTY_MODULE].sort());
  const listed = async (moduleId: string, filter?: string) =>
    (
      await ok('records.query', {
        portalId: PORTAL,
        moduleId,
        offset: 0,
        limit: 1,
        ...(filter === undefined ? {} : { filter }),
      })
    ).total;
  for (const module of overview.modules) {
    expect({ module: module.name, records: module.records }).toEqual({
      module: module.name,
      records: await listed(module.moduleId),
    });
    for (const status of module.statuses) {
      expect({ status: status.name, records: status.records }).toEqual({
        status: status.name,
        records: await listed(module.moduleId, statusFilter(status.statusId)),
      });
    }
    // The bars of a module's statuses add up to its bar: no listed record is left out.
    expect(module.statuses.reduce((sum, s) => sum + s.records, 0)).toBe(module.records);
  }

  // The weeks: each against the lists' "between its first and last day" (the portal's days).
  const inWeek = async (field: string, start: string) => {
    const last = formatDate(parseDate(start)! + 6);
    const filter = JSON.stringify({
      criteria: [{ field_name: field, criteria_condition: 'between', value: [start, last] }],
      pattern: '1',
    });
    let total = 0;
    for (const module of overview.modules) total += await listed(module.moduleId, filter);
    return total;
  };
  const all = overview.modules.reduce((sum, m) => sum + m.records, 0);
  for (const [key, field] of [
    ['created', 'created_time'],
    ['updated', 'last_updated_time'],
  ] as const) {
    let drawn = 0;
    for (const week of overview.weeks) {
      if (week[key] === 0) continue;
      expect({ week: week.start, [key]: week[key] }).toEqual({
        week: week.start,
        [key]: await inWeek(field, week.start),
      });
      drawn += week[key];
    }
    // Every listed record is in a drawn week (the weeks with none hold none).
    expect(drawn + overview.earlier[key] + overview.later[key]).toBe(all);
  }
  // Each week starts on the portal's week start day, in its zone.
  for (const week of overview.weeks) {
    const day = parseDate(week.start)!;
    expect(weekOf(day, setting.weekStartDay)).toBe(day);
  }
}

describe('the overview against the records workspace', () => {
  it('shows on every bar and week the number of records the lists give for it', async () => {
    await fc.assert(fc.asyncProperty(scenarios, overviewMatchesRecords), { numRuns: 60 });
  }, 300_000);
});
