/**
 * A sync engine on a fresh mirror against a fresh emulator: clients per data center with tokens
 * from grantToken, the emulator's admin surface and its own database for comparisons.
 */
import { afterEach } from 'vitest';
import type { EmulatorOptions } from '@portaldesk/emulator/index';
import {
  createApiClient,
  type ApiClient,
  type ApiClientOptions,
  type MalformedReplyReport,
} from '../../../src/main/api/client/apiClient';
import { emulatorServiceProfile } from '../../../src/main/api/client/emulatorProfile';
import { passThroughScheduler } from '../../../src/main/api/client/passThroughScheduler';
import type { TokenProvider } from '../../../src/main/api/client/tokenProvider';
import { Mirror } from '../../../src/main/store/mirror/mirror';
import { Store } from '../../../src/main/store/store';
import { SCAN_SORT } from '../../../src/main/sync/scanRunsAhead';
import { SyncEngine, type SyncEngineOptions } from '../../../src/main/sync/syncEngine';
import type { SyncAccount, SyncEvent, SyncProgress } from '../../../src/main/sync/syncTypes';
import { api, grantToken, testEmulator, type RunningEmulator } from '../../support/emulator';
import { tempDir } from '../../support/tempDir';

const stores: Store[] = [];
const engines: SyncEngine[] = [];
afterEach(async () => {
  for (const engine of engines.splice(0)) {
    engine.close();
    await engine.idle();
  }
  for (const store of stores.splice(0)) store.close();
});

export interface Sent {
  method: string;
  url: URL;
  /** The request's body, where a test keeps it. */
  body?: string;
}

export interface SessionOptions {
  emulator?: EmulatorOptions;
  engine?: Partial<SyncEngineOptions>;
  client?: Partial<ApiClientOptions>;
}

/** A client for one data center whose token refresh mints a new one; sends are recorded. */
export function emulatorClient(
  emulator: RunningEmulator,
  dc: string,
  options: { email?: string; client?: Partial<ApiClientOptions>; sent?: Sent[] } = {},
): { client: ApiClient; malformed: MalformedReplyReport[] } {
  const mint = () =>
    grantToken(emulator, { dc, ...(options.email ? { email: options.email } : {}) });
  let token = mint();
  const tokens: TokenProvider = {
    accessToken: async () => token,
    refresh: async () => (token = mint()),
  };
  const malformed: MalformedReplyReport[] = [];
  const sent = options.sent;
  const client = createApiClient({
    profile: emulatorServiceProfile(emulator),
    dataCenter: dc,
    tokens,
    scheduler: passThroughScheduler(),
    fetch: (input, init) => {
      sent?.push({ method: init?.method ?? 'GET', url: new URL(String(input)) });
      return fetch(input, init);
    },
    sleep: async () => undefined,
    onMalformed: (report) => malformed.push(report),
    ...options.client,
  });
  return { client, malformed };
}

export async function syncSession(options: SessionOptions = {}) {
  const emulator = await testEmulator({ records: 200, ...options.emulator });
  const store = Store.open({ dataDir: tempDir('portaldesk-sync-'), mode: 'test' });
  stores.push(store);
  const mirror = new Mirror(store.db);
  const sent: Sent[] = [];
  const { client, malformed } = emulatorClient(emulator, 'us', {
    sent,
    ...(options.client ? { client: options.client } : {}),
  });
  const account: SyncAccount = { accountId: 'acc-1', client };
  const warnings: string[] = [];
  const events: SyncEvent[] = [];
  const newEngine = (extra: Partial<SyncEngineOptions> = {}) => {
    const engine = new SyncEngine({
      mirror,
      log: { warn: (message) => warnings.push(message) },
      retryDelaysMs: [0, 0],
      commentBackfill: false,
      ...options.engine,
      ...extra,
    });
    engine.onEvent((event) => events.push(event));
    engines.push(engine);
    return engine;
  };
  const engine = newEngine();
  const base = emulator.dcs.us!.api;
  const adminHeaders = { 'X-Emulator-Admin': emulator.adminSecret };
  const admin = (method: string, path: string, body?: unknown) =>
    api(base, undefined, method, `/__emulator/${path}`, body, adminHeaders);
  /** Requests per endpoint key the emulator counted (admitted to a route, 429s included). */
  const stats = async (): Promise<Record<string, number>> =>
    (await admin('GET', 'stats')).body.requests.per_endpoint as Record<string, number>;
  const token = grantToken(emulator);
  /** A call to the emulator's API as another client would make it. */
  const call = (method: string, path: string, body?: unknown) =>
    api(base, token, method, `/api/v3${path}`, body);

  /** Active record ids of a portal in the emulator's own database, by module api name. */
  const serverIds = (portalId: string): Map<string, string[]> => {
    const rows = emulator.state.db
      .prepare(
        `SELECT e.id AS id, m.api_name AS module FROM entities e JOIN modules m ON m.id = e.module_id
         WHERE m.portal_id = ? AND e.trashed_time IS NULL ORDER BY e.id`,
      )
      .all(Number(portalId)) as { id: number; module: string }[];
    const byModule = new Map<string, string[]>();
    for (const row of rows) {
      const list = byModule.get(row.module) ?? [];
      list.push(String(row.id));
      byModule.set(row.module, list);
    }
    return byModule;
  };

  /** Listed (not trashed) record ids of a portal in the mirror, by module api name. */
  const mirroredIds = (portalId: string): Map<string, string[]> => {
    const rows = store.db
      .prepare(
        `SELECT r.id AS id, m.api_name AS module FROM records r JOIN modules m ON m.module_key = r.module_key
         WHERE r.portal_id = ? AND r.trashed_time IS NULL ORDER BY r.id`,
      )
      .all(portalId) as { id: string; module: string }[];
    const byModule = new Map<string, string[]>();
    for (const row of rows) {
      const list = byModule.get(row.module) ?? [];
      list.push(row.id);
      byModule.set(row.module, list);
    }
    return byModule;
  };

  const progress = () =>
    events.filter(
      (event): event is { type: 'progress' } & SyncProgress => event.type === 'progress',
    );

  return {
    emulator,
    store,
    mirror,
    client,
    account,
    engine,
    newEngine,
    sent,
    malformed,
    warnings,
    events,
    progress,
    admin,
    stats,
    call,
    serverIds,
    mirroredIds,
  };
}

/** `:filter(fields)` for a request whose filter selects records, else nothing. */
function filterSuffix(url: URL): string {
  const filter = url.searchParams.get('filter');
  if (filter === null) return '';
  const criteria = (JSON.parse(filter) as { criteria: { field_name: string }[] }).criteria;
  return `:filter(${criteria.map((c) => c.field_name).join(',')})`;
}

/**
 * Requests to the records list (`.../entities`) among `sent`, as `module:page`, or `module:@index`
 * for a window of a listing (scanRunsAhead.ts), with `:sort` unless the sort is the full
 * listing's own (SCAN_SORT), and `:filter(fields)` when a filter selects records (the changes of
 * an incremental pull): a request without `(` reads the whole list.
 */
export function listedPages(sent: readonly Sent[]): string[] {
  return sent
    .filter((s) => s.method === 'GET' && /\/entities$/.test(s.url.pathname))
    .map((s) => {
      const module = s.url.pathname.split('/').at(-2);
      const sort = s.url.searchParams.get('sort_by');
      const index = s.url.searchParams.get('index');
      const where = index === null ? s.url.searchParams.get('page') : `@${index}`;
      return `${module}:${where}${sort && sort !== SCAN_SORT ? `:${sort}` : ''}${filterSuffix(s.url)}`;
    });
}

export function sum(values: Iterable<number>): number {
  let total = 0;
  for (const value of values) total += value;
  return total;
}
