// @vitest-environment happy-dom
/**
 * An import the app's end stopped half way, as the records view shows it at the next start: the
 * engine's words (which file, rows queued and held, none sent, rows not queued), Finish and
 * Discard beside them, the progress while either runs, the outcome in words with the focus on
 * what is left to press; a refusal beside the buttons, focused.
 */
import { createElement } from 'react';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { InterruptedImports } from '../../../../src/renderer/src/features/records/InterruptedImports';
import type {
  ImportInterrupted,
  ImportProgress,
} from '../../../../src/shared/ipc/areas/recordsImport';
import { useDomTestEnvironment } from '../support/dom';
import { MODULE_ID, openWorkspace, PORTAL_ID } from '../support/recordsWorkspace';

useDomTestEnvironment();

const IMPORT_ID = '0123456789abcdef';
const STOPPED_WORDS =
  'The import of assets.csv stopped before it ended (PortalDesk closed or the computer stopped): 120 rows of the 400 rows confirmed are queued and held, none sent. Finish queues the other 280 rows, skipping those queued; Discard takes back the 120 rows.';

const progress = (patch: Partial<ImportProgress>): ImportProgress => ({
  importId: IMPORT_ID,
  phase: 'interrupted',
  rows: 0,
  ready: 120,
  failing: 0,
  unchanged: 0,
  total: 400,
  message: STOPPED_WORDS,
  ...patch,
});

const STOPPED: ImportInterrupted = {
  importId: IMPORT_ID,
  portalId: PORTAL_ID,
  moduleId: MODULE_ID,
  fileName: 'assets.csv',
  canFinish: true,
  progress: progress({}),
};

describe('an import stopped half way, in the records view', () => {
  it('names what it holds and finishes it on Finish, with its progress and outcome', async () => {
    const user = userEvent.setup();
    const ws = await openWorkspace({
      overrides: {
        'records.importsInterrupted': () => [STOPPED],
        'records.importConfirm': () =>
          progress({ phase: 'queuing', rows: 0, ready: 120, message: null }),
      },
    });
    render(ws.wrap(createElement(InterruptedImports)));
    const region = await screen.findByRole('region', { name: 'Import of assets.csv' });
    expect(within(region).getByRole('status').textContent).toBe(STOPPED_WORDS);
    expect(ws.engine.argsOf('records.importsInterrupted')).toEqual([
      { portalId: PORTAL_ID, moduleId: MODULE_ID },
    ]);
    await user.click(within(region).getByRole('button', { name: 'Finish import' }));
    expect(ws.engine.argsOf('records.importConfirm')).toEqual([{ importId: IMPORT_ID }]);
    act(() =>
      ws.engine.emit(
        'records.importProgress',
        progress({ phase: 'queuing', rows: 200, ready: 200, message: null }),
      ),
    );
    expect(within(region).getByRole('progressbar', { name: 'Queuing rows' })).toBeTruthy();
    expect(within(region).getByRole('status').textContent).toBe(
      '200 rows read: 200 queued and held, 0 failing, 0 unchanged. None is sent until every row is queued.',
    );
    expect(within(region).queryByRole('button', { name: 'Finish import' })).toBeNull();
    act(() =>
      ws.engine.emit(
        'records.importProgress',
        progress({
          phase: 'queued',
          rows: 400,
          ready: 400,
          message: 'Queued 400 rows in the Outbox.',
        }),
      ),
    );
    expect(within(region).getByRole('status').textContent).toBe('Queued 400 rows in the Outbox.');
    await waitFor(() =>
      expect(document.activeElement).toBe(within(region).getByRole('button', { name: 'Dismiss' })),
    );
    await user.keyboard('{Enter}');
    expect(screen.queryByRole('region', { name: 'Import of assets.csv' })).toBeNull();
  });

  it('shows a refusal beside the buttons, focused, and offers only Discard without its file', async () => {
    const user = userEvent.setup();
    const refusal =
      'This import is taking back its queued rows. Nothing new was started; wait for it or cancel it.';
    const ws = await openWorkspace({
      overrides: {
        'records.importsInterrupted': () => [{ ...STOPPED, canFinish: false }],
        'records.importCancel': () => {
          throw Object.assign(new Error(refusal), { userFacing: true });
        },
      },
    });
    render(ws.wrap(createElement(InterruptedImports)));
    const region = await screen.findByRole('region', { name: 'Import of assets.csv' });
    expect(within(region).queryByRole('button', { name: 'Finish import' })).toBeNull();
    await user.click(within(region).getByRole('button', { name: 'Discard queued rows' }));
    const alert = await within(region).findByRole('alert');
    expect(alert.textContent).toContain('taking back its queued rows');
    expect(document.activeElement).toBe(alert);
  });
});
