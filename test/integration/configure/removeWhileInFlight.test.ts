/**
 * An option removed while a record edit based on it is in flight (sent, its answer not back):
 * the record held the option, the edit chooses another. Its body has left, so it is not
 * rewritten, and the removal waits until it settles. Not delivered (no answer), the edit goes
 * again after the removal, which cleared the option from the record on the service: its base
 * must be cleared too, or it meets the cleared value as someone else's change (a false
 * conflict). Discarding the removal afterwards puts the base back.
 */
import { describe, expect, it } from 'vitest';
import { outboxSession } from '../outbox/outboxSession';
import { configureOn } from './configureSession';
import { holdFirstPatch, type Outcome } from './heldPatch';

const until = async (check: () => boolean, what: () => string) => {
  for (let i = 0; i < 500; i++) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`Timed out waiting for ${what()}`);
};

/** An edit of a record holding an option, held in flight while that option's removal is queued. */
async function removeWhileSent(outcome: Outcome) {
  const s = await outboxSession();
  const configure = configureOn(s);
  const category = configure
    .fields(s.portalId, s.module.id)
    .fields.find((f) => f.apiName === 'cf_category')!;
  const mirrored = (id: string) =>
    (JSON.parse(s.mirror.localEdits.record(s.portalId, id)!.custom) as Record<string, unknown>)
      .cf_category;
  const record = s.recordsWithField('cf_category').find((id) => mirrored(id) !== null)!;
  const held = mirrored(record) as string;
  const options = configure.fieldOptions(s.portalId, s.module.id, category.id).options;
  const removed = options.find((o) => o.name === held)!;
  const chosen = options.find((o) => o.name !== held)!;
  const { inFlight, release } = holdFirstPatch(s, record, outcome);

  s.outbox.edit(s.portalId, record, { cf_category: chosen.name });
  await inFlight;
  const [sending] = s.outbox.repo.allOps();
  expect(sending).toMatchObject({ state: 'sending', recordId: record });
  expect(sending!.fields.cf_category).toEqual({ value: chosen.name, base: held });
  configure.changeOptions({
    portalId: s.portalId,
    moduleId: s.module.id,
    fieldId: category.id,
    remove: [removed.id],
  });
  // The body in flight is not rewritten, and the removal waits for its answer.
  expect(s.outbox.repo.op(sending!.seq)).toEqual(sending);
  expect(s.writes().filter((w) => w.url.pathname.endsWith('/settings/options'))).toEqual([]);
  return { s, record, chosen, held, sending: sending!, release };
}

describe('an option removed while a record edit based on it is in flight', () => {
  it.each<Outcome>(['answered', 'unanswered', 'answer lost'])(
    'waits for the edit, and the edit goes through after the removal (%s)',
    async (outcome) => {
      const { s, record, chosen, release } = await removeWhileSent(outcome);
      release();
      await until(
        () => s.outbox.status().total === 0,
        () => `the outbox to empty (${outcome}): ${JSON.stringify(s.outbox.list())}`,
      );
      expect((await s.serverRecord(record)).cf_category).toBe(chosen.name);
    },
  );

  it('gets its base back when the removal is discarded after the edit settled', async () => {
    const { s, held, sending, release } = await removeWhileSent('unanswered');
    // Offline once the edit is back undelivered: nothing goes while the removal is looked at.
    s.setFault(() => 'refuse');
    release();
    await until(
      () => s.outbox.repo.op(sending.seq)?.state !== 'sending',
      () => 'the edit to settle',
    );
    await until(
      () => s.outbox.repo.op(sending.seq)?.fields.cf_category?.base === null,
      () => `the edit's base to be cleared: ${JSON.stringify(s.outbox.repo.op(sending.seq))}`,
    );
    const removal = s.outbox.repo.allOps().find((op) => op.action === 'option.removeOptions')!;
    s.outbox.discard(removal.seq);
    expect(s.outbox.repo.op(sending.seq)!.fields.cf_category!.base).toBe(held);
  });
});

describe('an option removed while a record edit in flight will hold it by a rename queued since', () => {
  /** An edit choosing an option, held in flight; the option then renamed. */
  async function renamedWhileSent() {
    const s = await outboxSession();
    const configure = configureOn(s);
    const category = configure
      .fields(s.portalId, s.module.id)
      .fields.find((f) => f.apiName === 'cf_category')!;
    const options = () => configure.fieldOptions(s.portalId, s.module.id, category.id).options;
    const [record] = s.recordsWithField('cf_category') as [string];
    const held = (await s.serverRecord(record)).cf_category as string | null;
    const chosen = options().find((o) => o.name !== held)!;
    const other = options().find((o) => o.id !== chosen.id && o.name !== held)!;
    const { inFlight, release } = holdFirstPatch(s, record, 'unanswered');
    s.outbox.edit(s.portalId, record, { cf_category: chosen.name });
    await inFlight;
    const change = (args: { rename?: { id: string; name: string }[]; remove?: string[] }) =>
      configure.changeOptions({
        portalId: s.portalId,
        moduleId: s.module.id,
        fieldId: category.id,
        ...args,
      });
    change({ rename: [{ id: chosen.id, name: 'Renamed while sent' }] });
    return { s, record, chosen, other, change, options, release };
  }

  it('is refused in words: the edit follows the rename and would name an option gone', async () => {
    const { s, record, chosen, change, options, release } = await renamedWhileSent();
    const before = s.outbox.repo.allOps();
    expect(() => change({ remove: [chosen.id] })).toThrow(
      'A record change waiting in the Outbox holds “Renamed while sent” in Category; removed first, the option would be cleared from that record or the change refused. Nothing was queued; choose another option there, or send (go online) or discard it in the Outbox, then remove the option.',
    );
    expect(s.outbox.repo.allOps()).toEqual(before);
    expect(options().map((o) => o.id)).toContain(chosen.id);
    release();
    await until(
      () => s.outbox.status().total === 0,
      () => `the outbox to empty: ${JSON.stringify(s.outbox.list())}`,
    );
    expect((await s.serverRecord(record)).cf_category).toBe('Renamed while sent');
  });

  it('is not refused for the option that took the name the edit held before the rename', async () => {
    const { s, record, chosen, other, change, options, release } = await renamedWhileSent();
    change({ rename: [{ id: other.id, name: chosen.name }] });
    change({ remove: [other.id] });
    expect(options().map((o) => o.id)).not.toContain(other.id);
    release();
    await until(
      () => s.outbox.status().total === 0,
      () => `the outbox to empty: ${JSON.stringify(s.outbox.list())}`,
    );
    expect((await s.serverRecord(record)).cf_category).toBe('Renamed while sent');
  });
});
