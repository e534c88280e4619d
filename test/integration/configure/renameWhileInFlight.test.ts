/**
 * An option renamed while a record edit naming it is in flight (sent, its answer not back). Its
 * body has left with the old name, so it is not rewritten; the rename waits until the edit
 * settles. Delivered, the service relabels the record with the rename. Not delivered (no answer,
 * an answer lost after the service applied it), the edit goes again after the rename: it must
 * follow the rename then, or the service refuses the name it no longer has, or takes the name
 * it relabelled for a change made by someone else.
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

async function renameWhileSent(outcome: Outcome, swapped = false) {
  const s = await outboxSession();
  const configure = configureOn(s);
  const category = configure
    .fields(s.portalId, s.module.id)
    .fields.find((f) => f.apiName === 'cf_category')!;
  const [record] = s.recordsWithField('cf_category') as [string];
  const held = (await s.serverRecord(record)).cf_category as string | null;
  const chosen = configure
    .fieldOptions(s.portalId, s.module.id, category.id)
    .options.find((o) => o.name !== held)!;
  const { inFlight, release } = holdFirstPatch(s, record, outcome);

  s.outbox.edit(s.portalId, record, { cf_category: chosen.name });
  await inFlight;
  const [sending] = s.outbox.repo.allOps();
  expect(sending).toMatchObject({ state: 'sending', recordId: record });
  const rename = (renames: { id: string; name: string }[]) =>
    configure.changeOptions({
      portalId: s.portalId,
      moduleId: s.module.id,
      fieldId: category.id,
      rename: renames,
    });
  let expected = 'Renamed while sent';
  if (swapped) {
    // Swapped with another option, then that other's old name (now the chosen one's) renamed
    // again: the edit follows both, in order, and keeps the chosen option.
    const other = configure
      .fieldOptions(s.portalId, s.module.id, category.id)
      .options.find((o) => o.id !== chosen.id)!;
    rename([
      { id: chosen.id, name: other.name },
      { id: other.id, name: chosen.name },
    ]);
    rename([{ id: other.id, name: 'Renamed while sent' }]);
    expected = other.name;
  } else {
    rename([{ id: chosen.id, name: 'Renamed while sent' }]);
  }
  // The body in flight is not rewritten, and the rename waits for its answer.
  expect(s.outbox.repo.op(sending!.seq)).toEqual(sending);
  expect(s.writes().filter((w) => w.url.pathname.endsWith('/settings/options'))).toEqual([]);

  release();
  await until(
    () => s.outbox.status().total === 0,
    () => `the outbox to empty (${outcome}): ${JSON.stringify(s.outbox.list())}`,
  );
  expect((await s.serverRecord(record)).cf_category).toBe(expected);
  const mirrored = s.mirror.localEdits.record(s.portalId, record)!;
  expect((JSON.parse(mirrored.custom) as Record<string, unknown>).cf_category).toBe(expected);
}

describe('an option renamed while a record edit naming it is in flight', () => {
  it.each<Outcome>(['answered', 'unanswered', 'answer lost'])(
    'waits for the edit, and the record ends with the new name (%s)',
    async (outcome) => {
      await renameWhileSent(outcome);
    },
  );

  it('follows two renames queued while it was in flight, in their order (a swap, then one)', async () => {
    await renameWhileSent('unanswered', true);
  });
});

describe('a rename discarded while a record edit naming its option is in flight', () => {
  // The edit left before the rename was queued, so it names the option as the service keeps it;
  // discarding the rename (or emptying a chain that renames it back) leaves it nothing to follow.
  it.each([
    ['the rename discarded', false],
    ['a rename back after it, the first discarded (the chain emptied)', true],
  ])('goes undelivered, then by the name the service keeps (%s)', async (_, back) => {
    const s = await outboxSession();
    const configure = configureOn(s);
    const category = configure
      .fields(s.portalId, s.module.id)
      .fields.find((f) => f.apiName === 'cf_category')!;
    const [record] = s.recordsWithField('cf_category') as [string];
    const held = (await s.serverRecord(record)).cf_category as string | null;
    const chosen = configure
      .fieldOptions(s.portalId, s.module.id, category.id)
      .options.find((o) => o.name !== held)!;
    const { inFlight, release } = holdFirstPatch(s, record, 'unanswered');
    s.outbox.edit(s.portalId, record, { cf_category: chosen.name });
    await inFlight;
    const rename = (name: string) =>
      configure.changeOptions({
        portalId: s.portalId,
        moduleId: s.module.id,
        fieldId: category.id,
        rename: [{ id: chosen.id, name }],
      });
    rename('Renamed while sent');
    if (back) rename(chosen.name);
    const [first] = s.outbox.repo.allOps().filter((op) => op.kind === 'config');
    s.outbox.discard(first!.seq);
    expect(s.outbox.repo.allOps().filter((op) => op.kind === 'config')).toEqual([]);
    release();
    await until(
      () => s.outbox.status().total === 0,
      () => `the outbox to empty: ${JSON.stringify(s.outbox.list())}`,
    );
    expect((await s.serverRecord(record)).cf_category).toBe(chosen.name);
  });
});
