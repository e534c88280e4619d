/**
 * Retention: of a portal's ready backups the newest `keep` stay, older ready ones go, and a
 * backup that is not ready is never removed nor counted.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { backupsToRemove, type RetainedBackup } from '../../../src/main/backups/retention';

const at = (day: number, hour = 0) =>
  new Date(Date.UTC(2026, 0, day, hour)).toISOString().replace('.000Z', 'Z');
const ready = (id: string, madeAt: string): RetainedBackup => ({
  id,
  stage: 'ready',
  onDisk: true,
  madeAt,
});

describe('backupsToRemove', () => {
  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])('refuses keep = %s', (keep) => {
    expect(() => backupsToRemove([ready('1', at(1))], keep)).toThrow(/keep must be at least 1/);
  });

  it('removes nothing when there is nothing', () => {
    expect(backupsToRemove([], 1)).toEqual([]);
  });

  it('keeps the newest ready ones and removes the rest, newest first', () => {
    const backups = [ready('1', at(1)), ready('4', at(4)), ready('2', at(2)), ready('3', at(3))];
    expect(backupsToRemove(backups, 2)).toEqual(['2', '1']);
    expect(backupsToRemove(backups, 1)).toEqual(['3', '2', '1']);
    expect(backupsToRemove(backups, 4)).toEqual([]);
    expect(backupsToRemove(backups, 10)).toEqual([]);
  });

  it('orders by the time, not by the id or the input order', () => {
    const backups = [ready('9', at(1)), ready('1', at(3)), ready('5', at(2))];
    expect(backupsToRemove(backups, 1)).toEqual(['5', '9']);
  });

  it('compares instants, whatever offset the times were written with', () => {
    // 10:00+02:00 is 08:00Z: older than 09:00Z although it sorts after it as text.
    const backups = [ready('1', '2026-01-01T10:00:00+02:00'), ready('2', '2026-01-01T09:00:00Z')];
    expect(backupsToRemove(backups, 1)).toEqual(['1']);
  });

  it('breaks ties of the same time by id, as numbers: the higher id is newer', () => {
    const same = at(5);
    const backups = [ready('9', same), ready('10', same), ready('2', same)];
    expect(backupsToRemove(backups, 1)).toEqual(['9', '2']);
    expect(backupsToRemove(backups, 2)).toEqual(['2']);
  });

  it('neither counts nor removes a ready backup whose file is gone', () => {
    // The two newest files were moved away outside PortalDesk: the two older ones are the only
    // backups left on disk, and keep 2 keeps them.
    const gone = (id: string, madeAt: string): RetainedBackup => ({
      ...ready(id, madeAt),
      onDisk: false,
    });
    const backups = [ready('1', at(1)), ready('2', at(2)), gone('3', at(3)), gone('4', at(4))];
    expect(backupsToRemove(backups, 2)).toEqual([]);
    expect(backupsToRemove(backups, 1)).toEqual(['1']);
  });

  it('never removes a backup that is not ready, however old', () => {
    const backups: RetainedBackup[] = [
      { id: '1', stage: 'downloading', onDisk: false, madeAt: at(1) },
      { id: '2', stage: 'failed', onDisk: false, madeAt: at(2) },
      { id: '3', stage: 'awaiting-code', onDisk: false, madeAt: at(3) },
      { id: '4', stage: 'requested', onDisk: false, madeAt: at(4) },
      ready('5', at(5)),
    ];
    expect(backupsToRemove(backups, 1)).toEqual([]);
  });

  it('does not count backups that are not ready towards keep', () => {
    const backups: RetainedBackup[] = [
      ready('1', at(1)),
      ready('2', at(2)),
      { id: '3', stage: 'downloading', onDisk: false, madeAt: at(3) },
      { id: '4', stage: 'failed', onDisk: false, madeAt: at(4) },
    ];
    // The two newer ones are not ready: they are not why an older good one disappears.
    expect(backupsToRemove(backups, 2)).toEqual([]);
    expect(backupsToRemove(backups, 1)).toEqual(['1']);
  });

  it('does not change its input', () => {
    const backups = [ready('1', at(1)), ready('3', at(3)), ready('2', at(2))];
    const copy = structuredClone(backups);
    backupsToRemove(backups, 1);
    expect(backups).toEqual(copy);
  });

  const STAGES = ['ready', 'ready', 'ready', 'downloading', 'failed', 'awaiting-code', 'verifying'];
  const backupList = fc
    .array(
      fc.record({
        stage: fc.constantFrom(...STAGES),
        // Mostly there; a ready one whose file was moved away now and then.
        onDisk: fc.integer({ min: 0, max: 4 }).map((n) => n > 0),
        // Few distinct instants, so ties happen.
        madeAt: fc.integer({ min: 0, max: 20 }).map((hour) => at(1, hour)),
      }),
      { maxLength: 25 },
    )
    .chain((items) =>
      fc
        .uniqueArray(fc.integer({ min: 1, max: 999_999 }), {
          minLength: items.length,
          maxLength: items.length,
        })
        .map((ids) => items.map((item, i) => ({ ...item, id: String(ids[i]) }))),
    );

  /** Newer first: later time, then higher id. */
  const newer = (a: RetainedBackup, b: RetainedBackup) =>
    Date.parse(b.madeAt) - Date.parse(a.madeAt) || Number(b.id) - Number(a.id);

  it('keeps min(keep, ready on disk) of them, removes the others on disk, and every kept one is newer', () => {
    fc.assert(
      fc.property(backupList, fc.integer({ min: 1, max: 30 }), (backups, keep) => {
        const removed = backupsToRemove(backups, keep);
        const readyIds = backups.filter((b) => b.stage === 'ready' && b.onDisk).map((b) => b.id);
        const removedSet = new Set(removed);
        const kept = readyIds.filter((id) => !removedSet.has(id));

        expect(removed.length).toBe(removedSet.size);
        // Only ready ones are removed: result ∪ kept = ready, disjointly.
        for (const id of removed) expect(readyIds).toContain(id);
        expect(new Set([...removed, ...kept])).toEqual(new Set(readyIds));
        expect(kept.length).toBe(Math.min(keep, readyIds.length));

        const byId = new Map(backups.map((b) => [b.id, b]));
        for (const k of kept) {
          for (const r of removed) {
            expect(newer(byId.get(k)!, byId.get(r)!)).toBeLessThan(0);
          }
        }
        // Exactly the model: sort ready newest first, keep the head.
        const model = backups
          .filter((b) => b.stage === 'ready' && b.onDisk)
          .sort(newer)
          .slice(keep)
          .map((b) => b.id);
        expect(removed).toEqual(model);
      }),
      { numRuns: 300 },
    );
  });

  it('does not depend on the order of its input', () => {
    fc.assert(
      fc.property(
        backupList.chain((backups) =>
          fc.tuple(
            fc.constant(backups),
            fc.shuffledSubarray(backups, { minLength: backups.length }),
          ),
        ),
        fc.integer({ min: 1, max: 10 }),
        ([backups, shuffled], keep) => {
          expect(new Set(backupsToRemove(shuffled, keep))).toEqual(
            new Set(backupsToRemove(backups, keep)),
          );
        },
      ),
      { numRuns: 200 },
    );
  });
});
