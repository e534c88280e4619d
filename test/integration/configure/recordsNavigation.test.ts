/**
 * A module renamed or deactivated while offline shows so at once in the records workspace's
 * navigation (records.modules), as record edits show in its rows; discarding the changes shows the
 * service's names again.
 */
import { describe, expect, it } from 'vitest';
import type { RecordsModule } from '../../../src/shared/ipc/areas/records';
import { call, setup } from '../backups/backupSession';

describe('the records navigation with queued module changes', () => {
  it('shows a queued rename and deactivation at once, and the service’s names once discarded', async () => {
    const { engine, portalId } = await setup({ records: 40 });
    await call(engine, 'outbox.setWorkOffline', { on: true });
    const modules = () => call<RecordsModule[]>(engine, 'records.modules', { portalId });
    const assets = (await modules()).find((m) => m.apiName === 'assets')!;
    expect(assets).toMatchObject({ pluralName: 'Assets', isActive: true });
    await call(engine, 'configure.updateModule', {
      portalId,
      moduleId: assets.id,
      changes: { pluralName: 'Equipment', singularName: 'Piece of equipment' },
    });
    await call(engine, 'configure.setModuleActive', {
      portalId,
      moduleId: assets.id,
      active: false,
    });
    expect((await modules()).find((m) => m.id === assets.id)).toMatchObject({
      pluralName: 'Equipment',
      singularName: 'Piece of equipment',
      isActive: false,
      records: assets.records,
    });
    const entries = await call<{ id: number }[]>(engine, 'outbox.list', { portalId });
    for (const entry of entries) await call(engine, 'outbox.discard', { id: entry.id });
    expect((await modules()).find((m) => m.id === assets.id)).toMatchObject({
      pluralName: 'Assets',
      isActive: true,
    });
    engine.close();
  });
});
