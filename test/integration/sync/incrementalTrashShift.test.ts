/**
 * An incremental pull must leave the mirror holding the server's records, whatever changes while
 * it reads. Read by page number in order of change, a record read on an early page and trashed
 * while the pull goes on shifted every later one back: the first record of the next page slid
 * onto a page read already and no page read it. The list then held as many records as the pull
 * read, and the counts afterwards agreed too (the mirror kept the trashed one and lacked the
 * missed one): the pull said `done` with a record missing and a trashed one still shown.
 *
 * Property: records created since the last sync; once the pull has read its first window of
 * changes, others trash some of them, create and rename others; the pull ends `done` with the
 * mirror's ids equal to the server's, and the next sync (nothing changing) leaves no name stale.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { syncSession } from './syncSession';

const PAGE = 10;
const MODULE = 'assets';

interface Scenario {
  /** Records created before the pull: its changes. */
  before: number;
  /** Positions among them to trash while it reads (taken modulo their number). */
  trash: number[];
  create: number;
  /** Positions among them to rename while it reads. */
  edit: number[];
}

const scenarios: fc.Arbitrary<Scenario> = fc.record({
  before: fc.integer({ min: PAGE + 1, max: 4 * PAGE }),
  trash: fc.uniqueArray(fc.nat({ max: 100 }), { minLength: 1, maxLength: 6 }),
  create: fc.integer({ min: 0, max: 3 }),
  edit: fc.uniqueArray(fc.nat({ max: 100 }), { maxLength: 3 }),
});

async function runScenario(scenario: Scenario): Promise<void> {
  let change: (() => Promise<void>) | null = null;
  let changing: Promise<void> | null = null;
  let changesPath = '';
  const s = await syncSession({
    emulator: { records: 300 },
    engine: { pageSize: PAGE },
    client: {
      fetch: async (input, init) => {
        const url = new URL(String(input));
        const later =
          Number(url.searchParams.get('page') ?? 1) > 1 ||
          Number(url.searchParams.get('index') ?? 1) > 1;
        // The changes' first page or window is answered before the change, the rest after it.
        if (change && url.pathname.endsWith(changesPath) && url.searchParams.has('filter')) {
          if (later) {
            const now = change;
            changing ??= now();
            await changing;
          }
        }
        return fetch(input, init);
      },
    },
  });
  expect((await s.engine.syncAccount(s.account).done).state).toBe('done');
  const portalId = s.emulator.portals[0]!;
  const path = `/portal/${portalId}/projects/${MODULE}/entities`;
  changesPath = path;
  const create = async (name: string) => {
    const reply = await s.call('POST', path, { name, cf_serial_number: `SN-${name}` });
    expect(reply.status).toBe(201);
    return reply.body.entity.id as string;
  };
  const created: string[] = [];
  for (let i = 0; i < scenario.before; i++) created.push(await create(`New ${i}`));
  change = async () => {
    const trashed = new Set(scenario.trash.map((i) => created[i % created.length]!));
    for (const id of trashed)
      expect((await s.call('POST', `${path}/${id}/trash`)).status).toBe(200);
    for (let i = 0; i < scenario.create; i++) await create(`During ${i}`);
    const kept = created.filter((id) => !trashed.has(id));
    for (const i of scenario.edit) {
      const id = kept[i % kept.length]!;
      expect((await s.call('PATCH', `${path}/${id}`, { name: `Renamed ${i}` })).status).toBe(200);
    }
  };
  const result = await s.engine.syncAccount(s.account).done;
  expect(changing).not.toBeNull();
  expect(result.state).toBe('done');
  expect(s.mirroredIds(portalId)).toEqual(s.serverIds(portalId));

  change = null;
  expect((await s.engine.syncAccount(s.account).done).state).toBe('done');
  const mirrored = s.store.db.prepare('SELECT name FROM records WHERE id = ?').pluck();
  const server = s.emulator.state.db.prepare('SELECT name FROM entities WHERE id = ?').pluck();
  const stale = s
    .serverIds(portalId)
    .get(MODULE)!
    .filter((id) => mirrored.get(id) !== server.get(Number(id)));
  expect(stale).toEqual([]);
}

describe('an incremental pull whose records are trashed, created and renamed while it reads', () => {
  it('ends done only with the mirror holding exactly the server records', async () => {
    await fc.assert(fc.asyncProperty(scenarios, runScenario), { numRuns: 6 });
  }, 120_000);

  it('a record read first is trashed: the one after the first page is still read', async () => {
    await runScenario({ before: 25, trash: [0], create: 0, edit: [] });
  });
});
