/**
 * A module's statuses administered offline against the emulator: each status's usage is the
 * mirror's own count; statuses added offline go with their temporary ids replaced (so a change,
 * a move, another status's transitions and a removal queued before the add answered go too); an
 * add whose answer was lost is not sent twice; a status made closed closes its records here as on
 * the service; the rules (in use, default, names, colours, transitions) refuse before anything is
 * queued; the service's refusal is shown against the operation that caused it.
 */
import { describe, expect, it } from 'vitest';
import { outboxSession } from '../outbox/outboxSession';
import { configureOn } from './configureSession';

type Session = Awaited<ReturnType<typeof outboxSession>>;

function serverStatuses(s: Session, moduleId: string) {
  const db = s.emulator.state.db;
  const rows = db
    .prepare(
      'SELECT id, name, color, is_closed_type FROM statuses WHERE module_id = ? ORDER BY position, id',
    )
    .all(Number(moduleId)) as { id: number; name: string; color: string; is_closed_type: number }[];
  return rows.map((row) => ({
    name: row.name,
    color: row.color,
    closed: row.is_closed_type === 1,
    to: (
      db
        .prepare(
          `SELECT s.name FROM status_transitions t JOIN statuses s ON s.id = t.to_status_id
           WHERE t.from_status_id = ? ORDER BY s.name`,
        )
        .pluck()
        .all(row.id) as string[]
    ).join(','),
  }));
}

describe("a module's statuses administered offline", () => {
  it('adds, changes, moves and removes statuses offline, exactly once, with usage', async () => {
    const s = await outboxSession({ records: 80 });
    const configure = configureOn(s);
    const assets = configure.modules(s.portalId).modules.find((m) => m.apiName === 'assets')!;
    const ref = { portalId: s.portalId, moduleId: assets.id };
    const view = configure.choices.statuses(s.portalId, assets.id);
    expect(view.statuses.length).toBeGreaterThan(1);
    // The usage is the mirror's own count of the module's records in each status.
    for (const status of view.statuses) {
      const counted = s.store.db
        .prepare(
          `SELECT count(*) FROM records r JOIN modules m ON m.module_key = r.module_key
           WHERE m.portal_id = ? AND m.id = ? AND r.status_id = ?`,
        )
        .pluck()
        .get(s.portalId, assets.id, status.id);
      expect(status.records, status.name).toBe(counted);
    }
    const used = view.statuses.find((status) => status.records > 0 && !status.isDefault)!;
    const fallback = view.statuses.find((status) => status.isDefault)!;
    expect(used).toBeDefined();
    expect(fallback).toBeDefined();
    // Transitions as the service holds them.
    expect(serverStatuses(s, assets.id).map((status) => status.to)).toEqual(
      view.statuses.map((status) =>
        status.transitions
          .map((id) => view.statuses.find((other) => other.id === id)!.name)
          .sort()
          .join(','),
      ),
    );

    s.outbox.setWorkOffline(true);
    const refused =
      (
        args: Omit<Parameters<typeof configure.choices.changeStatuses>[0], 'portalId' | 'moduleId'>,
      ) =>
      () =>
        configure.choices.changeStatuses({ ...ref, ...args });
    expect(refused({ remove: [used.id] })).toThrow(
      /is the status of \d+ mirrored records?; move them/,
    );
    expect(refused({ remove: [fallback.id] })).toThrow(/default status new records start in/);
    expect(
      refused({
        add: [
          {
            name: ` ${used.name.toUpperCase()} `,
            color: '#2a64d6',
            closed: false,
            transitions: [],
          },
        ],
      }),
    ).toThrow(/is already a status of this module/);
    expect(
      refused({ add: [{ name: 'Review', color: '#2a64d', closed: false, transitions: [] }] }),
    ).toThrow(/not a colour like #2a64d6/);
    expect(
      refused({
        add: [{ name: 'x'.repeat(101), color: '#2a64d6', closed: false, transitions: [] }],
      }),
    ).toThrow(/at most 100 characters \(101 given\)/);
    expect(refused({ update: [{ id: used.id, transitions: [used.id] }] })).toThrow(
      /cannot lead to itself/,
    );
    expect(s.outbox.list()).toEqual([]);

    let shown = configure.choices.changeStatuses({
      ...ref,
      add: [
        { name: 'Reviw', color: '#2a64d6', closed: false, transitions: [fallback.id] },
        { name: 'Scrapped', color: '#aa0000', closed: true, transitions: [] },
      ],
    });
    const review = shown.statuses.find((status) => status.name === 'Reviw')!;
    const scrapped = shown.statuses.find((status) => status.name === 'Scrapped')!;
    expect(review.id).toMatch(/^tmp-st-/);
    expect(review.localOnly).toBe(true);
    // Queued before the add answered: each names the temporary ids.
    shown = configure.choices.changeStatuses({
      ...ref,
      update: [
        { id: review.id, name: 'Review', transitions: [fallback.id, used.id] },
        { id: used.id, color: '#00aa00', transitions: [...used.transitions, review.id] },
      ],
      move: { id: review.id, position: 1 },
    });
    expect(shown.statuses[0]!.name).toBe('Review');
    shown = configure.choices.changeStatuses({ ...ref, remove: [scrapped.id] });
    expect(shown.statuses.map((status) => status.name)).not.toContain('Scrapped');

    // The add's answer is lost once; the retry adds nothing twice.
    let lost = false;
    s.setFault((method, url) => {
      if (!lost && method === 'POST' && url.pathname.endsWith('/settings/options')) {
        lost = true;
        return 'lose-answer';
      }
      return 'pass';
    });
    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    s.outbox.retry();
    await s.outbox.idle();
    expect(lost).toBe(true);
    expect(s.outbox.list()).toEqual([]);

    const served = serverStatuses(s, assets.id);
    expect(served.filter((status) => status.name === 'Review')).toHaveLength(1);
    expect(served.map((status) => status.name)).not.toContain('Scrapped');
    expect(served[0]).toEqual({
      name: 'Review',
      color: '#2a64d6',
      closed: false,
      to: [fallback.name, used.name].sort().join(','),
    });
    const usedServed = served.find((status) => status.name === used.name)!;
    expect(usedServed.color).toBe('#00aa00');
    expect(usedServed.to.split(',')).toContain('Review');
    // The mirror holds what the service holds, nothing local left.
    const after = configure.choices.statuses(s.portalId, assets.id);
    expect(after.statuses.map((status) => [status.name, status.color, status.closed])).toEqual(
      served.map((status) => [status.name, status.color, status.closed]),
    );
    expect(after.statuses.every((status) => !status.localOnly && status.pending.length === 0)).toBe(
      true,
    );
  });

  it("closes a status's records here as the service does when it becomes a closed type", async () => {
    const s = await outboxSession({ records: 80 });
    const configure = configureOn(s);
    const assets = configure.modules(s.portalId).modules.find((m) => m.apiName === 'assets')!;
    const open = configure.choices
      .statuses(s.portalId, assets.id)
      .statuses.find((status) => !status.closed && status.records > 0)!;
    expect(open).toBeDefined();
    configure.choices.changeStatuses({
      portalId: s.portalId,
      moduleId: assets.id,
      update: [{ id: open.id, closed: true }],
    });
    await s.outbox.idle();
    expect(s.outbox.list()).toEqual([]);
    const mirrored = s.store.db
      .prepare(
        'SELECT id, is_closed FROM records WHERE portal_id = ? AND status_id = ? ORDER BY id',
      )
      .all(s.portalId, open.id) as { id: string; is_closed: number }[];
    expect(mirrored.length).toBe(open.records);
    const servedClosed = s.emulator.state.db
      .prepare('SELECT id, is_closed FROM entities WHERE status_id = ? ORDER BY id')
      .all(Number(open.id)) as { id: number; is_closed: number }[];
    expect(mirrored.map((row) => [row.id, row.is_closed])).toEqual(
      servedClosed.map((row) => [String(row.id), row.is_closed]),
    );
    expect(mirrored.every((row) => row.is_closed === 1)).toBe(true);
    const shown = configure.choices
      .statuses(s.portalId, assets.id)
      .statuses.find((status) => status.id === open.id)!;
    expect(shown.closed).toBe(true);
  });

  it("shows the service's refusal against the removal that caused it", async () => {
    const s = await outboxSession({ records: 40 });
    const configure = configureOn(s);
    const assets = configure.modules(s.portalId).modules.find((m) => m.apiName === 'assets')!;
    const ref = { portalId: s.portalId, moduleId: assets.id };
    configure.choices.changeStatuses({
      ...ref,
      add: [{ name: 'Parked', color: '#777777', closed: false, transitions: [] }],
    });
    await s.outbox.idle();
    const parked = configure.choices
      .statuses(s.portalId, assets.id)
      .statuses.find((status) => status.name === 'Parked')!;
    expect(parked.localOnly).toBe(false);
    s.outbox.setWorkOffline(true);
    configure.choices.changeStatuses({ ...ref, remove: [parked.id] });
    // Meanwhile a record on the service moves to it, unseen here.
    s.emulator.state.db
      .prepare(
        'UPDATE entities SET status_id = ? WHERE id = (SELECT min(id) FROM entities WHERE module_id = ?)',
      )
      .run(Number(parked.id), Number(assets.id));
    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    const [failed] = s.outbox.list();
    expect(failed).toMatchObject({ kind: 'config', state: 'failed' });
    expect(failed!.error).toMatch(/in use by records/);
    const shown = configure.choices
      .statuses(s.portalId, assets.id)
      .statuses.find((status) => status.id === parked.id)!;
    expect(shown.pending[0]).toMatchObject({ action: 'removeStatuses', state: 'failed' });
    expect(shown.pending[0]!.error).toMatch(/in use by records/);
  });
});
