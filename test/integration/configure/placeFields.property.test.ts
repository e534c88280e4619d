/**
 * Random sequences of placements and moves on a layout, queued offline, then replayed: the layout
 * the service returns (GET /settings/layouts/{id}) is what the overlay showed before the replay,
 * and what a plain model of the moves (lists of keys, independent of placeFieldOps.ts) says. One
 * emulator session; each run starts from where the previous one left the layout.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { outboxSession } from '../outbox/outboxSession';
import { configureOn } from './configureSession';

const step = fc.record({
  field: fc.nat(),
  section: fc.nat(),
  place: fc.nat(),
});

describe('placements and moves replayed', () => {
  it('end on the service as the overlay and the model showed them', async () => {
    const s = await outboxSession();
    const configure = configureOn(s);
    const assets = configure.modules(s.portalId).modules.find((m) => m.apiName === 'assets')!;
    const kit = () =>
      configure.layouts(s.portalId, assets.id).layouts.find((l) => l.name === 'Field Kit')!;
    const keys = configure.fields(s.portalId, assets.id).fields.map((f) => f.apiName!);
    let queued = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 8 }), async (steps) => {
        s.outbox.setWorkOffline(true);
        const layout = kit();
        const model = layout.sections.map((section) => ({
          id: section.id,
          fields: section.fields.map((field) => field.key),
        }));
        for (const { field, section, place } of steps) {
          const key = keys[field % keys.length]!;
          const target = model[section % model.length]!;
          const others = target.fields.filter((candidate) => candidate !== key);
          const position = (place % (others.length + 1)) + 1;
          const on = model.some((candidate) => candidate.fields.includes(key));
          configure.placeField({
            portalId: s.portalId,
            moduleId: assets.id,
            layoutId: layout.id,
            fieldKey: key,
            mode: on ? 'move' : 'place',
            sectionId: target.id,
            position,
          });
          for (const candidate of model) {
            candidate.fields = candidate.fields.filter((k) => k !== key);
          }
          target.fields = [...others.slice(0, position - 1), key, ...others.slice(position - 1)];
        }
        queued += s.outbox.list().length;
        const shown = kit().sections.map((section) => section.fields.map((f) => f.key));
        expect(shown).toEqual(model.map((section) => section.fields));
        s.outbox.setWorkOffline(false);
        await s.outbox.idle();
        expect(s.outbox.list()).toEqual([]);
        const reply = await s.call(
          'GET',
          `/portal/${s.portalId}/settings/layouts/${layout.id}?module=assets`,
        );
        const served = (reply.body.layout.sections as { fields: { api_name: string }[] }[]).map(
          (section) => section.fields.map((field) => field.api_name),
        );
        expect(served).toEqual(shown);
      }),
      { numRuns: 25 },
    );
    // The runs did send something (not every move folded away or stayed in place).
    expect(queued).toBeGreaterThan(10);
  }, 120_000);
});
