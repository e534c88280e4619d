/**
 * The export's helper threads (exportHelpers.ts) apart from a whole export: batches come back in
 * the view's order from any number of helpers, and a helper that cannot read the store fails the
 * batch asked of it in words instead of leaving the export waiting.
 */
import fc from 'fast-check';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { viewBatches } from '../../../src/main/recordsExport/exportBatches';
import type { BatchLayout } from '../../../src/main/recordsExport/exportEncoding';
import {
  exportHelperCount,
  helperBatches,
  startExportHelpers,
} from '../../../src/main/recordsExport/exportHelpers';
import type { ExportPlan } from '../../../src/main/recordsExport/exportPlan';
import { tempDir } from '../../support/tempDir';
import { workerBundle } from '../../support/workerBundle';
import { MODULE, PORTAL, record, recordsWorkspace } from '../../unit/records/workspace';

const bundle = workerBundle('src/main/recordsExport/exportWorker.ts');
let script: string;
beforeAll(async () => {
  script = await bundle.script();
}, 120_000);
afterAll(bundle.remove);

const layout: BatchLayout = {
  format: 'csv',
  columns: [
    { key: 'name', type: 'name' },
    { key: 'status', type: 'status' },
    { key: 'cf_cost', type: 'currency' },
  ],
  cells: { values: 'shown', context: { timeZone: 'Europe/Berlin', locale: 'en-GB' }, defuse: true },
};

const plan = { view: { portalId: PORTAL, moduleId: MODULE } } as ExportPlan;

describe('export helper threads', () => {
  it('give every batch in the view’s order, as the export thread would make it', async () => {
    const workspace = recordsWorkspace();
    workspace.mirror.records.upsertRecords(Array.from({ length: 300 }, (_, i) => record(i + 1)));
    const view = workspace.mirror.query.openView({
      portalId: PORTAL,
      moduleId: MODULE,
      sort: { field: 'cf_cost', descending: true },
    });
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 7, max: 60 }),
        async (helpers, batchRows) => {
          const options = { script, file: workspace.engine.store.file, helpers, batchRows };
          const made = helperBatches(options, view, layout, plan);
          const here = viewBatches(view, layout, batchRows);
          try {
            for (let index = 0; index * batchRows < view.total; index++) {
              expect(await made.batch(index)).toEqual(await here.batch(index));
            }
          } finally {
            await made.close();
          }
        },
      ),
      { numRuns: 6 },
    );
  }, 120_000);

  it('started before the view is opened, make its batches once given its keys, more helpers than batches need or fewer batches than helpers are worth', async () => {
    const workspace = recordsWorkspace();
    workspace.mirror.records.upsertRecords(Array.from({ length: 57 }, (_, i) => record(i + 1)));
    const file = workspace.engine.store.file;
    for (const [helpers, batchRows] of [
      [6, 10], // 6 batches: 6 helpers, none idle
      [8, 10], // 6 batches: two helpers idle, ended without failing the export
      [3, 20], // 3 batches: too few for helpers, made here, the helpers ended
    ] as const) {
      const started = startExportHelpers(
        { script, file, helpers, batchRows },
        { portalId: PORTAL, moduleId: MODULE },
        layout,
      );
      // The helpers start, read the module and wait while the view is opened.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const view = workspace.mirror.query.openView({
        portalId: PORTAL,
        moduleId: MODULE,
        sort: { field: 'name', descending: false },
      });
      const made = started.batchesOf(view);
      const here = viewBatches(view, layout, batchRows);
      try {
        for (let index = 0; index * batchRows < view.total; index++) {
          expect(await made.batch(index)).toEqual(await here.batch(index));
        }
      } finally {
        await made.close();
      }
    }
  }, 120_000);

  it('fail the batch in words when a helper cannot open the store', async () => {
    const workspace = recordsWorkspace();
    workspace.mirror.records.upsertRecords(Array.from({ length: 100 }, (_, i) => record(i + 1)));
    const view = workspace.mirror.query.openView({ portalId: PORTAL, moduleId: MODULE });
    const missing = path.join(tempDir(), 'no-such-folder', 'store.db');
    const made = helperBatches(
      { script, file: missing, helpers: 2, batchRows: 10 },
      view,
      layout,
      plan,
    );
    try {
      await expect(made.batch(0)).rejects.toThrow(/\w/);
    } finally {
      await made.close();
    }
  }, 60_000);

  it('one per processor, at least one, at most four', () => {
    expect([1, 2, 3, 4, 8, 64].map(exportHelperCount)).toEqual([1, 2, 3, 4, 4, 4]);
  });
});
