/**
 * The configure, bin and snapshot arguments from outside (the renderer, a web client) at their
 * worst: huge text, deep or wrong-shaped values, prototype keys, control characters and ids that
 * are paths. Each is refused in words by the contract or the shared rules, and nothing is queued.
 */
import { describe, expect, it } from 'vitest';
import { call, refusal, setup } from '../backups/backupSession';

const NEW = {
  singularName: 'Vehicle',
  pluralName: 'Vehicles',
  iconClass: null,
  isGlobal: true,
  isAllProjects: true,
  isOverviewNeeded: false,
  defaultLayoutType: 'public',
  projects: [],
};

describe('hostile configuration input', () => {
  it('is refused in words and queues nothing', async () => {
    const { engine, portalId } = await setup({ records: 10 });
    await call(engine, 'outbox.setWorkOffline', { on: true });
    const modules = await call<{ modules: { id: string; apiName: string | null }[] }>(
      engine,
      'configure.modules',
      { portalId },
    );
    const assets = modules.modules.find((m) => m.apiName === 'assets')!;
    const deep: unknown = JSON.parse('['.repeat(5000) + ']'.repeat(5000));
    const cases: [string, unknown, RegExp][] = [
      [
        'configure.createModule',
        { ...NEW, portalId, pluralName: 'x'.repeat(1_000_000) },
        /at most 50 characters/,
      ],
      [
        'configure.createModule',
        { ...NEW, portalId, singularName: 'Car\u0000' },
        /control characters/,
      ],
      ['configure.createModule', { ...NEW, portalId, projects: deep }, /./],
      [
        'configure.updateModule',
        {
          portalId,
          moduleId: assets.id,
          changes: JSON.parse('{"__proto__": {"pluralName": "X"}}'),
        },
        /./,
      ],
      [
        'configure.updateModule',
        { portalId, moduleId: '../../etc/passwd', changes: { pluralName: 'X' } },
        /module id/,
      ],
      [
        'configure.changeOptions',
        {
          portalId,
          moduleId: assets.id,
          fieldId: '1',
          add: Array.from({ length: 1001 }, (_, i) => `o${i}`),
        },
        /./,
      ],
      [
        'configure.createField',
        {
          portalId,
          moduleId: assets.id,
          type: 'single_line',
          layoutId: '1',
          sectionId: null,
          settings: {
            label: 'Deep',
            mandatory: false,
            pii: false,
            encrypted: false,
            description: null,
            defaultValue: deep,
            hasInfo: false,
            currencyListType: null,
            currencyCode: null,
            precision: null,
            userListType: null,
          },
        },
        /./,
      ],
      [
        'configure.createField',
        {
          portalId,
          moduleId: assets.id,
          type: 'formula',
          layoutId: '1',
          sectionId: null,
          settings: {},
        },
        /./,
      ],
      [
        'bin.list',
        {
          portalId,
          sort: { by: 'name', descending: false },
          filter: { search: 's'.repeat(10_000) },
          refresh: false,
        },
        /./,
      ],
      ['bin.restore', { portalId, items: [{ module: 'entities', id: '1' }] }, /./],
      ['bin.empty', { portalId, confirmName: 'n'.repeat(10_000) }, /./],
      [
        'records.query',
        { portalId, moduleId: assets.id, offset: 0, limit: 10, snapshot: '../x' },
        /backup id/,
      ],
      ['records.modules', { portalId, snapshot: '42' }, /no longer open for browsing/],
      ['backups.browse', { id: '1e3' }, /./],
    ];
    for (const [name, args, words] of cases) {
      const message = await refusal(engine, name, args);
      expect(message, name).toMatch(words);
      expect(message.length, name).toBeLessThan(2000);
    }
    expect(await call(engine, 'outbox.list', {})).toEqual([]);
    // The prototype was not touched by the key.
    expect(({} as Record<string, unknown>).pluralName).toBeUndefined();
    engine.close();
  });

  it('copies refuse hostile files and arguments in words, planning and queuing nothing', async () => {
    const { engine, portalId } = await setup({ records: 10 });
    await call(engine, 'outbox.setWorkOffline', { on: true });
    const portals = await call<{ id: string }[]>(engine, 'records.portals');
    const other = portals.find((portal) => portal.id !== portalId)!.id;
    const file = (text: string) => ({
      targetPortalId: portalId,
      source: { kind: 'file', name: 'c.json', text },
    });
    const head =
      '{"format":"portaldesk-configuration","version":1,"exportedAt":"2026-11-26T00:00:00Z","source":{"portalId":"1","portalName":"n"},"modules":';
    const cases: [string, unknown, RegExp][] = [
      // Over the contract's 5 MB.
      ['configure.planCopy', file(' '.repeat(5_000_001)), /at most 5000000 characters/],
      // Deep, within the size: JSON.parse takes it, the schema refuses it at the top.
      [
        'configure.planCopy',
        file('['.repeat(100_000) + ']'.repeat(100_000)),
        /not a PortalDesk configuration file/,
      ],
      [
        'configure.planCopy',
        file(`${head}${'['.repeat(100_000)}${']'.repeat(100_000)}}`),
        /modules/,
      ],
      ['configure.planCopy', file('\uFFFD\u0000{'), /is not JSON/],
      [
        'configure.planCopy',
        file(`${head}[{"__proto__":{"admin":true}}]}`),
        /does not fit the configuration schema/,
      ],
      [
        'configure.planCopy',
        { targetPortalId: portalId, source: { kind: 'portal', portalId, moduleIds: ['../../x'] } },
        /module id/,
      ],
      [
        'configure.planCopy',
        {
          targetPortalId: other,
          source: { kind: 'portal', portalId, moduleIds: Array.from({ length: 101 }, () => '1') },
        },
        /at most 100 items/,
      ],
      [
        'configure.applyCopy',
        { targetPortalId: portalId, source: file('{}').source, fingerprint: 'f'.repeat(201) },
        /at most 200 characters/,
      ],
      ['configure.exportConfiguration', { portalId, moduleIds: [] }, /at least 1 item/],
      ['configure.exportConfiguration', { portalId, moduleIds: ['999'] }, /not in this portal/],
    ];
    for (const [name, args, words] of cases) {
      const message = await refusal(engine, name, args);
      expect(message, name).toMatch(words);
      expect(message.length, name).toBeLessThan(2000);
    }
    expect(await call(engine, 'outbox.list', {})).toEqual([]);
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
    engine.close();
  });
});
