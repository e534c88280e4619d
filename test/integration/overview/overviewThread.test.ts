/**
 * The overview read on its own thread (overviewThread.ts, the built app's way) against the
 * reading on the engine's connection (MirrorOverviewReader, what the other overview tests run):
 * after any pulls, status edits and trash committed on the engine's connection, both answer the
 * same. A thread that cannot start, or that stops while it reads, hands its readings to the
 * engine's connection, which answers them; closing refuses what was still out.
 */
import fc from 'fast-check';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MirrorOverviewReader } from '../../../src/main/overview/mirrorOverview';
import { OverviewThread } from '../../../src/main/overview/overviewThread';
import type { MirrorRecord } from '../../../src/main/store/mirror/mirrorTypes';
import { tempDir } from '../../support/tempDir';
import { workerBundle } from '../../support/workerBundle';
import {
  MODULE,
  PORTAL,
  STATUSES,
  makeRecord,
  mirroredPortal,
} from '../../unit/store/mirror/fixture';

const bundle = workerBundle('src/main/overview/overviewWorker.ts');
let script: string;
beforeAll(async () => {
  script = await bundle.script();
}, 120_000);
afterAll(bundle.remove);

const BASE = Date.parse('2025-01-01T00:00:00.000Z');
const DAY = 86_400_000;
const NOW = BASE + 400 * DAY;

function silentLog() {
  const errors: string[] = [];
  return { errors, log: { error: (message: string) => void errors.push(message) } };
}

/** A worker script that ends its thread at the first message, as a crash would. */
function dyingScript(code: number): string {
  const file = path.join(tempDir('portaldesk-overview-dying-'), 'dying.mjs');
  writeFileSync(
    file,
    `import { parentPort } from 'node:worker_threads';\nparentPort.on('message', () => process.exit(${code}));\n`,
  );
  return file;
}

const change = fc.oneof(
  fc.record({
    kind: fc.constant('pull' as const),
    records: fc.array(
      fc.record({
        ordinal: fc.integer({ min: 1, max: 40 }),
        status: fc.constantFrom(...STATUSES.map((s) => s.id), null),
        createdDay: fc.integer({ min: -2000, max: 500 }),
        updatedAfter: fc.integer({ min: 0, max: 300 }),
        trashed: fc.boolean(),
      }),
      { minLength: 1, maxLength: 12 },
    ),
  }),
  fc.record({
    kind: fc.constant('edit' as const),
    ordinal: fc.integer({ min: 1, max: 40 }),
    status: fc.constantFrom(...STATUSES.map((s) => s.id)),
  }),
);

describe('the overview on its own thread', () => {
  it('answers as the engine connection does, after any committed changes', async () => {
    const { store, mirror } = mirroredPortal({ forFile: true });
    const inline = new MirrorOverviewReader(store.db);
    const { errors, log } = silentLog();
    const thread = new OverviewThread({ script, file: store.file }, inline, log);
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(change, { minLength: 1, maxLength: 6 }), async (changes) => {
          for (const step of changes) {
            if (step.kind === 'pull') {
              const records: MirrorRecord[] = step.records.map((r) => {
                const created = BASE + r.createdDay * DAY;
                const updated = new Date(created + r.updatedAfter * DAY).toISOString();
                return {
                  ...makeRecord(r.ordinal),
                  statusId: r.status,
                  createdTime: new Date(created).toISOString(),
                  lastUpdatedTime: updated,
                  trashedTime: r.trashed ? updated : null,
                };
              });
              mirror.records.upsertRecords([...new Map(records.map((r) => [r.id, r])).values()]);
            } else {
              mirror.localEdits.writeOverlay(
                PORTAL,
                makeRecord(step.ordinal).id,
                new Map([['status', { value: { id: step.status }, base: null, editedAt: 'x' }]]),
              );
            }
          }
          const threaded = await thread.read(PORTAL, NOW);
          expect(threaded).toEqual(inline.read(PORTAL, NOW));
          expect(threaded?.modules.find((m) => m.moduleId === MODULE)?.records).toBe(
            store.db
              .prepare(
                'SELECT count(*) FROM records r JOIN modules m USING (module_key) WHERE m.id = ? AND r.list_state IN (0, 1)',
              )
              .pluck()
              .get(MODULE),
          );
        }),
        { numRuns: 25 },
      );
      expect(await thread.read('404', NOW)).toBeNull();
      expect(thread.active).toBe(true);
      expect(errors).toEqual([]);
    } finally {
      thread.close();
    }
  }, 120_000);

  it('reads on the engine connection once the thread stops while it reads', async () => {
    const { store, mirror } = mirroredPortal({ forFile: true });
    mirror.records.upsertRecords([makeRecord(1), makeRecord(2), makeRecord(3)]);
    const inline = new MirrorOverviewReader(store.db);
    const { errors, log } = silentLog();
    const thread = new OverviewThread({ script: dyingScript(3), file: store.file }, inline, log);
    try {
      const expected = inline.read(PORTAL, NOW);
      expect(await thread.read(PORTAL, NOW)).toEqual(expected);
      expect(thread.active).toBe(false);
      // Later readings go straight to the engine's connection, and the stop is told once.
      expect(await thread.read(PORTAL, NOW)).toEqual(expected);
      expect(errors).toEqual([
        "The overview's thread stopped; the overview is read on the engine's thread",
      ]);
    } finally {
      thread.close();
    }
  }, 60_000);

  it.each([
    ['cannot start (its script is missing)', 'script'],
    ['cannot open the store', 'store'],
  ] as const)(
    'reads on the engine connection when the thread %s',
    async (_, missing) => {
      const { store, mirror } = mirroredPortal({ forFile: true });
      mirror.records.upsertRecords([makeRecord(1)]);
      const inline = new MirrorOverviewReader(store.db);
      const { errors, log } = silentLog();
      const nowhere = tempDir('portaldesk-overview-missing-');
      const thread = new OverviewThread(
        missing === 'script'
          ? { script: path.join(nowhere, 'nowhere.mjs'), file: store.file }
          : { script, file: path.join(nowhere, 'gone.sqlite') },
        inline,
        log,
      );
      try {
        expect(await thread.read(PORTAL, NOW)).toEqual(inline.read(PORTAL, NOW));
        expect(thread.active).toBe(false);
        expect(errors).toHaveLength(1);
      } finally {
        thread.close();
      }
    },
    60_000,
  );

  it('refuses the readings still out when the app closes', async () => {
    const { store } = mirroredPortal({ forFile: true });
    const thread = new OverviewThread(
      { script, file: store.file },
      new MirrorOverviewReader(store.db),
    );
    const reading = thread.read(PORTAL, NOW);
    thread.close();
    await expect(reading).rejects.toThrow(/closing/);
    await expect(thread.read(PORTAL, NOW)).rejects.toThrow(/closing/);
  }, 60_000);
});
