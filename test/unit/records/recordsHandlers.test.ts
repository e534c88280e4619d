import { describe, expect, it } from 'vitest';
import { naturalCompare } from '@portaldesk/portal-api/domain/naturalOrder';
import { RECENT_RECORDS_MAX } from '../../../src/shared/ipc/areas/records';
import { EMPTY_MODULE, LAYOUT, MODULE, PORTAL, record, recordsWorkspace } from './workspace';

const filter = (criteria: object[], pattern = '1') => JSON.stringify({ criteria, pattern });

describe('records handlers: navigation and columns', () => {
  it('lists the mirrored portals with their account, and modules with counts of listed records', async () => {
    const { mirror, ok } = recordsWorkspace();
    mirror.records.upsertRecords([
      record(1),
      record(2),
      record(3, { trashedTime: '2026-03-01T00:00:00.000Z' }),
    ]);

    expect(await ok('records.portals')).toEqual([
      {
        id: PORTAL,
        accountId: 'acc-1',
        dc: 'us',
        name: 'northwind',
        orgName: 'Northwind Traders',
        timeZone: 'Asia/Kolkata',
        isDefault: true,
      },
    ]);
    const modules = await ok('records.modules', { portalId: PORTAL });
    // The trashed record is not counted: lists do not show it.
    expect(modules.map((m) => [m.pluralName, m.records])).toEqual([
      ['Assets', 2],
      ['Vendors', 0],
    ]);

    // A write makes the cached count stale.
    mirror.records.upsertRecords([record(4)]);
    expect((await ok('records.modules', { portalId: PORTAL }))[0]?.records).toBe(3);

    // A built-in module (the service's is_default) says so: no sync brings records of it.
    mirror.metadata.upsertModules(PORTAL, [
      {
        id: '1000000000090',
        apiName: 'tasks',
        singularName: 'Task',
        pluralName: 'Tasks',
        iconClass: null,
        isActive: true,
        isDefault: true,
        createdTime: null,
        details: {},
      },
    ]);
    const withBuiltIn = await ok('records.modules', { portalId: PORTAL });
    expect(
      withBuiltIn
        .map((m) => [m.pluralName, m.builtIn])
        .sort(([a], [b]) => String(a).localeCompare(String(b))),
    ).toEqual([
      ['Assets', false],
      ['Tasks', true],
      ['Vendors', false],
    ]);
  });

  it('gives the columns with what each can do, and the layout sections in order', async () => {
    const { ok, refused } = recordsWorkspace();
    const columns = await ok('records.columns', { portalId: PORTAL, moduleId: MODULE });
    const byKey = new Map(columns.fields.map((f) => [f.key, f]));

    expect(columns.fields.slice(0, 4).map((f) => f.key)).toEqual([
      'name',
      'status',
      'owner',
      'project',
    ]);
    // A system field's label comes from the module's own field list when it has one.
    expect(byKey.get('owner')).toMatchObject({ label: 'Record owner', filterKind: 'user' });
    expect(byKey.get('project')).toMatchObject({ sortable: true, filterKind: null });
    expect(byKey.get('cf_tags')).toMatchObject({
      type: 'multi_select',
      sortable: false,
      filterKind: 'multipicklist',
      options: [
        { id: '3001', name: 'Critical' },
        { id: '3002', name: 'Leased' },
        { id: '3003', name: 'Warranty' },
      ],
    });
    expect(byKey.get('cf_cost')).toMatchObject({ sortable: true, filterKind: 'number' });
    expect(byKey.get('cf_watchers')).toMatchObject({ sortable: false });
    expect(columns.statuses.map((s) => s.name)).toEqual([
      'Open',
      'In Review',
      'Approved',
      'Rejected',
    ]);
    expect(columns.users).toHaveLength(4);
    expect(columns.layouts).toEqual([
      {
        id: LAYOUT,
        name: 'Standard',
        isDefault: true,
        sections: [
          { id: 's1', name: 'Overview', fields: ['name', 'status', 'cf_category'] },
          { id: 's2', name: 'Money', fields: ['cf_tags', 'cf_cost'] },
        ],
      },
    ]);

    const unknown = await refused('records.columns', { portalId: PORTAL, moduleId: '99' });
    expect(unknown.message).toMatch(/Module 99 .* not in the local mirror.*sync/);
    const badId = await refused('records.columns', { portalId: 'p1', moduleId: MODULE } as never);
    expect(badId.code).toBe('invalid_argument');
  });
});

describe('records handlers: windows, detail, search', () => {
  it('lists a filtered, sorted window with the total, and explains a filter it refuses', async () => {
    const { mirror, ok, refused } = recordsWorkspace();
    mirror.records.upsertRecords(Array.from({ length: 60 }, (_, i) => record(i + 1)));

    const approved = filter([{ field_name: 'status', criteria_condition: 'is', value: ['2003'] }]);
    const page = await ok('records.query', {
      portalId: PORTAL,
      moduleId: MODULE,
      filter: approved,
      sort: { field: 'name', descending: true },
      offset: 0,
      limit: 5,
    });
    expect(page.rows.length).toBeLessThanOrEqual(5);
    expect(page.total).toBeGreaterThan(0);
    expect(page.rows.every((row) => row.status?.name === 'Approved')).toBe(true);
    // Natural order, descending: '#11' before '#5'.
    const names = page.rows.map((row) => row.name);
    expect(names).toEqual([...names].sort((a, b) => naturalCompare(b, a)));

    const all = await ok('records.query', {
      portalId: PORTAL,
      moduleId: MODULE,
      offset: 0,
      limit: 100,
    });
    expect(all.total).toBe(60);

    const wrong = await refused('records.query', {
      portalId: PORTAL,
      moduleId: MODULE,
      filter: filter([{ field_name: 'cf_cost', criteria_condition: 'contains', value: ['1'] }]),
      offset: 0,
      limit: 10,
    });
    expect(wrong.code).toBe('failed');
    expect(wrong.message).toMatch(/"contains" does not apply to number fields.*left as it was/);

    const unsortable = await refused('records.query', {
      portalId: PORTAL,
      moduleId: MODULE,
      sort: { field: 'cf_tags', descending: false },
      offset: 0,
      limit: 10,
    });
    expect(unsortable.message).toMatch(/cannot be sorted by/);
  });

  it("reads a window's ids at once (up to 50,000) and records again by id, leaving out those not listed", async () => {
    const { mirror, ok, refused } = recordsWorkspace();
    mirror.records.upsertRecords(Array.from({ length: 60 }, (_, i) => record(i + 1)));
    const list = {
      portalId: PORTAL,
      moduleId: MODULE,
      sort: { field: 'name', descending: true },
    };
    const window = await ok('records.query', { ...list, offset: 10, limit: 20 });
    const ids = await ok('records.ids', { ...list, offset: 10, limit: 20 });
    expect(ids).toEqual({ ids: window.rows.map((row) => row.id), total: 60 });
    const tooMany = await refused('records.ids', { ...list, offset: 0, limit: 50_001 });
    expect(tooMany.code).toBe('invalid_argument');

    const [first, second] = window.rows;
    mirror.records.upsertRecords([record(61, { trashedTime: '2026-03-02T08:00:00.000Z' })]);
    const rows = await ok('records.rows', {
      portalId: PORTAL,
      moduleId: MODULE,
      ids: [second!.id, record(61).id, 'gone-1', first!.id],
    });
    expect(rows).toEqual([second, first]);
    // Which of them the list holds: the trashed one and an unknown id are not; a filter narrows.
    const held = await ok('records.listed', {
      portalId: PORTAL,
      moduleId: MODULE,
      ids: [second!.id, record(61).id, 'gone-1', first!.id],
    });
    expect(held).toEqual([second!.id, first!.id]);
    const named = filter([{ field_name: 'name', criteria_condition: 'is', value: [first!.name] }]);
    const narrowed = await ok('records.listed', {
      portalId: PORTAL,
      moduleId: MODULE,
      filter: named,
      ids: [second!.id, first!.id],
    });
    expect(narrowed).toEqual([first!.id]);
    // Hostile input: too many ids, ids that are no record id, a deep or huge filter, prototype
    // keys (answered as the unknown ids they are).
    const module = { portalId: PORTAL, moduleId: MODULE };
    const many = Array.from({ length: 50_001 }, (_, i) => String(i + 1));
    for (const call of ['records.rows', 'records.listed'] as const) {
      expect((await refused(call, { ...module, ids: many })).code).toBe('invalid_argument');
      for (const bad of ['a\u0000b', '../etc', 'x'.repeat(65), '']) {
        expect((await refused(call, { ...module, ids: [bad] })).code).toBe('invalid_argument');
      }
    }
    expect(
      await ok('records.rows', { ...module, ids: ['__proto__', 'constructor', first!.id] }),
    ).toEqual([first]);
    expect(
      await ok('records.listed', { ...module, ids: ['__proto__', 'constructor', first!.id] }),
    ).toEqual([first!.id]);
    expect(
      (await refused('records.listed', { ...module, filter: 'x'.repeat(1_500_001), ids: [] })).code,
    ).toBe('invalid_argument');
    const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    expect(
      (await refused('records.listed', { ...module, filter: deep, ids: [first!.id] })).code,
    ).toBe('failed');
    for (const window of [
      { offset: -1, limit: 10 },
      { offset: 0, limit: 0 },
      { offset: 0.5, limit: 10 },
    ]) {
      expect((await refused('records.ids', { ...module, ...window })).code).toBe(
        'invalid_argument',
      );
    }
    const unknown = await refused('records.rows', { portalId: PORTAL, moduleId: '99', ids: [] });
    expect(unknown.message).toMatch(/Module 99 .* not in the local mirror/);
  });

  it('opens a record with its layout, timeline, comments and whether they are mirrored', async () => {
    const { mirror, ok, refused } = recordsWorkspace();
    const laptop = record(1, { name: 'Lenovo ThinkPad', statusId: '2002', ownerZpuid: '5002' });
    const trashed = record(2, { trashedTime: '2026-03-02T08:00:00.000Z' });
    mirror.records.upsertRecords([laptop, trashed]);

    const before = await ok('records.get', { portalId: PORTAL, recordId: laptop.id });
    expect(before.record).toMatchObject({
      name: 'Lenovo ThinkPad',
      moduleId: MODULE,
      status: { id: '2002', name: 'In Review', color: '#b7791f' },
      owner: { zpuid: '5002', name: 'Jonas Weber' },
      commentsMirrored: false,
    });
    expect(before.commentsSyncedAt).toBeNull();
    expect(before.comments).toEqual([]);
    expect(before.layout?.sections.map((s) => s.name)).toEqual(['Overview', 'Money']);
    expect(before.trashedTime).toBeNull();
    expect(before.timeZone).toBe('Asia/Kolkata');

    mirror.comments.replaceRecordComments(PORTAL, laptop.id, [
      {
        id: 'c1',
        content: 'Screen flickers.',
        attachmentIds: ['a1', 'a2'],
        createdBy: '5001',
        createdTime: '2026-02-01T09:00:00.000Z',
        lastUpdatedTime: '2026-02-01T09:00:00.000Z',
      },
      {
        id: 'c2',
        content: 'From someone the mirror has not met.',
        attachmentIds: [],
        createdBy: '9999',
        createdTime: '2026-02-02T09:00:00.000Z',
        lastUpdatedTime: '2026-02-02T09:00:00.000Z',
      },
    ]);
    mirror.comments.replaceStatusTimeline(PORTAL, laptop.id, [
      {
        id: 't1',
        fromStatusId: '2001',
        toStatusId: '2002',
        changedBy: '5004',
        changedTime: '2026-02-03T10:00:00.000Z',
      },
    ]);
    const after = await ok('records.get', { portalId: PORTAL, recordId: laptop.id });
    expect(after.record.commentsMirrored).toBe(true);
    expect(after.commentsSyncedAt).not.toBeNull();
    expect(after.comments.map((c) => [c.content, c.author?.name ?? null, c.attachmentIds])).toEqual(
      [
        ['Screen flickers.', 'Maya Raman', ['a1', 'a2']],
        ['From someone the mirror has not met.', null, []],
      ],
    );
    expect(after.timeline).toEqual([
      {
        id: 't1',
        from: { id: '2001', name: 'Open', color: '#2a64d6', isClosedType: false },
        to: { id: '2002', name: 'In Review', color: '#b7791f', isClosedType: false },
        changedBy: { zpuid: '5004', name: 'Zoe Fischer', email: 'zoe@example.test' },
        changedTime: '2026-02-03T10:00:00.000Z',
      },
    ]);

    // Trashed records do not list, but open, saying so.
    const bin = await ok('records.get', { portalId: PORTAL, recordId: trashed.id });
    expect(bin.trashedTime).toBe('2026-03-02T08:00:00.000Z');

    const missing = await refused('records.get', { portalId: PORTAL, recordId: '123' });
    expect(missing.message).toMatch(/Record 123 is not in the local mirror.*sync/);
  });

  it('searches names, descriptions and comments and names the module of each hit', async () => {
    const { mirror, ok } = recordsWorkspace();
    const router = record(1, { name: 'Cisco router', description: 'Rack 4 in München.' });
    mirror.records.upsertRecords([router, record(2, { name: 'Dell monitor', description: '' })]);

    const hits = await ok('records.search', { portalId: PORTAL, text: 'munch' });
    expect(hits).toHaveLength(1);
    expect(hits[0]).toMatchObject({ recordId: router.id, module: 'Assets', source: 'description' });
    expect(hits[0]?.snippet).toContainEqual({ text: 'München', highlighted: true });
    expect(await ok('records.search', { portalId: PORTAL, text: '   ' })).toEqual([]);
  });
});

describe('records handlers: saved filters and recent records', () => {
  it('saves filters per module, replaces by name, refuses bad ones and deletes', async () => {
    const { ok, refused } = recordsWorkspace();
    const open = filter([{ field_name: 'status', criteria_condition: 'all_open' }]);
    const costly = filter(
      [
        { field_name: 'cf_cost', criteria_condition: 'greater_than', value: ['1000'] },
        { field_name: 'status', criteria_condition: 'all_open' },
      ],
      '1 AND 2',
    );
    const args = { portalId: PORTAL, moduleId: MODULE };

    await ok('records.saveFilter', { ...args, name: 'Open', filter: open });
    const saved = await ok('records.saveFilter', { ...args, name: 'Costly', filter: costly });
    expect(saved.map((f) => f.name)).toEqual(['Costly', 'Open']);
    expect(JSON.parse(saved[0]!.filter)).toEqual(JSON.parse(costly));
    // Other modules have their own lists.
    expect(await ok('records.savedFilters', { portalId: PORTAL, moduleId: EMPTY_MODULE })).toEqual(
      [],
    );

    const replaced = await ok('records.saveFilter', { ...args, name: 'Open', filter: costly });
    expect(replaced).toHaveLength(2);
    expect(JSON.parse(replaced.find((f) => f.name === 'Open')!.filter)).toEqual(JSON.parse(costly));

    const badPattern = await refused('records.saveFilter', {
      ...args,
      name: 'Broken',
      filter: filter([{ field_name: 'status', criteria_condition: 'all_open' }], '1 AND 2'),
    });
    expect(badPattern.message).toMatch(/"Broken" was not saved: pattern: .*2.*unchanged/);
    const badField = await refused('records.saveFilter', {
      ...args,
      name: 'Broken',
      filter: filter([{ field_name: 'cf_nope', criteria_condition: 'is', value: ['x'] }]),
    });
    expect(badField.message).toMatch(/"cf_nope" is not a filterable field/);
    expect(await ok('records.savedFilters', args)).toHaveLength(2);

    const left = await ok('records.deleteFilter', { ...args, id: saved[0]!.id });
    expect(left.map((f) => f.name)).toEqual(['Open']);
    const again = await refused('records.deleteFilter', { ...args, id: saved[0]!.id });
    expect(again.message).toMatch(/does not exist.*Nothing was deleted/);
    const unknownModule = await refused('records.saveFilter', {
      portalId: PORTAL,
      moduleId: '42',
      name: 'x',
      filter: open,
    });
    expect(unknownModule.message).toMatch(/Module 42/);
  });

  it('remembers recently viewed records, newest first, up to the limit', async () => {
    const { mirror, ok, refused } = recordsWorkspace();
    const records = Array.from({ length: RECENT_RECORDS_MAX + 5 }, (_, i) => record(i + 1));
    mirror.records.upsertRecords(records);

    await ok('records.viewed', { portalId: PORTAL, recordId: records[0]!.id });
    await new Promise((resolve) => setTimeout(resolve, 2));
    const recent = await ok('records.viewed', { portalId: PORTAL, recordId: records[1]!.id });
    expect(recent.map((r) => r.recordId)).toEqual([records[1]!.id, records[0]!.id]);
    expect(recent[0]).toMatchObject({ module: 'Assets', moduleId: MODULE, name: records[1]!.name });

    for (const r of records) await ok('records.viewed', { portalId: PORTAL, recordId: r.id });
    expect(await ok('records.recent', { portalId: PORTAL })).toHaveLength(RECENT_RECORDS_MAX);

    const missing = await refused('records.viewed', { portalId: PORTAL, recordId: '1' });
    expect(missing.message).toMatch(/not in the local mirror.*unchanged/);

    // A record deleted from the mirror leaves the list.
    mirror.records.deleteRecords(PORTAL, [records.at(-1)!.id]);
    const afterDelete = await ok('records.recent', { portalId: PORTAL });
    expect(afterDelete.map((r) => r.recordId)).not.toContain(records.at(-1)!.id);
  });
});
