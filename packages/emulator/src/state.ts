import type Database from 'better-sqlite3';
import type { Clock } from './clock';
import type { EmulatorConfig } from './config';
import type { FaultInjector } from './faults';
import type { RateLimiter } from './limits/rateLimiter';

export interface DcAddresses {
  api: string;
  /** Absent for data centers that are "API only" in the spec. */
  accounts?: string;
}

/** Counters for the admin surface's `GET stats`. */
export class RequestStats {
  readonly perEndpoint = new Map<string, number>();
  /**
   * Writes (API requests other than GET) whose handler succeeded, by `METHOD path`: what a client
   * that must deliver each change exactly once is checked against, whether the answer reached it
   * or not (the `dropAnswer` fault).
   */
  readonly writesApplied = new Map<string, number>();
  total = 0;

  count(key: string): void {
    this.total++;
    this.perEndpoint.set(key, (this.perEndpoint.get(key) ?? 0) + 1);
  }

  applied(method: string, path: string): void {
    const key = `${method} ${path}`;
    this.writesApplied.set(key, (this.writesApplied.get(key) ?? 0) + 1);
  }

  reset(): void {
    this.perEndpoint.clear();
    this.writesApplied.clear();
    this.total = 0;
  }
}

/** Everything a route handler may use. One per emulator, shared by every data center's server. */
export interface EmulatorState {
  db: Database.Database;
  clock: Clock;
  config: EmulatorConfig;
  rate: RateLimiter;
  faults: FaultInjector;
  stats: RequestStats;
  /** Filled in once the servers listen. */
  addresses: Record<string, DcAddresses>;
  /** A new id for any resource: unique across tables, like the service's long ids. */
  nextId(): number;
  /** Emulated now as an ISO 8601 UTC string with milliseconds. */
  nowIso(): string;
}
