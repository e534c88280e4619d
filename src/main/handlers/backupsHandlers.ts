import type { Handlers } from '../bridge/dispatcher';
import { UserFacingError } from '../bridge/dispatcher';
import { BackupRefused, type BackupService } from '../backups/backupService';
import { userFacingFor } from './userFacing';

type BackupsRequest =
  | 'backups.overview'
  | 'backups.start'
  | 'backups.refreshHistory'
  | 'backups.download'
  | 'backups.cancelDownload'
  | 'backups.verify'
  | 'backups.cancelVerify'
  | 'backups.compare'
  | 'backups.cancelCompare'
  | 'backups.browse'
  | 'backups.closeBrowse'
  | 'backups.delete'
  | 'backups.setSchedule'
  | 'backups.readKeychain'
  | 'backups.forgetCode'
  | 'backups.showInFolder'
  | 'backups.downloadLink'
  | 'backups.startDrag';

/**
 * What only the desktop shell can do with a file (Electron's shell and webContents). Absent in
 * web mode, where the browser downloads the file instead (webServer.ts serves it).
 */
export interface FileShell {
  showInFolder(file: string): void;
  startDrag(file: string): void;
}

/** The service's refusals are written for the user: pass them on as they are. */
const userFacing = userFacingFor(BackupRefused);

/** A ready backup's file, by id: the renderer never names a path. */
function fileOf(backups: BackupService, id: string): string {
  const file = backups.fileOf(id);
  if (!file) {
    throw new UserFacingError(
      'This backup has no verified file on this computer (still downloading, deleted, or never downloaded).',
    );
  }
  return file;
}

export function backupsHandlers(
  backups: BackupService,
  shell: FileShell | undefined,
): Pick<Handlers, BackupsRequest> {
  const desktopOnly = (what: string) =>
    new UserFacingError(
      `${what} works in the desktop app. In a browser, use Download, or drag the backup's link to a folder.`,
    );
  return {
    'backups.overview': () => backups.overview(),
    'backups.start': userFacing(async (args) => ({ started: await backups.startBackups(args) })),
    'backups.refreshHistory': userFacing(({ portalId }) => backups.refreshHistory(portalId)),
    'backups.download': userFacing(({ id, accessCode }) => backups.download(id, accessCode)),
    'backups.cancelDownload': userFacing(({ id }) => backups.cancelDownload(id)),
    'backups.verify': userFacing(({ id, accessCode }) => backups.verify(id, accessCode)),
    'backups.cancelVerify': userFacing(({ id }) => backups.cancelVerify(id)),
    'backups.compare': userFacing(({ id, accessCode }) => backups.compare(id, accessCode)),
    'backups.cancelCompare': userFacing(async ({ id }) => ({
      cancelled: await backups.cancelCompare(id),
    })),
    'backups.browse': userFacing(({ id, accessCode }) => backups.browse(id, accessCode)),
    'backups.closeBrowse': ({ id }) => {
      backups.closeBrowse(id);
      return { closed: true as const };
    },
    'backups.delete': userFacing(async ({ id }) => {
      await backups.delete(id);
      return { deleted: true as const };
    }),
    'backups.setSchedule': userFacing(({ portalId, schedule }) =>
      backups.setSchedule(portalId, schedule),
    ),
    'backups.readKeychain': userFacing(({ portalId }) => backups.readKeychain(portalId)),
    'backups.forgetCode': userFacing(({ portalId }) => backups.forgetCode(portalId)),
    'backups.showInFolder': ({ id }) => {
      if (!shell) throw desktopOnly('Show in folder');
      shell.showInFolder(fileOf(backups, id));
      return { shown: true as const };
    },
    'backups.downloadLink': userFacing(({ id }) => backups.downloadLink(id)),
    'backups.startDrag': ({ id }) => {
      if (!shell) throw desktopOnly('Dragging a file out of the window');
      shell.startDrag(fileOf(backups, id));
      return { dragging: true as const };
    },
  };
}
