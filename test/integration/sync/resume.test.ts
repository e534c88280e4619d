import { describe, expect, it } from 'vitest';
import { PAGES_AHEAD } from '../../../src/main/sync/pagesAhead';
import { listedPages, sum, syncSession } from './syncSession';

const PAGE = 10;

/** Windows of the full listing (no other sort) requested per module, by their first index. */
function scanWindows(pages: readonly string[]): Map<string, number[]> {
  const byModule = new Map<string, number[]>();
  for (const entry of pages) {
    const [module, where, sort] = entry.split(':');
    if (sort !== undefined || !where!.startsWith('@')) continue;
    const list = byModule.get(module!) ?? [];
    list.push(Number(where!.slice(1)));
    byModule.set(module!, list);
  }
  return byModule;
}

describe('resuming a sync', () => {
  it('after a kill in the middle, a new engine completes without re-reading a stored record but the last', async () => {
    // One portal's worth of modules, so every page request names its module unambiguously.
    const s = await syncSession({ engine: { pageSize: PAGE } });
    const portalId = s.emulator.portals[0]!;
    const first = s.engine.syncPortal(s.account, portalId);
    s.engine.onEvent((event) => {
      if (event.type === 'progress' && event.phase === 'records' && event.module === 'Assets') {
        if (event.done >= 2 * PAGE) first.cancel();
      }
    });
    const killed = await first.done;
    expect(killed.state).toBe('cancelled');
    expect(killed.message).toMatch(/kept/);

    const modules = s.mirror.metadata.modules(portalId).filter((m) => m.isDefault === 0);
    const cursors = new Map(
      modules.map((m) => [m.apiName, s.mirror.records.cursor(portalId, m.id)] as const),
    );
    const stored = (api: string) =>
      s.store.db
        .prepare(
          'SELECT count(*) FROM records r JOIN modules m ON m.module_key = r.module_key WHERE m.portal_id = ? AND m.api_name = ?',
        )
        .pluck()
        .get(portalId, api) as number;
    // Committed runs are stored, whole: the cursor says where the last record stored stood.
    let resumed = 0;
    for (const [api, cursor] of cursors) {
      if (cursor?.scanIndex) {
        const ids = s.serverIds(portalId).get(api)!;
        expect(stored(api)).toBe(cursor.scanAfter === null ? 0 : cursor.scanIndex);
        if (cursor.scanAfter !== null) {
          expect(ids[cursor.scanIndex - 1]).toBe(cursor.scanAfter);
          resumed++;
        }
      }
    }
    expect(cursors.get('assets')?.scanIndex).toBeGreaterThanOrEqual(2 * PAGE - 1);
    expect(resumed).toBeGreaterThan(0);
    const firstRun = listedPages(s.sent);
    s.sent.length = 0;
    const before = await s.stats();

    const engine = s.newEngine();
    const result = await engine.syncPortal(s.account, portalId).done;
    expect(result.state).toBe('done');
    expect(s.mirroredIds(portalId)).toEqual(s.serverIds(portalId));

    const secondRun = scanWindows(listedPages(s.sent));
    for (const [api, cursor] of cursors) {
      const total = s.serverIds(portalId).get(api)!.length;
      // Windows of PAGE records from `from`, each starting on the last record of the one before.
      const from = cursor?.scanIndex ?? (cursor?.fullCompletedAt ? null : 1);
      const expected: number[] = [];
      for (let index = from ?? total; from !== null; index += PAGE - 1) {
        expected.push(index);
        if (index + PAGE - 1 >= total) break;
      }
      expect(secondRun.get(api) ?? [], api).toEqual(expected);
      // Each window read once over both runs, but for those requested ahead and not yet stored
      // when the kill came: never one holding only stored records.
      const both = [...(scanWindows(firstRun).get(api) ?? []), ...(secondRun.get(api) ?? [])];
      const twice = both.filter((index, i) => both.indexOf(index) !== i);
      expect(twice.length, api).toBeLessThanOrEqual(PAGES_AHEAD);
      expect(
        twice.every((index) => from !== null && index >= from),
        api,
      ).toBe(true);
    }
    // The probe for the newest change is made when a full pull starts (not again on resuming)
    // and when it ends.
    const probes = listedPages(s.sent).filter((p) => p.endsWith('DESC(last_updated_time)'));
    const expectedProbes = [...cursors.values()].map((c) =>
      c === undefined ? 2 : c.scanIndex !== null ? 1 : 0,
    );
    expect(probes.length).toBe(sum(expectedProbes));

    // The emulator counted the second run's list requests, plus at most the few of the first run
    // that were in flight at the kill and landed late (those requested ahead).
    const after = await s.stats();
    const key = Object.keys(after).find((k) => k.endsWith(`/entities portal=${portalId}`))!;
    const counted = after[key]! - (before[key] ?? 0);
    expect(counted).toBeGreaterThanOrEqual(listedPages(s.sent).length);
    expect(counted).toBeLessThanOrEqual(listedPages(s.sent).length + cursors.size * PAGES_AHEAD);
  });

  it('stops cleanly as offline when the network goes, and resumes from the cursor', async () => {
    let offline = false;
    let lists = 0;
    const s = await syncSession({
      engine: { pageSize: PAGE },
      client: {
        fetch: (input, init) => {
          if (/\/entities\?/.test(String(input)) && ++lists === 8) offline = true;
          if (offline) {
            const cause = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1'), {
              code: 'ECONNREFUSED',
            });
            return Promise.reject(new TypeError('fetch failed', { cause }));
          }
          return fetch(input, init);
        },
      },
    });
    const first = await s.engine.syncAccount(s.account).done;
    expect(first.state).toBe('offline');
    expect(first.message).toMatch(/offline.*kept.*resumes/s);
    expect(
      s.events.filter((e) => e.type === 'state').map((e) => (e as { state: string }).state),
    ).toEqual(['running', 'offline']);
    const partial = sum(
      [...s.mirroredIds(s.emulator.portals[0]!).values()].map((ids) => ids.length),
    );
    expect(partial).toBeGreaterThan(0);

    offline = false;
    const second = await s.engine.syncAccount(s.account).done;
    expect(second.state).toBe('done');
    for (const p of s.emulator.portals) expect(s.mirroredIds(p)).toEqual(s.serverIds(p));
    // Only what was missing was read again.
    expect(second.records).toBeLessThan(200 + 200);
  });

  it('sends nothing while paused and finishes once resumed', async () => {
    const s = await syncSession({ engine: { pageSize: PAGE } });
    const run = s.engine.syncAccount(s.account);
    let paused = false;
    s.engine.onEvent((event) => {
      if (!paused && event.type === 'progress' && event.phase === 'records' && event.done > 0) {
        paused = true;
        s.engine.pause();
      }
    });
    while (!paused) await new Promise((resolve) => setTimeout(resolve, 5));
    // Requests in flight when the pause came finish; then nothing more goes out.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const sentWhilePaused = s.sent.length;
    expect(run.state()).toBe('paused');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(s.sent.length).toBe(sentWhilePaused);

    s.engine.resume();
    expect((await run.done).state).toBe('done');
    expect(s.sent.length).toBeGreaterThan(sentWhilePaused);
    for (const p of s.emulator.portals) expect(s.mirroredIds(p)).toEqual(s.serverIds(p));
    const states = s.events
      .filter((e) => e.type === 'state')
      .map((e) => (e as { state: string }).state);
    expect(states).toEqual(['running', 'paused', 'running', 'done']);
  });
});
