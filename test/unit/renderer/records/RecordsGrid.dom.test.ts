// @vitest-environment happy-dom
/**
 * The records table as an ARIA grid (issue 20): the whole virtual table's size in aria-rowcount
 * and aria-colcount, each rendered row and cell placed by aria-rowindex and aria-colindex, one
 * tab stop moved by the keyboard model (gridFocus), kept rendered while it is scrolled out of the
 * virtualised window (pinnedRow), so the focus never falls to the page's body; Enter opens.
 */
import { createElement } from 'react';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RecordDetail, RecordRow } from '../../../../src/shared/ipc/areas/records';
import { RecordDetailPanel } from '../../../../src/renderer/src/features/records/RecordDetailPanel';
import {
  RecordsTable,
  ROW_HEIGHT,
} from '../../../../src/renderer/src/features/records/RecordsTable';
import { useDomTestEnvironment } from '../support/dom';
import { MODULE_ID, openWorkspace, PORTAL_ID, type Workspace } from '../support/recordsWorkspace';
import { sampleRow } from './sampleRow';
import { selectedPlaces } from './selectedPlaces';

useDomTestEnvironment();

const TOTAL = 1_000;
const COLUMNS = ['name', 'status', 'cf_cost'];
const row = (i: number): RecordRow =>
  sampleRow({ id: String(1100000000000 + i), name: `Dock #${i}` });

// The virtual list shows the rows that fit its box (clientHeight): give it 300 px, 10 rows.
const height = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'clientHeight');
beforeEach(() => {
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', {
    configurable: true,
    get: () => 300,
  });
});
afterEach(() => {
  if (height) Object.defineProperty(HTMLElement.prototype, 'clientHeight', height);
});

/** `total`: the list's size, or a function read at every query (a list that changes). */
async function showTable(
  total: number | (() => number) = TOTAL,
): Promise<{ ws: Workspace; grid: HTMLElement }> {
  const size = typeof total === 'number' ? () => total : total;
  const ws = await openWorkspace({
    overrides: {
      'records.query': ({ offset, limit }) => ({
        rows: Array.from({ length: Math.max(0, Math.min(limit, size() - offset)) }, (_, k) =>
          row(offset + k),
        ),
        total: size(),
      }),
    },
  });
  act(() => ws.store.setState({ layout: { visible: COLUMNS, widths: {} } }));
  render(ws.wrap(createElement(RecordsTable, { label: 'Assets records' })));
  const grid = screen.getByRole('grid', { name: 'Assets records' });
  if (size() > 0) await waitFor(() => expect(within(grid).getByText('Dock #0')).toBeTruthy());
  return { ws, grid };
}

/** The focused cell's place as the grid announces it: [aria-rowindex, aria-colindex]. */
function focusedPlace(): [number, number] {
  const cell = document.activeElement as HTMLElement;
  expect(cell.getAttribute('role')).toBe('gridcell');
  return [
    Number(cell.parentElement!.getAttribute('aria-rowindex')),
    Number(cell.getAttribute('aria-colindex')),
  ];
}

/** Tabs into the table: the one stop is its focused cell (the header's buttons are not stops). */
async function tabIntoBody(user: ReturnType<typeof userEvent.setup>): Promise<void> {
  await user.tab();
}

const tabStops = (grid: HTMLElement) => grid.querySelectorAll('[tabindex="0"]');

describe('the records grid', () => {
  it('tells the size of the whole virtual table and the place of every rendered cell', async () => {
    const { grid } = await showTable();
    expect(grid.getAttribute('aria-rowcount')).toBe(String(TOTAL + 1));
    expect(grid.getAttribute('aria-colcount')).toBe(String(COLUMNS.length));
    expect(grid.getAttribute('aria-readonly')).toBe('true');
    const rows = within(grid).getAllByRole('row');
    // The header and a screenful, never the thousand.
    expect(rows.length).toBeLessThan(30);
    expect(rows[0]!.getAttribute('aria-rowindex')).toBe('1');
    expect(
      within(rows[0]!)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Name', 'Status', 'Cost']);
    for (const r of rows.slice(1)) {
      const index = Number(r.getAttribute('aria-rowindex'));
      expect(within(r).getByText(`Dock #${index - 2}`)).toBeTruthy();
      expect(
        within(r)
          .getAllByRole('gridcell')
          .map((c) => c.getAttribute('aria-colindex')),
      ).toEqual(['1', '2', '3']);
    }
    // One tab stop for the whole table: the first cell; the grid itself is not one.
    expect(tabStops(grid)).toHaveLength(1);
    expect(tabStops(grid)[0]!.textContent).toContain('Dock #0');
    expect(grid.tabIndex).toBe(-1);
  });

  it('keeps the focus and the selection on rows that exist when a refresh shortens the list', async () => {
    const user = userEvent.setup();
    let total = TOTAL;
    const { ws, grid } = await showTable(() => total);
    await tabIntoBody(user);
    await user.keyboard('{Control>}{End}{/Control}');
    const body = grid.querySelector<HTMLElement>('.grid-body')!;
    act(() => {
      body.scrollTop = TOTAL * ROW_HEIGHT;
      fireEvent.scroll(body);
    });
    await waitFor(() => expect(focusedPlace()).toEqual([TOTAL + 1, 1]));
    await user.keyboard('{Shift>}{ArrowUp}{ArrowUp}{/Shift}');
    expect(selectedPlaces(ws.store.getState())).toEqual([[TOTAL - 3, TOTAL - 1]]);
    // A sync's reconciliation removed 900 records: the engine says records changed.
    total = 100;
    act(() => ws.store.getState().changed({ portalId: PORTAL_ID, moduleId: MODULE_ID }));
    await waitFor(() => expect(grid.getAttribute('aria-rowcount')).toBe('101'));
    // The selection is of records: the three picked are no longer in the list, so no longer
    // selected (counted, copied or edited).
    expect(await ws.store.getState().picked()).toEqual({ kind: 'rows', ids: [] });
    const state = ws.store.getState();
    expect(state.focused).toBe(99);
    expect(state.selection.anchor).toBe(99);
    // Enter opens the row the focus is on; Shift+Up selects from there, within the list.
    await user.keyboard('{Enter}');
    await waitFor(() => expect(ws.store.getState().detail?.recordId).toBe(String(1100000000099)));
    act(() => ws.store.getState().closeDetail());
    // Shift+Up would start from the row the selection started on, which left the list: said,
    // nothing selected. From the row the focus is on, it selects within the list.
    await user.keyboard('{Shift>}{ArrowUp}{/Shift}');
    expect(ws.store.getState().selectionNote).toMatch(/moved or left the list/);
    expect(selectedPlaces(ws.store.getState())).toEqual([]);
    await user.keyboard('{ArrowDown}{Shift>}{ArrowUp}{/Shift}');
    expect(selectedPlaces(ws.store.getState())).toEqual([[98, 99]]);
    expect(ws.store.getState().selectionNote).toBeNull();
  });

  it('names each column header by its label alone, and tells its resize keys', async () => {
    const { grid } = await showTable();
    // Exact names: the resize handle inside made them "Status Resize Status".
    const headers = ['Name', 'Status', 'Cost'].map((name) =>
      within(grid).getByRole('columnheader', { name }),
    );
    for (const header of headers) {
      expect(header.querySelector('[aria-keyshortcuts]')!.getAttribute('aria-keyshortcuts')).toBe(
        'Shift+ArrowLeft Shift+ArrowRight',
      );
    }
  });

  it('marks the sorted column alone with aria-sort', async () => {
    const { ws, grid } = await showTable();
    const sorted = () =>
      within(grid)
        .getAllByRole('columnheader')
        .filter((header) => header.hasAttribute('aria-sort'))
        .map((header) => [header.getAttribute('aria-colindex'), header.getAttribute('aria-sort')]);
    expect(sorted()).toEqual([]);
    act(() => ws.store.getState().setSort('status'));
    await waitFor(() => expect(sorted()).toEqual([['2', 'ascending']]));
    act(() => ws.store.getState().setSort('name'));
    await waitFor(() => expect(sorted()).toEqual([['1', 'ascending']]));
  });

  it('moves the one tab stop with the arrows, Home/End, Page Up/Down and Ctrl+Home/End', async () => {
    const user = userEvent.setup();
    const { ws, grid } = await showTable();
    await tabIntoBody(user);
    expect(focusedPlace()).toEqual([2, 1]);
    await user.keyboard('{ArrowRight}');
    expect(focusedPlace()).toEqual([2, 2]);
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(focusedPlace()).toEqual([4, 2]);
    await user.keyboard('{End}');
    expect(focusedPlace()).toEqual([4, 3]);
    await user.keyboard('{ArrowRight}');
    expect(focusedPlace()).toEqual([4, 3]);
    await user.keyboard('{Home}');
    expect(focusedPlace()).toEqual([4, 1]);
    await user.keyboard('{ArrowUp}{ArrowUp}');
    expect(focusedPlace()).toEqual([2, 1]);
    // A page is the rows on screen (10 in 300 px) less two of context: none skipped unseen.
    await user.keyboard('{PageDown}');
    expect(focusedPlace()).toEqual([2 + 8, 1]);
    await user.keyboard('{PageDown}');
    expect(focusedPlace()).toEqual([2 + 16, 1]);
    await user.keyboard('{PageUp}');
    await user.keyboard('{PageUp}');
    expect(focusedPlace()).toEqual([2, 1]);
    await user.keyboard('{Control>}{End}{/Control}');
    // The table scrolls to the end (as the browser does for the virtualiser's scrollToIndex).
    const body = grid.querySelector<HTMLElement>('.grid-body')!;
    act(() => {
      body.scrollTop = TOTAL * ROW_HEIGHT;
      fireEvent.scroll(body);
    });
    await waitFor(() => expect(focusedPlace()).toEqual([TOTAL + 1, 3]));
    expect(selectedPlaces(ws.store.getState())).toEqual([[TOTAL - 1, TOTAL - 1]]);
    expect(document.activeElement!.textContent).not.toContain('Dock');
    await user.keyboard('{Control>}{Home}{/Control}');
    await waitFor(() => expect(focusedPlace()).toEqual([2, 1]));
    // Ctrl+Home/End select where they land; Ctrl with an arrow moves on without selecting.
    expect(selectedPlaces(ws.store.getState())).toEqual([[0, 0]]);
    await user.keyboard('{Control>}{ArrowDown}{/Control}');
    expect(focusedPlace()).toEqual([3, 1]);
    expect(selectedPlaces(ws.store.getState())).toEqual([[0, 0]]);
    await user.keyboard('{ArrowUp}');
    expect(tabStops(grid)).toHaveLength(1);
    // Tab leaves the table from its one stop, Shift+Tab comes back to it.
    await user.tab();
    expect(grid.contains(document.activeElement)).toBe(false);
    await user.tab({ shift: true });
    expect(focusedPlace()).toEqual([2, 1]);
    // The store's focused row is the one the keyboard reached; arrows select it alone.
    await user.keyboard('{ArrowDown}');
    expect(ws.store.getState().focused).toBe(1);
    expect(selectedPlaces(ws.store.getState())).toEqual([[1, 1]]);
  });

  it('selects every row with Ctrl+A, from a cell or from the header', async () => {
    const user = userEvent.setup();
    const { ws } = await showTable();
    await tabIntoBody(user);
    await user.keyboard('{Control>}a{/Control}');
    expect(selectedPlaces(ws.store.getState())).toEqual([[0, TOTAL - 1]]);
    await user.keyboard('{ArrowDown}');
    expect(selectedPlaces(ws.store.getState())).toEqual([[1, 1]]);
    await user.keyboard('{ArrowUp}{ArrowUp}');
    expect(document.activeElement!.closest('[role="columnheader"]')).not.toBeNull();
    await user.keyboard('{Control>}a{/Control}');
    expect(selectedPlaces(ws.store.getState())).toEqual([[0, TOTAL - 1]]);
  });

  it('selects with Space and toggles with Ctrl+Space', async () => {
    const user = userEvent.setup();
    const { ws } = await showTable();
    const selected = () => selectedPlaces(ws.store.getState());
    await tabIntoBody(user);
    await user.keyboard('{ArrowDown}');
    expect(selected()).toEqual([[1, 1]]);
    // Space on the row the arrow selected keeps it selected.
    await user.keyboard(' ');
    expect(selected()).toEqual([[1, 1]]);
    // Rows apart: Ctrl+arrows move without selecting, Space adds.
    await user.keyboard('{Control>}{ArrowDown}{ArrowDown}{/Control}');
    await user.keyboard(' ');
    expect(selected()).toEqual([
      [1, 1],
      [3, 3],
    ]);
    await user.keyboard('{Control>} {/Control}');
    expect(selected()).toEqual([[1, 1]]);
    await user.keyboard('{Control>} {/Control}');
    expect(selected()).toEqual([
      [1, 1],
      [3, 3],
    ]);
  });

  it('keeps the focused cell rendered and focused when the table scrolls far away from it', async () => {
    const user = userEvent.setup();
    const { grid } = await showTable();
    await tabIntoBody(user);
    await user.keyboard('{ArrowDown}{ArrowRight}');
    const focused = document.activeElement;
    expect(focusedPlace()).toEqual([3, 2]);
    const body = grid.querySelector<HTMLElement>('.grid-body')!;
    act(() => {
      body.scrollTop = 600 * ROW_HEIGHT;
      fireEvent.scroll(body);
    });
    await waitFor(() => expect(within(grid).getByText('Dock #600')).toBeTruthy());
    // The window moved on, the focused row stayed: still in the page, still the tab stop.
    expect(document.activeElement).toBe(focused);
    expect(focusedPlace()).toEqual([3, 2]);
    expect(grid.querySelector('[aria-rowindex="3"]')).not.toBeNull();
    expect(grid.querySelector('[aria-rowindex="10"]')).toBeNull();
    // In row order in the page, as browse mode reads it: the pinned row before the window's.
    const order = [...grid.querySelectorAll('.grid-body [role="row"]')].map((r) =>
      Number(r.getAttribute('aria-rowindex')),
    );
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(tabStops(grid)).toHaveLength(1);
    // Moving on from it goes on from where it was, not from the screen.
    await user.keyboard('{ArrowDown}');
    await waitFor(() => expect(focusedPlace()).toEqual([4, 2]));
  });

  it('hands the focus from the grid to its tab stop, opens on Enter, follows a click', async () => {
    const user = userEvent.setup();
    const { ws, grid } = await showTable();
    act(() => grid.focus());
    expect(focusedPlace()).toEqual([2, 1]);
    await user.keyboard('{ArrowDown}{Enter}');
    expect(ws.store.getState().detail?.recordId).toBe(String(1100000000001));
    // A click places the stop at the cell clicked.
    await user.click(within(grid).getByText('Dock #4'));
    expect(focusedPlace()).toEqual([6, 1]);
    expect(tabStops(grid)).toHaveLength(1);
  });

  it('takes the focus back when the record panel closes from inside', async () => {
    const user = userEvent.setup();
    const ws = await openWorkspace({
      overrides: {
        'records.query': ({ offset, limit }) => ({
          rows: Array.from({ length: Math.max(0, Math.min(limit, 50 - offset)) }, (_, k) =>
            row(offset + k),
          ),
          total: 50,
        }),
        'records.get': ({ recordId }): RecordDetail => ({
          record: sampleRow({ id: recordId, name: 'Dock #2' }),
          trashedTime: null,
          layout: null,
          timeline: [],
          comments: [],
          commentsSyncedAt: null,
          timeZone: 'UTC',
        }),
        'records.viewed': () => [],
      },
    });
    act(() => ws.store.setState({ layout: { visible: COLUMNS, widths: {} } }));
    render(
      ws.wrap(
        createElement(
          'div',
          { className: 'records__main' },
          createElement(RecordsTable, { label: 'Assets records' }),
          createElement(RecordDetailPanel),
        ),
      ),
    );
    const grid = screen.getByRole('grid', { name: 'Assets records' });
    await waitFor(() => expect(within(grid).getByText('Dock #2')).toBeTruthy());
    await user.click(within(grid).getByText('Dock #2'));
    const close = await screen.findByRole('button', { name: 'Close details (Esc)' });
    // By its button: the table's focused cell (the record's row) has the focus again.
    await user.click(close);
    expect(screen.queryByTestId('record-detail')).toBeNull();
    expect(focusedPlace()).toEqual([4, 1]);
    // By Escape, pressed inside the panel.
    await user.keyboard('{Enter}');
    const panel = await screen.findByTestId('record-detail');
    act(() => panel.focus());
    await user.keyboard('{Escape}');
    expect(screen.queryByTestId('record-detail')).toBeNull();
    expect(focusedPlace()).toEqual([4, 1]);
  });

  it('reaches the header by ArrowUp: Left/Right along it, Enter sorts, Shift+arrows resize', async () => {
    const user = userEvent.setup();
    const { ws, grid } = await showTable();
    await tabIntoBody(user);
    await user.keyboard('{ArrowRight}{ArrowUp}');
    const header = () => document.activeElement!.closest('[role="columnheader"]')!;
    expect(header().getAttribute('aria-colindex')).toBe('2');
    expect(header().textContent).toContain('Status');
    // The header holds the one stop now: no cell does.
    expect(tabStops(grid)).toHaveLength(1);
    expect(grid.querySelectorAll('[role="gridcell"][tabindex="0"]')).toHaveLength(0);
    await user.keyboard('{ArrowUp}{PageUp}');
    expect(header().getAttribute('aria-colindex')).toBe('2');
    await user.keyboard('{ArrowRight}');
    expect(header().textContent).toContain('Cost');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(header().getAttribute('aria-sort')).toBe('ascending'));
    const width = () => parseFloat((header() as HTMLElement).style.width);
    const before = width();
    await user.keyboard('{Shift>}{ArrowRight}{ArrowRight}{/Shift}');
    expect(width()).toBe(before + 32);
    await user.keyboard('{Shift>}{ArrowLeft}{/Shift}');
    expect(width()).toBe(before + 16);
    expect(ws.store.getState().layout?.widths.cf_cost).toBe(before + 16);
    // Home/End along the header; ArrowDown back into the records, at the same column.
    await user.keyboard('{Home}');
    expect(header().textContent).toContain('Name');
    await user.keyboard('{End}{ArrowDown}');
    await waitFor(() => expect(focusedPlace()).toEqual([2, 3]));
  });

  it('gives the stop to the header while it has no rows', async () => {
    const user = userEvent.setup();
    const { grid } = await showTable(0);
    expect(grid.getAttribute('aria-rowcount')).toBe('1');
    expect(grid.tabIndex).toBe(-1);
    expect(tabStops(grid)).toHaveLength(1);
    await user.tab();
    expect(document.activeElement!.closest('[role="columnheader"]')?.textContent).toContain('Name');
    await user.keyboard('{ArrowDown}{ArrowRight}');
    expect(document.activeElement!.closest('[role="columnheader"]')?.textContent).toContain(
      'Status',
    );
  });
});
