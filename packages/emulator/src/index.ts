/**
 * The REST API v3 and accounts emulator, as a library: `startEmulator(options)` starts one HTTP
 * server per data center, each serving `/api/v3/...` and (except API-only data centers)
 * `/oauth/v2/...`, over one shared in-memory (or file) database.
 */
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import { createClock } from './clock';
import {
  API_ONLY_DATA_CENTERS,
  resolveConfig,
  type EmulatorConfig,
  type EmulatorOptions,
} from './config';
import { FaultInjector } from './faults';
import { createDcServer, listen } from './http/server';
import { RateLimiter } from './limits/rateLimiter';
import { openEmulatorDatabase } from './model/database';
import { seedDatabase, type SeedSummary } from './model/seed';
import { buildRouter } from './routes';
import { RequestStats, type DcAddresses, type EmulatorState } from './state';

export type { EmulatorOptions } from './config';

export interface RunningEmulator {
  dcs: Record<string, DcAddresses>;
  client: EmulatorConfig['client'];
  /**
   * Every data center's client secret (the same one unless Multi-DC). Without Multi-DC the client
   * gets tokens only in its home data center, the first one with an accounts server.
   */
  clientSecrets: Record<string, string>;
  adminSecret: string;
  commentSegment: string;
  portals: string[];
  user: { email: string; password: string };
  state: EmulatorState;
  close(): Promise<void>;
}

/** The highest id in any table with an integer `id`, read from the schema itself. */
function maxId(db: EmulatorState['db']): number {
  const tables = db
    .prepare(
      `SELECT m.name FROM sqlite_master m, pragma_table_info(m.name) c
       WHERE m.type = 'table' AND c.name = 'id' AND c.type = 'INTEGER'`,
    )
    .pluck()
    .all() as string[];
  let max = 0;
  for (const table of tables) {
    const row = db.prepare(`SELECT MAX(id) AS m FROM "${table}"`).get() as { m: number | null };
    max = Math.max(max, row.m ?? 0);
  }
  return max;
}

/** Ids start high, like the service's, but stay below 2^53. */
const FIRST_ID = 1_000_000_000_000;

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const config = resolveConfig(options, () => randomBytes(16).toString('hex'));
  const { db, fresh } = openEmulatorDatabase(config.data);
  const clock = createClock(config.timeScale);
  let lastId = FIRST_ID;
  const state: EmulatorState = {
    db,
    clock,
    config,
    rate: new RateLimiter(clock, config.rateLimit),
    faults: new FaultInjector(),
    stats: new RequestStats(),
    addresses: {},
    nextId: () => ++lastId,
    nowIso: () => new Date(clock.now()).toISOString(),
  };

  let summary: SeedSummary;
  try {
    // A reopened data file continues after its highest id.
    if (!fresh) lastId = Math.max(FIRST_ID, maxId(db));
    summary = seedDatabase(state, { fresh });
  } catch (error) {
    db.close();
    throw error;
  }

  // The routes every data center's server answers (routes.ts).
  const router = buildRouter(config.commentSegment);
  const servers: Server[] = [];
  try {
    for (const [index, dc] of config.dcs.entries()) {
      const server = createDcServer(state, router, dc);
      const port = await listen(server, config.port === 0 ? 0 : config.port + index, config.host);
      servers.push(server);
      // An IPv6 address is bracketed in a URL (and in the Host header that must match it).
      const host = config.host.includes(':') ? `[${config.host}]` : config.host;
      const origin = `http://${host}:${port}`;
      state.addresses[dc] = API_ONLY_DATA_CENTERS.has(dc)
        ? { api: origin }
        : { api: origin, accounts: origin };
    }
  } catch (error) {
    for (const server of servers) server.close();
    db.close();
    throw error;
  }

  return {
    dcs: state.addresses,
    client: config.client,
    clientSecrets: summary.clientSecrets,
    adminSecret: config.adminSecret,
    commentSegment: config.commentSegment,
    portals: summary.portals,
    user: summary.user,
    state,
    close: async () => {
      await Promise.all(
        servers.map(
          (server) =>
            new Promise<void>((resolve) => {
              server.closeAllConnections();
              server.close(() => resolve());
            }),
        ),
      );
      db.close();
    },
  };
}
