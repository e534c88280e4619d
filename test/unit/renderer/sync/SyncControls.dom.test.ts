// @vitest-environment happy-dom
/**
 * The Sync view's controls keep the keyboard: a control that cannot act now (Pause while the
 * engine answers, Pause and Cancel once the run ended) says so with aria-disabled and stays
 * focusable, where `disabled` under the focus dropped it on the page's body (Chromium does), and a
 * press on it then asks nothing of the engine.
 */
import { createElement } from 'react';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { SyncContext } from '../../../../src/renderer/src/features/sync/SyncContext';
import { SyncView } from '../../../../src/renderer/src/features/sync/SyncView';
import { createSyncStore } from '../../../../src/renderer/src/features/sync/syncStore';
import type { SyncRunEntry, SyncStatus } from '../../../../src/shared/ipc/areas/sync';
import { useDomTestEnvironment } from '../support/dom';
import { fakeEngine } from '../support/fakeEngine';

useDomTestEnvironment();

function status(parts: Partial<SyncStatus> = {}): SyncStatus {
  return {
    paused: false,
    online: true,
    accounts: [{ accountId: '1', dc: 'us', label: 'Admin' }],
    running: [],
    progress: [],
    budgets: [],
    lastSynced: [],
    log: [],
    nextAutoSyncAt: null,
    at: Date.now(),
    ...parts,
  };
}

const run: SyncRunEntry = {
  runId: 'sync-1',
  accountId: '1',
  dc: 'us',
  startedAt: Date.now() - 60_000,
  endedAt: null,
  state: 'running',
  message: null,
  calls: 3,
  records: 0,
  outcomes: [],
};

describe('the Sync controls', () => {
  it('keep the focus on a control that cannot act now, and such a press asks nothing', async () => {
    const engine = fakeEngine({
      'sync.status': () => status({ running: [run] }),
      'sync.pause': () => status({ running: [run], paused: true }),
    });
    const sync = createSyncStore(engine.api);
    await act(() => sync.getState().load());
    render(createElement(SyncContext.Provider, { value: sync }, createElement(SyncView)));
    const user = userEvent.setup();

    const pause = screen.getByRole('button', { name: 'Pause' });
    pause.focus();
    // The run ends under the focus: Pause cannot act, and still holds the keyboard.
    act(() => engine.emit('sync.status', status()));
    expect(pause.getAttribute('aria-disabled')).toBe('true');
    expect(pause).toHaveProperty('disabled', false);
    await user.keyboard('{Enter}');
    expect(engine.argsOf('sync.pause')).toEqual([]);
    expect(document.activeElement).toBe(pause);
    const cancel = screen.getByRole('button', { name: 'Cancel' });
    expect(cancel).toHaveProperty('disabled', false);
    expect(cancel.getAttribute('aria-disabled')).toBe('true');

    // Running again, Pause acts; while the engine answers, the button keeps the focus.
    act(() => engine.emit('sync.status', status({ running: [run] })));
    expect(pause.getAttribute('aria-disabled')).toBe('false');
    await user.keyboard('{Enter}');
    expect(engine.argsOf('sync.pause')).toHaveLength(1);
    expect(await screen.findByRole('button', { name: 'Resume' })).toBe(document.activeElement);
  });
});
