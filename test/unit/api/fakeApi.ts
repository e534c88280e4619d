import Database from 'better-sqlite3';
import { RateLimiter } from '@portaldesk/emulator/limits/rateLimiter';
import type { FakeClock } from '../../support/fakeClock';
import budgetsMigration from '../../../src/main/store/migrations/0003_request_budgets.sql?raw';

/**
 * The service's rate limit as the emulator implements it (fixed window per key, block past the
 * limit, headers on every answer), on a fake clock, behind `send` functions for the scheduler.
 */
export function fakeApi(
  clock: FakeClock,
  config: { calls: number; windowMs: number; blockMs?: number; latencyMs?: number },
) {
  const limiter = new RateLimiter(
    {
      now: () => clock.now(),
      scale: 1,
      advance: () => undefined,
      toRealSeconds: (ms) => Math.max(0, Math.ceil(ms / 1000)),
    },
    {
      calls: config.calls,
      windowMs: config.windowMs,
      blockMs: config.blockMs ?? 600_000,
      enabled: true,
    },
  );
  const latencyMs = config.latencyMs ?? 10;
  /** Every call that reached the server: key, emulated time, status. */
  const calls: { key: string; at: number; status: number; label: string }[] = [];

  function send(key: string, label = key) {
    return async (signal: AbortSignal): Promise<Response> => {
      const verdict = limiter.check(key);
      const status = verdict.allowed ? 200 : 429;
      calls.push({ key, at: clock.now(), status, label });
      await clock.sleep(latencyMs, signal);
      return new Response(JSON.stringify({ label }), { status, headers: verdict.headers });
    };
  }

  return {
    limiter,
    calls,
    send,
    /** A call by another app using the same token: it spends the same budget. */
    foreign(key: string, times = 1) {
      for (let i = 0; i < times; i++) limiter.check(key);
    },
    sendTimes: (key: string) => calls.filter((call) => call.key === key).map((call) => call.at),
    get throttled() {
      return limiter.throttled;
    },
  };
}

/** The largest number of `times` inside any window of `windowMs` (half-open, like the server's). */
export function maxInAnyWindow(times: readonly number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let best = 0;
  let start = 0;
  for (let end = 0; end < sorted.length; end++) {
    while ((sorted[end] as number) - (sorted[start] as number) >= windowMs) start++;
    best = Math.max(best, end - start + 1);
  }
  return best;
}

/** A promise with its resolve handle, to hold a request in flight until the test lets it go. */
export function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** A database file holding only the request_budgets table (migration 0003). */
export function openBudgetDb(file: string): Database.Database {
  const db = new Database(file);
  const exists = db
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'request_budgets'")
    .get();
  if (!exists) db.exec(budgetsMigration);
  return db;
}
