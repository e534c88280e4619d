/** A client on a fresh emulator, with a token provider whose refresh mints a new token. */
import type { EmulatorOptions } from '@portaldesk/emulator/index';
import {
  createApiClient,
  type ApiClientOptions,
  type MalformedReplyReport,
} from '../../../../src/main/api/client/apiClient';
import { emulatorServiceProfile } from '../../../../src/main/api/client/emulatorProfile';
import { passThroughScheduler } from '../../../../src/main/api/client/passThroughScheduler';
import type { TokenProvider } from '../../../../src/main/api/client/tokenProvider';
import { api, grantToken, testEmulator } from '../../../support/emulator';

export const ASSETS = 'assets';

export async function clientSession(
  options: { emulator?: EmulatorOptions; client?: Partial<ApiClientOptions> } = {},
) {
  const emulator = await testEmulator({ records: 40, ...options.emulator });
  const profile = emulatorServiceProfile(emulator);
  let token = grantToken(emulator);
  const refreshes: string[] = [];
  const tokens: TokenProvider = {
    accessToken: async () => token,
    refresh: async (rejected) => {
      refreshes.push(rejected);
      token = grantToken(emulator);
      return token;
    },
  };
  const sends: { method: string; url: string }[] = [];
  const malformed: MalformedReplyReport[] = [];
  const client = createApiClient({
    profile,
    dataCenter: 'us',
    tokens,
    scheduler: passThroughScheduler(),
    fetch: (input, init) => {
      sends.push({ method: init?.method ?? 'GET', url: String(input) });
      return fetch(input, init);
    },
    // Retries need no real waiting against a local server.
    sleep: async () => undefined,
    onMalformed: (report) => malformed.push(report),
    ...options.client,
  });
  const base = emulator.dcs.us!.api;
  const admin = (method: string, path: string, body?: unknown) =>
    api(base, undefined, method, `/__emulator/${path}`, body, {
      'X-Emulator-Admin': emulator.adminSecret,
    });
  const portal = emulator.portals[0]!;
  const records = { portal_id: portal, scope_path: 'projects', module_api_name: ASSETS };
  /** Active records of a module in the emulator's own database. */
  const storedCount = (module = ASSETS) =>
    (
      emulator.state.db
        .prepare(
          `SELECT COUNT(*) AS n FROM entities e JOIN modules m ON m.id = e.module_id
           WHERE m.portal_id = ? AND m.api_name = ? AND e.trashed_time IS NULL`,
        )
        .get(Number(portal), module) as { n: number }
    ).n;
  return {
    emulator,
    profile,
    client,
    refreshes,
    sends,
    malformed,
    admin,
    portal,
    records,
    storedCount,
  };
}
