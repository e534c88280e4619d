/**
 * Figures the sync benchmarks (bench/sync.bench.ts, bench/scale.bench.ts) read off the emulator's
 * request counters and this process's CPU time, so both name and compute them the same way.
 */

/**
 * An endpoint key of the record list (`us GET /api/v3/portal/{portal_id}/…/entities portal=…`):
 * the rate limit counts per method, route template and portal, so there is one per portal,
 * whatever number of modules it has.
 */
const RECORD_LIST_KEY = /^\S+ GET \S*\/entities portal=\S+$/;

export interface RecordKeyFigures {
  /** Record-list keys the sync called: the keys whose budgets run in parallel. */
  keys: number;
  /** Calls of the least used of them, and the windows of `limit` calls those need. */
  key_calls_min: number;
  key_windows_min: number;
}

export function recordKeyFigures(
  callsPerKey: Record<string, number>,
  limitCalls: number,
): RecordKeyFigures {
  const calls = Object.entries(callsPerKey)
    .filter(([key, n]) => RECORD_LIST_KEY.test(key) && n > 0)
    .map(([, n]) => n);
  const least = calls.length === 0 ? 0 : Math.min(...calls);
  return {
    keys: calls.length,
    key_calls_min: least,
    key_windows_min: Math.ceil(least / limitCalls),
  };
}

/** This process's CPU time (user + system) since `since`, in microseconds. */
export function cpuMicrosSince(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return used.user + used.system;
}
