/**
 * Items of the recycle bin queued for a restore or a delete for good, one of which another admin
 * deletes for good on the service before the replay: the service refuses a request naming an item
 * its bin no longer holds, and the whole operation once failed on it, for good (a Retry met the
 * same refusal). The replay now sends only what the bin still lists: the others are restored or
 * deleted, and a restore says in words which item it could not bring back.
 */
import { describe, expect, it } from 'vitest';
import type { BinListArgs } from '../../../src/shared/ipc/areas/bin';
import { outboxSession } from '../outbox/outboxSession';
import { configureOn } from './configureSession';

const BY_NAME: BinListArgs['sort'] = { by: 'name', descending: false };

/** Three tasks trashed on the service and queued here, then the third purged there. */
async function purgedMeanwhile(action: 'restore' | 'delete') {
  const s = await outboxSession();
  const bin = configureOn(s).portalBin;
  const tasks = (
    s.emulator.state.db
      .prepare(
        `SELECT id FROM work_items WHERE portal_id = ? AND module = 'tasks' AND trashed_time IS NULL
         ORDER BY id LIMIT 3`,
      )
      .pluck()
      .all(Number(s.portalId)) as number[]
  ).map(String);
  const trashed = await s.call('POST', `/portal/${s.portalId}/trash`, {
    module: 'tasks',
    items: tasks,
  });
  expect(trashed.status).toBe(200);
  const listed = await bin.list({ portalId: s.portalId, sort: BY_NAME, refresh: true });
  const purgedName = listed.items.find((item) => item.id === tasks[2])!.name;

  s.outbox.setWorkOffline(true);
  bin.queueItems(
    s.portalId,
    action,
    tasks.map((id) => ({ module: 'tasks', id })),
  );
  const purged = await s.call('DELETE', `/portal/${s.portalId}/bin`, [
    { module: 'tasks', items: [tasks[2]] },
  ]);
  expect(purged.status).toBe(200);
  s.outbox.setWorkOffline(false);
  await s.outbox.idle();
  const row = (id: string) =>
    s.emulator.state.db
      .prepare('SELECT trashed_time FROM work_items WHERE id = ?')
      .get(Number(id)) as { trashed_time: string | null } | undefined;
  const [note] = s.outbox.historyPage({}, 0, 1).entries.map((entry) => entry.note);
  const notices = s.events.flatMap(({ payload }) => {
    const notice = (payload as { notice?: { kind: string; message: string } | null }).notice;
    return notice?.kind === 'attention' ? [notice.message] : [];
  });
  return { s, tasks, row, note, notices, purgedName };
}

describe('the recycle bin changed on the service before the replay', () => {
  it('restores the items still there and names the one it could not', async () => {
    const { s, tasks, row, notices, purgedName } = await purgedMeanwhile('restore');
    expect(s.outbox.list()).toEqual([]);
    expect([row(tasks[0]!), row(tasks[1]!), row(tasks[2]!)]).toEqual([
      { trashed_time: null },
      { trashed_time: null },
      undefined,
    ]);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toContain(`“${purgedName}” could not be restored`);
  });

  it('deletes for good the items still there; the purged one is already as wanted', async () => {
    const { s, tasks, row, note, notices, purgedName } = await purgedMeanwhile('delete');
    expect(s.outbox.list()).toEqual([]);
    expect(tasks.map(row)).toEqual([undefined, undefined, undefined]);
    expect(note).toContain(`“${purgedName}” was already gone`);
    expect(notices).toEqual([]);
  });
});
