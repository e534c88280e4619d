/**
 * RecordPages (sync/recordPages.ts) reads a page of records where it is stored. Held against
 * what the engine's thread did before: readReply, then mapRecord and MentionedUsers over the
 * run's entities, then the repository's upsert. The same reply must give the same answer to the
 * pull (ids, times, skipped items, page_info, or the same problems) and the same rows stored.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Entity } from '@portaldesk/portal-api/domain/entity';
import { ENDPOINTS } from '../../../src/main/api/client/endpoints';
import type { ListPage } from '../../../src/main/api/client/endpointTypes';
import { readReply } from '../../../src/main/api/client/readReply';
import { mapRecord } from '../../../src/main/sync/mapRecord';
import { MentionedUsers } from '../../../src/main/sync/mentionedUsers';
import { RecordPages, type RecordRef } from '../../../src/main/sync/recordPages';
import { mirroredPortal, MODULE, PORTAL } from '../store/mirror/fixture';

const OWNER = { portalId: PORTAL, moduleId: MODULE, pull: 'pull-1' };
const encode = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

const instant = fc
  .tuple(
    fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2030, 0, 1) }),
    fc.constantFrom('Z', '+05:30', '-08:00', '+00:00'),
  )
  .map(([ms, zone]) => {
    const offset =
      zone === 'Z'
        ? 0
        : (zone.startsWith('-') ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4)));
    return new Date(ms + offset * 60_000).toISOString().replace('Z', zone);
  });
const user = fc.record({
  zpuid: fc.constantFrom('101', '102', '103', 104),
  name: fc.option(fc.constantFrom('Ada', 'Bo', 'Cy'), { nil: undefined }),
  email: fc.option(fc.constantFrom('a@x.test', 'b@x.test'), { nil: undefined }),
});
/** A record as the service sends it, or (sometimes) one PortalDesk cannot read. */
const item = fc
  .record({
    id: fc.integer({ min: 1, max: 10 ** 12 }).map(String),
    name: fc.string({ maxLength: 12 }),
    status: fc.record({ id: fc.constantFrom('11', '12') }),
    layout: fc.record({ id: fc.constantFrom('21') }),
    owner: fc.option(user, { nil: undefined }),
    created_time: fc.option(instant, { nil: undefined }),
    last_updated_time: instant,
    cf_owner_too: fc.option(fc.oneof(user, fc.array(user, { maxLength: 3 })), { nil: undefined }),
    cf_text: fc.option(fc.string({ maxLength: 8 }), { nil: undefined }),
  })
  .chain((entity) =>
    fc.constantFrom<Record<string, unknown>>(
      entity,
      entity,
      entity,
      { ...entity, name: 42 },
      { ...entity, last_updated_time: 'yesterday' },
    ),
  );
const reply = fc.oneof(
  {
    weight: 9,
    arbitrary: fc.record({
      entities: fc.uniqueArray(item, { maxLength: 12, selector: (e) => e.id }),
      page_info: fc.record({
        page: fc.integer({ min: 1, max: 9 }),
        per_page: fc.integer({ min: 1, max: 200 }),
        page_count: fc.integer({ min: 0, max: 5_000 }),
        has_next_page: fc.boolean(),
      }),
    }),
  },
  // Replies nobody can read: no list, no page_info, not JSON at all.
  {
    weight: 1,
    arbitrary: fc.constantFrom<unknown>({ entities: 'none' }, { entities: [] }, 'text'),
  },
);

/** What the engine's thread did: read, map the run and name its people. */
function inline(bytes: Uint8Array) {
  const reading = readReply(ENDPOINTS.listEntities.reply, bytes);
  if (!reading.ok) return { reading, records: [], users: [] };
  const page = reading.value as ListPage<Entity>;
  const users = new MentionedUsers();
  users.addRecords(page.items);
  return {
    reading,
    page,
    records: page.items.map((entity) => mapRecord(PORTAL, MODULE, entity)),
    users: users.list(),
  };
}

const rows = (s: ReturnType<typeof mirroredPortal>) => ({
  records: s.store.db.prepare('SELECT * FROM records ORDER BY id').all(),
  users: s.store.db.prepare('SELECT * FROM portal_users ORDER BY zpuid').all(),
  cursor: s.mirror.records.cursor(PORTAL, MODULE),
});

/** Two mirrors emptied of records and people before each case (a store is slow to open). */
function twoMirrors() {
  const both = [mirroredPortal(), mirroredPortal()] as const;
  return () => {
    for (const s of both) s.store.db.exec('DELETE FROM records; DELETE FROM portal_users;');
    return both;
  };
}

describe('a page of records read where it is stored', () => {
  it('answers the pull what readReply did and stores what the mapped run stored', () => {
    const fresh = twoMirrors();
    let readRecords = 0;
    fc.assert(
      fc.property(reply, fc.boolean(), (body, rawBytes) => {
        const bytes =
          rawBytes && typeof body === 'string' ? new TextEncoder().encode(body) : encode(body);
        const before = inline(bytes);
        const [there, here] = fresh();
        const pages = new RecordPages(there.mirror);
        const reading = pages.read(bytes, OWNER);
        if (!before.reading.ok) {
          expect(reading).toEqual(before.reading);
          expect(pages.heldPages()).toBe(0);
          return;
        }
        expect(reading.ok).toBe(true);
        if (!reading.ok) return;
        readRecords += reading.value.items.length;
        const page = before.page!;
        expect(reading.skipped).toEqual(before.reading.skipped);
        expect(reading.value.skipped).toEqual(page.skipped);
        expect(reading.value.received).toBe(page.received);
        expect(reading.value.pageInfo).toEqual(page.pageInfo);
        expect(
          reading.value.items.map(({ id, last_updated_time }) => ({ id, last_updated_time })),
        ).toEqual(page.items.map(({ id, last_updated_time }) => ({ id, last_updated_time })));

        const cursor = { portalId: PORTAL, moduleId: MODULE, scanIndex: 7, scanAfter: 'x' };
        const stored = here.mirror.records.upsertRecordPage(before.records, cursor, {
          users: before.users,
        });
        expect(pages.upsertPage(reading.value.items, cursor)).toEqual(stored);
        expect(rows(there)).toEqual(rows(here));
        expect(pages.heldPages()).toBe(0);
      }),
      { numRuns: 300 },
    );
    // The cases compared stored records, not only pages of unreadable ones.
    expect(readRecords).toBeGreaterThan(300);
  });

  it('stores a run of several pages whole, and lets go of each page it names', () => {
    const s = mirroredPortal();
    const pages = new RecordPages(s.mirror);
    const page = (ids: string[]) =>
      encode({
        entities: ids.map((id) => ({
          id,
          name: `Record ${id}`,
          status: { id: '11' },
          layout: { id: '21' },
          last_updated_time: '2026-03-05T10:00:00.000Z',
        })),
        page_info: { page: 1, per_page: 2, page_count: 6, has_next_page: true },
      });
    const first = pages.read(page(['1', '2']), OWNER);
    const second = pages.read(page(['3', '4']), OWNER);
    const dropped = pages.read(page(['5', '6']), OWNER);
    if (!first.ok || !second.ok || !dropped.ok) throw new Error('unread');
    expect(pages.heldPages()).toBe(3);
    // A scan window overlaps the one before by a record: the run names the others only.
    const run: RecordRef[] = [...first.value.items, ...second.value.items.slice(1)];
    const changes = pages.upsertRecords(run);
    expect(changes.records?.inserted.sort()).toEqual(['1', '2', '4']);
    expect(pages.heldPages()).toBe(1);
    // Named again (a write retried after its pages were let go): refused, nothing stored.
    expect(() => pages.upsertRecords(second.value.items)).toThrow(/no longer held/);
    expect(s.store.db.prepare('SELECT count(*) FROM records').pluck().get()).toBe(3);
    // The pull ends: the dropped page goes, and a reading of it that arrives later is not kept.
    pages.releasePull('pull-1');
    expect(pages.heldPages()).toBe(0);
    const late = pages.read(page(['7']), OWNER);
    expect(late.ok && late.value.items.map((r) => r.id)).toEqual(['7']);
    expect(pages.heldPages()).toBe(0);
    // Another pull's pages are its own.
    pages.read(page(['8']), { ...OWNER, pull: 'pull-2' });
    pages.releasePull('pull-1');
    expect(pages.heldPages()).toBe(1);
  });

  it('refuses a reference that names another record than the one held there', () => {
    const s = mirroredPortal();
    const pages = new RecordPages(s.mirror);
    const read = pages.read(
      encode({
        entities: [
          {
            id: '1',
            name: 'A',
            status: { id: '11' },
            layout: { id: '21' },
            last_updated_time: '2026-03-05T10:00:00Z',
          },
        ],
        page_info: { page: 1, per_page: 1, page_count: 1, has_next_page: false },
      }),
      OWNER,
    );
    if (!read.ok) throw new Error('unread');
    expect(() => pages.upsertRecords([{ ...read.value.items[0]!, id: '2' }])).toThrow(/record 2/);
    expect(s.store.db.prepare('SELECT count(*) FROM records').pluck().get()).toBe(0);
  });
});
