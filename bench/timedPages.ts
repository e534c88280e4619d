/**
 * Upserts timed as the store benchmarks need them (bench/store.bench.ts,
 * bench/storeBreakdown.bench.ts): each batch one pull page, in one transaction with its cursor,
 * as the sync engine writes them; only the upserts are timed, by wall clock and by this
 * process's CPU time (on a shared machine the wall time also holds other processes' turns).
 */
import { performance } from 'node:perf_hooks';
import type { Mirror } from '../src/main/store/mirror/mirror';
import type { MirrorCursorUpdate, MirrorRecord } from '../src/main/store/mirror/mirrorTypes';
import { MODULE, PORTAL, record } from './syntheticRecords';

export interface Timed {
  wallMs: number;
  cpuUs: number;
}

/** What a page's cursor says besides its portal and module (scanIndex, highWater, ...). */
export type PageCursor = Omit<MirrorCursorUpdate, 'portalId' | 'moduleId'>;

/** The synthetic records 1..count in pages of `size`, built as they are needed. */
export function* pullPages(count: number, size: number): Generator<MirrorRecord[]> {
  for (let first = 0; first < count; first += size) {
    const page: MirrorRecord[] = [];
    for (let i = first; i < Math.min(count, first + size); i++) page.push(record(i + 1));
    yield page;
  }
}

/** Upserts every batch with `cursor(index)` (index from 0) and returns the time they took. */
export function timedPages(
  mirror: Mirror,
  batches: Iterable<MirrorRecord[]>,
  cursor: (index: number) => PageCursor,
): Timed {
  const timed: Timed = { wallMs: 0, cpuUs: 0 };
  let index = 0;
  for (const batch of batches) {
    const cpu = process.cpuUsage();
    const started = performance.now();
    mirror.records.upsertRecordPage(batch, {
      portalId: PORTAL,
      moduleId: MODULE,
      ...cursor(index++),
    });
    timed.wallMs += performance.now() - started;
    const used = process.cpuUsage(cpu);
    timed.cpuUs += used.user + used.system;
  }
  return timed;
}
