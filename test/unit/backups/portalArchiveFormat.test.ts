/**
 * The portal export layout: which archives it recognises, and what its tally counts. Module api
 * names are data: `__proto__` or `constructor` is counted like any other, never reaching a
 * prototype.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ARCHIVE_FORMATS,
  portalArchiveFormat,
} from '../../../src/main/backups/portalArchiveFormat';

const REQUIRED = ['portal.json', 'modules.json', 'entities.json', 'comments.json'];
const EMULATOR = [
  'portal.json',
  'users.json',
  'modules.json',
  'work_items.json',
  'entities.json',
  'status_timeline.json',
  'comments.json',
];

/** A fresh tally fed these (entry, element) pairs. */
function tallyOf(items: ReadonlyArray<readonly [string, unknown]>) {
  const tally = portalArchiveFormat.tally();
  for (const [entry, element] of items) tally.add(entry, element);
  return tally.result();
}

/** The counts as plain data (the tally's records have no prototype). */
const plain = (record: Record<string, unknown>) => Object.fromEntries(Object.entries(record));

describe('portalArchiveFormat', () => {
  it('is the one format PortalDesk reads', () => {
    expect(ARCHIVE_FORMATS).toEqual([portalArchiveFormat]);
    expect(portalArchiveFormat.name).toMatch(/entities\.json/);
  });

  describe('recognises', () => {
    it("the emulator's archive, and any with the four entries it counts", () => {
      expect(portalArchiveFormat.recognises(EMULATOR)).toBe(true);
      expect(portalArchiveFormat.recognises(REQUIRED)).toBe(true);
      expect(portalArchiveFormat.recognises([...REQUIRED].reverse())).toBe(true);
      expect(portalArchiveFormat.recognises([...REQUIRED, 'extra.bin'])).toBe(true);
    });

    it.each(REQUIRED)('nothing without %s', (missing) => {
      expect(portalArchiveFormat.recognises(EMULATOR.filter((name) => name !== missing))).toBe(
        false,
      );
    });

    it('nothing empty, nested, or named in another case', () => {
      expect(portalArchiveFormat.recognises([])).toBe(false);
      expect(portalArchiveFormat.recognises(REQUIRED.map((name) => `export/${name}`))).toBe(false);
      expect(portalArchiveFormat.recognises(REQUIRED.map((name) => name.toUpperCase()))).toBe(
        false,
      );
    });
  });

  describe('tally', () => {
    it('starts at nothing', () => {
      const counts = tallyOf([]);
      expect(plain(counts.recordsByModule)).toEqual({});
      expect(plain(counts.moduleNames)).toEqual({});
      expect(counts).toMatchObject({ records: 0, comments: 0, modules: 0, generatedAt: null });
    });

    it('counts records per module, leaving out trashed ones, but all in the total', () => {
      const counts = tallyOf([
        ['entities.json', { id: 1, module: 'Assets' }],
        ['entities.json', { id: 2, module: 'Assets', trashed_time: null }],
        ['entities.json', { id: 3, module: 'Assets', trashed_time: '2026-11-01T00:00:00Z' }],
        ['entities.json', { id: 4, module: 'Tasks', trashed_time: '' }],
        ['entities.json', { id: 5, module: 'Tasks', trashed_time: 0 }],
        ['entities.json', { id: 6, module: 'Tasks', trashed_time: false }],
        ['entities.json', { id: 7, module: 'Tasks', trashed_time: 1 }],
        ['entities.json', { id: 8, module: 'Tasks', trashed_time: true }],
        ['entities.json', { id: 9, module: 'Risks', trashed_time: {} }],
      ]);
      expect(plain(counts.recordsByModule)).toEqual({ Assets: 2, Tasks: 3 });
      expect(counts.records).toBe(9);
    });

    it('counts a record with no module name in the total only', () => {
      const counts = tallyOf([
        ['entities.json', { id: 1 }],
        ['entities.json', { id: 2, module: 7 }],
        ['entities.json', { id: 3, module: null }],
        ['entities.json', ['Assets']],
        ['entities.json', 'Assets'],
        ['entities.json', null],
        ['entities.json', 42],
      ]);
      expect(plain(counts.recordsByModule)).toEqual({});
      expect(counts.records).toBe(7);
    });

    it('counts comments and modules, naming modules by their plural name', () => {
      const counts = tallyOf([
        ['comments.json', { id: 1 }],
        ['comments.json', 'anything'],
        ['modules.json', { api_name: 'Assets', plural_name: 'Assets' }],
        ['modules.json', { api_name: 'Work_Tasks', plural_name: 'Work Tasks' }],
        ['modules.json', { api_name: 'Risks' }],
        ['modules.json', { api_name: 'Odd', plural_name: 3 }],
        ['modules.json', { plural_name: 'Nameless' }],
        ['modules.json', null],
      ]);
      expect(counts.comments).toBe(2);
      expect(counts.modules).toBe(6);
      expect(plain(counts.moduleNames)).toEqual({
        Assets: 'Assets',
        Work_Tasks: 'Work Tasks',
        Risks: 'Risks',
        Odd: 'Odd',
      });
    });

    it('reads when the archive was generated from portal.json', () => {
      expect(
        tallyOf([['portal.json', { id: '1', export: { generated_time: '2026-11-26T09:12:03Z' } }]])
          .generatedAt,
      ).toBe('2026-11-26T09:12:03Z');
      for (const portal of [
        { export: { generated_time: 5 } },
        { export: null },
        { export: ['2026-11-26T09:12:03Z'] },
        { generated_time: '2026-11-26T09:12:03Z' },
        ['x'],
        null,
      ]) {
        expect(tallyOf([['portal.json', portal]]).generatedAt).toBeNull();
      }
    });

    it('reads which backup the archive says it is from portal.json', () => {
      expect(tallyOf([['portal.json', { export: { id: '1000000000680' } }]]).exportId).toBe(
        '1000000000680',
      );
      expect(tallyOf([['portal.json', { export: { id: 42 } }]]).exportId).toBe('42');
      for (const portal of [
        { export: { id: null } },
        { export: { id: 1.5 } },
        { export: { id: { x: 1 } } },
        { id: '7' },
        null,
      ]) {
        expect(tallyOf([['portal.json', portal]]).exportId).toBeNull();
      }
    });

    it('ignores the entries it does not count', () => {
      const counts = tallyOf([
        ['users.json', { module: 'Assets' }],
        ['work_items.json', { module: 'Assets' }],
        ['status_timeline.json', { module: 'Assets' }],
        ['other.json', { api_name: 'X' }],
        ['ENTITIES.JSON', { module: 'Assets' }],
        ['users.json', { export: { generated_time: '2026-11-26T09:12:03Z' } }],
      ]);
      expect(counts).toMatchObject({ records: 0, comments: 0, modules: 0, generatedAt: null });
      expect(plain(counts.recordsByModule)).toEqual({});
    });

    it('counts modules named __proto__ and constructor as data, touching no prototype', () => {
      // As JSON.parse gives them: `__proto__` an own key, not the prototype.
      const entities = JSON.parse(
        '[{"module":"__proto__"},{"module":"__proto__"},{"module":"constructor"},' +
          '{"module":"toString"},{"module":"hasOwnProperty"},{"module":"__proto__","trashed_time":"x"}]',
      ) as unknown[];
      const modules = JSON.parse(
        '[{"api_name":"__proto__","plural_name":"Protos"},{"api_name":"constructor"}]',
      ) as unknown[];
      const counts = tallyOf([
        ...entities.map((e) => ['entities.json', e] as const),
        ...modules.map((m) => ['modules.json', m] as const),
      ]);
      expect(Object.getPrototypeOf(counts.recordsByModule)).toBeNull();
      expect(Object.getOwnPropertyNames(counts.recordsByModule).sort()).toEqual([
        '__proto__',
        'constructor',
        'hasOwnProperty',
        'toString',
      ]);
      expect(counts.recordsByModule['__proto__']).toBe(2);
      expect(counts.recordsByModule['constructor']).toBe(1);
      expect(counts.recordsByModule['toString']).toBe(1);
      expect(counts.moduleNames['__proto__']).toBe('Protos');
      expect(counts.moduleNames['constructor']).toBe('constructor');
      expect(counts.records).toBe(6);
      // Nothing leaked anywhere else.
      expect(Object.prototype).not.toHaveProperty('Protos');
      expect(({} as Record<string, unknown>)['constructor']).toBe(Object);
      expect(Object.getPrototypeOf({})).toBe(Object.prototype);
    });

    it('gives each archive its own tally', () => {
      const first = portalArchiveFormat.tally();
      first.add('entities.json', { module: 'Assets' });
      first.add('comments.json', {});
      const second = portalArchiveFormat.tally();
      expect(second.result().records).toBe(0);
      expect(plain(second.result().recordsByModule)).toEqual({});
      expect(first.result().records).toBe(1);
      expect(first.result().comments).toBe(1);
    });

    const NAMES = ['Assets', 'Tasks', '__proto__', 'constructor', 'toString', 'valueOf', ''];
    const item = fc.oneof(
      fc.record({
        entry: fc.constant('entities.json'),
        element: fc.record(
          {
            module: fc.oneof(fc.constantFrom(...NAMES), fc.integer()),
            trashed_time: fc.constantFrom(null, '', 0, false, '2026-11-01T00:00:00Z', 1, true),
          },
          { requiredKeys: [] },
        ),
      }),
      fc.record({
        entry: fc.constant('modules.json'),
        element: fc.record(
          {
            api_name: fc.constantFrom(...NAMES),
            plural_name: fc.constantFrom('Things', 'Protos', 'Builders'),
          },
          { requiredKeys: ['api_name'] },
        ),
      }),
      fc.record({
        entry: fc.constantFrom('comments.json', 'users.json', 'portal.json'),
        element: fc.anything(),
      }),
    );

    it('agrees with a Map-based count for any mix of entries', () => {
      fc.assert(
        fc.property(fc.array(item, { maxLength: 40 }), (items) => {
          const counts = tallyOf(items.map(({ entry, element }) => [entry, element] as const));
          const byModule = new Map<string, number>();
          const names = new Map<string, string>();
          let records = 0;
          let comments = 0;
          let modules = 0;
          for (const { entry, element } of items) {
            const e = element as Record<string, unknown>;
            if (entry === 'entities.json') {
              records++;
              if (typeof e.module === 'string' && !e.trashed_time) {
                byModule.set(e.module, (byModule.get(e.module) ?? 0) + 1);
              }
            } else if (entry === 'modules.json') {
              modules++;
              names.set(
                e.api_name as string,
                (e.plural_name as string | undefined) ?? (e.api_name as string),
              );
            } else if (entry === 'comments.json') {
              comments++;
            }
          }
          expect(new Map(Object.entries(counts.recordsByModule))).toEqual(byModule);
          expect(new Map(Object.entries(counts.moduleNames))).toEqual(names);
          expect([counts.records, counts.comments, counts.modules]).toEqual([
            records,
            comments,
            modules,
          ]);
          expect(Object.getPrototypeOf({})).toBe(Object.prototype);
        }),
        { numRuns: 200 },
      );
    });
  });
});
