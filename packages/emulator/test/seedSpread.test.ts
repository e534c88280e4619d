import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { parseEmulatorArgs } from '@portaldesk/emulator/cliArgs';
import { resolveConfig } from '@portaldesk/emulator/config';
import { startEmulator, type EmulatorOptions } from '@portaldesk/emulator/index';
import { SYSTEM_FIELDS } from '@portaldesk/emulator/model/moduleDefaults';
import { MODULES } from '@portaldesk/emulator/model/seedCatalog';

// The seed lays its times out from the emulated day it starts on: one fixed day for every start.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'], now: Date.parse('2026-05-04T10:00:00Z') });
});
afterEach(() => {
  vi.useRealTimers();
});

interface ModuleRow {
  portal: string;
  apiName: string;
  plural: string;
  records: number;
  fields: number;
  layouts: number;
  statuses: number;
}

/** Seeds an emulator, reads what the checks need from its database, and closes it. */
async function seeded(options: EmulatorOptions) {
  const emulator = await startEmulator({ log: () => undefined, ...options });
  try {
    const { db } = emulator.state;
    const portals = db
      .prepare(
        `SELECT p.portal_name AS name, p.dc, p.is_default AS isDefault FROM portals p ORDER BY p.id`,
      )
      .all() as { name: string; dc: string; isDefault: number }[];
    const modules = db
      .prepare(
        `SELECT p.portal_name AS portal, m.api_name AS apiName, m.plural_name AS plural,
           (SELECT count(*) FROM entities e WHERE e.module_id = m.id) AS records,
           (SELECT count(*) FROM fields f WHERE f.module_id = m.id) AS fields,
           (SELECT count(*) FROM layouts l WHERE l.module_id = m.id) AS layouts,
           (SELECT count(*) FROM statuses s WHERE s.module_id = m.id) AS statuses
         FROM modules m JOIN portals p ON p.id = m.portal_id
         WHERE m.is_customized = 1 ORDER BY m.id`,
      )
      .all() as ModuleRow[];
    const entities = db
      .prepare(
        `SELECT id, module_id, project_id, layout_id, status_id, name, description, owner_zpuid,
           custom, created_time, last_updated_time FROM entities ORDER BY id`,
      )
      .all();
    return { portals, modules, entities, listed: emulator.portals };
  } finally {
    await emulator.close();
  }
}

describe('seeding N portals of M modules (--portals, --modules)', () => {
  it('makes N portals in the first data center, M modules each, the records spread evenly', async () => {
    const { portals, modules, listed } = await seeded({
      portals: 3,
      modules: 4,
      records: 1001,
      dcs: ['us', 'eu'],
    });
    const us = portals.filter((p) => p.dc === 'us');
    expect(us.map((p) => p.name)).toEqual(['northwind', 'acme-engineering', 'northwind-3']);
    expect(us.map((p) => p.isDefault)).toEqual([1, 0, 0]);
    expect(listed).toHaveLength(3);
    // The other data center keeps its one small portal.
    expect(portals.filter((p) => p.dc === 'eu').map((p) => p.name)).toEqual(['northwind-eu']);

    const ofUs = modules.filter((m) => !m.portal.endsWith('-eu'));
    expect(ofUs).toHaveLength(12);
    for (const portal of us) {
      expect(ofUs.filter((m) => m.portal === portal.name).map((m) => m.apiName)).toEqual([
        'assets',
        'vendors',
        'change_requests',
        'assets_2',
      ]);
    }
    // 1001 = 12 × 83 + 5: the first five modules one record more.
    expect(ofUs.map((m) => m.records)).toEqual([84, 84, 84, 84, 84, 83, 83, 83, 83, 83, 83, 83]);
    expect(ofUs.reduce((sum, m) => sum + m.records, 0)).toBe(1001);

    // Each module has its catalog shape's fields, statuses and layouts; a repeat is numbered.
    const repeat = ofUs.find((m) => m.apiName === 'assets_2')!;
    expect(repeat.plural).toBe('Assets 2');
    for (const module of ofUs) {
      const shape = MODULES.find((m) => module.apiName.replace(/_\d+$/, '') === m.apiName)!;
      expect(module.fields).toBe(SYSTEM_FIELDS.length + shape.fields.length);
      expect(module.statuses).toBe(shape.statuses.length);
      expect(module.layouts).toBe(shape.apiName === 'assets' ? 2 : 1);
    }
  });

  it('gives a lone flag the demo’s count for the other (3 modules, or 2 portals)', async () => {
    const onlyPortals = await seeded({ portals: 5, records: 30 });
    expect(onlyPortals.modules).toHaveLength(15);
    expect(onlyPortals.modules.every((m) => m.records === 2)).toBe(true);
    const onlyModules = await seeded({ modules: 1, records: 31 });
    expect(onlyModules.modules.map((m) => [m.apiName, m.records])).toEqual([
      ['assets', 16],
      ['assets', 15],
    ]);
  });

  it('is deterministic: the same seed the same records, another seed others', async () => {
    const options = { portals: 4, modules: 5, records: 600 };
    const first = await seeded({ ...options, seed: 7 });
    const again = await seeded({ ...options, seed: 7 });
    const other = await seeded({ ...options, seed: 8 });
    expect(first.entities).toHaveLength(600);
    expect(again.entities).toEqual(first.entities);
    expect(again.modules).toEqual(first.modules);
    expect(other.entities).toHaveLength(600);
    expect(other.entities).not.toEqual(first.entities);
  });

  it('leaves the demo’s own layout alone when neither flag is given', async () => {
    const demo = await seeded({ records: 1000 });
    expect(demo.portals.map((p) => p.name)).toEqual(['northwind', 'acme-engineering']);
    const records = (portal: string) =>
      demo.modules.filter((m) => m.portal === portal).reduce((sum, m) => sum + m.records, 0);
    // 60 % and 40 %, over the catalog's three modules by their weights.
    expect(records('northwind')).toBe(600);
    expect(records('acme-engineering')).toBe(400);
    expect(demo.modules.map((m) => m.apiName)).toEqual(
      [...MODULES, ...MODULES].map((m) => m.apiName),
    );
  });
});

describe('the --portals and --modules options', () => {
  it('passes whole numbers on', () => {
    expect(parseEmulatorArgs(['--portals', '4', '--modules', '8']).options).toMatchObject({
      portals: 4,
      modules: 8,
    });
    expect(resolveConfig({ portals: 4, modules: 8 }, () => 's').spread).toEqual({
      portals: 4,
      modules: 8,
    });
    expect(resolveConfig({}, () => 's').spread).toBeNull();
  });

  it('refuses what is not a whole number in range, naming the option', () => {
    expect(() => parseEmulatorArgs(['--portals', '0'])).toThrow(/--portals/);
    expect(() => parseEmulatorArgs(['--modules', '1.5'])).toThrow(/--modules/);
    expect(() => parseEmulatorArgs(['--modules', 'many'])).toThrow(/--modules/);
    expect(() => resolveConfig({ portals: 201 }, () => 's')).toThrow(
      '--portals must be a whole number from 1 to 200.',
    );
    expect(() => resolveConfig({ modules: 101 }, () => 's')).toThrow(
      '--modules must be a whole number from 1 to 100.',
    );
  });
});
