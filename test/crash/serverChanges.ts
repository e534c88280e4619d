/**
 * What happens on the service while the crash harness's client is down: another client trashes,
 * creates and edits records through the API (so the emulator's lists, counts and caches see them
 * as they would see anyone's).
 */
import { api } from '../support/emulator';
import type { ServerRecord } from './compareMirror';
import { entitiesPath } from './exactlyOnce';
import type { Random } from './random';

/** Values a new record of each custom module needs (its layout's mandatory fields). */
export const MANDATORY: Readonly<Record<string, (n: number) => Record<string, string>>> = {
  assets: (n) => ({ cf_serial_number: `SN-CRASH-${n}` }),
  vendors: (n) => ({ cf_contact_email: `crash${n}@example.com` }),
  change_requests: (n) => ({ cf_justification: `Needed by crash trial ${n}` }),
};

export interface Service {
  base: string;
  token: string;
}

export interface ModuleOnServer {
  portalId: string;
  module: string;
}

async function call(service: Service, method: string, path: string, body?: unknown) {
  const reply = await api(service.base, service.token, method, `/api/v3${path}`, body);
  if (reply.status >= 400) {
    throw new Error(`${method} ${path}: ${reply.status} ${JSON.stringify(reply.body)}`);
  }
  return reply.body as Record<string, unknown>;
}

/** Every listed record of a module, in the API's order. */
export async function listRecords(service: Service, at: ModuleOnServer): Promise<ServerRecord[]> {
  const records: ServerRecord[] = [];
  for (let page = 1; ; page++) {
    const path = `/portal/${at.portalId}/projects/${at.module}/entities?page=${page}&per_page=200`;
    const body = await call(service, 'GET', path);
    records.push(...(body.entities as ServerRecord[]));
    if (!(body.page_info as { has_next_page: boolean }).has_next_page) return records;
  }
}

export interface ChangeCounts {
  trashed: number;
  created: number;
  edited: number;
}

/**
 * Trashes, creates and edits a few records of random modules, never those `protect` keeps (the
 * ones the outbox has changes queued for, or created). Adds each create to `creates` (`POST path` → count) so
 * the harness can tell the client's writes from its own.
 */
export async function changeWhileDown(
  service: Service,
  modules: readonly ModuleOnServer[],
  random: Random,
  protect: (record: ServerRecord) => boolean,
  creates: Map<string, number>,
  serial: { next: number },
): Promise<ChangeCounts> {
  const counts: ChangeCounts = { trashed: 0, created: 0, edited: 0 };
  for (const at of random.pick(modules, random.int(1, modules.length))) {
    const path = `/portal/${at.portalId}/projects/${at.module}/entities`;
    const open = (await listRecords(service, at)).filter((r) => !protect(r));
    const chosen = random.pick(open, random.int(1, 8) + random.int(0, 4));
    const trash = chosen.slice(0, random.int(1, Math.min(8, chosen.length)));
    for (const record of trash) {
      await call(service, 'POST', `${path}/${record.id}/trash`);
      counts.trashed++;
    }
    for (const record of chosen.slice(trash.length)) {
      const n = serial.next++;
      await call(service, 'PATCH', `${path}/${record.id}`, {
        name: `Changed while away ${n}`,
        description: `Edited by another client, change ${n}`,
      });
      counts.edited++;
    }
    for (let i = random.int(0, 3); i > 0; i--) {
      const n = serial.next++;
      await call(service, 'POST', path, {
        name: `Created while away ${n}`,
        ...MANDATORY[at.module]!(n),
      });
      const key = `POST ${entitiesPath(at.portalId, at.module)}`;
      creates.set(key, (creates.get(key) ?? 0) + 1);
      counts.created++;
    }
  }
  return counts;
}
