import { describe, expect, it } from 'vitest';
import { PAGES_AHEAD } from '../../../src/main/sync/pagesAhead';
import { listedPages, sum, syncSession } from './syncSession';

const PAGE = 10;

/** Plain pages (no sort) requested per module, e.g. `{assets: [1, 2, 3]}`. */
function plainPages(pages: readonly string[]): Map<string, number[]> {
  const byModule = new Map<string, number[]>();
  for (const entry of pages) {
    const [module, page, sort] = entry.split(':');
    if (sort !== undefined) continue;
    const list = byModule.get(module!) ?? [];
    list.push(Number(page));
    byModule.set(module!, list);
  }
  return byModule;
}

describe('resuming a sync', () => {
  it('after a kill in the middle, a new engine completes without re-reading a stored page', async () => {
    // One portal's worth of modules, so every page request names its module unambiguously.
    const s = await syncSession({ engine: { pageSize: PAGE } });
    const portalId = s.emulator.portals[0]!;
    const first = s.engine.syncPortal(s.account, portalId);
    s.engine.onEvent((event) => {
      if (event.type === 'progress' && event.phase === 'records' && event.module === 'Assets') {
        if (event.done === 2 * PAGE) first.cancel();
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
    // Committed pages are stored, whole: the cursor says which page comes next.
    let resumed = 0;
    for (const [api, cursor] of cursors) {
      if (cursor?.nextPage) {
        expect(stored(api)).toBe((cursor.nextPage - 1) * PAGE);
        if (cursor.nextPage > 1) resumed++;
      }
    }
    expect(cursors.get('assets')?.nextPage).toBe(3);
    expect(resumed).toBeGreaterThan(0);
    const firstRun = listedPages(s.sent);
    s.sent.length = 0;
    const before = await s.stats();

    const engine = s.newEngine();
    const result = await engine.syncPortal(s.account, portalId).done;
    expect(result.state).toBe('done');
    expect(s.mirroredIds(portalId)).toEqual(s.serverIds(portalId));

    const secondRun = plainPages(listedPages(s.sent));
    for (const [api, cursor] of cursors) {
      const total = s.serverIds(portalId).get(api)!.length;
      const last = Math.ceil(total / PAGE);
      const from = cursor?.nextPage ?? (cursor?.fullCompletedAt ? last + 1 : 1);
      const expected = Array.from({ length: last - from + 1 }, (_, i) => from + i);
      expect(secondRun.get(api) ?? [], api).toEqual(expected);
      // Each page read once over both runs, but for those requested ahead and not yet stored
      // when the kill came: never a stored one.
      const both = [...(plainPages(firstRun).get(api) ?? []), ...(secondRun.get(api) ?? [])];
      expect(new Set(both).size, api).toBe(last);
      const twice = both.filter((page, index) => both.indexOf(page) !== index);
      expect(twice.length, api).toBeLessThanOrEqual(PAGES_AHEAD);
      expect(
        twice.every((page) => page >= from),
        api,
      ).toBe(true);
    }
    // The probe for the newest change is made once per pull, not again on resuming.
    const probes = listedPages(s.sent).filter((p) => p.endsWith('DESC(last_updated_time)'));
    expect(probes.length).toBe([...cursors.values()].filter((c) => c === undefined).length);

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
