/**
 * "Try the demo portal": the embedded emulator starts on first use and is signed in to through
 * the same flow; its data and sign-in live in the data directory and survive a restart.
 */
import { afterEach, expect, test } from 'vitest';
import { AccountManager, type SignedInAccount } from '../../../src/main/auth/accountManager';
import { DemoService } from '../../../src/main/auth/demoService';
import { MemorySecretStore } from '../../../src/main/auth/memorySecretStore';
import { Store } from '../../../src/main/store/store';
import { api } from '../../support/emulator';
import { tempDir } from '../../support/tempDir';

const open: { close(): unknown }[] = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

function launch(dataDir: string) {
  const store = Store.open({ dataDir, mode: 'test' });
  const demo = new DemoService({ dir: `${dataDir}/demo`, records: 60 });
  const keychain = new MemorySecretStore();
  const opened: string[] = [];
  const manager = new AccountManager({
    db: store.db,
    secrets: keychain,
    demo,
    openExternal: (url) => opened.push(url),
  });
  open.push(store, demo, manager);
  return { store, demo, keychain, manager, opened };
}

test('the demo signs in through the real flow without opening a browser, and comes back after a restart', async () => {
  const dataDir = tempDir('portaldesk-demo-');
  const first = launch(dataDir);
  expect(first.demo.running).toBe(false);
  expect(first.manager.profiles()[0]).toMatchObject({ id: 'demo', isDemo: true });

  const account = await first.manager.signInDemo();
  expect(account).toMatchObject({
    kind: 'demo',
    profileId: 'demo',
    status: 'signed_in',
    dataCenter: 'us',
  });
  expect(account.label).toBe('northwind');
  expect(first.opened).toEqual([]);
  // Its tokens stay out of the OS keychain (they open nothing but the local emulator).
  expect(first.keychain.entries.size).toBe(0);
  expect(first.manager.accountsOrigins()).toEqual([account.accountsUrl]);
  // Trying again re-signs the same demo account instead of adding a twin.
  expect((await first.manager.signInDemo()).accountId).toBe(account.accountId);
  expect(first.manager.state().accounts).toHaveLength(1);

  first.manager.close();
  await first.demo.close();
  first.store.close();

  const second = launch(dataDir);
  const restored: SignedInAccount[] = [];
  second.manager.onSignedIn((a) => restored.push(a));
  // The demo restarts on its own ports, then its account is usable again.
  await expect.poll(() => restored.length, { timeout: 10_000 }).toBe(1);
  const [again] = restored;
  expect(again!.accountId).toBe(account.accountId);
  expect(again!.profile.dataCenters.us!.api).not.toBe(account.apiDomain);
  const token = await again!.tokens.accessToken();
  const portals = await api(again!.profile.dataCenters.us!.api, token, 'GET', '/api/v3/portals');
  expect(portals.status).toBe(200);
  expect(second.manager.state().accounts[0]).toMatchObject({
    status: 'signed_in',
    label: 'northwind',
  });
});

test("the demo console's Self Client code, scopes checked first, signs in too", async () => {
  const { manager } = launch(tempDir('portaldesk-demo-'));
  await expect(manager.demoSelfClientCode('PMS.portals')).rejects.toThrow(/^Enter a valid scope/);
  const { code } = await manager.demoSelfClientCode('PMS.portals.READ, PMS.custom_fields.READ');
  const account = await manager.selfClient({
    profileId: 'demo',
    dataCenter: 'us',
    code,
    scopes: 'PMS.portals.READ, PMS.custom_fields.READ',
  });
  expect(account).toMatchObject({ kind: 'self_client', profileId: 'demo', status: 'signed_in' });
  expect(account.scopes).toEqual(['PMS.portals.READ', 'PMS.custom_fields.READ']);
});
