/**
 * What the overview's index (migration 0019, records_by_created) costs the sync's writes: the
 * same pull (pages of 200 with their cursor, as bench/store.bench.ts) into a fresh store with
 * and without the index, then the same records pulled again changed (an incremental sync after
 * everyone edited everything). Runs alternate (with, without, with, without) so a machine shared
 * with other work slows both alike; rates are per second of this process's CPU time, the best of
 * the runs. Part of bench/overview.bench.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Mirror } from '../src/main/store/mirror/mirror';
import { Store } from '../src/main/store/store';
import { record, recordId, writeMetadata } from './syntheticRecords';
import { pullPages, timedPages } from './timedPages';

const PAGE = 200;

function once(records: number, withIndex: boolean) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'portaldesk-bench-overview-write-'));
  const store = Store.open({ dataDir: dir, mode: 'bench' });
  try {
    const mirror = new Mirror(store.db);
    writeMetadata(mirror, { accountId: 'bench' });
    if (!withIndex) store.db.exec('DROP INDEX records_by_created');
    const pulled = timedPages(mirror, pullPages(records, PAGE), (i) => ({
      scanIndex: (i + 1) * PAGE,
      scanAfter: recordId((i + 1) * PAGE),
    }));
    const changed: ReturnType<typeof record>[][] = [];
    for (let first = 0; first < records; first += PAGE) {
      changed.push(
        Array.from({ length: Math.min(PAGE, records - first) }, (_, i) => ({
          ...record(first + i + 1),
          statusId: '2000000001',
          lastUpdatedTime: '2026-03-06T00:00:00.000Z',
        })),
      );
    }
    const again = timedPages(mirror, changed, () => ({ highWater: '2026-03-06T00:00:00.000Z' }));
    return {
      pull_cpu_rps: Math.round(records / (pulled.cpuUs / 1e6)),
      changed_cpu_rps: Math.round(records / (again.cpuUs / 1e6)),
    };
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Best CPU rates with and without the index over `rounds` alternating rounds. */
export function overviewWriteCost(records: number, rounds: number) {
  const best = {
    with_index: { pull_cpu_rps: 0, changed_cpu_rps: 0 },
    without_index: { pull_cpu_rps: 0, changed_cpu_rps: 0 },
  };
  for (let round = 0; round < rounds; round++) {
    for (const withIndex of [true, false]) {
      const rates = once(records, withIndex);
      const slot = withIndex ? best.with_index : best.without_index;
      slot.pull_cpu_rps = Math.max(slot.pull_cpu_rps, rates.pull_cpu_rps);
      slot.changed_cpu_rps = Math.max(slot.changed_cpu_rps, rates.changed_cpu_rps);
    }
  }
  const change = (a: number, b: number) => Number((((a - b) / b) * 100).toFixed(1));
  return {
    records,
    rounds,
    ...best,
    pull_change_pct: change(best.with_index.pull_cpu_rps, best.without_index.pull_cpu_rps),
    changed_change_pct: change(best.with_index.changed_cpu_rps, best.without_index.changed_cpu_rps),
  };
}
