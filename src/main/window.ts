import { BrowserWindow, nativeImage, nativeTheme, type NativeImage } from 'electron';
import path from 'node:path';
import icon from '../../resources/icon.png?asset';

/** The main window, with every renderer-facing hardening option set explicitly. */
export function createMainWindow(url: string): BrowserWindow {
  const window = new BrowserWindow({
    width: 1280,
    height: 820,
    minWidth: 800,
    minHeight: 520,
    show: false,
    title: 'PortalDesk',
    // Windows and macOS take the icon from the packaged executable; Linux needs it per window.
    ...(process.platform === 'linux' ? { icon } : {}),
    backgroundColor: nativeTheme.shouldUseDarkColors ? '#16181d' : '#f7f8fa',
    webPreferences: {
      preload: path.join(__dirname, '../preload/index.js'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
    },
  });
  window.once('ready-to-show', () => window.show());
  void window.loadURL(url);
  return window;
}

/** The picture under the cursor while a backup is dragged out (must not be empty on macOS). */
export function dragIcon(): NativeImage {
  return nativeImage.createFromPath(icon).resize({ width: 32, height: 32 });
}
