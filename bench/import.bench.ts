/**
 * The records import's check of a large file (`npm run bench:import`, through bench/import.mjs).
 * A web-mode engine on a fresh data directory whose mirror holds the seed catalog's `assets`
 * module with IMPORT_BENCH_ROWS records (default 50,000; bench/syntheticRecords.ts); the module
 * exported as shown to CSV (every column) by the engine's export; that file uploaded in 512 KiB
 * pieces, opened, and checked as an update matched by ID (every row read streamed, its record's
 * form read, every cell parsed and compared). The heap is sampled every 20 ms during the check;
 * `heap_growth_mb` is its peak over the heap before the check. `loop_max_ms`: the longest the
 * engine's event loop was held (what any other request would have waited). Asserts nothing.
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { it } from 'vitest';
import { IMPORT_CHUNK_BYTES } from '../src/shared/ipc/areas/recordsImport';
import { benchEngine } from './benchEngine';
import { MODULE, PORTAL } from './syntheticRecords';

const ROWS = Number(process.env.IMPORT_BENCH_ROWS ?? 50_000);
const OUT = process.env.IMPORT_BENCH_OUT;
const MB = 1024 * 1024;

it('import benchmark', async () => {
  const { engine, close } = benchEngine('import', ROWS);
  try {
    const columns = engine.mirror.metadata
      .fields(PORTAL, MODULE)
      .filter((f) => !f.isDefault)
      .map((f) => f.apiName);
    const exported = await engine.exports.start({
      portalId: PORTAL,
      moduleId: MODULE,
      columns: ['id', 'name', 'status', ...columns],
      format: 'csv',
      values: 'shown',
      locale: 'en-US',
    });
    await engine.exports.idle();
    const file = path.join(engine.exports.folder, exported.fileName);
    const bytes = readFileSync(file);

    const { imports } = engine;
    let uploadId: string | undefined;
    for (let at = 0; at < bytes.length; at += IMPORT_CHUNK_BYTES) {
      uploadId = imports.upload({
        ...(uploadId ? { uploadId } : {}),
        fileName: 'assets.csv',
        offset: at,
        chunk: bytes.subarray(at, at + IMPORT_CHUNK_BYTES).toString('base64'),
        last: at + IMPORT_CHUNK_BYTES >= bytes.length,
      }).uploadId;
    }
    const opened = await imports.open({
      portalId: PORTAL,
      moduleId: MODULE,
      uploadId: uploadId!,
      locale: 'en-US',
    });

    (globalThis as { gc?: () => void }).gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    let peakHeap = heapBefore;
    const sampler = setInterval(() => {
      peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
    }, 20);
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    const started = performance.now();
    imports.check({
      importId: opened.importId,
      targets: opened.columns.map((c) => c.target),
      mode: 'update',
      matchBy: 'id',
    });
    await imports.settled(opened.importId);
    const ms = performance.now() - started;
    loop.disable();
    clearInterval(sampler);
    const state = imports.state(opened.importId);
    const result = {
      rows: state.rows,
      check_ms: Math.round(ms),
      rows_per_s: Math.round(state.rows / (ms / 1000)),
      ready: state.ready,
      failing: state.failing,
      unchanged: state.unchanged,
      file_mb: Number((statSync(file).size / MB).toFixed(1)),
      columns_mapped: opened.columns.filter((c) => c.target !== null).length,
      heap_before_mb: Math.round(heapBefore / MB),
      peak_heap_mb: Math.round(peakHeap / MB),
      heap_growth_mb: Math.round((peakHeap - heapBefore) / MB),
      loop_max_ms: Math.round(loop.max / 1e6),
      cpus: os.cpus().length,
      load: Number(os.loadavg()[0]!.toFixed(2)),
    };
    const line = JSON.stringify(result);
    if (OUT) writeFileSync(OUT, line);
    else console.log(line);
  } finally {
    close();
  }
}, 600_000);
