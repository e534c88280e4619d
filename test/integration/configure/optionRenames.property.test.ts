/**
 * Any set of option renames in one change (swaps, cycles, new names, or a mix), on a pick list and
 * on a multi-select, replayed against the emulator: afterwards every record holds in the mirror
 * what the service shows for it, and the option lists agree. Renamed one after the other, a swap
 * once left every record that held either option holding the same name, here and in the emulator
 * (which must relabel as the service does: by option, all at once). One emulator session; each
 * run starts from the names the previous one left.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { outboxSession } from '../outbox/outboxSession';
import { configureOn } from './configureSession';

const change = fc.record({
  multi: fc.boolean(),
  // Which options take part (indexes into the field's options), where each one's name goes (sort
  // keys: any permutation of their names, swaps and cycles included), and which get a new name.
  picks: fc.uniqueArray(fc.nat({ max: 11 }), { minLength: 2, maxLength: 5 }),
  order: fc.shuffledSubarray([0, 1, 2, 3, 4], { minLength: 5, maxLength: 5 }),
  fresh: fc.array(
    fc.nat({ max: 3 }).map((n) => n === 3),
    { minLength: 5, maxLength: 5 },
  ),
});

const sorted = (value: unknown) =>
  Array.isArray(value) ? [...(value as string[])].sort() : (value ?? null);

describe('option renames in one change', () => {
  it('leave the mirror holding what the service holds', async () => {
    const s = await outboxSession({ records: 40 });
    const configure = configureOn(s);
    const assets = configure.modules(s.portalId).modules.find((m) => m.apiName === 'assets')!;
    const fieldOf = (apiName: string) =>
      configure.fields(s.portalId, assets.id).fields.find((f) => f.apiName === apiName)!;
    // What the emulator stores (read directly: a GET per record would meet its rate limit): a pick
    // list's option name, a multi-select's option ids, shown by their names.
    const servedValue = (id: string, apiName: string, multi: boolean): unknown => {
      const value = s.emulator.state.db
        .prepare(`SELECT custom ->> '$.${apiName}' FROM entities WHERE id = ?`)
        .pluck()
        .get(Number(id)) as string | null;
      if (!multi || value === null) return value;
      const name = s.emulator.state.db
        .prepare('SELECT value FROM field_options WHERE id = ?')
        .pluck();
      return (JSON.parse(value) as string[]).map((option) => name.get(Number(option)));
    };
    let run = 0;
    let swapsOrCycles = 0;
    let relabelled = 0;
    await fc.assert(
      fc.asyncProperty(change, async ({ multi, picks, order, fresh }) => {
        run++;
        const apiName = multi ? 'cf_tags' : 'cf_category';
        const field = fieldOf(apiName);
        const options = configure.fieldOptions(s.portalId, assets.id, field.id).options;
        const chosen = [...new Set(picks.map((pick) => options[pick % options.length]!))];
        const targets = chosen
          .map((option, index) => ({ name: option.name, key: order[index]! }))
          .sort((a, b) => a.key - b.key)
          .map((target) => target.name);
        const rename = chosen
          .map((option, index) => ({
            id: option.id,
            name: fresh[index] ? `Renamed ${run}.${index}` : targets[index]!,
          }))
          .filter((item, index) => item.name !== chosen[index]!.name);
        fc.pre(rename.length > 0);
        const exchanged = chosen.filter(
          (option, index) => !fresh[index] && targets[index] !== option.name,
        );
        if (exchanged.length > 1) swapsOrCycles++;

        configure.changeOptions({
          portalId: s.portalId,
          moduleId: assets.id,
          fieldId: field.id,
          rename,
        });
        await s.outbox.idle();
        expect(s.outbox.list()).toEqual([]);

        const mirrored = new Map<string, unknown>();
        const served = new Map<string, unknown>();
        for (const id of s.recordsWithField(apiName)) {
          const value = s.store.db
            .prepare(`SELECT custom ->> '$.${apiName}' FROM records WHERE portal_id = ? AND id = ?`)
            .pluck()
            .get(s.portalId, id) as string | null;
          mirrored.set(id, sorted(multi && value !== null ? JSON.parse(value) : value));
          served.set(id, sorted(servedValue(id, apiName, multi)));
        }
        expect(mirrored).toEqual(served);
        relabelled += [...served.values()].filter((value) => value !== null).length;
        const servedNames = s.emulator.state.db
          .prepare(
            "SELECT value FROM field_options WHERE field_id = ? AND kind = 'custom_option' ORDER BY value",
          )
          .pluck()
          .all(Number(field.id));
        const shownNames = configure
          .fieldOptions(s.portalId, assets.id, field.id)
          .options.map((option) => option.name)
          .sort();
        expect(shownNames).toEqual(servedNames);
      }),
      { numRuns: 40 },
    );
    // The runs did exchange names between options, not only give new ones.
    expect(swapsOrCycles).toBeGreaterThan(5);
    expect(relabelled).toBeGreaterThan(100);
  }, 120_000);
});
