/**
 * The portal's recycle bin against the emulator: read and kept (shown as last read when it cannot
 * be read), filtered and sorted here, restores and deletes checked against it and queued, replayed
 * exactly once (a restore whose answer was lost is not sent again for items already out), and
 * emptied only when the portal is named.
 */
import { describe, expect, it } from 'vitest';
import type { BinListArgs } from '../../../src/shared/ipc/areas/bin';
import { outboxSession } from '../outbox/outboxSession';
import { configureOn } from './configureSession';

const BY_NAME: BinListArgs['sort'] = { by: 'name', descending: false };

describe('the portal recycle bin', () => {
  it('lists, queues restores and deletes, replays them once, and empties when named', async () => {
    const s = await outboxSession();
    const configure = configureOn(s);
    const bin = configure.portalBin;
    const workItems = (module: string) =>
      s.emulator.state.db
        .prepare(
          `SELECT id, name FROM work_items WHERE portal_id = ? AND module = ? AND trashed_time IS NULL
           ORDER BY id LIMIT 3`,
        )
        .all(Number(s.portalId), module) as { id: number; name: string }[];
    const tasks = workItems('tasks');
    const [issue] = workItems('issues');
    expect(tasks).toHaveLength(3);
    for (const [module, ids] of [
      ['tasks', tasks.map((t) => String(t.id))],
      ['issues', [String(issue!.id)]],
    ] as const) {
      const reply = await s.call('POST', `/portal/${s.portalId}/trash`, { module, items: ids });
      expect(reply.status).toBe(200);
    }

    const listed = await bin.list({ portalId: s.portalId, sort: BY_NAME, refresh: true });
    expect(listed.total).toBe(4);
    expect(listed.problem).toBeNull();
    expect(listed.readAt).not.toBeNull();
    expect(listed.items.map((item) => item.name)).toEqual(
      [...tasks.map((t) => t.name), issue!.name].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
    );
    expect(listed.items.every((item) => item.daysLeft === 29 || item.daysLeft === 30)).toBe(true);
    const issuesOnly = await bin.list({
      portalId: s.portalId,
      sort: BY_NAME,
      filter: { module: 'issues' },
      refresh: false,
    });
    expect(issuesOnly.items.map((item) => item.id)).toEqual([String(issue!.id)]);

    s.outbox.setWorkOffline(true);
    const [t1, t2, t3] = tasks.map((t) => String(t.id)) as [string, string, string];
    bin.queueItems(s.portalId, 'restore', [{ module: 'tasks', id: t1 }]);
    bin.queueItems(s.portalId, 'delete', [{ module: 'tasks', id: t2 }]);
    expect(() => bin.queueItems(s.portalId, 'restore', [{ module: 'tasks', id: t1 }])).toThrow(
      /already has a restore queued/,
    );
    expect(() =>
      bin.queueItems(s.portalId, 'restore', [{ module: 'tasks', id: '999999' }]),
    ).toThrow(/not in the recycle bin as last read/);
    const pending = await bin.list({ portalId: s.portalId, sort: BY_NAME, refresh: false });
    expect(pending.items.find((item) => item.id === t1)!.pending).toBe('restore');
    expect(pending.items.find((item) => item.id === t2)!.pending).toBe('delete');
    expect(s.outbox.list().map((entry) => entry.config?.summary)).toEqual([
      'Restore 1 item from the recycle bin',
      'Delete 1 item in the recycle bin for good',
    ]);

    // The restore reaches the service, its answer does not; the retry sends nothing more.
    s.setFault((method, url) =>
      method === 'POST' && url.pathname.endsWith('/bin/restore') ? 'lose-answer' : 'pass',
    );
    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    s.setFault(() => 'pass');
    s.outbox.retry();
    await s.outbox.idle();
    expect(s.outbox.list()).toEqual([]);
    const trashedOf = (id: string) =>
      s.emulator.state.db
        .prepare('SELECT trashed_time FROM work_items WHERE id = ?')
        .get(Number(id)) as { trashed_time: string | null } | undefined;
    expect(trashedOf(t1)).toEqual({ trashed_time: null });
    expect(trashedOf(t2)).toBeUndefined();
    const after = await bin.list({ portalId: s.portalId, sort: BY_NAME, refresh: false });
    expect(after.items.map((item) => item.id).sort()).toEqual([t3, String(issue!.id)].sort());

    // Signed out: the list as last read, and why.
    const offline = configureOn({ ...s, client: undefined as never });
    const kept = await offline.portalBin.list({
      portalId: s.portalId,
      sort: BY_NAME,
      refresh: true,
    });
    expect(kept.problem).toMatch(/signed out/);
    expect(kept.total).toBe(2);

    expect(() => bin.empty(s.portalId, 'not the name')).toThrow(/Type the portal's name/);
    const portalName = s.mirror.metadata.portal(s.portalId)!.name;
    bin.empty(s.portalId, ` ${portalName} `);
    expect(
      (await bin.list({ portalId: s.portalId, sort: BY_NAME, refresh: false })).emptyQueued,
    ).toBe(true);
    await s.outbox.idle();
    const emptied = await bin.list({ portalId: s.portalId, sort: BY_NAME, refresh: true });
    expect(emptied.total).toBe(0);
    expect(trashedOf(t3)).toBeUndefined();
  });
});
