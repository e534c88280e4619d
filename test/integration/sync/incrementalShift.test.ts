/**
 * An incremental pull reads the changed records by page number, oldest change first. A record
 * changed again while it pages moves from a page read to the list's end, and the record after each
 * page read since moves back onto that page: no page reads it. When the pull ends on a later day
 * than that record's change, the next pull (from the cursor's day) never reads it either.
 */
import { describe, expect, it } from 'vitest';
import { syncSession } from './syncSession';

const PAGE = 10;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Calls `change` (once per listing pass, or for every pass) before the changed records' page 2. */
async function session(changeEveryPass: boolean) {
  let change: (() => Promise<void>) | null = null;
  let changing: Promise<void> | null = null;
  /** The pass's first page, answered: the change comes after it. */
  let firstPage: Promise<Response> = Promise.resolve(new Response());
  let pass = 0;
  let changesPath = '';
  const s = await syncSession({
    emulator: { records: 300 },
    engine: { pageSize: PAGE },
    client: {
      fetch: async (input, init) => {
        const url = new URL(String(input));
        const changes =
          url.pathname.endsWith(changesPath) &&
          url.searchParams.get('sort_by') === 'ASC(last_updated_time)';
        if (change && changes) {
          const page = Number(url.searchParams.get('page') ?? 1);
          if (page === 1) {
            pass++;
            changing = null;
            firstPage = fetch(input, init);
            return firstPage;
          }
          // Every later page of the pass waits for the change, so none is read before it.
          if (changeEveryPass || pass === 1) {
            const now = change;
            changing ??= firstPage.then(now);
            await changing;
          }
        }
        return fetch(input, init);
      },
    },
  });
  expect((await s.engine.syncAccount(s.account).done).state).toBe('done');
  const portalId = s.emulator.portals[0]!;
  const path = (id: string) => `/portal/${portalId}/projects/assets/entities/${id}`;
  changesPath = `/portal/${portalId}/projects/assets/entities`;
  const ids = s.serverIds(portalId).get('assets')!.slice(0, 35);
  for (const [i, id] of ids.entries()) {
    expect((await s.call('PATCH', path(id), { name: `Changed ${i}` })).status).toBe(200);
  }
  let changed = 0;
  const arm = () =>
    (change = async () => {
      // A day later, a record of the first page changes again (another one each pass: the one
      // changed last is at the list's end already).
      await s.admin('POST', 'clock/advance', { ms: DAY_MS });
      const id = ids[changed]!;
      const name = `Changed again ${++changed}`;
      // As a colleague would (the test's own token has expired a day later).
      const reply = await s.admin('POST', 'record-change', {
        portal_id: portalId,
        module: 'assets',
        entity_id: id,
        changes: { name },
      });
      expect(reply.status).toBe(200);
    });
  /** The changed records whose name in the mirror is not the server's. */
  const stale = () => {
    const mirrored = s.store.db.prepare('SELECT name FROM records WHERE id = ?').pluck();
    const server = s.emulator.state.db.prepare('SELECT name FROM entities WHERE id = ?').pluck();
    return ids.filter((id) => mirrored.get(id) !== server.get(Number(id)));
  };
  const cursor = () =>
    s.store.db
      .prepare(
        `SELECT c.high_water FROM sync_cursors c JOIN modules m ON m.portal_id = c.portal_id AND m.id = c.module_id
         WHERE c.portal_id = ? AND m.api_name = 'assets'`,
      )
      .pluck()
      .get(portalId) as string | null;
  return { s, ids, arm, stale, cursor, changes: () => changed };
}

describe('an incremental pull whose records change while it pages', () => {
  it('reads again until a pass read every record it listed, then moves the cursor', async () => {
    const { s, arm, stale, cursor, changes, ids } = await session(false);
    arm();
    const result = await s.engine.syncAccount(s.account).done;
    expect(changes()).toBe(1);
    expect(result.state).toBe('done');
    expect(stale()).toEqual([]);
    const newest = s.store.db.prepare('SELECT last_updated_time FROM records WHERE id = ?');
    expect(cursor()).toBe(newest.pluck().get(ids[0]));
  });

  it('fails in words when they keep changing, and leaves the cursor where it was', async () => {
    const { s, arm, cursor, changes } = await session(true);
    const before = cursor();
    arm();
    const result = await s.engine.syncAccount(s.account).done;
    expect(changes()).toBeGreaterThanOrEqual(3);
    expect(result.state).not.toBe('done');
    expect(JSON.stringify(result)).toMatch(/kept changing while their changes were read/);
    expect(cursor()).toBe(before);
  });
});
