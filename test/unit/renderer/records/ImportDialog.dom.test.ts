// @vitest-environment happy-dom
/**
 * The toolbar's Import: a chosen file goes to the engine in pieces, its columns are shown with
 * their samples and the fields they were matched to (each editable, or ignored), the check is
 * asked with the mapping and mode, its counts and failing rows (row, column, reason) are shown
 * and paged, nothing is queued until "Queue" is pressed; a refusal is shown beside the control
 * that caused it, with the focus moved there.
 */
import { createElement } from 'react';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ImportDialog } from '../../../../src/renderer/src/features/records/ImportDialog';
import {
  IMPORT_CHUNK_BYTES,
  type ImportFailure,
  type ImportFile,
  type ImportProgress,
} from '../../../../src/shared/ipc/areas/recordsImport';
import { useDomTestEnvironment } from '../support/dom';
import {
  MODULE_ID,
  openWorkspace,
  OTHER_MODULE_ID,
  PORTAL_ID,
  twoModules,
} from '../support/recordsWorkspace';

useDomTestEnvironment();

const IMPORT_ID = '0123456789abcdef';
const UPLOAD_ID = 'fedcba9876543210';

const FILE: ImportFile = {
  importId: IMPORT_ID,
  portalId: PORTAL_ID,
  moduleId: MODULE_ID,
  fileName: 'assets.csv',
  format: 'csv',
  columns: [
    { header: 'ID', sample: ['101', '102'], target: 'id' },
    { header: 'Name', sample: ['Laptop', 'Desk'], target: 'name' },
    { header: 'Cost', sample: ['USD 12.50', 'lots'], target: 'cf_cost' },
    { header: 'Remarks', sample: ['x', ''], target: null },
  ],
  fields: [
    { key: 'name', label: 'Name', type: 'name' },
    { key: 'cf_cost', label: 'Cost', type: 'currency' },
    { key: 'cf_serial', label: 'Serial', type: 'single_line' },
  ],
  matchFields: ['id', 'name', 'cf_serial'],
};

const progress = (patch: Partial<ImportProgress>): ImportProgress => ({
  importId: IMPORT_ID,
  phase: 'checking',
  rows: 0,
  ready: 0,
  failing: 0,
  unchanged: 0,
  total: null,
  message: null,
  ...patch,
});

const FAILURES: ImportFailure[] = Array.from({ length: 25 }, (_, i) => ({
  row: i + 3,
  column: 'Cost',
  reason: `"lots ${i}" is not an amount (such as USD 12.50).`,
}));

describe('the records import dialog', () => {
  it('uploads, maps, checks, lists failing rows a page at a time, and queues only on confirm', async () => {
    const user = userEvent.setup();
    const ws = await openWorkspace({
      overrides: {
        'records.importUpload': ({ chunk }) => ({
          uploadId: UPLOAD_ID,
          bytes: atob(chunk).length,
        }),
        'records.importOpen': () => FILE,
        'records.importCheck': () => progress({}),
        'records.importFailures': ({ offset, limit }) => ({
          failures: FAILURES.slice(offset, offset + limit),
          total: FAILURES.length,
        }),
        'records.importConfirm': () => progress({ phase: 'queuing', total: 70 }),
      },
    });
    render(ws.wrap(createElement(ImportDialog)));
    await user.click(screen.getByRole('button', { name: 'Import' }));
    const dialog = screen.getByRole('dialog', { name: 'Import' });
    const text = 'ID,Name,Cost,Remarks\r\n101,Laptop,USD 12.50,x\r\n';
    await user.upload(
      within(dialog).getByLabelText('File'),
      new File([text], 'assets.csv', { type: 'text/csv' }),
    );
    await waitFor(() =>
      expect(within(dialog).getByRole('table', { name: /assets\.csv/ })).toBeTruthy(),
    );
    // The file went whole, base64, in one piece (it is smaller than a piece).
    expect(ws.engine.argsOf('records.importUpload')).toEqual([
      { fileName: 'assets.csv', offset: 0, chunk: btoa(text), last: true },
    ]);
    expect(ws.engine.argsOf('records.importOpen')[0]).toMatchObject({
      portalId: PORTAL_ID,
      moduleId: MODULE_ID,
      uploadId: UPLOAD_ID,
    });
    const select = (column: string) =>
      within(dialog).getByRole('combobox', {
        name: `Field for column ${column}`,
      }) as HTMLSelectElement;
    expect(select('Name').value).toBe('name');
    expect(select('Remarks').value).toBe('');
    expect(within(dialog).getByRole('row', { name: /Cost/ }).textContent).toContain(
      'USD 12.50 · lots',
    );
    // A column mapped by hand; the ID column matches records (update is chosen for a file with one).
    await user.selectOptions(select('Remarks'), 'Serial');
    expect(
      (within(dialog).getByRole('radio', { name: /Update existing records/ }) as HTMLInputElement)
        .checked,
    ).toBe(true);
    await user.click(within(dialog).getByRole('button', { name: 'Check rows' }));
    expect(ws.engine.argsOf('records.importCheck')).toEqual([
      {
        importId: IMPORT_ID,
        targets: ['id', 'name', 'cf_cost', 'cf_serial'],
        mode: 'update',
        matchBy: 'id',
      },
    ]);
    act(() =>
      ws.engine.emit('records.importProgress', progress({ rows: 40, ready: 30, failing: 10 })),
    );
    expect(within(dialog).getByRole('status').textContent).toBe(
      '40 rows read: 30 ready, 10 failing, 0 unchanged',
    );
    expect(within(dialog).queryByRole('button', { name: /^Queue/ })).toBeNull();
    act(() =>
      ws.engine.emit(
        'records.importProgress',
        progress({
          phase: 'checked',
          rows: 100,
          ready: 70,
          failing: 25,
          unchanged: 5,
          message:
            '70 rows ready, 25 rows failing, 5 rows unchanged. Nothing is queued until you confirm.',
        }),
      ),
    );
    const failures = await within(dialog).findByRole('table', {
      name: 'Rows that fail (not queued)',
    });
    const rows = () => within(failures).getAllByRole('row').slice(1);
    expect(rows()).toHaveLength(20);
    expect(rows()[0]!.textContent).toBe('3Cost"lots 0" is not an amount (such as USD 12.50).');
    expect(within(dialog).getByText('Page 1 of 2')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(rows()).toHaveLength(5));
    expect(ws.engine.argsOf('records.importFailures').at(-1)).toEqual({
      importId: IMPORT_ID,
      offset: 20,
      limit: 20,
    });
    // Nothing was queued by the check; the Queue button does it.
    expect(ws.engine.argsOf('records.importConfirm')).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Queue 70 rows' }));
    expect(ws.engine.argsOf('records.importConfirm')).toEqual([{ importId: IMPORT_ID }]);
    act(() =>
      ws.engine.emit(
        'records.importProgress',
        progress({
          phase: 'queued',
          rows: 100,
          ready: 70,
          failing: 25,
          unchanged: 5,
          total: 70,
          message: 'Queued 70 rows in the Outbox; 25 rows failing, 5 rows unchanged (not queued).',
        }),
      ),
    );
    await waitFor(() =>
      expect(within(dialog).getByRole('status').textContent).toMatch(
        /^Queued 70 rows in the Outbox/,
      ),
    );
  });

  it('says beside a column why its header was not matched, until it is mapped by hand', async () => {
    const user = userEvent.setup();
    const note =
      'Not matched: more than one column, in the file or in this module, is named like "Project". Choose the field this column fills, or ignore it.';
    const ws = await openWorkspace({
      overrides: {
        'records.importUpload': ({ chunk }) => ({ uploadId: UPLOAD_ID, bytes: atob(chunk).length }),
        'records.importOpen': () => ({
          ...FILE,
          columns: [
            { header: 'Project', sample: ['Warehouse'], target: null, note },
            { header: 'Project', sample: ['Own 1'], target: null, note },
          ],
          fields: [...FILE.fields, { key: 'cf_project', label: 'Project', type: 'single_line' }],
        }),
      },
    });
    render(ws.wrap(createElement(ImportDialog)));
    await user.click(screen.getByRole('button', { name: 'Import' }));
    const dialog = screen.getByRole('dialog', { name: 'Import' });
    await user.upload(
      within(dialog).getByLabelText('File'),
      new File(['Project,Project\r\n'], 'assets.csv', { type: 'text/csv' }),
    );
    const selects = await within(dialog).findAllByRole('combobox', {
      name: 'Field for column Project',
    });
    expect(selects.map((s) => s.getAttribute('aria-describedby'))).toEqual([
      'records-import-note-0',
      'records-import-note-1',
    ]);
    expect(within(dialog).getAllByText(note)).toHaveLength(2);
    await user.selectOptions(selects[1]!, 'Project');
    expect(within(dialog).getAllByText(note)).toHaveLength(1);
    expect(selects[1]!.getAttribute('aria-describedby')).toBeNull();
  });

  it('tells apart two fields of one label in the mapping and in Match by', async () => {
    const user = userEvent.setup();
    const ws = await openWorkspace({
      overrides: {
        'records.importUpload': ({ chunk }) => ({ uploadId: UPLOAD_ID, bytes: atob(chunk).length }),
        'records.importOpen': () => ({
          ...FILE,
          fields: [...FILE.fields, { key: 'cf_serial_2', label: 'Serial', type: 'single_line' }],
          matchFields: ['id', 'cf_serial', 'cf_serial_2'],
        }),
      },
    });
    render(ws.wrap(createElement(ImportDialog)));
    await user.click(screen.getByRole('button', { name: 'Import' }));
    const dialog = screen.getByRole('dialog', { name: 'Import' });
    await user.upload(
      within(dialog).getByLabelText('File'),
      new File(['ID\r\n'], 'assets.csv', { type: 'text/csv' }),
    );
    const mapping = await within(dialog).findByRole('combobox', {
      name: 'Field for column Remarks',
    });
    const texts = (select: HTMLElement) =>
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent);
    expect(texts(mapping)).toEqual([
      'Ignore this column',
      'ID (matches records)',
      'Name',
      'Cost',
      'Serial (cf_serial)',
      'Serial (cf_serial_2)',
    ]);
    expect(texts(within(dialog).getByRole('combobox', { name: 'Match records by' }))).toEqual([
      'ID',
      'Serial (cf_serial)',
      'Serial (cf_serial_2)',
    ]);
  });

  it('sends a file larger than a piece in pieces, each saying where in the file it starts', async () => {
    const user = userEvent.setup();
    let received = 0;
    const ws = await openWorkspace({
      overrides: {
        'records.importUpload': ({ chunk }) => {
          received += atob(chunk).length;
          return { uploadId: UPLOAD_ID, bytes: received };
        },
        'records.importOpen': () => FILE,
      },
    });
    render(ws.wrap(createElement(ImportDialog)));
    await user.click(screen.getByRole('button', { name: 'Import' }));
    const dialog = screen.getByRole('dialog', { name: 'Import' });
    const size = 2 * IMPORT_CHUNK_BYTES + 10;
    await user.upload(
      within(dialog).getByLabelText('File'),
      new File([new Uint8Array(size).fill(65)], 'assets.csv', { type: 'text/csv' }),
    );
    await within(dialog).findByRole('table');
    expect(
      ws.engine
        .argsOf('records.importUpload')
        .map(({ uploadId, offset, chunk, last }) => [uploadId, offset, atob(chunk).length, last]),
    ).toEqual([
      [undefined, 0, IMPORT_CHUNK_BYTES, false],
      [UPLOAD_ID, IMPORT_CHUNK_BYTES, IMPORT_CHUNK_BYTES, false],
      [UPLOAD_ID, 2 * IMPORT_CHUNK_BYTES, 10, true],
    ]);
  });

  it('stops sending a file when the workspace is left, and opens nothing', async () => {
    const user = userEvent.setup();
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let received = 0;
    const ws = await openWorkspace({
      overrides: {
        'records.importUpload': async ({ chunk }) => {
          await held;
          received += atob(chunk).length;
          return { uploadId: UPLOAD_ID, bytes: received };
        },
        'records.importOpen': () => FILE,
      },
    });
    const view = render(ws.wrap(createElement(ImportDialog)));
    await user.click(screen.getByRole('button', { name: 'Import' }));
    const dialog = screen.getByRole('dialog', { name: 'Import' });
    await user.upload(
      within(dialog).getByLabelText('File'),
      new File([new Uint8Array(3 * IMPORT_CHUNK_BYTES).fill(65)], 'assets.csv', {
        type: 'text/csv',
      }),
    );
    await waitFor(() => expect(ws.engine.argsOf('records.importUpload')).toHaveLength(1));
    view.unmount();
    await act(async () => {
      release();
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
    // The piece under way ends; no other is sent, and nothing is opened in the engine.
    expect(ws.engine.argsOf('records.importUpload')).toHaveLength(1);
    expect(ws.engine.argsOf('records.importOpen')).toEqual([]);
  });

  it('starts empty for another module, the file opened for the one before dropped in the engine', async () => {
    const user = userEvent.setup();
    const ws = await openWorkspace({
      overrides: {
        'records.modules': twoModules,
        'records.importUpload': ({ chunk }) => ({ uploadId: UPLOAD_ID, bytes: atob(chunk).length }),
        'records.importOpen': () => FILE,
        'records.importCancel': () => progress({ phase: 'cancelled' }),
      },
    });
    render(ws.wrap(createElement(ImportDialog)));
    await user.click(screen.getByRole('button', { name: 'Import' }));
    const dialog = screen.getByRole('dialog', { name: 'Import' });
    await user.upload(
      within(dialog).getByLabelText('File'),
      new File(['ID,Name\r\n101,Laptop\r\n'], 'assets.csv', { type: 'text/csv' }),
    );
    await within(dialog).findByRole('table');
    await act(() => ws.store.getState().selectModule(OTHER_MODULE_ID));
    await waitFor(() =>
      expect(ws.engine.argsOf('records.importCancel')).toEqual([{ importId: IMPORT_ID }]),
    );
    expect(screen.queryByRole('table', { name: /assets\.csv/ })).toBeNull();
  });

  it("shows a check's end pushed before the check's own answer arrived", async () => {
    const user = userEvent.setup();
    let push: (progress: ImportProgress) => void = () => undefined;
    const ws = await openWorkspace({
      overrides: {
        'records.importUpload': () => ({ uploadId: UPLOAD_ID, bytes: 4 }),
        'records.importOpen': () => FILE,
        'records.importCheck': () => {
          // A small file: checked before the answer (which says "checking") is sent.
          push(progress({ phase: 'checked', rows: 2, ready: 2, message: '2 rows ready.' }));
          return progress({});
        },
        'records.importFailures': () => ({ failures: [], total: 0 }),
        'records.importCancel': () => progress({ phase: 'checked' }),
      },
    });
    push = (p) => ws.engine.emit('records.importProgress', p);
    render(ws.wrap(createElement(ImportDialog)));
    await user.click(screen.getByRole('button', { name: 'Import' }));
    const dialog = screen.getByRole('dialog', { name: 'Import' });
    await user.upload(within(dialog).getByLabelText('File'), new File(['a,b'], 'a.csv'));
    await within(dialog).findByRole('table');
    await user.click(within(dialog).getByRole('button', { name: 'Check rows' }));
    await waitFor(() =>
      expect(within(dialog).getByRole('status').textContent).toBe('2 rows ready.'),
    );
    expect(within(dialog).getByRole('button', { name: 'Queue 2 rows' })).toBeTruthy();
    // Another file chosen: the first is dropped in the engine, the check's counts cleared.
    await user.upload(within(dialog).getByLabelText('File'), new File(['c,d'], 'b.csv'));
    expect(ws.engine.argsOf('records.importCancel')).toEqual([{ importId: IMPORT_ID }]);
    await within(dialog).findByRole('table');
    expect(within(dialog).queryByRole('status')).toBeNull();
  });

  it('shows a queuing that failed as an alert, saying what stays queued', async () => {
    const user = userEvent.setup();
    const ws = await openWorkspace({
      overrides: {
        'records.importUpload': () => ({ uploadId: UPLOAD_ID, bytes: 4 }),
        'records.importOpen': () => FILE,
        'records.importCheck': () => progress({}),
      },
    });
    render(ws.wrap(createElement(ImportDialog)));
    await user.click(screen.getByRole('button', { name: 'Import' }));
    const dialog = screen.getByRole('dialog', { name: 'Import' });
    await user.upload(within(dialog).getByLabelText('File'), new File(['a,b'], 'a.csv'));
    await within(dialog).findByRole('table');
    await user.click(within(dialog).getByRole('button', { name: 'Check rows' }));
    const message =
      'The import stopped after 10 rows: disk I/O error. 8 rows were queued and stay in the Outbox.';
    act(() =>
      ws.engine.emit('records.importProgress', progress({ phase: 'failed', rows: 10, message })),
    );
    expect(within(dialog).getByRole('alert').textContent).toBe(message);
  });

  it('shows a refused file beside the file control, with the focus moved there', async () => {
    // A file the dialog's filter does not offer, chosen with "All files".
    const user = userEvent.setup({ applyAccept: false });
    const ws = await openWorkspace({
      overrides: {
        'records.importUpload': () => {
          throw new Error(
            'notes.pdf is not a CSV or XLSX file. Nothing was uploaded; save the sheet as .csv or .xlsx and choose it again.',
          );
        },
      },
    });
    render(ws.wrap(createElement(ImportDialog)));
    await user.click(screen.getByRole('button', { name: 'Import' }));
    const dialog = screen.getByRole('dialog', { name: 'Import' });
    await user.upload(within(dialog).getByLabelText('File'), new File(['%PDF'], 'notes.pdf'));
    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toMatch(/^notes\.pdf is not a CSV or XLSX file/);
    expect(document.activeElement).toBe(alert);
    expect(within(dialog).queryByRole('table')).toBeNull();
  });

  it('shows a refused check beside the Check button', async () => {
    const user = userEvent.setup();
    const ws = await openWorkspace({
      overrides: {
        'records.importUpload': () => ({ uploadId: UPLOAD_ID, bytes: 4 }),
        'records.importOpen': () => ({ ...FILE, columns: FILE.columns.slice(1) }),
        'records.importCheck': () => {
          throw new Error(
            'No column is mapped to Name, which matches rows to records. Nothing was checked; map the column that holds it.',
          );
        },
      },
    });
    render(ws.wrap(createElement(ImportDialog)));
    await user.click(screen.getByRole('button', { name: 'Import' }));
    const dialog = screen.getByRole('dialog', { name: 'Import' });
    await user.upload(within(dialog).getByLabelText('File'), new File(['a,b'], 'a.csv'));
    await within(dialog).findByRole('table');
    // No ID column: create is chosen; switching to update offers the match fields.
    expect(
      (within(dialog).getByRole('radio', { name: 'Create new records' }) as HTMLInputElement)
        .checked,
    ).toBe(true);
    await user.click(within(dialog).getByRole('radio', { name: /Update existing records/ }));
    await user.selectOptions(
      within(dialog).getByRole('combobox', { name: 'Match records by' }),
      'Name',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Check rows' }));
    expect(ws.engine.argsOf('records.importCheck')[0]).toMatchObject({
      mode: 'update',
      matchBy: 'name',
    });
    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toMatch(/^No column is mapped to Name/);
    expect(document.activeElement).toBe(alert);
  });
});
