/**
 * The desktop app: Electron lifecycle, the window, and security wiring around the engine. Every
 * decision (which URL, which permission, which sender) is a pure function in ./security or
 * ./bridge; this file only connects them to Electron.
 */
import { app, BrowserWindow, dialog, ipcMain, protocol, session, shell } from 'electron';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openSignInPage } from './auth/signInPage';
import { contentSecurityPolicy } from './csp';
import { registerIpcTransport } from './bridge/ipcTransport';
import { loadStaticAsset, securityHeaders } from './bridge/staticAssets';
import { dataDirFlag, resolveDataDir } from './dataDir';
import { startEngine, type Engine } from './engine';
import { electronSqliteBinding } from './nativeBindingPath';
import { APP_ENTRY_URL, APP_SCHEME, isAppUrl } from './security/appOrigin';
import { mayOpenExternally } from './security/externalUrl';
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
      // A browser that cannot be started: the banner's "Copy the sign-in address" remains.
      if (mayOpenExternally(url, externalOrigins())) void openAccountsPage(url).catch(() => {});
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

/**
 * An accounts server's page in the OS browser through a private page in the data directory: the
 * address's state must not reach the opener's command line (auth/signInPage.ts).
 */
async function openAccountsPage(url: string): Promise<void> {
  if (signInPageDir === undefined) throw new Error('The data directory is not known yet.');
  const opened = await openSignInPage(url, {
    dir: signInPageDir,
    // openPath answers '' once the file's default application (the browser) took it.
    open: async (page) => (await shell.openPath(fileURLToPath(page))) === '',
  });
  if (!opened) throw new Error('No browser could be started for the sign-in page.');
}

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
      openExternal: async (url) => {
        if (!mayOpenExternally(url, externalOrigins())) {
          throw new Error(`Refused to open ${new URL(url).origin}: not an accounts server.`);
        }
        await openAccountsPage(url);
      },
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
