// @vitest-environment happy-dom
/**
 * A module with no records in the mirror: while a sync pulls it, its list shows the sync's
 * progress (pushed `sync.status` events, live) instead of "run a sync"; a sync that found none
 * says the service has none; a failed one says why and offers to sync again; only a module never
 * synced offers a first sync (and only when its account is signed in).
 */
import { createElement } from 'react';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ShellContext } from '../../../../src/renderer/src/app/ShellContext';
import { createShellStore } from '../../../../src/renderer/src/app/shellStore';
import { describe, expect, it } from 'vitest';
import { RecordsView } from '../../../../src/renderer/src/features/records/RecordsView';
import { SyncContext } from '../../../../src/renderer/src/features/sync/SyncContext';
import { createSyncStore } from '../../../../src/renderer/src/features/sync/syncStore';
import type { RecordRow, RecordsModule } from '../../../../src/shared/ipc/areas/records';
import { ApiContext } from '../../../../src/renderer/src/bridge/ApiContext';
import { RecordsContext } from '../../../../src/renderer/src/features/records/RecordsContext';
import { createRecordsStore } from '../../../../src/renderer/src/features/records/recordsStore';
import type { SyncProgress, SyncRunEntry, SyncStatus } from '../../../../src/shared/ipc/areas/sync';
import { useDomTestEnvironment } from '../support/dom';
import { fakeEngine, type FakeHandlers } from '../support/fakeEngine';
import { COLUMNS } from '../support/recordsColumns';
import { MODULE_ID, openWorkspace, PORTAL_ID } from '../support/recordsWorkspace';
import { sampleRow } from './sampleRow';

useDomTestEnvironment();

const ACCOUNT = '1';

function status(parts: Partial<SyncStatus> = {}): SyncStatus {
  return {
    paused: false,
    online: true,
    accounts: [{ accountId: ACCOUNT, dc: 'us', label: 'Admin' }],
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

const run = (parts: Partial<SyncRunEntry> = {}): SyncRunEntry => ({
  runId: 'sync-1',
  accountId: ACCOUNT,
  dc: 'us',
  startedAt: Date.now() - 60_000,
  endedAt: null,
  state: 'running',
  message: null,
  calls: 3,
  records: 0,
  outcomes: [],
  ...parts,
});

const row = (parts: Partial<SyncProgress>): SyncProgress => ({
  runId: 'sync-1',
  accountId: ACCOUNT,
  dc: 'us',
  portalId: PORTAL_ID,
  moduleId: MODULE_ID,
  module: 'Assets',
  phase: 'records',
  done: 0,
  total: null,
  calls: 1,
  skipped: 0,
  etaMs: null,
  message: null,
  at: Date.now(),
  ...parts,
});

/** The records view over a module of no records, beside the real sync store. */
async function emptyModule(first: SyncStatus, overrides: FakeHandlers = {}) {
  const listed: { rows: RecordRow[]; total: number } = { rows: [], total: 0 };
  const ws = await openWorkspace({
    overrides: {
      'sync.status': () => first,
      'records.query': () => listed,
      ...overrides,
    },
  });
  // As main.tsx wires them: the engine's pushed events reach both stores.
  ws.engine.api.on('records.changed', ws.store.getState().changed);
  const sync = createSyncStore(ws.engine.api);
  await act(() => sync.getState().load());
  render(createElement(SyncContext.Provider, { value: sync }, ws.wrap(createElement(RecordsView))));
  return { ws, listed, push: (s: SyncStatus) => act(() => ws.engine.emit('sync.status', s)) };
}

const note = () => screen.getByTestId('module-sync');

describe('an empty module while a sync runs', () => {
  it('shows the first sync’s progress live, then that the service has none', async () => {
    const { push } = await emptyModule(
      status({
        running: [run()],
        progress: [row({ portalId: null, moduleId: null, module: null, phase: 'portals' })],
      }),
    );
    expect((await screen.findByTestId('module-sync')).textContent).toContain(
      'A sync of this portal is running; it has not reached Assets yet',
    );
    expect(note().textContent).toContain('Listing portals…');
    expect(within(note()).getByRole('progressbar').getAttribute('aria-valuenow')).toBeNull();

    await push(
      status({
        running: [run()],
        progress: [row({ moduleId: null, module: null, phase: 'metadata', total: 1, done: 0 })],
      }),
    );
    expect(note().textContent).toContain('Reading modules, layouts and fields…');

    await push(
      status({
        running: [run()],
        progress: [row({ done: 60, total: 500, etaMs: 95_000 })],
      }),
    );
    expect(note().textContent).toContain('Pulling Assets from the service…');
    expect(note().textContent).toContain('60 of 500 records so far · Pulling records · 12%');
    expect(note().textContent).toContain('about 1 min 35 s left');
    const bar = within(note()).getByRole('progressbar', { name: 'Assets: Pulling records' });
    expect(bar.getAttribute('aria-valuenow')).toBe('12');

    await push(
      status({ paused: true, running: [run()], progress: [row({ done: 60, total: 500 })] }),
    );
    expect(note().textContent).toContain('Pulling Assets is paused');
    expect(note().textContent).toContain('Resume the sync in the Sync section');

    // The module's pull ends with no record: the service has none.
    await push(
      status({
        running: [run()],
        progress: [row({ phase: 'done', done: 0, total: 0 })],
      }),
    );
    expect(note().textContent).toContain(
      'The service has no Assets: the sync just now found none.',
    );
    expect(document.body.textContent).not.toMatch(/run a sync|not been synced/i);
    expect(screen.queryByRole('button', { name: /Sync this portal/ })).toBeNull();
  });

  it('gives way to the records as soon as they arrive', async () => {
    const { ws, listed, push } = await emptyModule(
      status({ running: [run()], progress: [row({ done: 0, total: 2 })] }),
    );
    await screen.findByText(/0 of 2 records so far/);
    listed.rows = [sampleRow(), sampleRow({ id: '1100000000002', name: 'Dell Latitude' })];
    listed.total = 2;
    await push(status({ running: [run()], progress: [row({ done: 2, total: 2 })] }));
    await act(() =>
      ws.engine.emit('records.changed', { portalId: PORTAL_ID, moduleId: MODULE_ID }),
    );
    expect(await screen.findByText('2 records')).toBeTruthy();
    expect(screen.queryByTestId('module-sync')).toBeNull();
  });
});

describe('an empty module when no sync runs', () => {
  it('after a failed pull: why, and "sync again" for this portal; a refusal shows beside it', async () => {
    const user = userEvent.setup();
    let refuse = true;
    const { ws } = await emptyModule(
      status({
        log: [
          run({
            endedAt: Date.now() - 5 * 60_000,
            state: 'failed',
            outcomes: [
              {
                portalId: PORTAL_ID,
                moduleId: MODULE_ID,
                ok: false,
                message: 'The service answered 500 three times.',
              },
              { portalId: PORTAL_ID, moduleId: null, ok: true, message: null },
            ],
          }),
        ],
      }),
      {
        'sync.start': () => {
          if (refuse) throw new Error('PortalDesk is set to work offline, so nothing was synced.');
          return status({ running: [run({ runId: 'sync-2' })] });
        },
      },
    );
    expect((await screen.findByTestId('module-sync')).textContent).toContain(
      'Assets could not be pulled (5 min ago): The service answered 500 three times.',
    );
    await user.click(screen.getByRole('button', { name: 'Sync this portal again' }));
    expect((await within(note()).findByRole('alert')).textContent).toContain('work offline');
    refuse = false;
    await user.click(screen.getByRole('button', { name: 'Sync this portal again' }));
    await waitFor(() => expect(ws.engine.argsOf('sync.start')).toHaveLength(2));
    expect(ws.engine.argsOf('sync.start')[1]).toEqual({ accountId: ACCOUNT, portalId: PORTAL_ID });
    await waitFor(() => expect(within(note()).queryByRole('alert')).toBeNull());
  });

  it('never synced: offers the first sync of its portal, with the portal and its account', async () => {
    const user = userEvent.setup();
    const { ws } = await emptyModule(status(), {
      'sync.start': () => status({ running: [run()] }),
    });
    expect((await screen.findByTestId('module-sync')).textContent).toContain(
      'No Assets in the mirror yet: this module has not been synced.',
    );
    await user.click(screen.getByRole('button', { name: 'Sync this portal' }));
    expect(ws.engine.argsOf('sync.start')).toEqual([{ accountId: ACCOUNT, portalId: PORTAL_ID }]);
  });

  it('never synced and signed out: says to sign in, offers no sync that would be refused', async () => {
    await emptyModule(status({ accounts: [] }));
    expect((await screen.findByTestId('module-sync')).textContent).toContain(
      "The portal's account (1) is signed out: sign in to it to sync this portal.",
    );
    expect(screen.queryByRole('button', { name: /Sync this portal/ })).toBeNull();
  });
});

describe('a portal whose first sync has not brought its modules yet', () => {
  it('says what the sync is doing, then opens the first module it brings, with its progress', async () => {
    let modules: RecordsModule[] = [];
    const engine = fakeEngine({
      'records.portals': () => [
        {
          id: PORTAL_ID,
          accountId: ACCOUNT,
          dc: 'us',
          name: 'Bluefin',
          orgName: null,
          timeZone: 'UTC',
          isDefault: true,
        },
      ],
      'records.modules': () => modules,
      'records.columns': () => COLUMNS,
      'records.recent': () => [],
      'records.savedFilters': () => [],
      'records.query': () => ({ rows: [], total: 0 }),
      'sync.status': () =>
        status({
          running: [run()],
          progress: [row({ moduleId: null, module: null, phase: 'metadata' })],
        }),
    });
    const store = createRecordsStore(engine.api);
    engine.api.on('records.changed', store.getState().changed);
    const sync = createSyncStore(engine.api);
    await act(() => Promise.all([store.getState().load(), sync.getState().load()]));
    render(
      createElement(
        ShellContext.Provider,
        { value: createShellStore(engine.api, { connection: 'connected', online: true }) },
        createElement(
          SyncContext.Provider,
          { value: sync },
          createElement(
            RecordsContext.Provider,
            { value: store },
            createElement(ApiContext.Provider, { value: engine.api }, createElement(RecordsView)),
          ),
        ),
      ),
    );
    const note = await screen.findByTestId('portal-sync');
    expect(note.textContent).toContain('The first sync of this portal is running');
    expect(note.textContent).toContain('Reading modules, layouts and fields…');

    // The sync stores the modules and starts on the records of one: the view follows.
    modules = [
      {
        id: MODULE_ID,
        apiName: 'assets',
        singularName: 'Asset',
        pluralName: 'Assets',
        isActive: true,
        builtIn: false,
        records: 0,
      },
    ];
    await act(() =>
      engine.emit(
        'sync.status',
        status({ running: [run()], progress: [row({ done: 0, total: 300 })] }),
      ),
    );
    await act(() => engine.emit('records.changed', { portalId: PORTAL_ID, moduleId: MODULE_ID }));
    const pulling = await screen.findByTestId('module-sync', {}, { timeout: 3000 });
    expect(pulling.textContent).toContain('Pulling Assets from the service…');
    expect(pulling.textContent).toContain('0 of 300 records so far');
    expect(store.getState().moduleId).toBe(MODULE_ID);
  });
});
