// @vitest-environment happy-dom
/**
 * The Backups view: a keychain that could not be read says so next to its portal, with what to
 * do, and "Read the keychain again" asks the engine once more; a verification running shows how
 * far it got beside a Cancel that stops it, and the row then says the file was kept.
 */
import { createElement } from 'react';
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ShellContext } from '../../../../src/renderer/src/app/ShellContext';
import { createShellStore } from '../../../../src/renderer/src/app/shellStore';
import { BackupsContext } from '../../../../src/renderer/src/features/backups/BackupsContext';
import { BackupsView } from '../../../../src/renderer/src/features/backups/BackupsView';
import { createBackupsStore } from '../../../../src/renderer/src/features/backups/backupsStore';
import type {
  BackupPortal,
  BackupsOverview,
  BackupView,
} from '../../../../src/shared/ipc/areas/backups';
import { useDomTestEnvironment } from '../support/dom';
import { fakeEngine, type FakeHandlers } from '../support/fakeEngine';

useDomTestEnvironment();

const PORTAL_ID = '1000000000033';

const portalOf = (extra: Partial<BackupPortal> = {}): BackupPortal => ({
  portalId: PORTAL_ID,
  portalName: 'Northwind',
  accountId: 'acc-1',
  available: true,
  accessCode: 'kept',
  keychainProblem: null,
  schedule: { frequency: 'daily', hour: 3, weekday: 0, keep: 7 },
  nextRun: '2026-11-28T03:00:00.000Z',
  scheduleProblem: null,
  ...extra,
});

const backupOf = (extra: Partial<BackupView> = {}): BackupView => ({
  id: '7',
  accountId: 'acc-1',
  portalId: PORTAL_ID,
  portalName: 'Northwind',
  exportId: '680',
  stage: 'ready',
  attachmentNeeded: false,
  reused: false,
  notice: null,
  requestedTime: '2026-11-27T09:00:00.000Z',
  completedTime: '2026-11-27T09:05:00.000Z',
  requestedBy: 'Ada',
  scheduled: false,
  bytes: 14_445_019,
  totalBytes: 14_445_019,
  bytesPerSecond: null,
  etaSeconds: null,
  verifying: null,
  resumed: false,
  sha256: 'ab'.repeat(32),
  file: '/data/backups/1000000000033/20261127T090500Z-680.zip',
  verification: null,
  onService: null,
  problem: null,
  failure: null,
  newBackupFrom: null,
  note: null,
  ...extra,
});

function setup(overview: BackupsOverview, handlers: FakeHandlers = {}) {
  const engine = fakeEngine({ 'backups.overview': () => overview, ...handlers });
  const backups = createBackupsStore(engine.api);
  const shell = createShellStore(engine.api, { connection: 'connected', online: true });
  shell.getState().select('backups');
  render(
    createElement(
      ShellContext.Provider,
      { value: shell },
      createElement(BackupsContext.Provider, { value: backups }, createElement(BackupsView)),
    ),
  );
  return { engine, backups, shell };
}

describe('a keychain that could not be read', () => {
  it('says a code may be kept and cannot be read now, and reads it again when asked', async () => {
    const user = userEvent.setup();
    const locked = portalOf({
      accessCode: 'unreadable',
      keychainProblem: 'the keychain is locked',
      scheduleProblem:
        'Scheduled backups read the access code from the keychain, and the keychain could not be read (the keychain is locked). Unlock it: a due backup runs at the next look, within a minute.',
    });
    const { engine } = setup(
      { folder: '/data/backups', portals: [locked], backups: [backupOf()] },
      { 'backups.readKeychain': () => portalOf() },
    );
    const portal = await screen.findByRole('region', { name: 'Northwind' });
    const words = within(portal).getByRole('status');
    expect(words.textContent).toContain(
      'The system keychain could not be read (the keychain is locked)',
    );
    expect(words.textContent).toContain('cannot tell whether an access code is kept');
    expect(portal.textContent).not.toContain('The access code is kept in the system keychain');
    // Nothing to forget while it cannot be read; the code prompt does not offer the kept one.
    expect(within(portal).queryByRole('button', { name: 'Forget the kept code' })).toBeNull();
    await user.click(within(portal).getByRole('button', { name: 'Verify' }));
    expect(within(portal).getByLabelText('Access code').getAttribute('placeholder')).toBe(
      'Access code',
    );

    await user.click(within(portal).getByRole('button', { name: 'Read the keychain again' }));
    expect(engine.argsOf('backups.readKeychain')).toEqual([{ portalId: PORTAL_ID }]);
    expect(within(portal).queryByRole('status')).toBeNull();
    expect(portal.textContent).toContain('The access code is kept in the system keychain');
    expect(within(portal).getByRole('button', { name: 'Forget the kept code' })).toBeTruthy();
  });
});

describe('a verification running', () => {
  it('shows how far it got, and Cancel stops it and says the file was kept', async () => {
    const user = userEvent.setup();
    const running = backupOf({ verifying: { bytes: 40 * 2 ** 20, totalBytes: 160 * 2 ** 20 } });
    const { engine } = setup(
      { folder: '/data/backups', portals: [portalOf()], backups: [running] },
      {
        'backups.cancelVerify': () =>
          backupOf({
            note: 'Verification cancelled. The file is kept unchanged, and its earlier verification (if any) stands; choose Verify to check it again any time.',
          }),
      },
    );
    const row = await screen.findByTestId('backup-7');
    const bar = within(row).getByRole('progressbar', {
      name: 'Verification of the backup of Northwind',
    });
    expect(bar.getAttribute('aria-valuenow')).toBe('25');
    expect(row.textContent).toContain('Verifying: 40 MB of 160 MB checked');

    await user.click(within(row).getByRole('button', { name: 'Cancel verify' }));
    expect(engine.argsOf('backups.cancelVerify')).toEqual([{ id: '7' }]);
    expect(within(row).queryByRole('progressbar')).toBeNull();
    // A cancel the user asked for is no problem: said as a neutral note, not in red.
    const note = within(row).getByText(/^Verification cancelled\. The file is kept unchanged/);
    expect(note.closest('.text-danger, .error, [role="alert"]')).toBeNull();
    expect(note.getAttribute('role')).toBe('status');
    expect(row.querySelector('.backup-problem')).toBeNull();
    // The row offers Verify again.
    expect(within(row).getByRole('button', { name: 'Verify' })).toBeTruthy();
  });
});

describe('a first verification cancelled', () => {
  it('reads "Needs the access code" plainly beside its note, not as a problem', async () => {
    setup({
      folder: '/data/backups',
      portals: [portalOf()],
      backups: [
        backupOf({
          stage: 'needs_code',
          note: 'Verification cancelled. The download is kept, not verified yet: choose Verify to check it.',
        }),
      ],
    });
    const row = await screen.findByTestId('backup-7');
    const stage = within(row).getByText('Needs the access code');
    expect(stage.className).toContain('is-plain');
  });

  it('reads it as a problem when no request of the user left it so', async () => {
    setup({
      folder: '/data/backups',
      portals: [portalOf()],
      backups: [backupOf({ stage: 'needs_code', note: null })],
    });
    const row = await screen.findByTestId('backup-7');
    expect(within(row).getByText('Needs the access code').className).toContain('is-danger');
  });
});

describe('a download running', () => {
  it('has a Cancel beside its progress that pauses it, keeping what arrived, and Download again resumes it', async () => {
    const user = userEvent.setup();
    const downloading = backupOf({
      stage: 'downloading',
      bytes: 6 * 2 ** 20,
      totalBytes: 24 * 2 ** 20,
      bytesPerSecond: 2 ** 20,
      etaSeconds: 18,
      sha256: null,
      file: null,
    });
    const paused = backupOf({
      ...downloading,
      stage: 'paused',
      bytesPerSecond: null,
      etaSeconds: null,
      note: 'Download paused; 6.0 MB of 24 MB kept. Download again to resume.',
    });
    const { engine } = setup(
      { folder: '/data/backups', portals: [portalOf()], backups: [downloading] },
      {
        'backups.cancelDownload': () => paused,
        'backups.download': () => backupOf({ ...downloading, stage: 'generating' }),
      },
    );
    const row = await screen.findByTestId('backup-7');
    expect(
      within(row).getByRole('progressbar', { name: 'Download of the backup of Northwind' }),
    ).toBeTruthy();
    // Nothing to delete while it downloads; the Cancel is the way to stop it.
    expect(within(row).queryByRole('button', { name: 'Delete' })).toBeNull();

    await user.click(within(row).getByRole('button', { name: 'Cancel download' }));
    expect(engine.argsOf('backups.cancelDownload')).toEqual([{ id: '7' }]);
    expect(within(row).queryByRole('progressbar')).toBeNull();
    expect(row.textContent).toContain('Download paused');
    const note = within(row).getByRole('status');
    expect(note.textContent).toBe(
      'Download paused; 6.0 MB of 24 MB kept. Download again to resume.',
    );
    expect(note.closest('.text-danger, .error, [role="alert"]')).toBeNull();
    // The part is kept until Download again resumes it, or Delete removes it.
    expect(within(row).getByRole('button', { name: 'Delete' })).toBeTruthy();

    await user.click(within(row).getByRole('button', { name: 'Download again' }));
    const more = row.nextElementSibling as HTMLElement;
    await user.click(within(more).getByRole('button', { name: 'Download' }));
    expect(engine.argsOf('backups.download')).toEqual([{ id: '7' }]);
  });
});

describe('reading a backup (compare, browse), cancelled', () => {
  /** A request left pending until `release` answers it. */
  function pending<T>() {
    let release = (_value: T) => undefined as void;
    const answer = new Promise<T>((resolve) => (release = resolve));
    return { answer, release };
  }

  it('stops a comparison with its Cancel and says so as a note, not as an error', async () => {
    const user = userEvent.setup();
    const compare = pending<{ cancelled: string }>();
    const { engine } = setup(
      { folder: '/data/backups', portals: [portalOf()], backups: [backupOf()] },
      {
        'backups.compare': () => compare.answer,
        'backups.cancelCompare': () => {
          compare.release({
            cancelled:
              'Comparison cancelled. Nothing was changed; choose Compare with mirror to compare again.',
          });
          return { cancelled: true };
        },
      },
    );
    const row = await screen.findByTestId('backup-7');
    await user.click(within(row).getByRole('button', { name: 'Compare with mirror' }));
    const more = row.nextElementSibling as HTMLElement;
    await user.click(within(more).getByRole('button', { name: 'Compare' }));
    expect(more.textContent).toContain('Comparing the backup with the mirror…');
    // The code was sent: the prompt gives way to the comparison's progress and its Cancel.
    expect(within(more).queryByLabelText('Access code')).toBeNull();

    await user.click(within(more).getByRole('button', { name: 'Cancel' }));
    expect(engine.argsOf('backups.cancelCompare')).toEqual([{ id: '7' }]);
    const note = await within(more).findByText(/^Comparison cancelled\./);
    expect(note.getAttribute('role')).toBe('status');
    expect(note.closest('.text-danger, .error, [role="alert"]')).toBeNull();
    expect(within(more).queryByRole('alert')).toBeNull();
    expect(within(more).queryByRole('button', { name: 'Cancel' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Differences from the mirror' })).toBeNull();
  });

  it('stops opening a backup for browsing with its Cancel, and stays in Backups', async () => {
    const user = userEvent.setup();
    const browse = pending<{ cancelled: string }>();
    const { engine, shell } = setup(
      { folder: '/data/backups', portals: [portalOf()], backups: [backupOf()] },
      {
        'backups.browse': () => browse.answer,
        'backups.closeBrowse': () => {
          browse.release({
            cancelled:
              'Browsing cancelled. Nothing of the backup was kept; choose Browse records to open it again.',
          });
          return { closed: true };
        },
      },
    );
    const row = await screen.findByTestId('backup-7');
    await user.click(within(row).getByRole('button', { name: 'Browse records' }));
    const more = row.nextElementSibling as HTMLElement;
    await user.click(within(more).getByRole('button', { name: 'Browse' }));
    // Nothing read yet (its code may still be asked of the keychain), then the records read.
    expect(more.textContent).toContain('Opening the backup for browsing…');
    act(() => engine.emit('backups.browseProgress', { id: '7', records: 1200 }));
    expect(more.textContent).toContain('Reading the backup for browsing… 1,200 records');

    await user.click(within(more).getByRole('button', { name: 'Cancel' }));
    expect(engine.argsOf('backups.closeBrowse')).toEqual([{ id: '7' }]);
    const note = await within(more).findByText(/^Browsing cancelled\./);
    expect(note.closest('.text-danger, .error, [role="alert"]')).toBeNull();
    expect(more.textContent).not.toMatch(/(Reading|Opening) the backup for browsing/);
    expect(shell.getState().section).toBe('backups');
  });
});

describe('a backup that stopped', () => {
  const NOT_A_BACKUP =
    "This file is not a backup PortalDesk can read: its entry entities.json declares 8,388,608 bytes from 8,401 in the file. The download was removed. Downloading it again would fetch the same file from the service: make a new backup instead, and if the new one is refused the same way, contact the service's support.";
  const stopped = (extra: Partial<BackupView>) =>
    backupOf({ stage: 'failed', file: null, sha256: null, bytes: null, ...extra });

  it('is offered for download again when its download failed on the way', async () => {
    setup({
      folder: '/data/backups',
      portals: [portalOf()],
      backups: [stopped({ failure: 'retry', problem: 'The download stopped 6 times (reset).' })],
    });
    const row = await screen.findByTestId('backup-7');
    expect(within(row).getByRole('button', { name: 'Try again' })).toBeTruthy();
    expect(within(row).queryByRole('button', { name: 'Back up again' })).toBeNull();
  });

  it('is not offered for download when it is not a backup, and says when a new one can be made', async () => {
    setup({
      folder: '/data/backups',
      portals: [portalOf()],
      backups: [
        stopped({
          failure: 'not_a_backup',
          problem: NOT_A_BACKUP,
          // Within the service's 24-hour reuse: a request now would get the same file back.
          newBackupFrom: new Date(Date.now() + 3_600_000).toISOString(),
        }),
      ],
    });
    const row = await screen.findByTestId('backup-7');
    for (const name of ['Try again', 'Download again', 'Download here', 'Back up again'])
      expect(within(row).queryByRole('button', { name }), name).toBeNull();
    expect(row.textContent).toMatch(
      /The service returns this same file until .+; back up again after that\./,
    );
    expect(within(row).getByRole('button', { name: 'Delete' })).toBeTruthy();
  });

  it('offers a new backup of its portal once the service makes one, with the code typed', async () => {
    const user = userEvent.setup();
    const failed = stopped({
      failure: 'not_a_backup',
      problem: NOT_A_BACKUP,
      attachmentNeeded: true,
    });
    const { engine } = setup(
      { folder: '/data/backups', portals: [portalOf()], backups: [failed] },
      {
        'backups.start': () => ({
          started: [backupOf({ id: '8', stage: 'scheduled', exportId: null, file: null })],
        }),
      },
    );
    const row = await screen.findByTestId('backup-7');
    expect(within(row).queryByRole('button', { name: 'Try again' })).toBeNull();
    await user.click(within(row).getByRole('button', { name: 'Back up again' }));
    const code = screen.getByLabelText('Access code');
    // The row's own prompt: no kept code stands in for the one a new backup is made with.
    expect(code.getAttribute('placeholder')).toBe('Access code');
    await user.type(code, 'correct horse battery');
    await user.click(within(code.closest('form')!).getByRole('button', { name: 'Back up' }));
    expect(engine.argsOf('backups.start')).toEqual([
      {
        portalIds: [PORTAL_ID],
        accessCode: 'correct horse battery',
        attachmentNeeded: true,
        keepCode: false,
      },
    ]);
    expect(await screen.findByTestId('backup-8')).toBeTruthy();
    expect(screen.queryByLabelText('Access code')).toBeNull();
  });

  it('offers a new backup, not another try, when the service no longer offers it', async () => {
    setup({
      folder: '/data/backups',
      portals: [portalOf()],
      backups: [
        stopped({
          failure: 'gone',
          problem: "The service no longer offers this backup's download (gone). Make a new backup.",
        }),
      ],
    });
    const row = await screen.findByTestId('backup-7');
    expect(within(row).queryByRole('button', { name: 'Try again' })).toBeNull();
    expect(within(row).getByRole('button', { name: 'Back up again' })).toBeTruthy();
  });
});

describe('a backup row by the keyboard', () => {
  it('gives the focus back to Verify or Delete when their prompt or confirmation closes', async () => {
    const user = userEvent.setup();
    setup({ folder: '/data/backups', portals: [portalOf()], backups: [backupOf()] });
    const portal = await screen.findByRole('region', { name: 'Northwind' });
    const verify = within(portal).getByRole('button', { name: 'Verify' });
    verify.focus();
    await user.keyboard('{Enter}');
    expect(document.activeElement).toBe(within(portal).getByLabelText('Access code'));
    within(portal).getByRole('button', { name: 'Cancel' }).focus();
    await user.keyboard('{Enter}');
    expect(within(portal).queryByLabelText('Access code')).toBeNull();
    // Not the page's body, where the next Tab would start from the top.
    expect(document.activeElement).toBe(verify);

    const remove = within(portal).getByRole('button', { name: 'Delete' });
    remove.focus();
    await user.keyboard('{Enter}');
    within(portal).getByRole('button', { name: 'Keep it' }).focus();
    await user.keyboard('{Enter}');
    expect(within(portal).queryByRole('group', { name: 'Confirm delete' })).toBeNull();
    expect(document.activeElement).toBe(remove);
  });
});
