/**
 * A confirmed import is queued whole or not at all ("nothing is queued until the user confirms",
 * "every change replayed exactly once"): killed half way, the next start names the import, what it
 * queued (held, none sent) and what not, and finishes it (no row queued twice: the outbox equals an
 * import never stopped) or takes it back (the outbox equals the one before the confirm, the user's
 * own queued edits included); a cancel while queuing takes back what was queued.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OutboxRepository } from '../../../src/main/outbox/outboxRepository';
import { tempDir } from '../../support/tempDir';
import { MODULE, PORTAL, record, recordsWorkspace } from '../records/workspace';
import { openFile, settled } from './importSteps';
import { outboxShape, snapshotWhileQueuing } from './importStopped';

type Workspace = ReturnType<typeof recordsWorkspace>;

/** The engine started again on `dataDir` (the copy a kill left, or the directory closed). */
const restartedOn = (dataDir: string): Workspace => recordsWorkspace({ dataDir });

const ready = (w: Workspace) =>
  new OutboxRepository(w.engine.store.db, Date.now).readyHeads(Date.now());
const overlay = (w: Workspace) =>
  w.engine.store.db
    .prepare('SELECT record_id, field, value, base_value FROM record_edits ORDER BY 1, 2')
    .all();

async function checked(w: Workspace, name: string, text: string, mode: 'create' | 'update') {
  const file = await openFile(w, name, text);
  await w.ok('records.importCheck', {
    importId: file.importId,
    targets: file.columns.map((c) => c.target),
    mode,
  });
  const state = await settled(w, file.importId);
  return { file, state };
}

const newRows = (n: number) =>
  `name,cf_tags\r\n${Array.from({ length: n }, (_, i) => `Asset ${i},Critical\r\n`).join('')}`;

describe('an import stopped half way by the app’s end', () => {
  it('is named at the next start, held from the replay, and finished without a row queued twice', async () => {
    const total = 400;
    const w = recordsWorkspace();
    const { file } = await checked(w, 'many.csv', newRows(total), 'create');
    const copied = snapshotWhileQueuing(w, 151);
    await w.ok('records.importConfirm', { importId: file.importId });
    expect(await settled(w, file.importId)).toMatchObject({ phase: 'queued', ready: total });
    const whole = outboxShape(w);
    const b = restartedOn(copied());

    const queued = outboxShape(b).length;
    expect(queued).toBeGreaterThan(0);
    expect(queued).toBeLessThan(total);
    // Held: not one of them goes out while the import is half queued.
    expect(ready(b)).toEqual([]);
    const [stopped, ...others] = await b.ok('records.importsInterrupted', {
      portalId: PORTAL,
      moduleId: MODULE,
    });
    expect(others).toEqual([]);
    expect(stopped).toMatchObject({
      importId: file.importId,
      fileName: 'many.csv',
      canFinish: true,
      progress: { phase: 'interrupted', ready: queued, total },
    });
    expect(stopped!.progress.message).toBe(
      `The import of many.csv stopped before it ended (PortalDesk closed or the computer stopped): ${queued} rows of the ${total} rows confirmed are queued and held, none sent. Finish queues the other ${total - queued} rows, skipping those queued; Discard takes back the ${queued} rows.`,
    );

    await b.ok('records.importConfirm', { importId: file.importId });
    expect(await settled(b, file.importId)).toMatchObject({ phase: 'queued', ready: total });
    // The same outbox as the import that was never stopped: each row once, in the file's order.
    expect(outboxShape(b)).toEqual(whole);
    expect(ready(b).length).toBeGreaterThan(0);
    expect(
      await b.ok('records.importsInterrupted', { portalId: PORTAL, moduleId: MODULE }),
    ).toEqual([]);
  });

  it('discarded after a restart, leaves the outbox and the lists as before the confirm', async () => {
    // Generated: which records the user had edited (a name, a revert in the file), where it stopped.
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom('none', 'edited', 'editedFileReverts', 'absent'), {
          minLength: 120,
          maxLength: 120,
        }),
        fc.integer({ min: 1, max: 200 }),
        async (kinds, atRow) => {
          const w = recordsWorkspace();
          const records = kinds.map((_, i) => record(i + 1, { name: `Asset ${i + 1}` }));
          w.mirror.records.upsertRecords(records);
          for (const [i, kind] of kinds.entries()) {
            if (kind === 'edited' || kind === 'editedFileReverts') {
              await w.ok('outbox.edit', {
                portalId: PORTAL,
                recordId: records[i]!.id,
                changes: { name: `Mine ${i + 1}` },
              });
            }
          }
          const lines = kinds.flatMap((kind, i) =>
            kind === 'absent'
              ? []
              : [
                  `${records[i]!.id},${kind === 'editedFileReverts' ? `Asset ${i + 1}` : `Filed ${i + 1}`}`,
                ],
          );
          const { file, state } = await checked(
            w,
            'names.csv',
            `ID,name\r\n${lines.join('\r\n')}\r\n`,
            'update',
          );
          expect(state.failing).toBe(0);
          const before = { outbox: outboxShape(w), overlay: overlay(w) };
          const copied = snapshotWhileQueuing(w, 1 + (atRow % state.ready));
          await w.ok('records.importConfirm', { importId: file.importId });
          await settled(w, file.importId);
          const b = restartedOn(copied());
          await b.ok('records.importCancel', { importId: file.importId });
          const end = await settled(b, file.importId);
          expect(end.phase).toBe('cancelled');
          expect(end.message).toMatch(
            /^Import discarded: nothing of it is queued \(the [\d,]+ rows? queued were taken back, none sent\)\./,
          );
          expect({ outbox: outboxShape(b), overlay: overlay(b) }).toEqual(before);
          w.engine.close();
          b.engine.close();
        },
      ),
      { numRuns: 8 },
    );
  }, 120_000);
});

describe('the app closed while an import queues', () => {
  it('keeps the rows queued journaled and held, for the next start to finish', async () => {
    const dataDir = tempDir();
    const w = recordsWorkspace({ dataDir });
    const total = 1_000;
    const { file } = await checked(w, 'many.csv', newRows(total), 'create');
    await w.ok('records.importConfirm', { importId: file.importId });
    // Some rows queued, then the window closes (the engine stops between slices).
    while (outboxShape(w).length === 0) await new Promise((resolve) => setImmediate(resolve));
    w.engine.close();
    const b = restartedOn(dataDir);
    const queued = outboxShape(b).length;
    expect(queued).toBeGreaterThan(0);
    expect(queued).toBeLessThan(total);
    expect(ready(b)).toEqual([]);
    const [stopped] = await b.ok('records.importsInterrupted', {
      portalId: PORTAL,
      moduleId: MODULE,
    });
    expect(stopped).toMatchObject({ canFinish: true, progress: { ready: queued, total } });
    await b.ok('records.importConfirm', { importId: file.importId });
    expect(await settled(b, file.importId)).toMatchObject({ phase: 'queued', ready: total });
    const names = (await b.ok('outbox.list', {})).map((e) => e.recordName);
    expect(new Set(names).size).toBe(total);
    expect(names).toHaveLength(total);
  });
});

describe('a queuing cancelled half way', () => {
  it('takes back every row it queued: the outbox is as before the confirm', async () => {
    const w = recordsWorkspace();
    await w.ok('outbox.create', { portalId: PORTAL, moduleId: MODULE, values: { name: 'Mine' } });
    const before = outboxShape(w);
    const total = 1_000;
    const { file } = await checked(w, 'many.csv', newRows(total), 'create');
    await w.ok('records.importConfirm', { importId: file.importId });
    await w.ok('records.importCancel', { importId: file.importId });
    const end = await settled(w, file.importId);
    expect(end.phase).toBe('cancelled');
    expect(end.message).toMatch(
      /^Queuing cancelled after [\d,]+ rows?: nothing of it is queued \(the [\d,]+ rows? queued were taken back, none sent\)\. Check the rows again to queue them\.$/,
    );
    expect(outboxShape(w)).toEqual(before);
    expect(
      await w.ok('records.query', { portalId: PORTAL, moduleId: MODULE, offset: 0, limit: 10 }),
    ).toMatchObject({
      total: 1,
    });
  });
});

describe('two imports into one module at once', () => {
  it('one cancelled half way leaves the outbox the other alone would (its edits kept where they met)', async () => {
    const total = 300;
    const setUp = async () => {
      const w = recordsWorkspace();
      const records = Array.from({ length: total }, (_, i) =>
        record(i + 1, { name: `Asset ${i}` }),
      );
      w.mirror.records.upsertRecords(records);
      const names = records.map((r, i) => `${r.id},Named ${i}`).join('\r\n');
      const tags = records.map((r) => `${r.id},Critical`).join('\r\n');
      const a = await checked(w, 'names.csv', `ID,name\r\n${names}\r\n`, 'update');
      const b = await checked(w, 'tags.csv', `ID,cf_tags\r\n${tags}\r\n`, 'update');
      return { w, a: a.file.importId, b: b.file.importId };
    };
    // One way: the tags import alone.
    const alone = await setUp();
    await alone.w.ok('records.importConfirm', { importId: alone.b });
    expect((await settled(alone.w, alone.b)).phase).toBe('queued');
    // The other: both at once, the names import cancelled once both have queued rows.
    const both = await setUp();
    await both.w.ok('records.importConfirm', { importId: both.a });
    await both.w.ok('records.importConfirm', { importId: both.b });
    const journaled = (importId: string) =>
      both.w.engine.store.db
        .prepare('SELECT count(*) FROM import_run_rows WHERE import_id = ?')
        .pluck()
        .get(importId) as number;
    while (journaled(both.a) === 0 || journaled(both.b) === 0) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    await both.w.ok('records.importCancel', { importId: both.a });
    expect((await settled(both.w, both.a)).phase).toBe('cancelled');
    expect((await settled(both.w, both.b)).phase).toBe('queued');
    // The operations' edit counts differ (a tag folded into a rename's operation counts two).
    const shape = (w: Workspace) =>
      outboxShape(w)
        .map(({ edits: _edits, ...op }) => op)
        .sort((x, y) => x.record_id.localeCompare(y.record_id));
    expect(shape(both.w)).toEqual(shape(alone.w));
    expect(overlay(both.w)).toEqual(overlay(alone.w));
  });
});
