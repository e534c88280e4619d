/**
 * A field's settings changed offline, several times, then replayed: the service ends holding
 * exactly what the Configure view showed before the replay, and the view shows the same after it
 * (generated chains of changes). A default value emptied is cleared on the service too, not left
 * out of the body (the service merges field_property member by member and would keep the old one);
 * a description emptied and then written again is no conflict (none is sent and kept as '').
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { settingsOfProperty } from '../../../src/main/configure/fieldOps';
import type { ConfigField, FieldSettings } from '../../../src/shared/ipc/areas/configure';
import { outboxSession } from '../outbox/outboxSession';
import { configureOn, plainFieldSettings } from './configureSession';

const change: fc.Arbitrary<Partial<FieldSettings>> = fc.record(
  {
    label: fc.constantFrom('Site', 'Site name', 'Location'),
    defaultValue: fc.constantFrom(null, 'Berlin', 'Lyon'),
    description: fc.constantFrom(null, 'Where it is kept', 'Building and room'),
    mandatory: fc.boolean(),
    hasInfo: fc.boolean(),
    pii: fc.boolean(),
  },
  { requiredKeys: [] },
);

/** What the comparison looks at. */
const compared = (settings: FieldSettings) => ({
  label: settings.label,
  defaultValue: settings.defaultValue,
  description: settings.description,
  mandatory: settings.mandatory,
  hasInfo: settings.hasInfo,
  pii: settings.pii,
});

describe("a field's settings changed offline", () => {
  it('end on the service exactly as the view showed them', async () => {
    const s = await outboxSession({ records: 5 });
    const configure = configureOn(s);
    const db = s.emulator.state.db;
    const assets = configure.modules(s.portalId).modules.find((m) => m.apiName === 'assets')!;
    const layout = configure.layouts(s.portalId, assets.id).layouts.find((l) => l.isDefault)!;
    configure.createField({
      portalId: s.portalId,
      moduleId: assets.id,
      type: 'single_line',
      settings: { ...plainFieldSettings('Site'), defaultValue: 'Berlin' },
      layoutId: layout.id,
      sectionId: null,
    });
    await s.outbox.idle();
    const fieldOf = (): ConfigField =>
      configure.fields(s.portalId, assets.id).fields.find((f) => f.apiName === 'cf_site')!;
    const fieldId = fieldOf().id;
    const serviceSettings = () => {
      const row = db
        .prepare('SELECT display_name, is_mandatory, field_property FROM fields WHERE id = ?')
        .get(Number(fieldId)) as {
        display_name: string;
        is_mandatory: number;
        field_property: string;
      };
      return settingsOfProperty(
        row.display_name,
        row.is_mandatory === 1,
        JSON.parse(row.field_property) as Record<string, unknown>,
      );
    };

    await fc.assert(
      fc.asyncProperty(fc.array(change, { minLength: 1, maxLength: 4 }), async (changes) => {
        s.outbox.setWorkOffline(true);
        for (const changes1 of changes) {
          configure.updateField({
            portalId: s.portalId,
            moduleId: assets.id,
            fieldId,
            changes: changes1,
          });
        }
        const shown = compared(fieldOf());
        s.outbox.setWorkOffline(false);
        await s.outbox.idle();
        expect(s.outbox.list()).toEqual([]);
        expect(compared(serviceSettings())).toEqual(shown);
        expect(compared(fieldOf())).toEqual(shown);
      }),
      { numRuns: 25 },
    );
  });
});
