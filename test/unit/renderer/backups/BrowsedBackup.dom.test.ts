// @vitest-environment happy-dom
/**
 * A backup browsed in the records workspace: the banner says which backup and that it is
 * read-only; every read of records names the backup (so the engine reads its snapshot, never the
 * live mirror); nothing can be edited, fetched or remembered as recently viewed; "Back to the live
 * mirror" closes it.
 */
import { createElement } from 'react';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ShellContext } from '../../../../src/renderer/src/app/ShellContext';
import { createShellStore } from '../../../../src/renderer/src/app/shellStore';
import { ApiContext } from '../../../../src/renderer/src/bridge/ApiContext';
import { BackupsContext } from '../../../../src/renderer/src/features/backups/BackupsContext';
import { createBackupsStore } from '../../../../src/renderer/src/features/backups/backupsStore';
import {
  BrowsedBackupBanner,
  useRecordsSource,
} from '../../../../src/renderer/src/features/backups/BrowsedBackup';
import { useBackups } from '../../../../src/renderer/src/features/backups/BackupsContext';
import { RecordsContext } from '../../../../src/renderer/src/features/records/RecordsContext';
import { RecordsNav } from '../../../../src/renderer/src/features/records/RecordsNav';
import { RecordsView } from '../../../../src/renderer/src/features/records/RecordsView';
import { createRecordsStore } from '../../../../src/renderer/src/features/records/recordsStore';
import type { BackupSnapshot } from '../../../../src/shared/ipc/areas/backups';
import type { RecordDetail } from '../../../../src/shared/ipc/areas/records';
import { sampleRow } from '../records/sampleRow';
import { useDomTestEnvironment } from '../support/dom';
import { fakeEngine } from '../support/fakeEngine';
import { COLUMNS, MODULE_ID, PORTAL_ID } from '../support/recordsColumns';

useDomTestEnvironment();

const SNAPSHOT: BackupSnapshot = {
  backupId: '42',
  portalId: PORTAL_ID,
  portalName: 'Bluefin',
  madeAt: '2026-11-20T09:12:00.000Z',
  records: 1350,
  trashed: 4,
  skippedModules: ['retired_assets'],
  unreadable: 0,
};

const portal = (id: string, name: string) => ({
  id,
  accountId: '1',
  dc: 'us',
  name,
  orgName: null,
  timeZone: 'UTC',
  isDefault: id !== PORTAL_ID,
});

/** The records section as App assembles it: the sidebar's navigation and the view share a store. */
function RecordsSection() {
  const records = useRecordsSource();
  const browsing = useBackups((state) => state.browsing);
  return createElement(
    RecordsContext.Provider,
    { value: records },
    createElement(RecordsNav),
    browsing && createElement(BrowsedBackupBanner, { snapshot: browsing }),
    createElement(RecordsView),
  );
}

async function setup() {
  const row = sampleRow({ portalId: PORTAL_ID, moduleId: MODULE_ID, commentsMirrored: false });
  const detail: RecordDetail = {
    record: row,
    trashedTime: null,
    layout: null,
    timeline: [],
    comments: [],
    commentsSyncedAt: null,
    timeZone: 'UTC',
  };
  const engine = fakeEngine({
    // Another portal first and default: browsing still shows the backup's own.
    'records.portals': () => [portal('1000000000099', 'Other'), portal(PORTAL_ID, 'Bluefin')],
    'records.modules': () => [
      {
        id: MODULE_ID,
        apiName: 'assets',
        singularName: 'Asset',
        pluralName: 'Assets',
        isActive: true,
        builtIn: false,
        records: 1,
      },
    ],
    'records.columns': () => COLUMNS,
    'records.query': () => ({ rows: [row], total: 1 }),
    'records.get': () => detail,
    'records.savedFilters': () => [],
    'records.recent': () => [],
    'records.viewed': () => [],
    'records.trashed': () => [],
    'records.search': () => [
      {
        recordId: row.id,
        moduleId: MODULE_ID,
        module: 'Assets',
        source: 'name' as const,
        commentId: null,
        name: [{ text: row.name, highlighted: true }],
        snippet: [],
      },
    ],
    'backups.closeBrowse': () => ({ closed: true as const }),
  });
  const backups = createBackupsStore(engine.api);
  backups.setState({ browsing: SNAPSHOT });
  const shell = createShellStore(engine.api, { connection: 'connected', online: true });
  const live = createRecordsStore(engine.api);
  await live.getState().load();
  // Its recently viewed list is read after load resolves: let it land first.
  await new Promise((resolve) => setTimeout(resolve, 10));
  const liveReads = engine.calls.length;
  const view = render(
    createElement(
      ShellContext.Provider,
      { value: shell },
      createElement(
        ApiContext.Provider,
        { value: engine.api },
        createElement(
          BackupsContext.Provider,
          { value: backups },
          createElement(RecordsContext.Provider, { value: live }, createElement(RecordsSection)),
        ),
      ),
    ),
  );
  return { engine, backups, shell, view, row, liveReads };
}

describe('a browsed backup', () => {
  it('reads only the backup, read-only, and goes back to the live mirror', async () => {
    const user = userEvent.setup();
    const { engine, backups, row, liveReads } = await setup();
    const banner = screen.getByRole('region', { name: 'Browsing a backup' });
    expect(banner.textContent).toContain('Backup of Bluefin');
    expect(banner.textContent).toContain('1,350 records');
    expect(banner.textContent).toContain('Nothing here can be edited');
    expect(banner.textContent).toContain('retired_assets');
    await waitFor(() => expect(engine.argsOf('records.query').length).toBeGreaterThan(0));
    await screen.findByRole('heading', { name: /^Assets/ });
    // Only the backup's portal is offered while it is browsed.
    expect(screen.getByLabelText('Portal').querySelectorAll('option')).toHaveLength(1);

    // Open a record from search: no Edit button, and the comments say why they are not there.
    await user.type(screen.getByRole('combobox', { name: 'Search records' }), 'Lenovo');
    const results = await screen.findByRole('listbox', { name: 'Search results' });
    await user.click(within(results).getByRole('option'));
    const panel = await screen.findByTestId('record-detail');
    await within(panel).findByText(/Comments are not read from backups/);
    expect(within(panel).queryByRole('button', { name: 'Edit' })).toBeNull();
    expect(within(panel).queryByRole('button', { name: /Fetch now/ })).toBeNull();
    expect(engine.argsOf('records.get')).toEqual([
      { portalId: PORTAL_ID, recordId: row.id, snapshot: '42' },
    ]);

    for (const name of [
      'records.modules',
      'records.columns',
      'records.query',
      'records.search',
    ] as const) {
      const args = engine.calls
        .slice(liveReads)
        .filter((call) => call.name === name)
        .map((call) => call.args);
      expect(args.length, name).toBeGreaterThan(0);
      for (const call of args) expect(call, name).toMatchObject({ snapshot: '42' });
    }
    // The live workspace chose another portal; the backup's reads are of its own portal.
    expect(
      engine.calls.slice(liveReads).find((call) => call.name === 'records.modules')?.args,
    ).toEqual({ portalId: PORTAL_ID, snapshot: '42' });
    const browsedCalls = engine.calls.slice(liveReads).map((call) => call.name);
    expect(browsedCalls).not.toContain('records.recent');
    expect(browsedCalls).not.toContain('records.viewed');

    await user.click(screen.getByRole('button', { name: 'Back to the live mirror' }));
    expect(engine.argsOf('backups.closeBrowse')).toEqual([{ id: '42' }]);
    expect(backups.getState().browsing).toBeNull();
    // The live workspace is back: its portals, no banner.
    expect(screen.queryByRole('region', { name: 'Browsing a backup' })).toBeNull();
    expect(screen.getByLabelText('Portal').querySelectorAll('option')).toHaveLength(2);
  });
});
