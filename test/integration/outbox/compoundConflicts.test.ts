/**
 * A compound value (a users list, a multi-select, a currency's code and amount) changed here while
 * offline and on the service meanwhile: the emulator's final value is compared with what the
 * parts say it must be. The parts nobody here touched stay as the service has them, an item
 * someone else added is never removed by my edit, and a send whose answer was lost is not sent
 * twice.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { outboxSession } from './outboxSession';

type Session = Awaited<ReturnType<typeof outboxSession>>;

/** What both changes leave, item by item: kept unless I removed it, or added by either side. */
function bothChanges(base: string[], mine: string[], theirs: string[]): string[] {
  const removed = base.filter((x) => !mine.includes(x));
  const added = mine.filter((x) => !base.includes(x));
  return [...new Set([...theirs.filter((x) => !removed.includes(x)), ...added])].sort();
}

const sorted = (list: string[]) => list.slice().sort().join('\n');

async function tagOptions(s: Session): Promise<string[]> {
  return s.store.db
    .prepare(
      `SELECT DISTINCT o.value FROM field_options o
       JOIN fields f ON f.portal_id = o.portal_id AND f.id = o.field_id
       WHERE f.portal_id = ? AND f.api_name = 'cf_tags' ORDER BY o.value`,
    )
    .pluck()
    .all(s.portalId) as string[];
}

async function watcherIds(s: Session, ids: string[]): Promise<string[]> {
  const seen = new Set<string>();
  for (const id of ids.slice(0, 10)) {
    for (const u of ((await s.serverRecord(id))?.cf_watchers ?? []) as { zpuid: string }[]) {
      seen.add(u.zpuid);
    }
  }
  return [...seen].sort();
}

describe('compound values changed here and on the service', () => {
  it('a multi-select and a users list end with both changes, whatever items each side added or removed', async () => {
    const s = await outboxSession();
    const records = s
      .recordsWithField('cf_tags')
      .filter((id) => s.recordsWithField('cf_watchers').includes(id));
    const tags = await tagOptions(s);
    const users = await watcherIds(s, records);
    expect(tags.length).toBeGreaterThanOrEqual(4);
    expect(users.length).toBeGreaterThanOrEqual(4);
    let next = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.subarray(tags),
        fc.subarray(tags),
        fc.subarray(users),
        fc.subarray(users),
        async (myTags, theirTags, myUsers, theirUsers) => {
          const id = records[next++ % records.length]!;
          const before = await s.serverRecord(id);
          const baseTags = (before.cf_tags ?? []) as string[];
          const baseUsers = ((before.cf_watchers ?? []) as { zpuid: string }[]).map((u) => u.zpuid);
          s.outbox.setWorkOffline(true);
          const changes: Record<string, unknown> = {};
          if (sorted(myTags) !== sorted(baseTags)) changes.cf_tags = myTags;
          if (sorted(myUsers) !== sorted(baseUsers))
            changes.cf_watchers = myUsers.map((zpuid) => ({ zpuid }));
          // A run that changes nothing here queues nothing, so nothing reads the record again:
          // the mirror would keep a base older than the service's for the record's next run.
          fc.pre(Object.keys(changes).length > 0);
          s.outbox.edit(s.portalId, id, changes);
          // Another client replaces both lists while this one is offline.
          await s.serverPatch(id, {
            cf_tags: theirTags,
            cf_watchers: theirUsers.map((zpuid) => ({ zpuid })),
          });
          s.outbox.setWorkOffline(false);
          await s.outbox.idle();

          expect(s.outbox.list()).toEqual([]); // nothing to ask: the changes do not clash
          const after = await s.serverRecord(id);
          const mineT = 'cf_tags' in changes ? myTags : baseTags;
          const mineU = 'cf_watchers' in changes ? myUsers : baseUsers;
          expect(((after.cf_tags ?? []) as string[]).slice().sort()).toEqual(
            bothChanges(baseTags, mineT, theirTags),
          );
          expect(
            ((after.cf_watchers ?? []) as { zpuid: string }[]).map((u) => u.zpuid).sort(),
          ).toEqual(bothChanges(baseUsers, mineU, theirUsers));
          // The mirror shows what the service holds, with no pending value over it.
          expect(
            s.store.db
              .prepare('SELECT count(*) FROM record_edits WHERE record_id = ?')
              .pluck()
              .get(id),
          ).toBe(0);
        },
      ),
      { numRuns: 12 },
    );
  });

  it('a users list: an item added there survives my addition, and a lost answer is not sent twice', async () => {
    const s = await outboxSession();
    const id = s.recordsWithField('cf_watchers')[0]!;
    const users = await watcherIds(s, s.recordsWithField('cf_watchers'));
    const base = ((await s.serverRecord(id)).cf_watchers as { zpuid: string }[]).map(
      (u) => u.zpuid,
    );
    const [mineAdds, theirsAdds] = users.filter((z) => !base.includes(z));
    s.outbox.setWorkOffline(true);
    s.outbox.edit(s.portalId, id, {
      cf_watchers: [...base, mineAdds!].map((zpuid) => ({ zpuid })),
    });
    await s.serverPatch(id, { cf_watchers: [{ add: [{ zpuid: theirsAdds }], remove: [] }] });
    s.setFault((method, url) =>
      method === 'PATCH' && url.pathname.endsWith(`/${id}`) ? 'lose-answer' : 'pass',
    );
    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    const expected = [...base, mineAdds!, theirsAdds!].sort();
    const held = async () =>
      ((await s.serverRecord(id)).cf_watchers as { zpuid: string }[]).map((u) => u.zpuid).sort();
    expect(await held()).toEqual(expected); // applied; its answer was lost

    s.setFault(() => 'pass');
    s.outbox.retry();
    await s.outbox.idle();
    expect(s.outbox.list()).toEqual([]);
    expect(await held()).toEqual(expected);
    const patches = s
      .writes()
      .filter((w) => w.method === 'PATCH' && w.url.pathname.endsWith(`/${id}`));
    expect(patches).toHaveLength(1);
  });

  it('a currency: my amount under their code; a clash on the amount asks, and "keep mine" keeps their code', async () => {
    const s = await outboxSession();
    const costOf = async (id: string) =>
      (await s.serverRecord(id)).cf_cost as { currency_code: string; amount: number } | null;
    const priced: string[] = [];
    for (const id of s.recordsWithField('cf_cost')) if (await costOf(id)) priced.push(id);
    const [a, b] = priced as [string, string];
    const [costA, costB] = [(await costOf(a))!, (await costOf(b))!];
    const other = (code: string) => (code === 'EUR' ? 'GBP' : 'EUR');
    s.outbox.setWorkOffline(true);
    s.outbox.edit(s.portalId, a, { cf_cost: 77 });
    s.outbox.edit(s.portalId, b, { cf_cost: 88 });
    // There: a's code changed alone; b's code and amount.
    await s.serverPatch(a, {
      cf_cost: { currency_code: other(costA.currency_code), amount: costA.amount },
    });
    await s.serverPatch(b, { cf_cost: { currency_code: other(costB.currency_code), amount: 5 } });
    s.outbox.setWorkOffline(false);
    await s.outbox.idle();

    expect(await costOf(a)).toMatchObject({
      currency_code: other(costA.currency_code),
      amount: 77,
    });
    const [op] = s.outbox.list();
    expect(op).toMatchObject({ recordId: b, state: 'conflict' });
    // The Outbox shows as "mine" what keeping mine writes: my amount, their code.
    expect(op!.conflict!.fields).toEqual([
      expect.objectContaining({
        field: 'cf_cost',
        mine: expect.objectContaining({ currency_code: other(costB.currency_code), amount: 88 }),
        theirs: expect.objectContaining({ currency_code: other(costB.currency_code), amount: 5 }),
      }),
    ]);
    s.outbox.resolve(op!.id, [{ field: 'cf_cost', choice: 'mine' }]);
    await s.outbox.idle();
    expect(s.outbox.list()).toEqual([]);
    expect(await costOf(b)).toMatchObject({
      currency_code: other(costB.currency_code),
      amount: 88,
    });
  });
});
