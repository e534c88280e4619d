/**
 * A layout renamed by case only ("Standard" → "STANDARD") is sent: the replay once compared the
 * service's name with mine case-insensitively and took the rename for already made, so it was
 * reported delivered and the service kept the old name.
 */
import { describe, expect, it } from 'vitest';
import { outboxSession } from '../outbox/outboxSession';
import { configureOn } from './configureSession';

describe('a layout renamed by case only', () => {
  it('is sent to the service, and the view shows what the service holds', async () => {
    const s = await outboxSession();
    const configure = configureOn(s);
    const assets = configure.modules(s.portalId).modules.find((m) => m.apiName === 'assets')!;
    const layout = configure.layouts(s.portalId, assets.id).layouts[0]!;
    const upper = layout.name.toUpperCase();
    expect(upper).not.toBe(layout.name);

    const view = configure.updateLayout({
      portalId: s.portalId,
      moduleId: assets.id,
      layoutId: layout.id,
      changes: { name: upper },
    });
    expect(view.layouts.find((l) => l.id === layout.id)!.name).toBe(upper);
    await s.outbox.idle();
    expect(s.outbox.list()).toEqual([]);

    const onService = s.emulator.state.db
      .prepare('SELECT name FROM layouts WHERE id = ?')
      .pluck()
      .get(Number(layout.id));
    const shown = configure
      .layouts(s.portalId, assets.id)
      .layouts.find((l) => l.id === layout.id)!.name;
    expect({ onService, shown }).toEqual({ onService: upper, shown: upper });
  });
});
