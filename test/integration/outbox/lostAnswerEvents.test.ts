/**
 * Each change the outbox delivers feeds the event router once (issue 7: Create, Update, Delete).
 * An update or a trash whose answer was lost is found applied by the retry's read, and nothing is
 * sent again: it was still delivered by us, so its event is raised then, once.
 */
import { describe, expect, it } from 'vitest';
import type { ReplayedChange } from '../../../src/main/outbox/outboxEvents';
import { outboxSession } from './outboxSession';

type Session = Awaited<ReturnType<typeof outboxSession>>;

/** The first write of `method` to a path ending so reaches the service; its answer is lost. */
function loseFirst(s: Session, method: string, ending: string) {
  let sent = 0;
  s.setFault((m, url) =>
    m === method && url.pathname.endsWith(ending) && sent++ === 0 ? 'lose-answer' : 'pass',
  );
}

async function replayThroughLostAnswer(s: Session): Promise<ReplayedChange[]> {
  const changes: ReplayedChange[] = [];
  s.outbox.onReplayed({ onReplayed: (change) => changes.push(change) });
  s.outbox.setWorkOffline(false);
  await s.outbox.idle();
  expect(s.outbox.list()).toMatchObject([{ uncertain: true }]);
  s.outbox.retry();
  await s.outbox.idle();
  expect(s.outbox.list()).toEqual([]);
  return changes;
}

describe('events of changes whose answer was lost', () => {
  it('an update found applied by the retry is told once', async () => {
    const s = await outboxSession();
    const id = s.recordIds[0]!;
    s.outbox.setWorkOffline(true);
    s.outbox.edit(s.portalId, id, { cf_quantity: 77 });
    loseFirst(s, 'PATCH', `/${id}`);
    const changes = await replayThroughLostAnswer(s);
    expect(s.writes().filter((w) => w.method === 'PATCH')).toHaveLength(1);
    expect(changes.map((c) => [c.kind, c.recordId, c.data.fields])).toEqual([
      ['update', id, ['cf_quantity']],
    ]);
    expect(changes[0]!.data.record).toMatchObject({ id, custom: { cf_quantity: 77 } });
  });

  it('a trash found done by the retry is told once', async () => {
    const s = await outboxSession();
    const id = s.recordIds[1]!;
    s.outbox.setWorkOffline(true);
    s.outbox.trash(s.portalId, id, false);
    loseFirst(s, 'POST', `/${id}/trash`);
    const changes = await replayThroughLostAnswer(s);
    expect(s.writes().filter((w) => w.url.pathname.endsWith('/trash'))).toHaveLength(1);
    expect(changes.map((c) => [c.kind, c.recordId])).toEqual([['delete', id]]);
  });

  it('a value the service already had, set there by someone else, is not told as ours', async () => {
    const s = await outboxSession();
    const id = s.recordIds[2]!;
    s.outbox.setWorkOffline(true);
    s.outbox.edit(s.portalId, id, { cf_quantity: 55 });
    await s.serverPatch(id, { cf_quantity: 55 });
    const changes: ReplayedChange[] = [];
    s.outbox.onReplayed({ onReplayed: (change) => changes.push(change) });
    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    expect(s.outbox.list()).toEqual([]);
    expect(s.writes()).toEqual([]);
    expect(changes).toEqual([]);
  });
});
