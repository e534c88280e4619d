/**
 * Fields placed on a layout and moved on it, offline, against the emulator: a field of the module
 * placed in a chosen section at a chosen place, moved within its section (twice: one operation)
 * and to another section (a system field too), each refused in words when it cannot be, shown at
 * once and in the Outbox, and after the replay the layout as GET /settings/layouts/{id} returns it
 * is what the overlay showed. A layout, section and field made offline are placed and moved in
 * (their temporary ids replaced), and a section of a layout copied offline (its id on the service
 * found by name). A lost answer and a kill after the PUT left: sent again, the same layout.
 */
import { describe, expect, it } from 'vitest';
import type { ConfigLayout } from '../../../src/shared/ipc/areas/configure';
import { outboxSession } from '../outbox/outboxSession';
import { configureOn, plainFieldSettings, type Session } from './configureSession';

const until = async (check: () => boolean, what: string) => {
  for (let i = 0; i < 300; i++) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`Timed out waiting for ${what}`);
};

const PLAIN = plainFieldSettings();

type Shape = { name: string; fields: string[] }[];

/** A layout's sections and their fields (API names, or labels) as the overlay shows them. */
const shown = (layout: ConfigLayout, by: 'key' | 'label' = 'key'): Shape =>
  layout.sections.map((section) => ({
    name: section.name,
    fields: section.fields.map((field) => (by === 'key' ? field.key : field.label)),
  }));

/** The layout as the service returns it now (another client's GET). */
async function served(s: Session, layoutId: string, by: 'key' | 'label' = 'key'): Promise<Shape> {
  const reply = await s.call(
    'GET',
    `/portal/${s.portalId}/settings/layouts/${layoutId}?module=assets`,
  );
  expect(reply.status).toBe(200);
  const sections = reply.body.layout.sections as {
    name: string;
    fields: { api_name: string; display_name: string }[];
  }[];
  return sections.map((section) => ({
    name: section.name,
    fields: section.fields.map((field) => (by === 'key' ? field.api_name : field.display_name)),
  }));
}

function setUp(s: Session) {
  const configure = configureOn(s);
  const assets = configure.modules(s.portalId).modules.find((m) => m.apiName === 'assets')!;
  const layoutNamed = (name: string) =>
    configure.layouts(s.portalId, assets.id).layouts.find((l) => l.name === name)!;
  const sectionOf = (layout: ConfigLayout, name: string) =>
    layout.sections.find((section) => section.name === name)!;
  const place = (
    layout: ConfigLayout,
    fieldKey: string,
    mode: 'place' | 'move',
    section: string,
    position: number,
  ) =>
    configure.placeField({
      portalId: s.portalId,
      moduleId: assets.id,
      layoutId: layout.id,
      fieldKey,
      mode,
      sectionId: sectionOf(layoutNamed(layout.name), section).id,
      position,
    });
  return { configure, assets, layoutNamed, sectionOf, place };
}

describe('fields placed and moved on a layout offline', () => {
  it('places, moves within and across sections, folds a second move, refuses in words; the service ends as shown', async () => {
    const s = await outboxSession();
    const { configure, assets, layoutNamed, place } = setUp(s);
    const kit = layoutNamed('Field Kit');
    const details = kit.sections.find((sec) => sec.name === 'Details')!;
    expect(details.fields.map((f) => f.key)).toEqual([
      'cf_serial_number',
      'cf_category',
      'cf_purchase_date',
      'cf_cost',
      'cf_quantity',
    ]);

    s.outbox.setWorkOffline(true);
    // Refused before anything is queued, in words.
    expect(() => place(kit, 'cf_serial_number', 'place', 'Tracking', 1)).toThrow(
      /Serial number is already on “Field Kit”, in Details; move it there instead/,
    );
    expect(() => place(kit, 'cf_notes', 'move', 'Details', 1)).toThrow(
      /Notes is not on “Field Kit”; add it to a section first/,
    );
    expect(() => place(kit, 'cf_notes', 'place', 'Tracking', 6)).toThrow(
      /Place 6: Notes can go at places 1 to 5 of Tracking/,
    );
    expect(() => place(kit, 'cf_cost', 'move', 'Details', 6)).toThrow(
      /Place 6: Cost can go at places 1 to 5 of Details/,
    );
    expect(() =>
      configure.placeField({
        portalId: s.portalId,
        moduleId: assets.id,
        layoutId: kit.id,
        fieldKey: 'cf_notes',
        mode: 'place',
        sectionId: layoutNamed('Standard').sections[0]!.id,
        position: 1,
      }),
    ).toThrow(/is not in “Field Kit”/);
    expect(() => place(kit, 'cf_nothing', 'place', 'Tracking', 1)).toThrow(
      /cf_nothing is not among Assets's fields here/,
    );
    // Already there: nothing to send.
    expect(place(kit, 'cf_cost', 'move', 'Details', 4)).toBeDefined();
    expect(s.outbox.list()).toEqual([]);

    place(kit, 'cf_notes', 'place', 'Tracking', 2);
    // Moved twice before it went: one operation, with the last place.
    place(kit, 'cf_cost', 'move', 'Details', 1);
    let view = place(kit, 'cf_cost', 'move', 'Details', 2);
    // A system field moves too.
    view = place(kit, 'status', 'move', 'Details', 1);
    view = place(kit, 'cf_quantity', 'move', 'Tracking', 1);
    const expected = shown(view.layouts.find((l) => l.id === kit.id)!);
    expect(expected).toEqual([
      { name: 'Overview', fields: ['name', 'description', 'owner', 'project'] },
      {
        name: 'Details',
        fields: ['status', 'cf_serial_number', 'cf_cost', 'cf_category', 'cf_purchase_date'],
      },
      {
        name: 'Tracking',
        fields: [
          'cf_quantity',
          'cf_custodian',
          'cf_notes',
          'cf_last_audit',
          'cf_supplier_email',
          'cf_manual_url',
        ],
      },
    ]);
    expect(s.outbox.list().map((e) => [e.config?.summary, e.config?.request.body])).toEqual([
      [
        'Place “Notes” in Tracking, place 2',
        {
          module: 'assets',
          id: expect.any(String),
          layout_id: kit.id,
          section_id: expect.any(String),
          position: { exact_position: 2 },
        },
      ],
      ['Move “Cost” to Details, place 2', expect.objectContaining({ layout_id: kit.id })],
      ['Move “Status” to Details, place 1', expect.anything()],
      ['Move “Quantity” to Tracking, place 1', expect.anything()],
    ]);
    // The Fields section's "used on layouts" follows.
    const notes = configure.fields(s.portalId, assets.id).fields.find((f) => f.label === 'Notes')!;
    expect(notes.layouts.map((l) => l.name)).toEqual(['Standard', 'Field Kit']);

    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    expect(s.outbox.list()).toEqual([]);
    expect(await served(s, kit.id)).toEqual(expected);
    // The mirror holds what the service has: the view without queued changes shows the same.
    const after = layoutNamed('Field Kit');
    expect(after.pending).toEqual([]);
    expect(shown(after)).toEqual(expected);
  });

  it('moves back to where it was: the queued move is dropped, nothing sent', async () => {
    const s = await outboxSession();
    const { layoutNamed, place } = setUp(s);
    const kit = layoutNamed('Field Kit');
    s.outbox.setWorkOffline(true);
    place(kit, 'cf_cost', 'move', 'Tracking', 1);
    expect(s.outbox.list()).toHaveLength(1);
    const view = place(kit, 'cf_cost', 'move', 'Details', 4);
    expect(s.outbox.list()).toEqual([]);
    expect(shown(view.layouts.find((l) => l.id === kit.id)!)).toEqual(shown(kit));
  });

  it('places and moves in a layout, section and field made offline, and in a copied layout', async () => {
    const s = await outboxSession();
    const { configure, assets, layoutNamed, place } = setUp(s);
    s.outbox.setWorkOffline(true);
    configure.createLayout({
      portalId: s.portalId,
      moduleId: assets.id,
      name: 'Audit form',
      type: 'public',
      referenceId: null,
    });
    let audit = layoutNamed('Audit form');
    configure.putSection({
      portalId: s.portalId,
      moduleId: assets.id,
      layoutId: audit.id,
      name: 'Checks',
    });
    audit = layoutNamed('Audit form');
    const checks = audit.sections.find((sec) => sec.name === 'Checks')!;
    expect(checks.id).toMatch(/^tmp-s-/);
    configure.createField({
      portalId: s.portalId,
      moduleId: assets.id,
      type: 'single_line',
      settings: { ...PLAIN, label: 'Inspector' },
      layoutId: audit.id,
      sectionId: checks.id,
    });
    audit = layoutNamed('Audit form');
    const inspector = audit.sections[0]!.fields.find((f) => f.label === 'Inspector')!;
    expect(inspector.key).toMatch(/^tmp-f-/);
    place(audit, 'cf_notes', 'place', 'Checks', 2);
    place(audit, 'cf_cost', 'place', 'Checks', 1);
    // The field made offline moves, and is placed on another layout too.
    place(audit, inspector.key, 'move', 'Checks', 1);
    place(layoutNamed('Field Kit'), inspector.key, 'place', 'Details', 1);
    const expectedAudit = shown(layoutNamed('Audit form'), 'label');
    expect(expectedAudit).toEqual([{ name: 'Checks', fields: ['Inspector', 'Cost', 'Notes'] }]);
    const inspectorField = configure
      .fields(s.portalId, assets.id)
      .fields.find((f) => f.label === 'Inspector')!;
    expect(inspectorField.layouts.map((l) => l.name)).toEqual(['Audit form', 'Field Kit']);

    // A copied layout shows the original's sections: a move in one goes to the copy's section.
    configure.createLayout({
      portalId: s.portalId,
      moduleId: assets.id,
      name: 'Kit copy',
      type: 'public',
      referenceId: layoutNamed('Field Kit').id,
    });
    const copy = layoutNamed('Kit copy');
    place(copy, 'cf_quantity', 'move', 'Details', 1);
    place(copy, 'cf_serial_number', 'move', 'Tracking', 5);
    const expectedCopy = shown(layoutNamed('Kit copy'), 'label');
    const expectedKit = shown(layoutNamed('Field Kit'), 'label');
    expect(expectedCopy[1]!.fields.slice(0, 2)).toEqual(['Quantity', 'Inspector']);

    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    expect(s.outbox.list().map((e) => [e.config?.summary, e.error])).toEqual([]);
    const ids = configure.layouts(s.portalId, assets.id).layouts;
    const auditId = ids.find((l) => l.name === 'Audit form')!.id;
    expect(auditId).toMatch(/^\d+$/);
    // The service gave the new layout its own default sections too; Checks is as shown.
    expect((await served(s, auditId, 'label')).find((sec) => sec.name === 'Checks')).toEqual(
      expectedAudit[0],
    );
    expect(await served(s, ids.find((l) => l.name === 'Kit copy')!.id, 'label')).toEqual(
      expectedCopy,
    );
    expect(await served(s, ids.find((l) => l.name === 'Field Kit')!.id, 'label')).toEqual(
      expectedKit,
    );
  });

  it('sends a placement again after a lost answer and after a kill: the same layout', async () => {
    const s = await outboxSession();
    let { layoutNamed, place } = setUp(s);
    const kit = layoutNamed('Field Kit');
    s.outbox.setWorkOffline(true);
    place(kit, 'cf_notes', 'place', 'Details', 3);
    const lost = shown(layoutNamed('Field Kit'));
    const isPut = (method: string, url: URL) =>
      method === 'PUT' && url.pathname.endsWith('/settings/fields');
    s.setFault((method, url) => (isPut(method, url) ? 'lose-answer' : 'pass'));
    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    expect(s.outbox.list()[0]).toMatchObject({ kind: 'config', uncertain: true });
    s.setFault(() => 'pass');
    s.outbox.retry();
    await s.outbox.idle();
    expect(s.outbox.list()).toEqual([]);
    // Sent more than once (each lost answer is tried again), and the layout is as if sent once.
    expect(s.sent.filter((sent) => isPut(sent.method, sent.url)).length).toBeGreaterThan(1);
    expect(await served(s, kit.id)).toEqual(lost);

    // Killed after the PUT left: a new process sends it again.
    s.outbox.setWorkOffline(true);
    place(kit, 'cf_notes', 'move', 'Overview', 1);
    const killed = shown(layoutNamed('Field Kit'));
    s.setFault((method, url) => (isPut(method, url) ? 'hang-after-send' : 'pass'));
    s.outbox.setWorkOffline(false);
    const before = s.sent.length;
    await until(() => s.sent.slice(before).some((sent) => isPut(sent.method, sent.url)), 'the PUT');
    s.outbox.close();
    s.setFault(() => 'pass');
    const restarted = s.open();
    ({ layoutNamed, place } = setUp({ ...s, outbox: restarted }));
    await restarted.idle();
    expect(restarted.list()).toEqual([]);
    expect(s.sent.slice(before).filter((sent) => isPut(sent.method, sent.url))).toHaveLength(2);
    expect(await served(s, kit.id)).toEqual(killed);
    expect(shown(layoutNamed('Field Kit'))).toEqual(killed);
  });

  it('a placement of a field whose creation was discarded is refused in words', async () => {
    const s = await outboxSession();
    const { configure, assets, layoutNamed, place } = setUp(s);
    s.outbox.setWorkOffline(true);
    const standard = layoutNamed('Standard');
    configure.createField({
      portalId: s.portalId,
      moduleId: assets.id,
      type: 'single_line',
      settings: { ...PLAIN, label: 'Ghost' },
      layoutId: standard.id,
      sectionId: null,
    });
    const ghost = layoutNamed('Standard').sections[0]!.fields.at(-1)!;
    expect(ghost.label).toBe('Ghost');
    place(layoutNamed('Field Kit'), ghost.key, 'place', 'Details', 1);
    s.outbox.discard(s.outbox.list()[0]!.id);
    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    await until(() => s.outbox.list()[0]?.state === 'failed', 'the refusal');
    expect(s.outbox.list()[0]!.error).toMatch(/places a field whose creation was discarded/);
  });
});
