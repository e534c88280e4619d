/**
 * Modules administered offline-first against the emulator: every change is checked before it is
 * queued, shows at once, and is replayed exactly once; a rename of a module created offline goes
 * with its creation; a create whose answer was lost, or a process killed after it, is found again
 * instead of made twice; a module trashed here can be recovered or deleted for good from here; a
 * rename made on the service meanwhile is a conflict, setting by setting; the service's refusal is
 * shown against the operation that caused it.
 */
import { describe, expect, it } from 'vitest';
import { ConfigRefused } from '../../../src/main/configure/configureService';
import { outboxSession } from '../outbox/outboxSession';
import { configureOn, type Session } from './configureSession';

const until = async (check: () => boolean, what: string) => {
  for (let i = 0; i < 300; i++) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`Timed out waiting for ${what}`);
};

/** The emulator's module row of a portal by plural name (trashed ones included). */
function serverModule(s: Session, pluralName: string) {
  return s.emulator.state.db
    .prepare('SELECT * FROM modules WHERE portal_id = ? AND plural_name = ?')
    .all(Number(s.portalId), pluralName) as {
    id: number;
    api_name: string;
    singular_name: string;
    state: string;
    trashed_time: string | null;
  }[];
}

const NEW = {
  singularName: 'Vehicle',
  pluralName: 'Vehicles',
  iconClass: null,
  isGlobal: true,
  isAllProjects: true,
  isOverviewNeeded: false,
  defaultLayoutType: 'public' as const,
  projects: [],
};

describe('modules administered offline', () => {
  it('checks, shows at once, folds a rename into the create, and replays exactly once', async () => {
    const s = await outboxSession();
    const configure = configureOn(s);
    s.outbox.setWorkOffline(true);

    // Refused before anything is queued, in words.
    expect(() =>
      configure.createModule({ ...NEW, portalId: s.portalId, pluralName: 'assets' }),
    ).toThrow(/already a name of Assets/);
    expect(() =>
      configure.createModule({ ...NEW, portalId: s.portalId, singularName: 'x'.repeat(51) }),
    ).toThrow(/at most 50 characters \(51 given\)/);
    expect(s.outbox.list()).toEqual([]);

    const created = configure.createModule({ ...NEW, portalId: s.portalId });
    expect(created).toMatchObject({ apiName: null, localOnly: true, pluralName: 'Vehicles' });
    expect(created.id).toMatch(/^tmp-m-/);
    // A second module may not take its names either, while it is only queued.
    expect(() =>
      configure.createModule({
        ...NEW,
        portalId: s.portalId,
        singularName: 'Car',
        pluralName: 'vehicles',
      }),
    ).toThrow(ConfigRefused);

    const renamed = configure.updateModule({
      portalId: s.portalId,
      moduleId: created.id,
      changes: { pluralName: 'Fleet vehicles', isOverviewNeeded: true },
    });
    expect(renamed).toMatchObject({ pluralName: 'Fleet vehicles', isOverviewNeeded: true });
    const entries = s.outbox.list();
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      kind: 'config',
      config: {
        action: 'module.create',
        summary: 'Create module Fleet vehicles',
        request: {
          method: 'POST',
          path: `/api/v3/portal/${s.portalId}/settings/modules`,
          body: {
            singular_name: 'Vehicle',
            plural_name: 'Fleet vehicles',
            is_global_module: true,
            is_all_projects: true,
            is_overview_needed: true,
            module_property: { default_layout_type: 'public' },
          },
        },
      },
    });

    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    expect(s.outbox.list()).toEqual([]);
    const [server] = serverModule(s, 'Fleet vehicles');
    expect(server).toMatchObject({ singular_name: 'Vehicle', state: 'active' });
    expect(s.writes().filter((w) => w.method === 'POST')).toHaveLength(1);
    const shown = configure
      .modules(s.portalId)
      .modules.find((m) => m.pluralName === 'Fleet vehicles')!;
    expect(shown).toMatchObject({
      id: String(server!.id),
      apiName: server!.api_name,
      localOnly: false,
    });
    expect(shown.pending).toEqual([]);

    // Deactivate then activate before it goes: nothing is sent. Deactivate alone is sent.
    s.outbox.setWorkOffline(true);
    configure.setModuleActive(s.portalId, shown.id, false);
    configure.setModuleActive(s.portalId, shown.id, true);
    expect(s.outbox.list()).toEqual([]);
    expect(configure.setModuleActive(s.portalId, shown.id, false).state).toBe('inactive');
    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    expect(serverModule(s, 'Fleet vehicles')[0]!.state).toBe('deactivated');
    expect(configure.modules(s.portalId).modules.find((m) => m.id === shown.id)!.state).toBe(
      'inactive',
    );
  });

  it('trashes to the bin as known here, recovers, and deletes for good only when named', async () => {
    const s = await outboxSession();
    const configure = configureOn(s);
    const assets = configure.modules(s.portalId).modules.find((m) => m.apiName === 'assets')!;
    expect(assets.records).toBeGreaterThan(0);
    const builtIn = configure.modules(s.portalId).modules.find((m) => m.builtIn)!;
    expect(() => configure.trashModule(s.portalId, builtIn.id)).toThrow(/product's own/);

    configure.trashModule(s.portalId, assets.id);
    await s.outbox.idle();
    expect(serverModule(s, 'Assets')[0]!.trashed_time).not.toBeNull();
    const binned = configure.modules(s.portalId).modules.find((m) => m.id === assets.id)!;
    expect(binned).toMatchObject({ state: 'trashed', records: assets.records, pending: [] });
    // The sync no longer lists it; the bin still knows it.
    expect(s.mirror.metadata.modules(s.portalId).some((m) => m.id === assets.id)).toBe(false);

    configure.recoverModule(s.portalId, assets.id);
    await s.outbox.idle();
    expect(serverModule(s, 'Assets')[0]!.trashed_time).toBeNull();
    expect(configure.modules(s.portalId).modules.find((m) => m.id === assets.id)!.state).toBe(
      'active',
    );

    configure.trashModule(s.portalId, assets.id);
    await s.outbox.idle();
    expect(() => configure.deleteModule(s.portalId, assets.id, 'assets')).toThrow(
      /Type the module's name, Assets, exactly/,
    );
    expect(s.outbox.list()).toEqual([]);
    configure.deleteModule(s.portalId, assets.id, 'Assets');
    expect(s.outbox.list()[0]!.config!.request).toEqual({
      method: 'DELETE',
      path: `/api/v3/portal/${s.portalId}/settings/modules/bin/assets`,
      body: null,
    });
    await s.outbox.idle();
    expect(serverModule(s, 'Assets')).toEqual([]);
    expect(configure.modules(s.portalId).modules.some((m) => m.id === assets.id)).toBe(false);
  });

  it('refuses to trash a module while changes of its records wait in the Outbox', async () => {
    // Sent after the trash, the edit met a module the service no longer lists: it read as the
    // record deleted there, and "keep mine" created the record a second time.
    const s = await outboxSession();
    const configure = configureOn(s);
    const assets = configure.modules(s.portalId).modules.find((m) => m.apiName === 'assets')!;
    const recordId = s.recordIds[0]!;
    s.outbox.setWorkOffline(true);
    s.outbox.edit(s.portalId, recordId, { name: 'Edited before the trash' });
    expect(() => configure.trashModule(s.portalId, assets.id)).toThrow(
      'Assets has a record change waiting in the Outbox, which the service would refuse once the module is in the bin. Nothing was queued; send it (go online) or discard it in the Outbox, then move Assets to the bin.',
    );
    expect(s.outbox.list().map((entry) => entry.kind)).toEqual(['update']);
    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    expect((await s.serverRecord(recordId)).name).toBe('Edited before the trash');
    configure.trashModule(s.portalId, assets.id);
    await s.outbox.idle();
    expect(serverModule(s, 'Assets')[0]!.trashed_time).not.toBeNull();
  });

  it('finds a create whose answer was lost, and one sent before a kill, instead of making it twice', async () => {
    const s = await outboxSession();
    let configure = configureOn(s);
    s.outbox.setWorkOffline(true);
    configure.createModule({
      ...NEW,
      portalId: s.portalId,
      singularName: 'Lost',
      pluralName: 'Losts',
    });
    s.setFault((method, url) =>
      method === 'POST' && url.pathname.endsWith('/settings/modules') ? 'lose-answer' : 'pass',
    );
    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    expect(s.outbox.list()[0]).toMatchObject({ kind: 'config', uncertain: true });
    s.setFault(() => 'pass');
    s.outbox.retry();
    await s.outbox.idle();
    expect(serverModule(s, 'Losts')).toHaveLength(1);
    expect(s.outbox.list()).toEqual([]);

    // Killed after the POST left: a new process adopts the module the service made.
    s.outbox.setWorkOffline(true);
    const crash = configure.createModule({
      ...NEW,
      portalId: s.portalId,
      singularName: 'Crash',
      pluralName: 'Crashes',
    });
    configure.updateModule({
      portalId: s.portalId,
      moduleId: crash.id,
      changes: { iconClass: 'car' },
    });
    s.setFault((method, url) =>
      method === 'POST' && url.pathname.endsWith('/settings/modules') ? 'hang-after-send' : 'pass',
    );
    s.outbox.setWorkOffline(false);
    await until(() => serverModule(s, 'Crashes').length === 1, 'the POST');
    s.outbox.close();
    s.setFault(() => 'pass');
    const restarted = s.open();
    configure = configureOn(s, restarted);
    await restarted.idle();
    expect(serverModule(s, 'Crashes')).toHaveLength(1);
    expect(restarted.list()).toEqual([]);
    expect(
      configure.modules(s.portalId).modules.find((m) => m.pluralName === 'Crashes'),
    ).toMatchObject({
      localOnly: false,
      iconClass: 'car',
    });
  });

  it('a rename made on the service meanwhile is a conflict; a refusal stops only that module', async () => {
    const s = await outboxSession();
    const configure = configureOn(s);
    const assets = configure.modules(s.portalId).modules.find((m) => m.apiName === 'assets')!;
    s.outbox.setWorkOffline(true);
    configure.updateModule({
      portalId: s.portalId,
      moduleId: assets.id,
      changes: { pluralName: 'Equipment', iconClass: 'wrench' },
    });
    const renamed = await s.call('PATCH', `/portal/${s.portalId}/settings/modules/assets`, {
      plural_name: 'Gear',
    });
    expect(renamed.status).toBe(200);
    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    const [entry] = s.outbox.list();
    expect(entry).toMatchObject({ kind: 'config', state: 'conflict' });
    expect(entry!.conflict!.fields).toEqual([
      expect.objectContaining({
        field: 'plural_name',
        base: 'Assets',
        mine: 'Equipment',
        theirs: 'Gear',
      }),
    ]);
    // The icon, not changed there, went.
    expect(serverModule(s, 'Gear')[0]).toBeDefined();
    s.outbox.resolve(entry!.id, [{ field: 'plural_name', choice: 'mine' }]);
    await s.outbox.idle();
    expect(serverModule(s, 'Equipment')).toHaveLength(1);
    expect(s.outbox.list()).toEqual([]);

    // The service refuses (a name taken on the service meanwhile): the op fails with its reason.
    s.outbox.setWorkOffline(true);
    const other = configure
      .modules(s.portalId)
      .modules.find((m) => !m.builtIn && m.id !== assets.id)!;
    configure.updateModule({
      portalId: s.portalId,
      moduleId: other.id,
      changes: { singularName: 'Taken' },
    });
    await s.call('PATCH', `/portal/${s.portalId}/settings/modules/assets`, {
      singular_name: 'Taken',
    });
    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    const [failed] = s.outbox.list();
    expect(failed).toMatchObject({ kind: 'config', state: 'failed' });
    expect(failed!.error).toMatch(/already used by another module/);
    const shown = configure.modules(s.portalId).modules.find((m) => m.id === other.id)!;
    expect(shown.pending[0]).toMatchObject({ state: 'failed', action: 'update' });
    s.outbox.discard(failed!.id);
    expect(configure.modules(s.portalId).modules.find((m) => m.id === other.id)!.pending).toEqual(
      [],
    );
  });
});
