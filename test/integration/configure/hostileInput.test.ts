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
});
