/**
 * An outbox on a mirror filled by a real sync from a fresh emulator: the replay goes through a
 * client whose sends are recorded and can be made to fail, hang or lose their answers.
 */
import { afterEach } from 'vitest';
import type { ApiClient } from '../../../src/main/api/client/apiClient';
import { passThroughScheduler } from '../../../src/main/api/client/passThroughScheduler';
import { EventHub } from '../../../src/main/bridge/eventHub';
import { Connectivity, memoryWorkOfflineStore } from '../../../src/main/connectivity/connectivity';
import { OutboxService } from '../../../src/main/outbox/outboxService';
import type { Sent } from '../sync/syncSession';
import { emulatorClient, syncSession } from '../sync/syncSession';

const services: OutboxService[] = [];
afterEach(() => {
  for (const service of services.splice(0)) service.close();
});

/**
 * What the fetch wrapper does with a request: pass, fail before sending, lose the answer, or
 * answer 2xx with a body that cannot be read.
 */
export type FetchFault =
  'pass' | 'refuse' | 'reset-unsent' | 'lose-answer' | 'hang-after-send' | 'garble-answer';

/** Holds a request before it goes (`answered` false) or its answer before the client reads it. */
export type FetchGate = (method: string, url: URL, answered: boolean) => Promise<void>;

export interface OutboxSessionOptions {
  records?: number;
  /**
   * Rewrites the text of every reply the sync and the replay read: a service holding what the
   * emulator cannot (a number of 19 digits written as such on the wire).
   */
  rewriteReply?: (text: string) => string;
}

/** `fetch`, with each reply's text passed through `rewrite`. */
function rewritingFetch(rewrite: (text: string) => string): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    const text = await response.text();
    const headers = new Headers(response.headers);
    headers.delete('content-length');
    return new Response(response.status === 204 ? null : rewrite(text), {
      status: response.status,
      headers,
    });
  };
}

export async function outboxSession(options: OutboxSessionOptions = {}) {
  const rewrite = options.rewriteReply;
  const wire: typeof fetch = rewrite ? rewritingFetch(rewrite) : fetch;
  const session = await syncSession({
    emulator: { records: options.records ?? 40 },
    ...(rewrite ? { client: { fetch: wire } } : {}),
  });
  const result = await session.engine.syncAccount(session.account).done;
  if (result.state !== 'done') throw new Error(`The test sync ended ${result.state}`);
  const sent: Sent[] = [];
  /** Decides per request; the default passes everything. */
  let fault: (method: string, url: URL) => FetchFault = () => 'pass';
  let gate: FetchGate = async () => undefined;
  // The replay's calls feed connectivity, as the app's request scheduler does.
  const scheduler = passThroughScheduler();
  const connectivity = Connectivity.fedBy(scheduler, memoryWorkOfflineStore());
  const { client } = emulatorClient(session.emulator, 'us', {
    sent,
    client: {
      scheduler,
      fetch: async (input, init) => {
        const url = new URL(String(input));
        const method = init?.method ?? 'GET';
        const decision = fault(method, url);
        sent.push({ method, url, ...(typeof init?.body === 'string' ? { body: init.body } : {}) });
        if (decision === 'refuse') {
          throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } });
        }
        // A reset the client cannot tell from one after the service acted; nothing reached it.
        if (decision === 'reset-unsent') {
          throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNRESET' } });
        }
        await gate(method, url, false);
        const response = await wire(input, init);
        await gate(method, url, true);
        if (decision === 'lose-answer') {
          await response.text();
          throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNRESET' } });
        }
        if (decision === 'garble-answer') {
          // The service acted and answered 2xx, but with a body PortalDesk cannot read.
          await response.text();
          return new Response('{"unexpected": true}', {
            status: response.status,
            headers: { 'Content-Type': 'application/json' },
          });
        }
        if (decision === 'hang-after-send') {
          await response.text();
          return new Promise<Response>(() => undefined);
        }
        return response;
      },
    },
  });
  const events = new EventHub();
  const emitted: { event: string; payload: unknown }[] = [];
  events.subscribe((event, payload) => emitted.push({ event, payload }));
  let clientOf: (portalId: string) => ApiClient | undefined = () => client;
  const open = () => {
    const service = new OutboxService({
      db: session.store.db,
      mirror: session.mirror,
      connection: { clientForPortal: (p) => clientOf(p) },
      connectivity,
      events,
      replay: { random: () => 0 },
    });
    services.push(service);
    return service;
  };
  const outbox = open();
  const portalId = session.emulator.portals[0]!;
  const db = session.store.db;
  /** Records of the first portal's first module (by api name) in the mirror. */
  const module = db
    .prepare(
      `SELECT m.id, m.api_name AS apiName FROM modules m WHERE m.portal_id = ? AND m.api_name = 'assets'`,
    )
    .get(portalId) as { id: string; apiName: string };
  const recordIds = db
    .prepare(
      `SELECT r.id FROM records r JOIN modules m ON m.module_key = r.module_key
       WHERE r.portal_id = ? AND m.id = ? AND r.trashed_time IS NULL ORDER BY r.id`,
    )
    .pluck()
    .all(portalId, module.id) as string[];
  /** Records (of the module, in id order) whose layout shows the custom field `apiName`. */
  const recordsWithField = (apiName: string) =>
    db
      .prepare(
        `SELECT r.id FROM records r JOIN modules m ON m.module_key = r.module_key
         JOIN layout_fields lf ON lf.portal_id = r.portal_id AND lf.layout_id = r.layout_id
         JOIN fields f ON f.portal_id = lf.portal_id AND f.id = lf.field_id
         WHERE r.portal_id = ? AND m.id = ? AND f.api_name = ? AND r.trashed_time IS NULL
         ORDER BY r.id`,
      )
      .pluck()
      .all(portalId, module.id, apiName) as string[];
  const path = (recordId: string) =>
    `/portal/${portalId}/projects/${module.apiName}/entities/${recordId}`;
  /** The record as the emulator's API shows it now (another client's GET). */
  const serverRecord = async (recordId: string) => {
    const reply = await session.call('GET', path(recordId));
    return reply.status === 200 ? reply.body.entity : null;
  };
  const serverPatch = async (recordId: string, body: unknown) => {
    const reply = await session.call('PATCH', path(recordId), body);
    if (reply.status !== 200)
      throw new Error(`PATCH ${reply.status} ${JSON.stringify(reply.body)}`);
    return reply.body.entity;
  };
  const writes = () => sent.filter((s) => s.method !== 'GET');
  return {
    ...session,
    outbox,
    open,
    sent,
    writes,
    events: emitted,
    portalId,
    module,
    recordIds,
    recordsWithField,
    path,
    serverRecord,
    serverPatch,
    setFault: (next: typeof fault) => (fault = next),
    setGate: (next: FetchGate) => (gate = next),
    setClient: (next: typeof clientOf) => (clientOf = next),
  };
}
