// @vitest-environment happy-dom
/**
 * The toolbar's Export and Copy rows: Export sends the view on screen (filter, sort, the columns
 * shown, format and values), shows the engine's pushed progress with time left and Cancel, the end
 * in words, and the file offered (a download link in web mode, "Show in folder" on the desktop);
 * a refusal is shown beside it with the focus moved there. Copy puts the selected rows, header
 * first, on the clipboard as tab-separated text, reading rows the table has not loaded.
 */
import { createElement, type ReactNode } from 'react';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { createShellStore } from '../../../../src/renderer/src/app/shellStore';
import { ShellContext } from '../../../../src/renderer/src/app/ShellContext';
import { CopyRows } from '../../../../src/renderer/src/features/records/CopyRows';
import { ExportDialog } from '../../../../src/renderer/src/features/records/ExportDialog';
import { RecordsTable } from '../../../../src/renderer/src/features/records/RecordsTable';
import type { ExportProgress } from '../../../../src/shared/ipc/areas/recordsExport';
import type { RecordRow } from '../../../../src/shared/ipc/areas/records';
import { useDomTestEnvironment } from '../support/dom';
import { MODULE_ID, openWorkspace, PORTAL_ID, type Workspace } from '../support/recordsWorkspace';
import { readCsv } from '../../../support/readCsv';
import { sampleRow } from './sampleRow';

useDomTestEnvironment();

const progress = (patch: Partial<ExportProgress>): ExportProgress => ({
  exportId: '7',
  portalId: PORTAL_ID,
  moduleId: MODULE_ID,
  format: 'xlsx',
  fileName: 'portaldesk-Assets-2026-11-26T10-00-00Z.xlsx',
  state: 'running',
  rows: 0,
  total: 2000,
  etaSeconds: null,
  message: null,
  ...patch,
});

function withShell(ws: Workspace, mode: 'web' | 'desktop', node: ReactNode) {
  const shell = createShellStore(ws.engine.api, { connection: 'connected', online: true });
  shell.setState({
    info: {
      name: 'PortalDesk',
      version: '0',
      mode,
      dataDir: '/tmp',
      schemaVersion: 1,
      platform: 'linux',
    },
  });
  // Inside the workspace's own shell: this one decides the mode.
  return ws.wrap(createElement(ShellContext.Provider, { value: shell }, node));
}

describe('the records export dialog', () => {
  it('exports the view on screen, shows progress and time left, and cancels', async () => {
    const user = userEvent.setup();
    const ws = await openWorkspace({
      overrides: {
        'records.export': () => progress({}),
        'records.cancelExport': () =>
          progress({
            state: 'cancelled',
            rows: 500,
            message:
              'Export cancelled after 500 of 2,000 records. The partial file was deleted; nothing else changed.',
          }),
      },
    });
    const filter = JSON.stringify({
      criteria: [{ field_name: 'status', criteria_condition: 'is', value: ['2001'] }],
      pattern: '1',
    });
    act(() =>
      ws.store.setState({
        layout: { visible: ['name', 'cf_cost', 'status'], widths: {} },
        filter,
        sort: { field: 'cf_cost', descending: true },
      }),
    );
    render(withShell(ws, 'desktop', createElement(ExportDialog)));
    await user.click(screen.getByRole('button', { name: 'Export' }));
    const dialog = screen.getByRole('dialog', { name: 'Export' });
    expect(dialog.textContent).toContain('3 columns on screen, with your pending edits');
    await user.click(within(dialog).getByRole('radio', { name: /Excel workbook/ }));
    await user.click(within(dialog).getByRole('radio', { name: /Raw API values/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Export' }));
    expect(ws.engine.argsOf('records.export')).toEqual([
      {
        portalId: PORTAL_ID,
        moduleId: MODULE_ID,
        columns: ['name', 'cf_cost', 'status'],
        format: 'xlsx',
        values: 'raw',
        filter,
        sort: { field: 'cf_cost', descending: true },
      },
    ]);
    act(() => ws.engine.emit('records.exportProgress', progress({ rows: 500, etaSeconds: 3 })));
    const bar = await within(dialog).findByRole('progressbar');
    expect(bar.getAttribute('aria-valuenow')).toBe('25');
    expect(within(dialog).getByRole('status').textContent).toBe(
      '500 of 2,000 rows · about 3 s left',
    );
    // The options cannot change under a running export; the toolbar button shows how far it is.
    expect(within(dialog).getByRole('radio', { name: /CSV/ }).closest('fieldset')?.disabled).toBe(
      true,
    );
    expect(screen.getByRole('button', { name: 'Export 25%' })).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(ws.engine.argsOf('records.cancelExport')).toEqual([{ exportId: '7' }]);
    expect((await within(dialog).findByRole('status')).textContent).toMatch(
      /Export cancelled after 500 of 2,000 records\. The partial file was deleted/,
    );
    expect(within(dialog).queryByRole('progressbar')).toBeNull();
    expect(within(dialog).queryByRole('button', { name: 'Cancel' })).toBeNull();
  });

  it('offers a finished file as a download in web mode, shown in its folder on the desktop', async () => {
    const user = userEvent.setup();
    const done = progress({
      state: 'done',
      format: 'csv',
      fileName: 'portaldesk-Assets-2026-11-26T10-00-00Z.csv',
      rows: 2000,
      message: 'Exported 2,000 records to portaldesk-Assets-2026-11-26T10-00-00Z.csv.',
    });
    const ws = await openWorkspace({
      overrides: {
        'records.export': () => progress({ format: 'csv', fileName: done.fileName }),
        'records.exportLink': () => ({
          path: '/api/exports/file/abc',
          fileName: done.fileName,
          expiresAt: '2026-11-26T11:00:00.000Z',
        }),
        'records.showExport': () => ({ shown: true as const }),
      },
    });
    const view = render(withShell(ws, 'web', createElement(ExportDialog)));
    await user.click(screen.getByRole('button', { name: 'Export' }));
    await user.click(screen.getAllByRole('button', { name: 'Export' })[1]!);
    act(() => ws.engine.emit('records.exportProgress', done));
    const link = await screen.findByRole('link', { name: `Download ${done.fileName}` });
    expect(link.getAttribute('href')).toBe('/api/exports/file/abc');
    expect(link.getAttribute('download')).toBe(done.fileName);
    expect(screen.getByRole('status').textContent).toBe(done.message);
    expect(ws.engine.argsOf('records.exportLink')).toEqual([{ exportId: '7' }]);
    view.unmount();

    render(withShell(ws, 'desktop', createElement(ExportDialog)));
    await user.click(screen.getByRole('button', { name: 'Export' }));
    await user.click(screen.getAllByRole('button', { name: 'Export' })[1]!);
    act(() => ws.engine.emit('records.exportProgress', done));
    await user.click(await screen.findByRole('button', { name: 'Show in folder' }));
    expect(ws.engine.argsOf('records.showExport')).toEqual([{ exportId: '7' }]);
    expect(screen.queryByRole('link')).toBeNull();
  });

  it('shows the export the engine runs, and then its end, after the view was left and opened again', async () => {
    const user = userEvent.setup();
    let latest: ExportProgress | null = progress({ rows: 500, etaSeconds: 3 });
    const ws = await openWorkspace({
      overrides: {
        'records.latestExport': () => latest,
        'records.cancelExport': () => {
          latest = progress({
            state: 'cancelled',
            rows: 600,
            message:
              'Export cancelled after 600 of 2,000 records. The partial file was deleted; nothing else changed.',
          });
          return latest;
        },
      },
    });
    // The view was left mid-export (the dialog unmounted); coming back mounts a new one.
    const view = render(withShell(ws, 'desktop', createElement(ExportDialog)));
    await user.click(await screen.findByRole('button', { name: 'Export 25%' }));
    const dialog = screen.getByRole('dialog', { name: 'Export' });
    expect(within(dialog).getByRole('status').textContent).toBe(
      '500 of 2,000 rows · about 3 s left',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(ws.engine.argsOf('records.cancelExport')).toEqual([{ exportId: '7' }]);
    view.unmount();

    // Left again and come back: its end, in words, and a new export can start.
    render(withShell(ws, 'desktop', createElement(ExportDialog)));
    await user.click(screen.getByRole('button', { name: 'Export' }));
    expect((await screen.findByRole('status')).textContent).toMatch(
      /^Export cancelled after 600 of 2,000 records\./,
    );
    expect(screen.getAllByRole('button', { name: 'Export' })[1]!.hasAttribute('disabled')).toBe(
      false,
    );
  });

  it('shows a refusal beside the Export button, with the focus on it', async () => {
    const user = userEvent.setup();
    const ws = await openWorkspace({
      overrides: {
        'records.export': () => {
          throw new Error(
            'An export is running (portaldesk-Assets-x.csv). Nothing new was started; wait for it or cancel it.',
          );
        },
      },
    });
    render(withShell(ws, 'web', createElement(ExportDialog)));
    await user.click(screen.getByRole('button', { name: 'Export' }));
    await user.click(screen.getAllByRole('button', { name: 'Export' })[1]!);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toMatch(/An export is running .* wait for it or cancel it\./);
    await waitFor(() => expect(document.activeElement).toBe(alert));
    // Values as shown: the table's own locale goes with the request.
    expect(ws.engine.argsOf('records.export')[0]).toMatchObject({
      values: 'shown',
      format: 'csv',
      locale: new Intl.NumberFormat().resolvedOptions().locale,
    });
  });
});

const row = (i: number): RecordRow =>
  sampleRow({
    id: String(1100000000000 + i),
    name: i === 2 ? '=cmd|"/c calc"!A1' : `Dock\t#${i}`,
    custom: { cf_cost: { currency_code: 'EUR', formatted_amount: `EUR ${i}`, amount: -i } },
  });

describe('copying selected rows', () => {
  it('puts the header and the selected rows, as shown, on the clipboard as tab-separated text', async () => {
    const height = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'clientHeight');
    Object.defineProperty(HTMLElement.prototype, 'clientHeight', {
      configurable: true,
      get: () => 300,
    });
    try {
      const user = userEvent.setup();
      const TOTAL = 1500;
      const ws = await openWorkspace({
        overrides: {
          'records.query': ({ offset, limit }) => ({
            rows: Array.from({ length: Math.max(0, Math.min(limit, TOTAL - offset)) }, (_, k) =>
              row(offset + k),
            ),
            total: TOTAL,
          }),
        },
      });
      act(() => ws.store.setState({ layout: { visible: ['name', 'cf_cost'], widths: {} } }));
      render(
        withShell(
          ws,
          'web',
          createElement(
            'div',
            null,
            createElement(CopyRows),
            createElement(RecordsTable, { label: 'Assets records' }),
          ),
        ),
      );
      expect(screen.getByRole('button', { name: 'Copy rows' }).hasAttribute('disabled')).toBe(true);
      const grid = screen.getByRole('grid');
      await waitFor(() => expect(screen.getAllByRole('row').length).toBeGreaterThan(3));
      // Rows 1 and 2 by click and Shift+click, then Ctrl+C in the table.
      await user.click(screen.getAllByRole('row')[2]!);
      await user.keyboard('{Shift>}{ArrowDown}{/Shift}');
      grid.focus();
      await user.keyboard('{Control>}c{/Control}');
      await screen.findByText(/Copied 2 rows with the header/);
      const pasted = readCsv(await navigator.clipboard.readText(), '\t');
      expect(pasted).toEqual([
        ['Name', 'Cost'],
        ['Dock\t#1', expect.stringMatching(/^-EUR\s1\.00$|^-€|EUR/)],
        [`'=cmd|"/c calc"!A1`, expect.stringMatching(/EUR/)],
      ]);
      // A negative amount is a number, not a formula: never defused.
      expect(pasted[1]![1]!.startsWith("'")).toBe(false);

      // Everything (Ctrl+A): rows the table never loaded are read in windows; the button copies.
      await user.keyboard('{Control>}a{/Control}');
      await user.click(screen.getByRole('button', { name: 'Copy rows' }));
      await screen.findByText(/Copied 1,500 rows with the header/);
      const all = readCsv(await navigator.clipboard.readText(), '\t');
      expect(all).toHaveLength(TOTAL + 1);
      expect(all.slice(1).map((cells) => cells[0])).toEqual(
        Array.from({ length: TOTAL }, (_, i) => (i === 2 ? `'=cmd|"/c calc"!A1` : `Dock\t#${i}`)),
      );
      // Another sort (or filter, or module) is another list: the selection and the note go.
      act(() => ws.store.getState().setSort('name'));
      await waitFor(() => expect(screen.queryByText(/Copied 1,500 rows/)).toBeNull());
      expect(screen.getByRole('button', { name: 'Copy rows' }).hasAttribute('disabled')).toBe(true);
    } finally {
      if (height) Object.defineProperty(HTMLElement.prototype, 'clientHeight', height);
    }
  });
});
