/**
 * One options change that frees a name and takes it again ("Network" renamed to "Network
 * (legacy)", or removed, and a new "Network" added): the rules judge the end state and accept it,
 * so the replay must free the name before taking it. The add once went first, was refused as a
 * duplicate and stalled the module's configuration queue.
 */
import { describe, expect, it } from 'vitest';
import { outboxSession } from '../outbox/outboxSession';
import { configureOn } from './configureSession';

describe('one options change that frees a name and reuses it', () => {
  it.each([
    ['renamed away', { rename: true }],
    ['removed', { rename: false }],
  ])(
    '"Network" %s and a new "Network" added: sent in an order the service takes',
    async (_, how) => {
      const s = await outboxSession();
      const configure = configureOn(s);
      const assets = configure.modules(s.portalId).modules.find((m) => m.apiName === 'assets')!;
      const category = configure
        .fields(s.portalId, assets.id)
        .fields.find((f) => f.apiName === 'cf_category')!;
      const network = configure
        .fieldOptions(s.portalId, assets.id, category.id)
        .options.find((o) => o.name === 'Network')!;
      const view = configure.changeOptions({
        portalId: s.portalId,
        moduleId: assets.id,
        fieldId: category.id,
        ...(how.rename
          ? { rename: [{ id: network.id, name: 'Network (legacy)' }] }
          : { remove: [network.id] }),
        add: ['Network'],
      });
      const shown = view.options.map((o) => o.name);
      await s.outbox.idle();
      expect(s.outbox.list()).toEqual([]);
      const served = s.emulator.state.db
        .prepare(
          "SELECT value FROM field_options WHERE field_id = ? AND kind = 'custom_option' ORDER BY position",
        )
        .pluck()
        .all(Number(category.id));
      expect(served).toEqual(shown);
      expect(served.filter((name) => name === 'Network')).toHaveLength(1);
      expect(served.includes('Network (legacy)')).toBe(how.rename);
    },
  );
});
