import type { RequestScheduler } from '../../../src/main/api/requestScheduler';
import { api, type RunningEmulator } from '../../support/emulator';

/** GET /api/v3/portals through the scheduler, as the client will send it. */
export function portalsThrough(
  scheduler: RequestScheduler,
  emulator: RunningEmulator,
  token: string,
) {
  const base = emulator.dcs.us!.api;
  return scheduler
    .schedule({
      key: 'us GET /api/v3/portals',
      priority: 'background',
      send: (signal) =>
        fetch(`${base}/api/v3/portals`, { headers: { Authorization: `Bearer ${token}` }, signal }),
    })
    .then(async (response) => ({ status: response.status, body: await response.text() }));
}

export async function throttled(emulator: RunningEmulator): Promise<number> {
  const admin = { 'X-Emulator-Admin': emulator.adminSecret };
  const stats = await api(
    emulator.dcs.us!.api,
    undefined,
    'GET',
    '/__emulator/stats',
    undefined,
    admin,
  );
  return stats.body.throttled as number;
}
