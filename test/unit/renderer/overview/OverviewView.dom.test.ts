// @vitest-environment happy-dom
/**
 * The Overview: bars for modules and statuses are buttons that open the records workspace with
 * that module (and status) applied, by click or keyboard; the weekly chart gets the weeks' series;
 * a failed read says so next to the controls and keeps what was shown.
 */
import { createElement } from 'react';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { BackupsContext } from '../../../../src/renderer/src/features/backups/BackupsContext';
import { createBackupsStore } from '../../../../src/renderer/src/features/backups/backupsStore';
import { OverviewView } from '../../../../src/renderer/src/features/overview/OverviewView';
import { statusFilter } from '../../../../src/renderer/src/features/overview/overviewFormat';
import { REFRESH_AFTER_CHANGE_MS } from '../../../../src/renderer/src/features/overview/useOverview';
import type { PortalOverview } from '../../../../src/shared/ipc/areas/overview';
import { useDomTestEnvironment } from '../support/dom';
import { MODULE_ID, PORTAL_ID, openWorkspace } from '../support/recordsWorkspace';

useDomTestEnvironment();

/** uPlot draws on a canvas, which happy-dom lacks: a stand-in keeps what it was given. */
const plots = vi.hoisted(() => [] as { data: unknown }[]);
vi.mock('uplot', () => ({
  default: class {
    constructor(_options: unknown, data: unknown) {
      plots.push({ data });
    }
    destroy() {}
  },
}));
vi.mock('uplot/dist/uPlot.min.css', () => ({}));

const OVERVIEW: PortalOverview = {
  portalId: PORTAL_ID,
  portalName: 'Bluefin',
  timeZone: 'UTC',
  modules: [
    {
      moduleId: MODULE_ID,
      name: 'Assets',
      records: 1234,
      statuses: [
        { statusId: '2001', name: 'Open', color: '#2a64d6', records: 1000 },
        { statusId: '2003', name: 'Approved', color: '#1f8a4c', records: 230 },
        { statusId: null, name: 'No status', color: null, records: 4 },
      ],
    },
  ],
  weeks: [
    { start: '2026-11-09', created: 10, updated: 3 },
    { start: '2026-11-16', created: 0, updated: 7 },
  ],
  earlier: { created: 1224, updated: 1224 },
  later: { created: 0, updated: 0 },
  outbox: { pending: 2, sending: 0, failed: 1, conflict: 0, allPortals: 3 },
  budgets: [],
  lastBackup: { completedTime: '2026-11-20T09:12:00.000Z', stage: 'ready' },
  lastFailure: null,
  at: Date.parse('2026-11-22T10:00:00.000Z'),
};

async function renderOverview(answer: () => PortalOverview = () => OVERVIEW) {
  const workspace = await openWorkspace({ overrides: { 'overview.portal': answer } });
  const backups = createBackupsStore(workspace.engine.api);
  render(
    workspace.wrap(
      createElement(
        BackupsContext.Provider,
        { value: backups },
        createElement(OverviewView, { records: workspace.store }),
      ),
    ),
  );
  await screen.findByTestId('overview-modules');
  return workspace;
}

describe('OverviewView', () => {
  it('opens the records workspace on a status when its bar is chosen by keyboard', async () => {
    const workspace = await renderOverview();
    const statuses = screen.getByTestId(`overview-statuses-${MODULE_ID}`);
    const approved = within(statuses).getByRole('button', {
      name: 'Approved 230 records. Open the Assets with this status in Records.',
    });
    approved.focus();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(workspace.store.getState().filter).toBe(statusFilter('2003')));
    expect(workspace.store.getState().moduleId).toBe(MODULE_ID);
    expect(workspace.store.getState().draft.criteria).toHaveLength(1);
    await waitFor(() => expect(workspace.listedFilters().at(-1)).toBe(statusFilter('2003')));

    // "No status" opens the records whose status is empty.
    await userEvent.click(within(statuses).getByRole('button', { name: /^No status 4 records\./ }));
    await waitFor(() => expect(workspace.store.getState().filter).toBe(statusFilter(null)));
  });

  it('opens a module without a filter from its bar, and draws the weeks', async () => {
    const workspace = await renderOverview();
    act(() => workspace.store.getState().applyFilter(statusFilter('2001')));
    await userEvent.click(
      screen.getByRole('button', { name: 'Assets 1,234 records. Open them in Records.' }),
    );
    await waitFor(() => expect(workspace.store.getState().filter).toBeUndefined());
    expect(plots.at(-1)?.data).toEqual([
      [Date.parse('2026-11-09T00:00:00Z') / 1000, Date.parse('2026-11-16T00:00:00Z') / 1000],
      [10, 0],
      [3, 7],
    ]);
    expect(screen.getByTestId('weekly-summary').textContent).toContain('1,234 records created');
    expect(screen.getByTestId('overview-outbox').textContent).toContain('Refused by the service1');
  });

  it('says an endpoint the service blocks beside the rate budgets, as the Sync view does', async () => {
    const blockedUntil = Date.now() + 8 * 60_000;
    await renderOverview(() => ({
      ...OVERVIEW,
      budgets: [
        {
          key: `us GET /api/v3/portal/{portal_id}/entities portal=${PORTAL_ID}`,
          limit: 200,
          windowMs: 120_000,
          spent: 0,
          remaining: 0,
          nextSlotAt: null,
          blockedUntil,
          queued: 3,
          inFlight: 0,
          calls: { stepMs: 10_000, inWindow: Array<number>(24).fill(0), current: 0, previous: 0 },
        },
      ],
    }));
    const card = screen.getByRole('region', { name: 'Rate budgets in use' });
    expect(card.textContent).toContain(
      'GET /api/v3/portal/{portal_id}/entities is blocked by the service until',
    );
  });

  it("reads again once, 2 s after the portal's records or the outbox changed", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const workspace = await renderOverview();
    const reads = () => workspace.engine.argsOf('overview.portal').length;
    const before = reads();
    act(() => {
      workspace.engine.emit('records.changed', { portalId: PORTAL_ID, moduleId: MODULE_ID });
      workspace.engine.emit('records.changed', { portalId: '999', moduleId: null });
      workspace.engine.emit('records.changed', { portalId: PORTAL_ID, moduleId: null });
    });
    await act(() => vi.advanceTimersByTimeAsync(REFRESH_AFTER_CHANGE_MS - 1));
    expect(reads()).toBe(before);
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(reads()).toBe(before + 1);
    // Another portal's changes read nothing.
    act(() => workspace.engine.emit('records.changed', { portalId: '999', moduleId: null }));
    await act(() => vi.advanceTimersByTimeAsync(REFRESH_AFTER_CHANGE_MS * 2));
    expect(reads()).toBe(before + 1);
  });

  it("reads again after the portal's backups changed: the last backup's age follows a new one", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const workspace = await renderOverview();
    const reads = () => workspace.engine.argsOf('overview.portal').length;
    const before = reads();
    act(() => workspace.engine.emit('backups.changed', { backup: null, portalId: '999' }));
    await act(() => vi.advanceTimersByTimeAsync(REFRESH_AFTER_CHANGE_MS * 2));
    expect(reads()).toBe(before);
    act(() => workspace.engine.emit('backups.changed', { backup: null, portalId: PORTAL_ID }));
    await act(() => vi.advanceTimersByTimeAsync(REFRESH_AFTER_CHANGE_MS));
    expect(reads()).toBe(before + 1);
    // A change of unknown portal (null) may be this one's.
    act(() => workspace.engine.emit('backups.changed', { backup: null, portalId: null }));
    await act(() => vi.advanceTimersByTimeAsync(REFRESH_AFTER_CHANGE_MS));
    expect(reads()).toBe(before + 2);
  });

  it('reads a portal once at a time: changes while a reading is out make one more, after it', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let hold = false;
    const held: (() => void)[] = [];
    const workspace = await renderOverview(
      () =>
        (hold
          ? new Promise<PortalOverview>((resolve) => held.push(() => resolve(OVERVIEW)))
          : OVERVIEW) as unknown as PortalOverview,
    );
    const reads = () => workspace.engine.argsOf('overview.portal').length;
    const changed = async () => {
      act(() => workspace.engine.emit('records.changed', { portalId: PORTAL_ID, moduleId: null }));
      await act(() => vi.advanceTimersByTimeAsync(REFRESH_AFTER_CHANGE_MS));
    };
    hold = true;
    const before = reads();
    await changed();
    expect(reads()).toBe(before + 1);
    // A sync goes on storing records while that reading is out: nothing more is asked yet.
    await changed();
    await changed();
    await userEvent.click(screen.getByRole('button', { name: 'Refresh' }), {
      advanceTimers: vi.advanceTimersByTimeAsync,
    });
    expect(reads()).toBe(before + 1);
    // Once it is answered, one more reading; the person's Refresh says "Reading…" until it is.
    await act(async () => held.shift()?.());
    await waitFor(() => expect(reads()).toBe(before + 2));
    expect(screen.getByRole('button', { name: 'Reading…' })).toBeTruthy();
    await act(async () => held.shift()?.());
    await waitFor(() => expect(screen.getByRole('button', { name: 'Refresh' })).toBeTruthy());
    await act(() => vi.advanceTimersByTimeAsync(REFRESH_AFTER_CHANGE_MS * 2));
    expect(reads()).toBe(before + 2);
  });

  it('says a failed read next to the controls and keeps the overview shown', async () => {
    let fail = false;
    await renderOverview(() => {
      if (fail) throw new Error('The mirror is being migrated.');
      return OVERVIEW;
    });
    fail = true;
    await userEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The overview could not be read: The mirror is being migrated. What is shown was read before; choose Refresh to try again.',
    );
    expect(screen.getByTestId('overview-modules')).toBeTruthy();
  });
});
