/**
 * A status added offline and not delivered: the record editor used to leave it out of its status
 * picker without a word. A record cannot be set to it yet (its id is temporary until the add
 * answers, and the outbox rewrites temporary status ids in configuration changes only), so the
 * editor shows it apart, not selectable, with why; an edit naming it (by id or by name, as a bulk
 * edit or an import may) is refused in those words with nothing queued; renamed before it goes,
 * it is shown by its new name; once delivered it is a status like the others.
 */
import { describe, expect, it } from 'vitest';
import { outboxSession } from '../outbox/outboxSession';
import { configureOn } from './configureSession';

describe('a status added offline, in the record editor', () => {
  it('is shown apart with why it cannot be chosen yet, refused in words, and offered once sent', async () => {
    const s = await outboxSession();
    s.outbox.setWorkOffline(true);
    const configure = configureOn(s);
    const scope = { portalId: s.portalId, moduleId: s.module.id };
    const [record] = s.recordIds as [string];
    const statusField = () =>
      s.outbox.form(s.portalId, s.module.id, record).fields.find((f) => f.key === 'status')!;
    expect(statusField().waitingStatuses).toEqual([]);

    const current = configure.choices.statuses(s.portalId, s.module.id).statuses;
    const shown = configure.choices.changeStatuses({
      ...scope,
      add: [{ name: 'Reviw', color: '#2a64d6', closed: false, transitions: [] }],
    });
    const added = shown.statuses.find((status) => status.name === 'Reviw')!;
    expect(added.id).toMatch(/^tmp-st-/);
    // Renamed before it goes: shown by the name it will have.
    configure.choices.changeStatuses({ ...scope, update: [{ id: added.id, name: 'Review' }] });

    const field = statusField();
    expect(field.statuses.map((status) => status.id)).not.toContain(added.id);
    expect(field.waitingStatuses).toEqual([
      {
        id: added.id,
        name: 'Review',
        reason: expect.stringMatching(/“Review” is added in the Outbox and not sent yet/),
      },
    ]);
    const queued = s.outbox.list().length;
    for (const value of [added.id, 'Review']) {
      expect(() => s.outbox.edit(s.portalId, record, { status: value })).toThrow(
        /Nothing was queued: Status: “Review” is added in the Outbox and not sent yet: the service gives it its id when it is sent/,
      );
    }
    expect(s.outbox.list().length).toBe(queued);

    // Sent: the service gave it its id, and it is a status like the others.
    s.outbox.setWorkOffline(false);
    for (let i = 0; i < 500 && s.outbox.status().total > 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await s.outbox.idle();
    expect(s.outbox.list()).toEqual([]);
    const after = configure.choices.statuses(s.portalId, s.module.id).statuses;
    expect(after).toHaveLength(current.length + 1);
    expect(after.find((status) => status.name === 'Review')!.id).not.toMatch(/^tmp-/);
    expect(statusField().waitingStatuses).toEqual([]);
  });

  it('says so when the service refused the addition', async () => {
    const s = await outboxSession();
    const configure = configureOn(s);
    const scope = { portalId: s.portalId, moduleId: s.module.id };
    const [record] = s.recordIds as [string];
    s.outbox.setWorkOffline(true);
    configure.choices.changeStatuses({
      ...scope,
      add: [{ name: 'Parked', color: '#aa0000', closed: false, transitions: [] }],
    });
    // The service refuses the add (a status named so meanwhile there, but for case).
    s.emulator.state.db
      .prepare('UPDATE statuses SET name = ? WHERE module_id = ? AND is_default = 1')
      .run('PARKED', Number(s.module.id));
    s.outbox.setWorkOffline(false);
    for (let i = 0; i < 500 && !s.outbox.list().some((e) => e.state === 'failed'); i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await s.outbox.idle();
    const field = s.outbox
      .form(s.portalId, s.module.id, record)
      .fields.find((f) => f.key === 'status')!;
    expect(field.waitingStatuses).toEqual([
      expect.objectContaining({
        name: 'Parked',
        reason: expect.stringMatching(/“Parked” was not added: the service refused its addition/),
      }),
    ]);
  });
});
