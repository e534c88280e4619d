/**
 * A layout copied to a portal whose module has a layout of the same name but for case ("Intake
 * desk" there, "INTAKE DESK" here). The service keeps layout names (and a layout's section names)
 * unique case-insensitively, as the emulator does: it refuses "INTAKE DESK" beside "Intake desk". So
 * the copy takes the target's layout as the copied one (and its sections the same way), says so
 * in the plan, makes nothing twice, and a plan made again has nothing left to do.
 */
import { describe, expect, it } from 'vitest';
import { ConfigCopyService } from '../../../src/main/configure/copy/configCopyService';
import { outboxSession } from '../outbox/outboxSession';
import { configureOn } from './configureSession';

describe('copying a layout where one of that name but for case exists', () => {
  it('takes the existing layout and its sections, and makes nothing twice', async () => {
    const s = await outboxSession({ records: 10 });
    const configure = configureOn(s);
    const copy = new ConfigCopyService({ configure, mirror: s.mirror, repo: s.outbox.repo });
    const [sourceId, targetId] = s.emulator.portals as [string, string];
    // The same layout in both portals' Assets, named but for case (made on the service).
    const layoutIn = async (portalId: string, name: string, section: string) => {
      const made = await s.call('POST', `/portal/${portalId}/settings/layouts`, {
        module: 'assets',
        name,
        type: 'public',
      });
      expect(made.status).toBe(201);
      const id = String((made.body as { layout: { id: string | number } }).layout.id);
      const put = await s.call('PUT', `/portal/${portalId}/settings/layouts/${id}/sections`, {
        module: 'assets',
        name: section,
      });
      expect(put.status).toBeLessThan(300);
    };
    await layoutIn(sourceId, 'INTAKE DESK', 'GEAR');
    await layoutIn(targetId, 'Intake desk', 'Gear');
    // A second one of that name but for case is refused by the service.
    const twice = await s.call('POST', `/portal/${targetId}/settings/layouts`, {
      module: 'assets',
      name: 'INTAKE DESK',
      type: 'public',
    });
    expect(twice.status).toBe(400);
    expect((await s.engine.syncAccount(s.account).done).state).toBe('done');

    const assets = configure.modules(sourceId).modules.find((m) => m.apiName === 'assets')!;
    const source = { kind: 'portal' as const, portalId: sourceId, moduleIds: [assets.id] };
    const plan = copy.plan(targetId, source);
    const layoutItem = plan.items.find((item) => item.key === 'layout:assets/INTAKE DESK')!;
    expect(layoutItem).toMatchObject({
      action: 'alone',
      summary: 'Layout “INTAKE DESK” (“Intake desk” in the target): the same',
    });
    expect(layoutItem.detail).toContain(
      'Names differ only in case, which the service counts as the same name: the target’s layout “Intake desk” is taken as “INTAKE DESK”, and its section “Gear” as “GEAR”; their names are kept.',
    );
    expect(plan.items.filter((item) => item.kind === 'layout' && item.action !== 'alone')).toEqual(
      [],
    );
    expect(plan.items.filter((item) => item.action === 'blocked')).toEqual([]);

    const targetAssets = configure.modules(targetId).modules.find((m) => m.apiName === 'assets')!;
    const layoutsBefore = configure.layouts(targetId, targetAssets.id).layouts;
    if (plan.counts.create + plan.counts.change > 0) {
      copy.apply(targetId, source, plan.fingerprint);
      await s.outbox.idle();
      expect(s.outbox.list()).toEqual([]);
    }
    expect(
      s.writes().filter((w) => w.method === 'POST' && w.url.pathname.endsWith('/settings/layouts')),
    ).toEqual([]);
    expect(
      configure
        .layouts(targetId, targetAssets.id)
        .layouts.map((l) => [l.name, l.sections.map((section) => section.name)]),
    ).toEqual(layoutsBefore.map((l) => [l.name, l.sections.map((section) => section.name)]));
    const again = copy.plan(targetId, source);
    expect(again.items.filter((item) => item.action !== 'alone')).toEqual([]);
  });
});
