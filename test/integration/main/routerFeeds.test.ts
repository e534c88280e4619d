/**
 * The app's own events reach the event-router sandbox: a demo sign-in is an authentication
 * event, its first sync a data-updates event, and the portal gets its suite publisher.
 */
import { expect, test } from 'vitest';
import { MemorySecretStore } from '../../../src/main/auth/memorySecretStore';
import type { Engine } from '../../../src/main/engine';
import { testEngine } from '../../support/engine';

const origin = { transport: 'internal' as const, trusted: true, description: 'test' };

async function call<T>(engine: Engine, name: string, args?: unknown): Promise<T> {
  const outcome = await engine.dispatcher.dispatch(name, args, origin);
  if (!outcome.ok) throw new Error(`${name}: ${outcome.error.message}`);
  return outcome.value as T;
}

test('sign-in and sync runs become default-publisher events in the router', async () => {
  const engine = testEngine({
    secrets: new MemorySecretStore(),
    sync: { engine: { commentBackfill: false, retryDelaysMs: [0, 0] } },
  });
  await call(engine, 'accounts.signInDemo');
  // The sign-in starts the first sync at once.
  await new Promise((resolve) => setTimeout(resolve, 20));
  await engine.sync.idle();
  await new Promise((resolve) => setTimeout(resolve, 20));

  const { rows } = await call<{ rows: { id: string; apiName: string }[] }>(
    engine,
    'router.listEvents',
    {},
  );
  const names = rows.map((row) => row.apiName);
  expect(names).toContain('SignedIn');
  expect(names).toContain('SyncCompleted');

  const sync = await call<{ data: Record<string, unknown> }>(engine, 'router.getEvent', {
    id: rows.find((row) => row.apiName === 'SyncCompleted')!.id,
  });
  expect(sync.data).toMatchObject({ state: 'done' });
  const portals = sync.data.portals as string[];
  expect(portals.length).toBeGreaterThan(0);

  // Each synced portal now has its suite publisher with Create…Reject per module.
  const overview = await call<{ publishers: { kind: string; events: unknown[] }[] }>(
    engine,
    'router.overview',
  );
  const suites = overview.publishers.filter((p) => p.kind === 'suite');
  expect(suites.length).toBe(portals.length);
  expect(suites[0]!.events.length).toBeGreaterThan(0);

  // A refresh of the access token is authentication activity too (the token itself never shows).
  const account = engine.accounts.signedIn()[0]!;
  const token = await account.tokens.refresh(await account.tokens.accessToken());
  await new Promise((resolve) => setTimeout(resolve, 20));
  const after = await call<{ rows: { id: string; apiName: string }[] }>(
    engine,
    'router.listEvents',
    {},
  );
  const refreshed = after.rows.find((row) => row.apiName === 'TokenRefreshed');
  expect(refreshed).toBeDefined();
  const detail = await call<{ data: Record<string, unknown> }>(engine, 'router.getEvent', {
    id: refreshed!.id,
  });
  expect(detail.data).toMatchObject({ account_id: account.accountId });
  expect(JSON.stringify(detail.data)).not.toContain(token);
});
