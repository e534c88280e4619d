/**
 * "Change this record on the server" through the engine's contract, as the record panel calls it:
 * in the demo portal a colleague's edit lands on the demo service and meets the user's queued
 * edit as a conflict; for an account of a real service the call is refused in words and nothing
 * changes anywhere.
 */
import { expect, test } from 'vitest';
import { MemorySecretStore } from '../../../src/main/auth/memorySecretStore';
import type { Engine } from '../../../src/main/engine';
import type { OutboxEntry } from '../../../src/shared/ipc/areas/outbox';
import type { RecordsPortal } from '../../../src/shared/ipc/areas/records';
import { api } from '../../support/emulator';
import { testEngine } from '../../support/engine';

/** The demo seeds 5,000 records; each test signs in and syncs it first (about 10 s here). */
const DEMO_TEST_MS = 60_000;

const origin = { transport: 'internal' as const, trusted: true, description: 'test' };

async function call<T>(engine: Engine, name: string, args?: unknown): Promise<T> {
  const reply = await engine.dispatcher.dispatch(name, args, origin);
  if (!reply.ok) throw new Error(`${name}: ${reply.error.message}`);
  return reply.value as T;
}

async function refusal(engine: Engine, name: string, args?: unknown): Promise<string> {
  const reply = await engine.dispatcher.dispatch(name, args, origin);
  if (reply.ok) throw new Error(`${name} was not refused`);
  return reply.error.message;
}

/** An Assets record of the demo's first portal, as the service holds it now. */
async function serviceRecord(engine: Engine, portalId: string, id: string) {
  const account = engine.accounts.signedIn()[0]!;
  const reply = await api(
    account.profile.dataCenters.us!.api,
    await account.tokens.accessToken(),
    'GET',
    `/api/v3/portal/${portalId}/projects/assets/entities/${id}`,
  );
  return reply.body.entity as { id: string; name: string; last_updated_time: string };
}

async function signedInDemo() {
  const engine = testEngine({
    secrets: new MemorySecretStore(),
    sync: { engine: { commentBackfill: false, retryDelaysMs: [0, 0] } },
  });
  await call(engine, 'accounts.signInDemo');
  await new Promise((resolve) => setTimeout(resolve, 20));
  await engine.sync.idle();
  const portal = (await call<RecordsPortal[]>(engine, 'records.portals'))[0]!;
  const [record] = engine.mirror.records
    .listedServerIds(portal.id)
    .filter((r) => r.module === 'assets');
  return { engine, portalId: portal.id, record: record! };
}

test(
  'in the demo, a colleague renames a record on the service; my offline rename meets it as a conflict, and Keep mine wins',
  async () => {
    const { engine, portalId, record } = await signedInDemo();
    const before = await serviceRecord(engine, portalId, record.id);

    await call(engine, 'outbox.setWorkOffline', { on: true });
    const mine = `${record.name} (checked on site)`;
    await call(engine, 'outbox.edit', { portalId, recordId: record.id, changes: { name: mine } });

    const result = await call<{ message: string; fields: string[]; changedBy: string }>(
      engine,
      'accounts.demoChangeRecord',
      { portalId, recordId: record.id },
    );
    expect(result.fields).toEqual(['name']);
    expect(result.message).toContain(`${result.changedBy} changed the name of this record`);
    expect(result.message).toMatch(/queued edit of the name will meet theirs.*Keep mine/);
    const theirs = await serviceRecord(engine, portalId, record.id);
    expect(theirs.name).toMatch(/^.+ \(changed on the server \d\d:\d\d:\d\d\)$/);
    expect(theirs.name.startsWith(record.name)).toBe(true);
    expect(theirs.last_updated_time > before.last_updated_time).toBe(true);
    // The user's copy still shows their own edit over the old server value.
    expect(engine.mirror.records.serverCopy(portalId, record.id)?.name).toBe(record.name);

    await call(engine, 'outbox.setWorkOffline', { on: false });
    let conflict: OutboxEntry | undefined;
    await expect
      .poll(
        async () => {
          const entries = await call<OutboxEntry[]>(engine, 'outbox.list', {
            portalId,
            recordId: record.id,
          });
          conflict = entries.find((entry) => entry.state === 'conflict');
          return conflict !== undefined;
        },
        { timeout: 10_000 },
      )
      .toBe(true);
    await call(engine, 'outbox.resolve', {
      id: conflict!.id,
      fields: [{ field: 'name', choice: 'mine' }],
    });
    await expect
      .poll(async () => (await serviceRecord(engine, portalId, record.id)).name, {
        timeout: 10_000,
      })
      .toBe(mine);
  },
  DEMO_TEST_MS,
);

test(
  'with an edit of the description queued too, the colleague changes both fields',
  async () => {
    const { engine, portalId, record } = await signedInDemo();
    await call(engine, 'outbox.setWorkOffline', { on: true });
    await call(engine, 'outbox.edit', {
      portalId,
      recordId: record.id,
      changes: { description: 'Mine.' },
    });
    const result = await call<{ message: string; fields: string[] }>(
      engine,
      'accounts.demoChangeRecord',
      { portalId, recordId: record.id },
    );
    expect(result.fields).toEqual(['name', 'description']);
    expect(result.message).toMatch(/queued edit of the description will meet theirs/);
    expect((await serviceRecord(engine, portalId, record.id)) as unknown).toMatchObject({
      description: expect.stringMatching(/Changed on the server \d\d:\d\d:\d\d by another user\.$/),
    });
  },
  DEMO_TEST_MS,
);

test(
  'a portal or record the demo mirror does not hold is refused in words, and nothing changes',
  async () => {
    const { engine, portalId } = await signedInDemo();
    const listed = () => engine.mirror.records.listedServerIds(portalId);
    const before = listed();
    expect(
      await refusal(engine, 'accounts.demoChangeRecord', { portalId: '99', recordId: '1' }),
    ).toMatch(
      /^Portal 99 is not in the local mirror of any signed-in account; nothing was changed/,
    );
    expect(
      await refusal(engine, 'accounts.demoChangeRecord', { portalId, recordId: '12345' }),
    ).toMatch(/^Record 12345 is not in the local mirror of the demo portal; nothing was changed/);
    // A record made offline is not on the service: nobody else can change it.
    await call(engine, 'outbox.setWorkOffline', { on: true });
    const moduleId = engine.mirror.metadata
      .modules(portalId)
      .find((module) => module.apiName === 'assets')!.id;
    const created = await call<{ recordId: string }>(engine, 'outbox.create', {
      portalId,
      moduleId,
      values: { name: 'Made offline', cf_serial_number: 'SN-OFFLINE-1' },
    });
    expect(
      await refusal(engine, 'accounts.demoChangeRecord', { portalId, recordId: created.recordId }),
    ).toMatch(/created here and is not on the demo service yet/);
    expect(listed()).toEqual(before);
  },
  DEMO_TEST_MS,
);
