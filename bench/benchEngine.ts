/**
 * A web-mode engine for the benchmarks that drive the app's services (bench/import.bench.ts,
 * bench/outboxQueue.bench.ts): a fresh temporary data directory, no automatic sync, the seed
 * catalog's portal and `assets` module written, and `records` synthetic records stored
 * (bench/syntheticRecords.ts: record 1 to `records`, ids `recordId(1)` onwards). `close` stops the
 * engine and deletes the directory.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startEngine, type Engine } from '../src/main/engine';
import { record, writeMetadata } from './syntheticRecords';

/** Records stored per transaction while filling (not measured). */
const FILL_PAGE = 1000;

export function benchEngine(name: string, records: number): { engine: Engine; close(): void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), `portaldesk-bench-${name}-`));
  const engine = startEngine({
    dataDir: dir,
    mode: 'web',
    version: '0.0.0-bench',
    autoSync: false,
    log: { warn: () => undefined, error: () => undefined },
  });
  try {
    writeMetadata(engine.mirror, { accountId: 'bench' });
    for (let first = 1; first <= records; first += FILL_PAGE) {
      const count = Math.min(FILL_PAGE, records - first + 1);
      engine.mirror.records.upsertRecords(
        Array.from({ length: count }, (_, i) => record(first + i)),
      );
    }
  } catch (error) {
    engine.close();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    engine,
    close() {
      engine.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
