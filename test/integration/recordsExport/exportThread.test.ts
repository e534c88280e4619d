/**
 * The export on a thread of its own (exportThread.ts, the built app's way) against the export on
 * the engine's thread (inlineExport.ts, what the other export tests run): for any view (filter,
 * sort, format, values) both write the same file, pending local edits laid over. A cancel on the
 * thread deletes the partial file; a view the thread's connection refuses writes nothing.
 */
import ExcelJS from 'exceljs';
import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventHub } from '../../../src/main/bridge/eventHub';
import { threadExportStarter } from '../../../src/main/recordsExport/exportThread';
import { RecordsExports } from '../../../src/main/recordsExport/recordsExports';
import { RecordQueryError } from '../../../src/main/store/mirror/recordQueryError';
import type { ExportArgs, ExportProgress } from '../../../src/shared/ipc/areas/recordsExport';
import { tempDir } from '../../support/tempDir';
import { workerBundle } from '../../support/workerBundle';
import { MODULE, PORTAL, record, recordsWorkspace } from '../../unit/records/workspace';

const bundle = workerBundle('src/main/recordsExport/exportWorker.ts');
let script: string;
beforeAll(async () => {
  script = await bundle.script();
}, 120_000);
afterAll(bundle.remove);

const COLUMNS = ['name', 'status', 'owner', 'cf_cost', 'cf_tags', 'cf_purchase', 'cf_quantity'];

type Workspace = ReturnType<typeof recordsWorkspace>;

async function workspaceWithEdits(n: number): Promise<Workspace> {
  const workspace = recordsWorkspace();
  workspace.mirror.records.upsertRecords(Array.from({ length: n }, (_, i) => record(i + 1)));
  const first = await workspace.ok('records.query', {
    portalId: PORTAL,
    moduleId: MODULE,
    offset: 0,
    limit: 3,
  });
  const [a, b] = first.rows;
  await workspace.ok('outbox.edit', {
    portalId: PORTAL,
    recordId: a!.id,
    changes: { name: '=SUM(A1) renamed offline' },
  });
  await workspace.ok('outbox.edit', {
    portalId: PORTAL,
    recordId: b!.id,
    changes: { status: '2003' },
  });
  return workspace;
}

/**
 * Several helper threads and small batches, so that a view of a thousand rows is dozens of batches
 * made out of order by three helpers, yet written in the view's order.
 */
const MANY_HELPERS = { helpers: 3, batchRows: 37 };

function threadExports(
  workspace: Workspace,
  helpers: { helpers?: number; batchRows?: number } = MANY_HELPERS,
): RecordsExports {
  return new RecordsExports({
    db: workspace.engine.store.db,
    mirror: workspace.mirror,
    dataDir: tempDir(),
    events: new EventHub(),
    starter: threadExportStarter({ script, file: workspace.engine.store.file, ...helpers }),
  });
}

/** Runs an export to its end; its last progress. */
async function run(exports: RecordsExports, args: ExportArgs): Promise<ExportProgress> {
  const started = await exports.start(args);
  await exports.idle();
  return exports.latest() ?? started;
}

async function contents(exports: RecordsExports, end: ExportProgress): Promise<unknown> {
  const file = path.join(exports.folder, end.fileName);
  if (end.format === 'csv') return readFileSync(file, 'utf8');
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(file);
  const rows: unknown[][] = [];
  book.worksheets[0]!.eachRow({ includeEmpty: true }, (row) => {
    rows.push(Array.from({ length: COLUMNS.length }, (_, i) => row.getCell(i + 1).value ?? null));
  });
  return { sheet: book.worksheets[0]!.name, rows };
}

const view: fc.Arbitrary<ExportArgs> = fc.record({
  portalId: fc.constant(PORTAL),
  moduleId: fc.constant(MODULE),
  columns: fc.shuffledSubarray(COLUMNS, { minLength: 1 }),
  format: fc.constantFrom('csv' as const, 'xlsx' as const),
  values: fc.constantFrom('shown' as const, 'raw' as const),
  sort: fc.option(
    fc.record({
      field: fc.constantFrom('name', 'cf_cost', 'cf_quantity', 'last_updated_time', 'status'),
      descending: fc.boolean(),
    }),
    { nil: undefined },
  ),
  filter: fc.option(
    fc.constantFrom(
      JSON.stringify({
        criteria: [{ field_name: 'status', criteria_condition: 'is', value: ['2001', '2003'] }],
        pattern: '1',
      }),
      JSON.stringify({
        criteria: [{ field_name: 'name', criteria_condition: 'contains', value: ['1'] }],
        pattern: '1',
      }),
    ),
    { nil: undefined },
  ),
  locale: fc.constant('en-GB'),
});

describe('an export on its own thread', () => {
  it('writes the same file as on the engine thread, for any view', async () => {
    const workspace = await workspaceWithEdits(1200);
    const thread = threadExports(workspace);
    await fc.assert(
      fc.asyncProperty(view, async (args) => {
        const inlineEnd = await run(workspace.engine.exports, args);
        const threadEnd = await run(thread, args);
        expect(threadEnd).toMatchObject({
          state: 'done',
          rows: inlineEnd.rows,
          total: inlineEnd.total,
        });
        expect(inlineEnd.state).toBe('done');
        expect(await contents(thread, threadEnd)).toEqual(
          await contents(workspace.engine.exports, inlineEnd),
        );
      }),
      { numRuns: 8 },
    );
  }, 240_000);

  it('cancels between batches and deletes the partial file', async () => {
    const workspace = await workspaceWithEdits(6000);
    const thread = threadExports(workspace);
    const pushed: ExportProgress[] = [];
    const progress = new Promise<void>((resolve) => {
      (thread as unknown as { options: { events: EventHub } }).options.events.subscribe(
        (event, payload) => {
          pushed.push(payload as ExportProgress);
          if (event === 'records.exportProgress' && (payload as ExportProgress).rows > 0) {
            resolve();
          }
        },
      );
    });
    const started = await thread.start({
      portalId: PORTAL,
      moduleId: MODULE,
      columns: COLUMNS,
      format: 'xlsx',
      values: 'shown',
    });
    expect(started.total).toBe(6000);
    await progress;
    const cancelled = await thread.cancel(started.exportId);
    expect(cancelled.state).toBe('cancelled');
    expect(cancelled.rows).toBeGreaterThan(0);
    expect(cancelled.rows).toBeLessThan(6000);
    expect(readdirSync(thread.folder)).toEqual([]);
  });

  it('refuses a view its connection cannot list, and writes nothing', async () => {
    const workspace = await workspaceWithEdits(10);
    const dir = tempDir();
    const start = threadExportStarter({ script, file: workspace.engine.store.file });
    const refused = start(
      {
        view: { portalId: PORTAL, moduleId: MODULE, sort: { field: 'cf_nope', descending: false } },
        columns: [{ key: 'name', label: 'Name', type: 'text' }],
        cells: { values: 'raw', context: { timeZone: 'UTC' }, defuse: true },
        format: 'csv',
        file: path.join(dir, 'x.csv'),
        sheet: 'Assets',
      },
      () => undefined,
    );
    await expect(refused).rejects.toBeInstanceOf(RecordQueryError);
    expect(readdirSync(dir)).toEqual([]);
  });
});
