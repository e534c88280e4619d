/**
 * A module trashed from here, then deleted for good on the service by another admin: it once stayed
 * in the module bin here for good (a recover or a delete met a 404, which counted as done only
 * after an earlier send of ours, and no sync touches the bin). Now a delete for good is done (the
 * service no longer has it, which is the goal) and a recover says in words why it cannot be; both
 * take the module out of the bin and the mirror.
 */
import { describe, expect, it } from 'vitest';
import { outboxSession } from '../outbox/outboxSession';
import { configureOn } from './configureSession';

async function purgedOnService() {
  const s = await outboxSession();
  const configure = configureOn(s);
  const assets = configure.modules(s.portalId).modules.find((m) => m.apiName === 'assets')!;
  configure.trashModule(s.portalId, assets.id);
  await s.outbox.idle();
  expect(configure.modules(s.portalId).modules.find((m) => m.id === assets.id)!.state).toBe(
    'trashed',
  );
  const gone = await s.call('DELETE', `/portal/${s.portalId}/settings/modules/bin/assets`);
  expect(gone.status).toBeLessThan(300);
  const shown = () => configure.modules(s.portalId).modules.some((m) => m.id === assets.id);
  return { s, configure, assets, shown };
}

describe('a module in the bin here, deleted for good on the service meanwhile', () => {
  it('is deleted for good from here: done, and gone from the bin', async () => {
    const { s, configure, assets, shown } = await purgedOnService();
    configure.deleteModule(s.portalId, assets.id, assets.pluralName);
    await s.outbox.idle();
    expect(s.outbox.list()).toEqual([]);
    expect(shown()).toBe(false);
    const [entry] = s.outbox.historyPage({}, 0, 1).entries;
    expect(entry!.note).toContain('was already deleted for good on the service');
  });

  it('cannot be recovered: said in words, and it leaves the bin', async () => {
    const { s, configure, assets, shown } = await purgedOnService();
    configure.recoverModule(s.portalId, assets.id);
    await s.outbox.idle();
    const [op] = s.outbox.list();
    expect(op!.state).toBe('failed');
    expect(op!.error).toContain(
      `“${assets.pluralName}” was deleted for good on the service meanwhile, so it cannot be recovered`,
    );
    expect(shown()).toBe(false);
    s.outbox.discard(op!.id);
    expect(s.outbox.list()).toEqual([]);
    expect(shown()).toBe(false);
  });
});
