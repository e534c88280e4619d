/**
 * PUT settings/fields and PUT .../sections create what they name without an id ("adds or updates",
 * spec). A connection reset after the service made the field or section is answered by nobody:
 * sent again at once as if it were an update, the same create is made twice (or refused as a
 * duplicate name, the one made unknown here). The outbox must end with each made once, delivered,
 * and the changes queued behind it (naming its temporary id) sent too.
 */
import { describe, expect, it } from 'vitest';
import { outboxSession } from '../outbox/outboxSession';
import { configureOn, plainFieldSettings } from './configureSession';

/** The first PUT to a path ending so reaches the service, and its answer is lost. */
function loseFirstPut(s: Awaited<ReturnType<typeof outboxSession>>, ending: string) {
  let puts = 0;
  s.setFault((method, url) =>
    method === 'PUT' && url.pathname.endsWith(ending) && puts++ === 0 ? 'lose-answer' : 'pass',
  );
}

describe('a creating PUT whose answer was lost', () => {
  it('makes a field once, and the change queued behind it goes', async () => {
    const s = await outboxSession();
    const configure = configureOn(s);
    const assets = configure.modules(s.portalId).modules.find((m) => m.apiName === 'assets')!;
    const layoutId = configure.layouts(s.portalId, assets.id).layouts.find((l) => l.isDefault)!.id;
    s.outbox.setWorkOffline(true);
    const view = configure.createField({
      portalId: s.portalId,
      moduleId: assets.id,
      type: 'single_line',
      settings: { ...plainFieldSettings(), label: 'Asset tag' },
      layoutId,
      sectionId: null,
    });
    const made = view.fields.find((f) => f.label === 'Asset tag')!;
    configure.updateField({
      portalId: s.portalId,
      moduleId: assets.id,
      fieldId: made.id,
      changes: { label: 'Asset tag no.' },
    });
    loseFirstPut(s, '/settings/fields');
    s.outbox.setWorkOffline(false);
    for (let round = 0; round < 5 && s.outbox.status().total > 0; round++) {
      s.outbox.retry();
      await s.outbox.idle();
    }
    expect(s.outbox.list().map((op) => [op.kind, op.state, op.error])).toEqual([]);
    const named = s.emulator.state.db
      .prepare("SELECT display_name FROM fields WHERE display_name LIKE 'Asset tag%'")
      .pluck()
      .all();
    expect(named).toEqual(['Asset tag no.']);
  });

  it('makes a section once', async () => {
    const s = await outboxSession();
    const configure = configureOn(s);
    const assets = configure.modules(s.portalId).modules.find((m) => m.apiName === 'assets')!;
    const layoutId = configure.layouts(s.portalId, assets.id).layouts.find((l) => l.isDefault)!.id;
    s.outbox.setWorkOffline(true);
    configure.putSection({ portalId: s.portalId, moduleId: assets.id, layoutId, name: 'Audit' });
    loseFirstPut(s, '/sections');
    s.outbox.setWorkOffline(false);
    for (let round = 0; round < 5 && s.outbox.status().total > 0; round++) {
      s.outbox.retry();
      await s.outbox.idle();
    }
    expect(s.outbox.list().map((op) => [op.kind, op.state, op.error])).toEqual([]);
    expect(
      s.emulator.state.db
        .prepare("SELECT count(*) FROM sections WHERE name = 'Audit' AND layout_id = ?")
        .pluck()
        .get(Number(layoutId)),
    ).toBe(1);
  });
});
