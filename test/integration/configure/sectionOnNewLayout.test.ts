/**
 * A layout made offline shows no sections (the spec does not say which a new layout comes with),
 * so the admin adds one and places a field in it. The service made the layout with sections of
 * its own (the emulator: Overview, Details, Tracking), one of them of the same name: the section
 * made here is that one, not refused at the replay as a second of its name, and the field placed
 * in it is there.
 */
import { describe, expect, it } from 'vitest';
import { outboxSession } from '../outbox/outboxSession';
import { configureOn, plainFieldSettings } from './configureSession';

describe('a section added to a layout made offline', () => {
  it('is the service’s own section of that name, with the field placed in it', async () => {
    const s = await outboxSession({ records: 3 });
    const configure = configureOn(s);
    const db = s.emulator.state.db;
    const p = s.portalId;
    const m = configure.modules(p).modules.find((x) => x.apiName === 'assets')!.id;
    s.outbox.setWorkOffline(true);
    let view = configure.createLayout({
      portalId: p,
      moduleId: m,
      name: 'Audit',
      type: 'public',
      referenceId: null,
    });
    const audit = view.layouts.find((l) => l.name === 'Audit')!;
    expect(audit.sections).toEqual([]);
    view = configure.putSection({ portalId: p, moduleId: m, layoutId: audit.id, name: 'details' });
    const section = view.layouts.find((l) => l.id === audit.id)!.sections[0]!;
    configure.createField({
      portalId: p,
      moduleId: m,
      type: 'single_line',
      settings: plainFieldSettings('Auditor'),
      layoutId: audit.id,
      sectionId: section.id,
    });

    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    expect(s.outbox.list().map((e) => [e.config?.summary, e.error])).toEqual([]);
    const layoutId = db
      .prepare("SELECT id FROM layouts WHERE module_id = ? AND name = 'Audit'")
      .pluck()
      .get(Number(m)) as number;
    const sections = db
      .prepare('SELECT id, name FROM sections WHERE layout_id = ? ORDER BY position')
      .all(layoutId) as { id: number; name: string }[];
    expect(sections.filter((x) => x.name.toLowerCase() === 'details')).toHaveLength(1);
    const details = sections.find((x) => x.name.toLowerCase() === 'details')!;
    expect(
      db
        .prepare(
          'SELECT f.display_name FROM layout_fields lf JOIN fields f ON f.id = lf.field_id WHERE lf.section_id = ?',
        )
        .pluck()
        .all(details.id),
    ).toEqual(['Auditor']);
    // The view shows the service's layout now.
    const shown = configure.layouts(p, m).layouts.find((l) => l.name === 'Audit')!;
    expect(shown.sections.map((x) => x.name)).toEqual(sections.map((x) => x.name));
  });
});
