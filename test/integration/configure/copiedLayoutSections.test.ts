/**
 * A layout copied offline (the spec's `reference`) shows the original's sections, with the
 * original's section ids, until the copy is made. Renaming, moving or deleting one of them then
 * must change the copy's section, found by name once the copy exists, never the original's (the
 * service refuses another layout's section id, or worse, a service that did not would change the
 * original).
 */
import { describe, expect, it } from 'vitest';
import { outboxSession } from '../outbox/outboxSession';
import { configureOn } from './configureSession';

describe("a copied layout's sections changed before the copy is made", () => {
  it('renames and deletes the copy’s sections, leaving the original alone', async () => {
    const s = await outboxSession();
    const configure = configureOn(s);
    const assets = configure.modules(s.portalId).modules.find((m) => m.apiName === 'assets')!;
    const standard = configure.layouts(s.portalId, assets.id).layouts.find((l) => l.isDefault)!;
    const sectionsOf = (layoutId: number) =>
      s.emulator.state.db
        .prepare('SELECT name FROM sections WHERE layout_id = ? ORDER BY position, id')
        .pluck()
        .all(layoutId) as string[];
    const original = sectionsOf(Number(standard.id));
    expect(original).toEqual(expect.arrayContaining(['Details', 'Tracking']));

    s.outbox.setWorkOffline(true);
    let view = configure.createLayout({
      portalId: s.portalId,
      moduleId: assets.id,
      name: 'Field copy',
      type: 'public',
      referenceId: standard.id,
    });
    const copy = view.layouts.find((l) => l.name === 'Field copy')!;
    const details = copy.sections.find((section) => section.name === 'Details')!;
    const tracking = copy.sections.find((section) => section.name === 'Tracking')!;
    // On screen with the original's ids, as the overlay copies them.
    expect(standard.sections.map((section) => section.id)).toContain(details.id);
    view = configure.putSection({
      portalId: s.portalId,
      moduleId: assets.id,
      layoutId: copy.id,
      sectionId: details.id,
      name: 'Money',
    });
    view = configure.putSection({
      portalId: s.portalId,
      moduleId: assets.id,
      layoutId: copy.id,
      sectionId: details.id,
      name: 'Money',
      position: 1,
    });
    configure.deleteSection(s.portalId, assets.id, copy.id, tracking.id);

    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    expect(s.outbox.list()).toEqual([]);
    const copyId = s.emulator.state.db
      .prepare("SELECT id FROM layouts WHERE name = 'Field copy'")
      .pluck()
      .get() as number;
    expect(sectionsOf(copyId)[0]).toBe('Money');
    expect(sectionsOf(copyId)).not.toContain('Tracking');
    expect(sectionsOf(copyId)).not.toContain('Details');
    expect(sectionsOf(Number(standard.id))).toEqual(original);
  });
});
