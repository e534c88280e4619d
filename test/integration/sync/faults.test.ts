import { describe, expect, it } from 'vitest';
import { listedPages, syncSession } from './syncSession';

type Session = Awaited<ReturnType<typeof syncSession>>;

/** Syncs until a run completes, as the app would on its next tries; returns the runs' states. */
async function syncUntilDone(s: Session, tries = 12): Promise<string[]> {
  const states: string[] = [];
  for (let i = 0; i < tries; i++) {
    const result = await s.engine.syncAccount(s.account).done;
    states.push(result.state);
    if (result.state === 'done') return states;
  }
  return states;
}

function expectExactMirror(s: Session): void {
  for (const portalId of s.emulator.portals) {
    expect(s.mirroredIds(portalId)).toEqual(s.serverIds(portalId));
    const rows = s.store.db
      .prepare('SELECT count(*) AS n, count(DISTINCT id) AS d FROM records WHERE portal_id = ?')
      .get(portalId) as { n: number; d: number };
    expect(rows.n).toBe(rows.d);
  }
}

describe('sync under faults injected by the emulator', () => {
  it('loses and duplicates nothing through 500s, resets and latency on the records endpoints', async () => {
    const s = await syncSession({ emulator: { records: 400 }, engine: { pageSize: 20 } });
    const injected = await s.admin('POST', 'faults', {
      faults: [
        { path: '/entities(/20)?$', method: 'GET', error500: 0.45, reset: 0.25, latencyMs: 2 },
      ],
    });
    expect(injected.status).toBe(200);
    const states = await syncUntilDone(s);
    expect(states.at(-1)).toBe('done');
    expectExactMirror(s);

    // Changes made meanwhile come through the same faults, still exactly once.
    const portalId = s.emulator.portals[1]!;
    const [first] = s.serverIds(portalId).get('vendors')!;
    const patched = await s.call(
      'PATCH',
      `/portal/${portalId}/projects/vendors/entities/${first}`,
      {
        name: 'Renamed under faults',
      },
    );
    expect(patched.status).toBe(200);
    expect((await syncUntilDone(s)).at(-1)).toBe('done');
    expectExactMirror(s);
    expect(
      s.store.db
        .prepare('SELECT name FROM records WHERE portal_id = ? AND id = ?')
        .pluck()
        .get(portalId, first),
    ).toBe('Renamed under faults');
  });

  it('skips a malformed record with a report naming the endpoint, and keeps a stored copy of it', async () => {
    const s = await syncSession({ engine: { pageSize: 10 } });
    const portalId = s.emulator.portals[0]!;
    const [keptId, badId] = s.serverIds(portalId).get('assets')!;
    const corrupt = (id: string) =>
      s.emulator.state.db
        .prepare("UPDATE entities SET last_updated_time = 'not a time' WHERE id = ?")
        .run(Number(id));
    corrupt(badId!);

    const result = await s.engine.syncAccount(s.account).done;
    expect(result.state).toBe('done');
    expect(s.malformed.length).toBeGreaterThan(0);
    expect(s.malformed[0]!.endpoint.label).toMatch(
      /GET \/api\/v3\/portal\/\{portal_id\}\/.*\/entities$/,
    );
    expect(s.malformed.flatMap((m) => m.skipped.map((item) => item.id))).toContain(badId);
    const skipped = s
      .progress()
      .filter((p) => p.module === 'Assets' && p.portalId === portalId)
      .at(-1)!;
    expect(skipped.skipped).toBeGreaterThan(0);
    const stored = (id: string) =>
      s.store.db
        .prepare('SELECT name FROM records WHERE portal_id = ? AND id = ?')
        .pluck()
        .get(portalId, id);
    expect(stored(badId!)).toBeUndefined();
    const server = s
      .serverIds(portalId)
      .get('assets')!
      .filter((id) => id !== badId);
    expect(s.mirroredIds(portalId).get('assets')).toEqual(server);

    // A record stored earlier that the server now sends malformed keeps its stored copy, even
    // through a full comparison of ids.
    const before = stored(keptId!);
    expect(before).toBeDefined();
    corrupt(keptId!);
    expect((await s.engine.syncAccount(s.account, { reconcile: true }).done).state).toBe('done');
    expect(stored(keptId!)).toBe(before);

    // The gap the malformed records leave is remembered: the next sync does not walk every page.
    s.sent.length = 0;
    expect((await s.engine.syncAccount(s.account).done).state).toBe('done');
    expect(listedPages(s.sent).filter((p) => p.startsWith('assets:') && !p.includes('('))).toEqual(
      [],
    );
  });
});
