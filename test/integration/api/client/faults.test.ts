import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../../src/main/api/client/apiError';
import { createApiClient } from '../../../../src/main/api/client/apiClient';
import { passThroughScheduler } from '../../../../src/main/api/client/passThroughScheduler';
import { ServiceProfile } from '@portaldesk/portal-api/serviceProfile';
import { clientSession } from './session';

/** A local port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('the client against the emulator: tokens and faults', () => {
  it('renews an expired token once for five requests in flight, and each succeeds', async () => {
    const { client, records, admin, refreshes, sends } = await clientSession();
    const [first] = (await client.listEntities({ ...records, query: { per_page: 1 } })).items;
    const record = { ...records, entity_id: first!.id };
    const expired = await admin('POST', 'clock/advance', { seconds: 3601 });
    expect(expired.status).toBe(200);
    sends.length = 0;

    const results = await Promise.all([
      client.getEntity(record),
      client.countEntities(records),
      client.countComments(record),
      client.listStatusTimeline(record),
      client.getPortal({ portal_id: records.portal_id }),
    ]);
    expect(results[0].id).toBe(first!.id);
    expect(refreshes).toHaveLength(1);
    // Each request twice: once refused with the expired token, once with the renewed one.
    expect(sends).toHaveLength(10);
  });

  it('retries a GET the service answered with 500, and returns its data', async () => {
    let cleared = 0;
    const session = await clientSession({
      client: {
        sleep: async () => {
          // The fault ends while the client waits, as a real outage would.
          if (cleared++ === 0) await session.admin('POST', 'faults', { faults: [] });
        },
      },
    });
    const { client, records, admin, sends } = session;
    await admin('POST', 'faults', {
      faults: [{ path: '/entities$', error500: 1, method: 'GET' }],
    });
    const page = await client.listEntities(records);
    expect(page.items.length).toBeGreaterThan(0);
    expect(sends.map((s) => s.method)).toEqual(['GET', 'GET']);
  });

  it('gives up on a GET after the bounded retries, and never repeats a POST that got a 500', async () => {
    const { client, records, admin, sends, storedCount } = await clientSession();
    await admin('POST', 'faults', { faults: [{ path: '/entities', error500: 1 }] });
    const read = await client.listEntities(records).catch((error: unknown) => error as ApiError);
    expect(read).toMatchObject({ kind: 'transient', status: 500, attempts: 4 });
    expect(sends).toHaveLength(4);

    sends.length = 0;
    const before = storedCount();
    const write = await client
      .createEntity({ ...records, body: { name: 'Never twice', cf_serial_number: 'N-2' } })
      .catch((error: unknown) => error as ApiError);
    expect(write).toMatchObject({ kind: 'transient', status: 500, attempts: 1 });
    expect(sends).toHaveLength(1);
    expect(storedCount()).toBe(before);
  });

  it('retries a GET whose connection was reset', async () => {
    let cleared = 0;
    const session = await clientSession({
      client: {
        sleep: async () => {
          if (cleared++ === 0) await session.admin('POST', 'faults', { faults: [] });
        },
      },
    });
    await session.admin('POST', 'faults', { faults: [{ path: '/portals$', reset: 1 }] });
    const portals = await session.client.listPortals({});
    expect(portals.items.length).toBeGreaterThan(0);
    expect(session.sends).toHaveLength(2);
  });

  it('retries even a POST when the connection is refused, then says nothing reached the service', async () => {
    const port = await closedPort();
    const sleeps: number[] = [];
    const client = createApiClient({
      profile: ServiceProfile.parse({
        id: 'down',
        name: 'Down',
        dataCenters: { us: { api: `http://127.0.0.1:${port}` } },
        apiPrefix: '/api/v3',
        scopePrefixes: { api: 'PMS', files: 'PMSFiles' },
        commentSegment: 'record comments',
        legacyAuthScheme: 'PMS-oauthtoken',
        multiDc: false,
      }),
      dataCenter: 'us',
      tokens: { accessToken: async () => 't', refresh: async () => 't2' },
      scheduler: passThroughScheduler(),
      sleep: async (ms) => {
        sleeps.push(ms);
      },
    });
    const error = await client
      .createComment({
        portal_id: '1',
        scope_path: 'projects',
        module_api_name: 'assets',
        entity_id: '2',
        body: { content: 'hello' },
      })
      .catch((reason: unknown) => reason as ApiError);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      kind: 'transient',
      status: null,
      errorCode: 'NETWORK_ERROR',
      attempts: 4,
    });
    expect(error.message).toBe(
      'PortalDesk could not add the comment: the connection was refused (4 attempts). Nothing reached the service; check the connection and try again.',
    );
    expect(sleeps).toHaveLength(3);
  });
});
