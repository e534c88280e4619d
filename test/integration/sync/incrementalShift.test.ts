/**
 * An incremental pull reads the changed records as a scan in id order (syncModuleRecords.ts): a
 * record changed again while it reads stays where it was in the list, so nothing shifts. One
 * changed behind the reading point is read by the next pull: the cursor stops at the newest
 * change before the pull began, even when the pull ends on a later day than that change.
 */
import { describe, expect, it } from 'vitest';
import { syncSession } from './syncSession';

const PAGE = 10;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Calls `change` once per listing of the changes, before its second window. */
async function session() {
  let change: (() => Promise<void>) | null = null;
  let changing: Promise<void> | null = null;
  let changesPath = '';
  const s = await syncSession({
    emulator: { records: 300 },
    engine: { pageSize: PAGE },
    client: {
      fetch: async (input, init) => {
        const url = new URL(String(input));
        const changes = url.pathname.endsWith(changesPath) && url.searchParams.has('filter');
        if (change && changes) {
          const index = Number(url.searchParams.get('index') ?? 1);
          if (index === 1) changing = null;
          else {
            const now = change;
            changing ??= now();
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
      // A day later, a record of the first window changes again (another one each listing).
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
  const stop = () => (change = null);
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
  const serverTime = (id: string) =>
    s.emulator.state.db
      .prepare('SELECT last_updated_time FROM entities WHERE id = ?')
      .pluck()
      .get(Number(id)) as string;
  return { s, ids, arm, stop, stale, cursor, serverTime, changes: () => changed };
}

describe('an incremental pull whose records change while it reads', () => {
  it('reads every changed record, and the next pull the one changed behind its reading point', async () => {
    const { s, ids, arm, stop, stale, cursor, serverTime, changes } = await session();
    arm();
    const result = await s.engine.syncAccount(s.account).done;
    expect(changes()).toBe(1);
    expect(result.state).toBe('done');
    // Only the record changed after the scan read it may be behind; the cursor is not past it.
    expect(stale().filter((id) => id !== ids[0])).toEqual([]);
    expect(Date.parse(cursor()!)).toBeLessThan(Date.parse(serverTime(ids[0]!)));
    expect(cursor()).toBe(serverTime(ids[34]!));

    stop();
    expect((await s.engine.syncAccount(s.account).done).state).toBe('done');
    expect(stale()).toEqual([]);
    expect(cursor()).toBe(serverTime(ids[0]!));
  });

  it('is done however often they change, and misses none of them', async () => {
    const { s, arm, stop, stale, changes } = await session();
    arm();
    for (let sync = 1; sync <= 3; sync++) {
      expect((await s.engine.syncAccount(s.account).done).state).toBe('done');
    }
    expect(changes()).toBeGreaterThanOrEqual(2);
    stop();
    expect((await s.engine.syncAccount(s.account).done).state).toBe('done');
    expect(stale()).toEqual([]);
  });
});
