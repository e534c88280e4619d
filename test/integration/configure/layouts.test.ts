/**
 * Layouts and sections administered offline against the emulator, with dependencies: a layout of
 * a module made offline, and a section of that layout, wait for the creations before them and go
 * once they answered (their temporary ids replaced); a layout whose creation's answer was lost is
 * found again, not made twice; a module whose creation the service refused holds back only what
 * depends on it, saying why.
 */
import { describe, expect, it } from 'vitest';
import { outboxSession } from '../outbox/outboxSession';
import { configureOn } from './configureSession';

const NEW = {
  iconClass: null,
  isGlobal: true,
  isAllProjects: true,
  isOverviewNeeded: false,
  defaultLayoutType: 'public' as const,
  projects: [],
};

describe('layouts and sections administered offline', () => {
  it('creates a module, its layout and a section in order, and edits an existing layout', async () => {
    const s = await outboxSession();
    const configure = configureOn(s);
    const db = s.emulator.state.db;
    const assets = configure.modules(s.portalId).modules.find((m) => m.apiName === 'assets')!;
    const before = configure.layouts(s.portalId, assets.id);
    const standard = before.layouts.find((l) => l.isDefault)!;
    expect(standard.sections.length).toBeGreaterThan(1);
    const custom = standard.sections.flatMap((sec) => sec.fields).find((f) => !f.system)!;
    expect(custom).toBeDefined();

    s.outbox.setWorkOffline(true);
    const vehicles = configure.createModule({
      ...NEW,
      portalId: s.portalId,
      singularName: 'Vehicle',
      pluralName: 'Vehicles',
    });
    let view = configure.createLayout({
      portalId: s.portalId,
      moduleId: vehicles.id,
      name: 'Fleet form',
      type: 'private',
      referenceId: null,
    });
    const fleet = view.layouts.find((l) => l.name === 'Fleet form')!;
    expect(fleet).toMatchObject({ localOnly: true, type: 'private' });
    view = configure.putSection({
      portalId: s.portalId,
      moduleId: vehicles.id,
      layoutId: fleet.id,
      name: 'Insurance',
    });
    expect(view.layouts[0]!.sections.map((sec) => sec.name)).toEqual(['Insurance']);
    // Refused before anything is queued, in words.
    expect(() =>
      configure.createLayout({
        portalId: s.portalId,
        moduleId: vehicles.id,
        name: 'fleet FORM',
        type: 'public',
        referenceId: null,
      }),
    ).toThrow(/already the name of another one/);
    expect(() => configure.deleteLayout(s.portalId, assets.id, standard.id)).toThrow(
      /default layout/,
    );

    // The existing module: a section added and moved first, a field taken off, a section deleted.
    const last = standard.sections.at(-1)!;
    view = configure.putSection({
      portalId: s.portalId,
      moduleId: assets.id,
      layoutId: standard.id,
      name: 'Audit',
    });
    view = configure.putSection({
      portalId: s.portalId,
      moduleId: assets.id,
      layoutId: standard.id,
      sectionId: view.layouts.find((l) => l.id === standard.id)!.sections.at(-1)!.id,
      name: 'Audit',
      position: 1,
    });
    expect(view.layouts.find((l) => l.id === standard.id)!.sections[0]!.name).toBe('Audit');
    view = configure.removeLayoutField(s.portalId, assets.id, standard.id, custom.key);
    view = configure.deleteSection(s.portalId, assets.id, standard.id, last.id);
    const shown = view.layouts.find((l) => l.id === standard.id)!;
    expect(shown.sections.map((sec) => sec.name)).not.toContain(last.name);
    expect(shown.sections.flatMap((sec) => sec.fields).map((f) => f.key)).not.toContain(custom.key);
    expect(s.outbox.list().map((e) => e.config?.summary)).toEqual([
      'Create module Vehicles',
      'Create layout “Fleet form”',
      'Add section “Insurance” (or take the one of that name the service made)',
      'Add section “Audit”',
      'Move section “Audit” to place 1',
      `Take “${custom.label}” off the layout`,
      `Delete section “${last.name}”`,
    ]);

    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    expect(s.outbox.list()).toEqual([]);
    const module = db
      .prepare("SELECT id FROM modules WHERE portal_id = ? AND plural_name = 'Vehicles'")
      .get(Number(s.portalId)) as { id: number };
    const layout = db
      .prepare("SELECT id, type FROM layouts WHERE module_id = ? AND name = 'Fleet form'")
      .get(module.id) as { id: number; type: string };
    expect(layout.type).toBe('private');
    const sections = (layoutId: number) =>
      (
        db
          .prepare('SELECT name FROM sections WHERE layout_id = ? ORDER BY position')
          .all(layoutId) as { name: string }[]
      ).map((row) => row.name);
    expect(sections(layout.id)).toContain('Insurance');
    expect(sections(Number(standard.id))[0]).toBe('Audit');
    expect(sections(Number(standard.id))).not.toContain(last.name);
    const placed = db
      .prepare(
        `SELECT count(*) FROM layout_fields lf JOIN fields f ON f.id = lf.field_id
         WHERE lf.layout_id = ? AND f.api_name = ?`,
      )
      .pluck()
      .get(Number(standard.id), custom.key);
    expect(placed).toBe(0);
    // The mirror holds what the service has now: the view without the overlay shows the same.
    const after = configure
      .layouts(s.portalId, assets.id)
      .layouts.find((l) => l.id === standard.id)!;
    expect(after.pending).toEqual([]);
    expect(after.sections.map((sec) => sec.name)).toEqual(sections(Number(standard.id)));
  });

  it('finds a layout whose creation answer was lost; a refused module holds back only its layouts', async () => {
    const s = await outboxSession();
    const configure = configureOn(s);
    const assets = configure.modules(s.portalId).modules.find((m) => m.apiName === 'assets')!;
    s.outbox.setWorkOffline(true);
    configure.createLayout({
      portalId: s.portalId,
      moduleId: assets.id,
      name: 'Lost form',
      type: 'public',
      referenceId: null,
    });
    // A module the service will refuse (its name taken there meanwhile), with a layout queued.
    const doomed = configure.createModule({
      ...NEW,
      portalId: s.portalId,
      singularName: 'Boat',
      pluralName: 'Boats',
    });
    configure.createLayout({
      portalId: s.portalId,
      moduleId: doomed.id,
      name: 'Boat form',
      type: 'public',
      referenceId: null,
    });
    await s.call('POST', `/portal/${s.portalId}/settings/modules`, {
      singular_name: 'Ship',
      plural_name: 'Boats',
    });
    s.setFault((method, url) =>
      method === 'POST' && url.pathname.endsWith('/settings/layouts') && !url.search
        ? 'lose-answer'
        : 'pass',
    );
    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    s.setFault(() => 'pass');
    s.outbox.retry();
    await s.outbox.idle();
    const count = s.emulator.state.db
      .prepare("SELECT count(*) FROM layouts WHERE name = 'Lost form'")
      .pluck()
      .get();
    expect(count).toBe(1);
    // The layout looks again every two seconds and then says why it waits.
    for (let i = 0; i < 100 && !/refused/.test(s.outbox.list()[1]?.error ?? ''); i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const left = s.outbox.list();
    expect(left.map((e) => [e.config?.summary, e.state])).toEqual([
      ['Create module Boats', 'failed'],
      ['Create layout “Boat form”', 'pending'],
    ]);
    expect(left[1]!.error).toMatch(/Waits for its module to be created, which the service refused/);
    // Discarding the module's creation takes nothing else; its layout is then refused in words.
    s.outbox.discard(left[0]!.id);
    s.outbox.retry();
    await s.outbox.idle();
    for (let i = 0; i < 100 && s.outbox.list()[0]?.state !== 'failed'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const [orphan] = s.outbox.list();
    expect(orphan).toMatchObject({ state: 'failed' });
    expect(orphan!.error).toMatch(/never created/);
  });
});
