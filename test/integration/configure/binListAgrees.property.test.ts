/**
 * The recycle bin filtered and sorted here (binOps.binEntries, what the view shows offline)
 * against the service filtering and sorting it (GET /bin with `filter` and `sort_by`), over
 * generated choices: the same items in the same order, names that differ only in case, share a
 * prefix, hold non-ASCII letters or tie included.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { binEntries } from '../../../src/main/configure/binOps';
import { BinItem } from '@portaldesk/portal-api/domain/binItem';
import { filterParam, portalSession } from '../../support/emulator';

const NAMES = [
  'alpha',
  'Alpha',
  'ALPHA beta',
  'Beta',
  'beta',
  'Ärger',
  'ärger',
  'zeta',
  'Zeta 2',
  'alpha',
];

describe('the recycle bin filtered and sorted here', () => {
  it('lists what the service lists, in its order', async () => {
    const session = await portalSession({ records: 10 });
    const db = session.emulator.state.db;
    const portal = Number(session.portal);
    const picked: { module: string; id: number }[] = [];
    for (const module of ['tasks', 'issues', 'phases']) {
      const rows = db
        .prepare(
          `SELECT id FROM work_items WHERE portal_id = ? AND module = ? AND trashed_time IS NULL ORDER BY id LIMIT 4`,
        )
        .all(portal, module) as { id: number }[];
      for (const row of rows) picked.push({ module, id: row.id });
    }
    // Names chosen to meet every ordering rule (set in the emulator's store, as the service had them).
    picked.forEach((item, index) =>
      db
        .prepare('UPDATE work_items SET name = ? WHERE id = ?')
        .run(NAMES[index % NAMES.length], item.id),
    );
    for (const module of ['tasks', 'issues', 'phases']) {
      const items = picked.filter((p) => p.module === module).map((p) => String(p.id));
      expect((await session.call('POST', '/trash', { module, items })).status).toBe(200);
      // Different trash times, some equal: ties broken by id.
      session.emulator.state.clock.advance(60_000);
    }
    const all = await session.call('GET', '/bin?page=1&per_page=200');
    const cached = (all.body.bin_items as unknown[]).map((item) => BinItem.parse(item));
    const now = session.emulator.state.clock.now();

    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('trashed_time' as const, 'name' as const),
        fc.boolean(),
        fc.option(fc.constantFrom('tasks' as const, 'issues' as const, 'phases' as const), {
          nil: undefined,
        }),
        fc.option(fc.constantFrom('a', 'A', 'alp', 'BETA', 'ä', 'Ä', 'rg', ' ', 'z', 'nothing'), {
          nil: undefined,
        }),
        async (by, descending, module, search) => {
          const filter = {
            ...(module ? { module } : {}),
            ...(search !== undefined ? { search_term: search } : {}),
          };
          const sortBy = `${descending ? 'desc' : 'asc'}(${by})`;
          const query = `page=1&per_page=200&sort_by=${encodeURIComponent(sortBy)}${
            Object.keys(filter).length > 0 ? `&${filterParam(filter)}` : ''
          }`;
          const server = await session.call('GET', `/bin?${query}`);
          expect(server.status).toBe(200);
          const theirs = (server.body.bin_items as { id: string }[]).map((item) => item.id);
          const ours = binEntries(
            cached,
            [],
            {
              sort: { by, descending },
              filter: {
                ...(module ? { module } : {}),
                ...(search !== undefined ? { search } : {}),
              },
            },
            now,
          ).map((entry) => entry.id);
          expect(ours).toEqual(theirs);
        },
      ),
      { numRuns: 80 },
    );
  });
});
