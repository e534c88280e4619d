/**
 * Queued record changes and queued changes of their module's statuses. A record change names its
 * status by id in the request (the spec's `status {id}`), so the service never refuses it for a
 * rename, and bases are compared by id, so a rename is no conflict. But the change keeps the
 * status as the editor showed it (`{id, name, …}`), and the Outbox and the record editor read the
 * name from there and from the mirror: after a rename was queued (and after it was delivered)
 * they named the status by a name it no longer has. And a status removal was queued while a
 * record change moved a record into that status (the usage counts only the mirror's records):
 * removed first, the service then refused the record change.
 */
import { describe, expect, it } from 'vitest';
import { outboxSession } from '../outbox/outboxSession';
import { configureOn } from './configureSession';

async function setUp() {
  const s = await outboxSession();
  s.outbox.setWorkOffline(true);
  const configure = configureOn(s);
  const view = () => configure.choices.statuses(s.portalId, s.module.id);
  const statusField = (recordId: string) =>
    s.outbox.form(s.portalId, s.module.id, recordId).fields.find((f) => f.key === 'status')!;
  // A record and a status it may move to that no mirrored record is in (so it may be removed).
  for (const record of s.recordIds) {
    const offered = statusField(record).statuses;
    const target = offered.slice(1).find((option) => {
      const status = view().statuses.find((candidate) => candidate.id === option.id)!;
      return status.records === 0 && status.timelineUses === 0 && !status.isDefault;
    });
    if (target) {
      const changeStatuses = (args: {
        update?: { id: string; name: string }[];
        remove?: string[];
      }) =>
        configure.choices.changeStatuses({ portalId: s.portalId, moduleId: s.module.id, ...args });
      const recordOp = () => s.outbox.list().find((entry) => entry.kind === 'update')!;
      const mineName = () =>
        (recordOp().fields.find((f) => f.field === 'status')!.mine as { name: string }).name;
      const configOps = () => s.outbox.list().filter((entry) => entry.kind === 'config');
      return {
        s,
        record,
        target,
        changeStatuses,
        recordOp,
        mineName,
        configOps,
        statusField,
        view,
      };
    }
  }
  throw new Error('No record may move to a status no record is in');
}

const drain = async (s: Awaited<ReturnType<typeof outboxSession>>) => {
  s.outbox.setWorkOffline(false);
  for (let i = 0; i < 500 && s.outbox.status().total > 0; i++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  await s.outbox.idle();
};

describe('a record change moving a record into a status, and that status renamed', () => {
  it('is named by the status as the queue leaves it, back on discard, and goes without conflict', async () => {
    const { s, record, target, changeStatuses, mineName, configOps, statusField } = await setUp();
    s.outbox.edit(s.portalId, record, { status: target.id });
    expect(mineName()).toBe(target.name);

    changeStatuses({ update: [{ id: target.id, name: 'Renamed status' }] });
    // The Outbox and the editor name it as the rename leaves it, as the Configure view does.
    expect(mineName()).toBe('Renamed status');
    const offered = statusField(record).statuses.find((option) => option.id === target.id)!;
    expect(offered.name).toBe('Renamed status');
    expect(s.outbox.form(s.portalId, s.module.id, record).values.status).toMatchObject({
      id: target.id,
      name: 'Renamed status',
    });

    // Discarded, the rename takes its name with it.
    s.outbox.discard(configOps()[0]!.id);
    expect(mineName()).toBe(target.name);

    changeStatuses({ update: [{ id: target.id, name: 'Renamed status' }] });
    await drain(s);
    expect(s.outbox.list()).toEqual([]);
    const served = (await s.serverRecord(record)).status as { id: string; name: string };
    expect(served).toMatchObject({ id: target.id, name: 'Renamed status' });
  });

  it('stays named by the new name once the rename was delivered and the record change held', async () => {
    const { s, record, target, changeStatuses, mineName, recordOp } = await setUp();
    s.outbox.edit(s.portalId, record, { status: target.id });
    changeStatuses({ update: [{ id: target.id, name: 'Delivered name' }] });
    // The record change is refused once (a fault), the rename delivered before it.
    s.setFault((method, url) =>
      method === 'PATCH' && url.pathname.endsWith(s.path(record)) ? 'refuse' : 'pass',
    );
    s.outbox.setWorkOffline(false);
    for (let i = 0; i < 500 && s.outbox.list().some((e) => e.kind === 'config'); i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    s.outbox.setWorkOffline(true);
    await s.outbox.idle();
    expect(recordOp()).toBeDefined();
    expect(mineName()).toBe('Delivered name');
    s.setFault(() => 'pass');
    await drain(s);
    expect(s.outbox.list()).toEqual([]);
  });
});

describe('a status removal while a record change moves a record into it', () => {
  it('is refused in words, nothing queued; the record change then goes', async () => {
    const { s, record, target, changeStatuses, configOps } = await setUp();
    s.outbox.edit(s.portalId, record, { status: target.id });
    expect(() => changeStatuses({ remove: [target.id] })).toThrow(
      new RegExp(
        `record change waiting in the Outbox moves its record to “${target.name}”.*Nothing was queued`,
        's',
      ),
    );
    expect(configOps()).toEqual([]);
    await drain(s);
    expect(s.outbox.list()).toEqual([]);
    expect(((await s.serverRecord(record)).status as { id: string }).id).toBe(target.id);
  });

  it('once queued, takes the status out of what the editor offers', async () => {
    const { s, record, target, changeStatuses, statusField } = await setUp();
    changeStatuses({ remove: [target.id] });
    expect(statusField(record).statuses.map((option) => option.id)).not.toContain(target.id);
    expect(() => s.outbox.edit(s.portalId, record, { status: target.id })).toThrow(/status/i);
  });
});
