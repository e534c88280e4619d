/**
 * The desktop app: Electron lifecycle, the window, and security wiring around the engine. Every
 * decision (which URL, which permission, which sender) is a pure function in ./security or
 * ./bridge; this file only connects them to Electron.
 */
import { app, BrowserWindow, dialog, ipcMain, protocol, session, shell } from 'electron';
import path from 'node:path';
import { contentSecurityPolicy } from './csp';
import { registerIpcTransport } from './bridge/ipcTransport';
import { loadStaticAsset, securityHeaders } from './bridge/staticAssets';
import { dataDirFlag, resolveDataDir } from './dataDir';
import { desktopOpeners } from './desktopOpeners';
import { startEngine, type Engine } from './engine';
import { electronSqliteBinding } from './nativeBindingPath';
import { APP_ENTRY_URL, APP_SCHEME, isAppUrl } from './security/appOrigin';
import { isAllowedNavigation } from './security/navigation';
import { decidePermission } from './security/permissions';
import { createMainWindow, dragIcon } from './window';

/** Set by `electron-vite dev` only; the packaged app always loads from the app scheme. */
const devServerUrl = app.isPackaged ? undefined : process.env.ELECTRON_RENDERER_URL;
const rendererDir = path.join(__dirname, '../renderer');

/** Origins the OS browser may be sent to: the accounts servers of known profiles, for sign-in. */
const externalOrigins = (): readonly string[] => engine?.accounts.accountsOrigins() ?? [];

protocol.registerSchemesAsPrivileged([
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
]);
app.enableSandbox();

let engine: Engine | undefined;
let mainWindow: BrowserWindow | undefined;

function hardenContents(): void {
  app.on('web-contents-created', (_event, contents) => {
    contents.on('will-frame-navigate', (event) => {
      if (!isAllowedNavigation(event.url, devServerUrl)) event.preventDefault();
    });
    contents.on('will-redirect', (event) => {
      if (!isAllowedNavigation(event.url, devServerUrl)) event.preventDefault();
    });
    contents.on('will-attach-webview', (event) => event.preventDefault());
    // No new windows ever; an allowed link (an accounts server's: the pending sign-in's "Open the
    // sign-in page again") goes to the OS browser instead, through the private page as the
    // sign-in's first opening does: its state must not reach a command line.
    contents.setWindowOpenHandler(({ url }) => {
      openers.windowOpen(url);
      return { action: 'deny' };
    });
  });

  session.defaultSession.setPermissionRequestHandler((_contents, permission, callback, details) => {
    callback(decidePermission(permission, details.requestingUrl, devServerUrl));
  });
  session.defaultSession.setPermissionCheckHandler((_contents, permission, requestingOrigin) =>
    decidePermission(permission, requestingOrigin, devServerUrl),
  );
}

function serveRenderer(): void {
  const csp = contentSecurityPolicy({ mode: 'desktop' });
  protocol.handle(APP_SCHEME, async (request) => {
    const asset = await loadStaticAsset(rendererDir, new URL(request.url).pathname);
    if (asset === null) return new Response('Not found', { status: 404 });
    return new Response(new Uint8Array(asset.body), {
      headers: { 'Content-Type': asset.contentType, ...securityHeaders(csp) },
    });
  });
}

function openWindow(): void {
  mainWindow = createMainWindow(devServerUrl ?? APP_ENTRY_URL);
  mainWindow.on('closed', () => (mainWindow = undefined));
}

/** Set once the data directory is known (start). */
let signInPageDir: string | undefined;

/** Accounts pages, through the private sign-in page (desktopOpeners.ts). */
const openers = desktopOpeners({
  dir: () => signInPageDir,
  origins: () => externalOrigins(),
  openPath: (file) => shell.openPath(file),
});

async function start(): Promise<void> {
  await app.whenReady();
  const { dir: dataDir } = resolveDataDir({
    flag: dataDirFlag(process.argv),
    env: process.env,
    defaultDir: app.getPath('userData'),
    cwd: process.cwd(),
  });
  signInPageDir = dataDir;
  try {
    engine = startEngine({
      dataDir,
      mode: 'desktop',
      version: app.getVersion(),
      // Sign-in uses the system browser (RFC 8252), never a web view, and only for allowed origins.
      openExternal: (url) => openers.openExternal(url),
      // Record links: app.openLink has checked them (http(s), held by the mirror) before this.
      openLink: (url) => shell.openExternal(url),
      // Backups: the engine picks the file by the backup's id and checks it is one of ours.
      fileShell: {
        showInFolder: (file) => shell.showItemInFolder(file),
        startDrag: (file) => mainWindow?.webContents.startDrag({ file, icon: dragIcon() }),
      },
      nativeBinding: electronSqliteBinding({
        isPackaged: app.isPackaged,
        appPath: app.getAppPath(),
        resourcesPath: process.resourcesPath,
      }),
    });
  } catch (error) {
    dialog.showErrorBox(
      'PortalDesk could not start',
      error instanceof Error ? error.message : String(error),
    );
    app.exit(1);
    return;
  }

  hardenContents();
  serveRenderer();
  registerIpcTransport({
    ipcMain,
    dispatcher: engine.dispatcher,
    events: engine.events,
    windows: () => BrowserWindow.getAllWindows().map((window) => window.webContents),
    isAppUrl: (url) => isAppUrl(url, devServerUrl),
  });
  openWindow();

  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) openWindow();
  });
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    if (!mainWindow) return;
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.focus();
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('will-quit', () => engine?.close());
  void start();
}
