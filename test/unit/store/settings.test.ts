import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_SETTINGS } from '../../../src/shared/ipc/settings';
import { testEngine } from '../../support/engine';
import { tempDir } from '../../support/tempDir';
import { startEngine } from '../../../src/main/engine';

const trusted = { transport: 'internal', trusted: true, description: 'test' } as const;

describe('settings over the contract', () => {
  it('start from the defaults on a fresh data directory', async () => {
    const engine = testEngine();
    await expect(engine.dispatcher.dispatch('settings.get', undefined, trusted)).resolves.toEqual({
      ok: true,
      value: DEFAULT_SETTINGS,
    });
  });

  it('persist a change across a restart and announce it to every listener', async () => {
    const dataDir = tempDir();
    const quiet = { warn: () => undefined, error: () => undefined };
    const engine = startEngine({ dataDir, mode: 'web', version: 't', log: quiet });
    const listener = vi.fn();
    engine.events.subscribe(listener);
    const outcome = await engine.dispatcher.dispatch('settings.set', { theme: 'dark' }, trusted);
    expect(outcome).toEqual({ ok: true, value: { ...DEFAULT_SETTINGS, theme: 'dark' } });
    expect(listener).toHaveBeenCalledWith('settings.changed', {
      ...DEFAULT_SETTINGS,
      theme: 'dark',
    });
    engine.close();

    const again = startEngine({ dataDir, mode: 'web', version: 't', log: quiet });
    await expect(again.dispatcher.dispatch('settings.get', undefined, trusted)).resolves.toEqual({
      ok: true,
      value: { ...DEFAULT_SETTINGS, theme: 'dark' },
    });
    again.close();
  });

  it('fall back to the default for a stored value this version cannot read', async () => {
    const engine = testEngine();
    engine.store.db
      .prepare("INSERT INTO settings (key, value, updated_at) VALUES ('theme', '\"sepia\"', 'x')")
      .run();
    await expect(engine.dispatcher.dispatch('settings.get', undefined, trusted)).resolves.toEqual({
      ok: true,
      value: DEFAULT_SETTINGS,
    });
  });

  it('report the data directory and schema version in app.info', async () => {
    const engine = testEngine({ version: '9.9.9' });
    const outcome = await engine.dispatcher.dispatch('app.info', undefined, trusted);
    expect(outcome).toEqual({
      ok: true,
      value: expect.objectContaining({
        version: '9.9.9',
        mode: 'web',
        dataDir: engine.info().dataDir,
        schemaVersion: engine.store.schemaVersion,
      }),
    });
    expect(engine.store.schemaVersion).toBeGreaterThan(0);
  });
});
