/** The outbox through the engine's contract: wiring, the persisted switch, refusals. */
import { describe, expect, it } from 'vitest';
import type { OutboxStatus } from '../../../src/shared/ipc/areas/outbox';
import { testEngine } from '../../support/engine';
import { tempDir } from '../../support/tempDir';

const internal = { transport: 'internal', trusted: true, description: 'test' } as const;

describe('the outbox in the engine', () => {
  it('keeps "work offline" across a restart, and sync refuses to send while it is on', async () => {
    const dataDir = tempDir();
    const first = testEngine({ dataDir, autoSync: false });
    const set = await first.dispatcher.dispatch('outbox.setWorkOffline', { on: true }, internal);
    expect(set).toMatchObject({ ok: true, value: { workOffline: true, online: false, total: 0 } });
    first.close();

    const second = testEngine({ dataDir, autoSync: false });
    const status = await second.dispatcher.dispatch('outbox.status', undefined, internal);
    expect(status.ok && (status.value as OutboxStatus).workOffline).toBe(true);
    const sync = await second.dispatcher.dispatch('sync.start', undefined, internal);
    expect(sync.ok).toBe(false);
    if (!sync.ok) expect(sync.error.message).toMatch(/work offline.*Switch "Work offline" off/);
  });

  it('refuses edits of records it does not have, saying what to do, and bad arguments at the gate', async () => {
    const engine = testEngine({ autoSync: false });
    const edit = await engine.dispatcher.dispatch(
      'outbox.edit',
      { portalId: '1', recordId: '2', changes: { name: 'x' } },
      internal,
    );
    expect(edit).toMatchObject({ ok: false, error: { code: 'failed' } });
    if (!edit.ok) expect(edit.error.message).toMatch(/not in the local mirror.*sync the portal/);
    const bad = await engine.dispatcher.dispatch(
      'outbox.edit',
      { portalId: '1', recordId: '2', changes: {} },
      internal,
    );
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_argument' } });
    const list = await engine.dispatcher.dispatch('outbox.list', undefined, internal);
    expect(list).toEqual({ ok: true, value: [] });
  });
});
