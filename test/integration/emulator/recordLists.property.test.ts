/**
 * The record routes answer from caches (ids per list kept until their module is written, texts
 * written by entityText.ts, pages joined as bytes). Here, after any sequence of writes through
 * the API, the admin surface and straight into the tables, every list, count and record read must
 * be byte for byte what a plain reading of the same state gives: the straightforward query with
 * nothing kept (fresh metadata, the rows in their order, `JSON.stringify(entityJson(row))` each,
 * joined into one string).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type Database from 'better-sqlite3';
import { apiErrors } from '@portaldesk/emulator/http/apiError';
import {
  ensureSqlFunctions,
  filterContext,
  filterSql,
} from '@portaldesk/emulator/records/entityFilter';
import {
  orderBy,
  parseSortBy,
  readWindow,
  viewCondition,
  windowInfo,
} from '@portaldesk/emulator/records/entityQuery';
import { entityJson, type EntityRow } from '@portaldesk/emulator/records/entityJson';
import { RecordCaches } from '@portaldesk/emulator/records/recordCache';
import { moduleMeta, portalMeta } from '@portaldesk/emulator/records/recordMeta';
import { ADMIN_SECRET_HEADER } from '@portaldesk/emulator/http/server';
import { filterParam, grantToken, testEmulator } from '../../support/emulator';

const MODULES = ['assets', 'vendors'] as const;
type ModuleName = (typeof MODULES)[number];

/** The list as the straightforward query over the table now, nothing kept from before. */
function referenceList(
  db: Database.Database,
  now: number,
  portalId: number,
  moduleName: ModuleName,
  scopeProjectId: number | null,
  query: URLSearchParams,
): { ids: number[]; rows: EntityRow[]; caches: RecordCaches } {
  // A RecordCaches of its own, never shared: metadata and filters read afresh.
  const caches = new RecordCaches(db.prepare('SELECT total_changes()').pluck());
  caches.sync();
  ensureSqlFunctions(db);
  const moduleId = (
    db
      .prepare('SELECT id FROM modules WHERE portal_id = ? AND api_name = ?')
      .get(portalId, moduleName) as { id: number }
  ).id;
  const module = moduleMeta(caches, db, moduleId)!;
  const portal = portalMeta(caches, db, portalId)!;
  const where = ['e.module_id = ?', 'e.trashed_time IS NULL'];
  const params: (string | number)[] = [moduleId];
  if (scopeProjectId !== null) {
    where.push('e.project_id = ?');
    params.push(scopeProjectId);
  }
  const view = viewCondition(query.get('view_id'), module);
  if (view !== undefined) where.push(view);
  const filterText = query.get('filter');
  if (filterText) {
    const filter = filterSql(caches, module, filterText, () => filterContext(portal, now));
    where.push(filter.sql);
    params.push(...filter.params);
  }
  const sort = parseSortBy(query.get('sort_by'), { field: 'id', descending: false });
  const rows = db
    .prepare(
      `SELECT e.* FROM entities e WHERE ${where.join(' AND ')} ORDER BY ${orderBy(sort, module)}`,
    )
    .all(...params) as EntityRow[];
  return { ids: rows.map((row) => row.id), rows, caches };
}

function referenceText(db: Database.Database, portalId: number, row: EntityRow): string {
  const caches = new RecordCaches(db.prepare('SELECT total_changes()').pluck());
  caches.sync();
  return JSON.stringify(
    entityJson(row, moduleMeta(caches, db, row.module_id)!, portalMeta(caches, db, portalId)!),
  );
}

const sortField = fc.constantFrom(
  'id',
  'name',
  'description',
  'status',
  'owner',
  'project',
  'created_time',
  'last_updated_time',
  'is_closed',
  'is_external',
  'cf_serial_number',
  'cf_category',
  'cf_cost',
  'cf_purchase_date',
  'cf_contact_email',
);

const filters = [
  { criteria: [{ field_name: 'status', criteria_condition: 'all_open' }], pattern: '1' },
  {
    criteria: [{ field_name: 'name', criteria_condition: 'contains', value: ['a'] }],
    pattern: '1',
  },
  {
    criteria: [
      { field_name: 'name', criteria_condition: 'contains', value: ['Z'] },
      { field_name: 'status', criteria_condition: 'all_closed' },
    ],
    pattern: '1 OR 2',
  },
];

/** Mostly the plain list, so a list read before a write is often read again after it. */
const rarely = <T>(arbitrary: fc.Arbitrary<T>) =>
  fc.oneof({ arbitrary: fc.constant(undefined), weight: 3 }, { arbitrary, weight: 1 });

const listQuery = fc.record({
  // The default window most often: a page is kept from its second ask, so asks must repeat.
  window: rarely(
    fc.oneof(
      fc.record({
        page: fc.integer({ min: 1, max: 6 }),
        per_page: fc.integer({ min: 1, max: 25 }),
      }),
      fc.record({ index: fc.integer({ min: 1, max: 80 }), range: fc.integer({ min: 1, max: 25 }) }),
    ),
  ),
  sort: rarely(fc.tuple(fc.constantFrom('ASC', 'DESC'), sortField)),
  view: rarely(fc.constantFrom('1', '2', '3')),
  filter: rarely(fc.nat({ max: filters.length - 1 })),
});

const moduleName = fc.constantFrom(...MODULES);
const pick = fc.nat({ max: 1000 });
const name = fc.oneof(
  fc.string({ minLength: 1, maxLength: 12 }).filter((s) => s.trim() !== ''),
  fc.constantFrom('Zebra 10', 'zebra 9', 'Äpfel', 'a "quoted" name', '😀 emoji'),
);

const action = fc.oneof(
  {
    arbitrary: fc.record({ kind: fc.constant('create' as const), module: moduleName, name }),
    weight: 3,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('patch' as const),
      module: moduleName,
      pick,
      name: fc.option(name, { nil: undefined }),
      description: fc.option(fc.string({ maxLength: 20 }), { nil: undefined }),
    }),
    weight: 3,
  },
  {
    arbitrary: fc.record({
      kind: fc.constantFrom('trash' as const, 'restore' as const, 'delete' as const),
      module: moduleName,
      pick,
    }),
    weight: 3,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('recordChange' as const),
      module: moduleName,
      pick,
      name,
    }),
    weight: 1,
  },
  {
    arbitrary: fc.record({ kind: fc.constant('comment' as const), module: moduleName, pick }),
    weight: 1,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('foreign' as const),
      what: fc.constantFrom('status', 'user', 'project', 'option', 'record'),
      text: name,
    }),
    weight: 1,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('list' as const),
      module: moduleName,
      inProject: rarely(fc.constant(true)),
      query: listQuery,
    }),
    weight: 6,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('count' as const),
      module: moduleName,
      view: fc.option(fc.constantFrom('2', '3'), { nil: undefined }),
    }),
    weight: 1,
  },
  {
    arbitrary: fc.record({ kind: fc.constant('get' as const), module: moduleName, pick }),
    weight: 2,
  },
);

describe('record lists, counts and reads agree with a plain reading after any writes', () => {
  it('answers byte for byte as the straightforward query and serialization', async () => {
    // Far more calls than one rate-limit window allows: the limit is not what this is about.
    const emulator = await testEmulator({ records: 60, rateLimit: { enabled: false } });
    const { db } = emulator.state;
    const base = emulator.dcs.us!.api;
    const token = grantToken(emulator);
    const portalId = Number(emulator.portals[0]);
    const seeded = db.prepare('SELECT * FROM entities ORDER BY id').all();
    const restore = () => {
      // The seeded records back between runs, behind the emulator's back (a foreign write, as
      // the admin reset is); their comments and timelines go with the records written over.
      db.transaction(() => {
        db.prepare('DELETE FROM entities').run();
        for (const row of seeded as Record<string, unknown>[]) {
          const keys = Object.keys(row);
          db.prepare(
            `INSERT INTO entities (${keys.join(', ')}) VALUES (${keys.map(() => '?').join(', ')})`,
          ).run(...keys.map((k) => row[k]));
        }
        // Some in the trash from the start, for restores and deletes to find.
        db.prepare(
          "UPDATE entities SET trashed_time = '2026-01-02T03:04:05.000Z' WHERE id % 5 = 0",
        ).run();
      })();
    };
    expect(seeded.length).toBe(60);
    const moduleId = (m: ModuleName) =>
      (
        db
          .prepare('SELECT id FROM modules WHERE portal_id = ? AND api_name = ?')
          .get(portalId, m) as { id: number }
      ).id;
    const projectIds = (
      db
        .prepare(
          "SELECT id FROM work_items WHERE portal_id = ? AND module = 'projects' ORDER BY id",
        )
        .all(portalId) as { id: number }[]
    ).map((r) => r.id);
    const chosen = (m: ModuleName, n: number, trashed?: boolean) => {
      const ids = (
        db
          .prepare(
            `SELECT id FROM entities WHERE module_id = ? ${trashed === undefined ? '' : trashed ? 'AND trashed_time IS NOT NULL' : 'AND trashed_time IS NULL'} ORDER BY id`,
          )
          .all(moduleId(m)) as { id: number }[]
      ).map((r) => r.id);
      return ids.length === 0 ? undefined : ids[n % ids.length];
    };
    const request = async (method: string, path: string, body?: unknown, admin = false) => {
      const response = await fetch(`${base}${path}`, {
        method,
        headers: {
          ...(admin
            ? { [ADMIN_SECRET_HEADER]: emulator.adminSecret }
            : { Authorization: `Bearer ${token}` }),
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: response.status, text: await response.text() };
    };
    const records = (m: ModuleName, scope = 'projects') =>
      `/api/v3/portal/${portalId}/${scope}/${m}/entities`;
    let compared = 0;
    /** Writes that went through, by kind: the sequences must really change things. */
    const applied: Record<string, number> = {};
    const count = (kind: string, status: number) => {
      if (status < 300) applied[kind] = (applied[kind] ?? 0) + 1;
    };

    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 1, maxLength: 25 }), async (actions) => {
        restore();
        for (const a of actions) {
          switch (a.kind) {
            case 'create':
              count(
                a.kind,
                (
                  await request('POST', records(a.module), {
                    name: a.name,
                    ...(a.module === 'assets'
                      ? { cf_serial_number: `SN-${a.name.length}` }
                      : { cf_contact_email: 'someone@example.com' }),
                  })
                ).status,
              );
              break;
            case 'patch': {
              const id = chosen(a.module, a.pick, false);
              if (id === undefined) break;
              const body = {
                ...(a.name === undefined ? {} : { name: a.name }),
                ...(a.description === undefined ? {} : { description: a.description }),
              };
              const reply = await request('PATCH', `${records(a.module)}/${id}`, body);
              count(a.kind, reply.status);
              if (reply.status === 200) {
                const row = db.prepare('SELECT * FROM entities WHERE id = ?').get(id) as EntityRow;
                expect(reply.text).toBe(`{"entity":${referenceText(db, portalId, row)}}`);
              }
              break;
            }
            case 'trash':
            case 'restore':
            case 'delete': {
              const id = chosen(a.module, a.pick, a.kind !== 'trash');
              if (id === undefined) break;
              const reply = await (a.kind === 'delete'
                ? request('DELETE', `${records(a.module)}/${id}`)
                : request('POST', `${records(a.module)}/${id}/${a.kind}`));
              count(a.kind, reply.status);
              break;
            }
            case 'recordChange': {
              const id = chosen(a.module, a.pick, false);
              if (id === undefined) break;
              const reply = await request(
                'POST',
                '/__emulator/record-change',
                {
                  portal_id: String(portalId),
                  module: a.module,
                  entity_id: String(id),
                  changes: { name: a.name },
                },
                true,
              );
              count(a.kind, reply.status);
              break;
            }
            case 'comment': {
              const id = chosen(a.module, a.pick, false);
              if (id === undefined) break;
              const reply = await request(
                'POST',
                `/api/v3/portal/${portalId}/projects/${a.module}/entity/${id}/${emulator.commentSegment}`,
                { content: 'a comment' },
              );
              count(a.kind, reply.status);
              break;
            }
            case 'foreign':
              // Straight into the tables, as the settings routes or a test would.
              if (a.what === 'status') {
                db.prepare(
                  'UPDATE statuses SET name = ? WHERE id = (SELECT min(id) FROM statuses)',
                ).run(a.text);
              } else if (a.what === 'user') {
                db.prepare(
                  'UPDATE users SET first_name = ? WHERE zpuid = (SELECT owner_zpuid FROM entities LIMIT 1)',
                ).run(a.text);
              } else if (a.what === 'project') {
                db.prepare('UPDATE work_items SET name = ? WHERE id = ?').run(
                  a.text,
                  projectIds[0] ?? 0,
                );
              } else if (a.what === 'option') {
                db.prepare(
                  "UPDATE field_options SET value = ? WHERE id = (SELECT min(id) FROM field_options WHERE kind = 'custom_option')",
                ).run(a.text);
              } else {
                db.prepare(
                  'UPDATE entities SET name = ? WHERE id = (SELECT max(id) FROM entities)',
                ).run(a.text);
              }
              break;
            case 'list': {
              const query = new URLSearchParams();
              for (const [k, v] of Object.entries(a.query.window ?? {})) query.set(k, String(v));
              if (a.query.sort) query.set('sort_by', `${a.query.sort[0]}(${a.query.sort[1]})`);
              if (a.query.view) query.set('view_id', a.query.view);
              if (a.query.filter !== undefined) {
                query.set(
                  'filter',
                  decodeURIComponent(filterParam(filters[a.query.filter]!).slice(7)),
                );
              }
              const project = a.inProject ? (projectIds[0] ?? null) : null;
              const reply = await request(
                'GET',
                `${records(a.module, project === null ? 'projects' : String(project))}?${query}`,
              );
              let expected: { status: number; text: string };
              try {
                const window = readWindow(query);
                const { rows, ids } = referenceList(
                  db,
                  emulator.state.clock.now(),
                  portalId,
                  a.module,
                  project,
                  query,
                );
                const page = rows.slice(window.offset, window.offset + window.limit);
                expected = {
                  status: 200,
                  text: `{"entities":[${page.map((row) => referenceText(db, portalId, row)).join(',')}],"page_info":${JSON.stringify(windowInfo(window, ids.length))}}`,
                };
              } catch (error) {
                // A sort by a field the module does not have: the same refusal.
                const refusal =
                  error instanceof Error && 'status' in error ? error : apiErrors.internal();
                expected = { status: (refusal as { status: number }).status, text: reply.text };
              }
              expect(reply.status).toBe(expected.status);
              expect(reply.text).toBe(expected.text);
              // Asked again at once: the answer the emulator now keeps (a page is kept from its
              // second ask), which a later ask after a write must not be served from.
              const again = await request(
                'GET',
                `${records(a.module, project === null ? 'projects' : String(project))}?${query}`,
              );
              expect(again).toEqual(reply);
              count(`list ${reply.status}`, 200);
              compared++;
              break;
            }
            case 'count': {
              const query = new URLSearchParams(a.view ? { view_id: a.view } : {});
              const reply = await request('GET', `${records(a.module)}/20?${query}`);
              const { ids } = referenceList(
                db,
                emulator.state.clock.now(),
                portalId,
                a.module,
                null,
                query,
              );
              expect(reply.text).toBe(JSON.stringify({ count: ids.length }));
              compared++;
              break;
            }
            case 'get': {
              const id = chosen(a.module, a.pick);
              if (id === undefined) break;
              const reply = await request('GET', `${records(a.module)}/${id}`);
              const row = db.prepare('SELECT * FROM entities WHERE id = ?').get(id) as EntityRow;
              expect(reply.text).toBe(`{"entity":${referenceText(db, portalId, row)}}`);
              compared++;
              break;
            }
          }
        }
      }),
      { numRuns: 150 },
    );
    expect(compared).toBeGreaterThan(100);
    for (const kind of [
      'create',
      'patch',
      'trash',
      'restore',
      'delete',
      'recordChange',
      'comment',
    ]) {
      expect(applied[kind] ?? 0, `${kind}: ${JSON.stringify(applied)}`).toBeGreaterThan(5);
    }
    expect(applied['list 200'] ?? 0).toBeGreaterThan(50);
  }, 240_000);
});
