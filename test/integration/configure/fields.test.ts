/**
 * Custom fields administered offline against the emulator: a currency field placed on a layout
 * made offline goes after the layout (its temporary ids replaced), with its code and decimals; a
 * rename and a delete (after its usage was read: layouts and records holding a value) go in order;
 * a field whose creation's answer was lost is found again, not made twice; bad settings are refused
 * in words before anything is queued.
 */
import { describe, expect, it } from 'vitest';
import { outboxSession } from '../outbox/outboxSession';
import { configureOn, plainFieldSettings } from './configureSession';

const PLAIN = plainFieldSettings();

describe('custom fields administered offline', () => {
  it('creates, places, renames and deletes in order, exactly once', async () => {
    const s = await outboxSession();
    const configure = configureOn(s);
    const db = s.emulator.state.db;
    const assets = configure.modules(s.portalId).modules.find((m) => m.apiName === 'assets')!;
    const before = configure.fields(s.portalId, assets.id);
    const serial = before.fields.find((f) => f.apiName === 'cf_serial_number')!;
    const doomed = before.fields.find((f) => !f.system && f.type === 'multi_line')!;
    expect(serial.layouts.length).toBeGreaterThan(0);
    const usage = configure.fieldUsage(s.portalId, assets.id, doomed.id);
    expect(usage.layouts.length).toBeGreaterThan(0);
    expect(usage.records).toBeGreaterThan(0);

    s.outbox.setWorkOffline(true);
    // Refused in words, nothing queued.
    expect(() =>
      configure.createField({
        portalId: s.portalId,
        moduleId: assets.id,
        type: 'currency',
        settings: { ...PLAIN, label: 'Value', currencyCode: 'usd' },
        layoutId: before.fields[0]!.layouts[0]!.id,
        sectionId: null,
      }),
    ).toThrow(/three-letter code in capitals/);
    expect(() =>
      configure.createField({
        portalId: s.portalId,
        moduleId: assets.id,
        type: 'single_line',
        settings: { ...PLAIN, label: serial.label.toUpperCase() },
        layoutId: serial.layouts[0]!.id,
        sectionId: null,
      }),
    ).toThrow(/already the name of another field/);
    expect(() => configure.deleteField(s.portalId, assets.id, doomed.id, 'wrong')).toThrow(
      /Type the field's name/,
    );
    expect(s.outbox.list()).toEqual([]);

    const layouts = configure.createLayout({
      portalId: s.portalId,
      moduleId: assets.id,
      name: 'Finance',
      type: 'public',
      referenceId: null,
    });
    const finance = layouts.layouts.find((l) => l.name === 'Finance')!;
    let view = configure.createField({
      portalId: s.portalId,
      moduleId: assets.id,
      type: 'currency',
      settings: {
        ...PLAIN,
        label: 'Replacement value',
        currencyListType: 'field_currency',
        currencyCode: 'EUR',
        precision: 2,
        mandatory: true,
      },
      layoutId: finance.id,
      sectionId: null,
    });
    const value = view.fields.find((f) => f.label === 'Replacement value')!;
    expect(value).toMatchObject({ localOnly: true, apiName: null, layouts: [{ name: 'Finance' }] });
    view = configure.updateField({
      portalId: s.portalId,
      moduleId: assets.id,
      fieldId: serial.id,
      changes: { label: 'Serial no.', description: 'As printed on the label' },
    });
    view = configure.deleteField(s.portalId, assets.id, doomed.id, ` ${doomed.label} `);
    expect(view.fields.some((f) => f.id === doomed.id)).toBe(false);
    expect(view.fields.find((f) => f.id === serial.id)!.label).toBe('Serial no.');

    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    expect(s.outbox.list()).toEqual([]);
    const created = db
      .prepare(
        "SELECT id, field_type, is_mandatory, field_property FROM fields WHERE display_name = 'Replacement value'",
      )
      .get() as { id: number; field_type: string; is_mandatory: number; field_property: string };
    expect(created).toMatchObject({ field_type: 'currency', is_mandatory: 1 });
    expect(JSON.parse(created.field_property)).toMatchObject({
      field_type_properties: {
        currencylist_type: 'field_currency',
        currency_value: 'EUR',
        precision_value: 2,
      },
    });
    const financeId = db.prepare("SELECT id FROM layouts WHERE name = 'Finance'").pluck().get();
    expect(
      db
        .prepare('SELECT count(*) FROM layout_fields WHERE layout_id = ? AND field_id = ?')
        .pluck()
        .get(financeId, created.id),
    ).toBe(1);
    expect(
      db
        .prepare('SELECT display_name FROM fields WHERE api_name = ?')
        .pluck()
        .get('cf_serial_number'),
    ).toBe('Serial no.');
    expect(
      db.prepare('SELECT count(*) FROM fields WHERE id = ?').pluck().get(Number(doomed.id)),
    ).toBe(0);
    // The mirror holds the service's fields now.
    const after = configure.fields(s.portalId, assets.id);
    expect(after.fields.find((f) => f.label === 'Replacement value')).toMatchObject({
      localOnly: false,
      apiName: expect.stringMatching(/^cf_/),
      currencyCode: 'EUR',
      precision: 2,
      pending: [],
    });
  });

  it('finds a field whose creation answer was lost instead of making it twice', async () => {
    const s = await outboxSession();
    const configure = configureOn(s);
    const assets = configure.modules(s.portalId).modules.find((m) => m.apiName === 'assets')!;
    const layoutId = configure.layouts(s.portalId, assets.id).layouts.find((l) => l.isDefault)!.id;
    s.outbox.setWorkOffline(true);
    configure.createField({
      portalId: s.portalId,
      moduleId: assets.id,
      type: 'single_line',
      settings: { ...PLAIN, label: 'Asset tag' },
      layoutId,
      sectionId: null,
    });
    s.setFault((method, url) =>
      method === 'PUT' && url.pathname.endsWith('/settings/fields') ? 'lose-answer' : 'pass',
    );
    s.outbox.setWorkOffline(false);
    await s.outbox.idle();
    s.setFault(() => 'pass');
    s.outbox.retry();
    await s.outbox.idle();
    expect(s.outbox.list()).toEqual([]);
    expect(
      s.emulator.state.db
        .prepare("SELECT count(*) FROM fields WHERE display_name = 'Asset tag'")
        .pluck()
        .get(),
    ).toBe(1);
  });
});
