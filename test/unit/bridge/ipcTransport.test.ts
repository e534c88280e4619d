import type { IpcMainInvokeEvent, WebContents } from 'electron';
import { describe, expect, it, vi } from 'vitest';
import { ContractDispatcher, type Handlers } from '../../../src/main/bridge/dispatcher';
import { EventHub } from '../../../src/main/bridge/eventHub';
import { judgeIpcSender } from '../../../src/main/bridge/ipcSender';
import { registerIpcTransport } from '../../../src/main/bridge/ipcTransport';
import { isAppUrl } from '../../../src/main/security/appOrigin';
import { CALL_CHANNEL, EVENT_CHANNEL } from '../../../src/shared/ipc/contract';
import { DEFAULT_SETTINGS } from '../../../src/shared/ipc/settings';

type InvokeHandler = (event: IpcMainInvokeEvent, ...args: unknown[]) => unknown;

function fakeContents(id: number, url = 'portaldesk://app/index.html') {
  const mainFrame = { url };
  return {
    id,
    mainFrame,
    send: vi.fn(),
    isDestroyed: () => false,
  };
}

function setUp() {
  let handler: InvokeHandler | undefined;
  const ipcMain = {
    handle: vi.fn((channel: string, fn: InvokeHandler) => {
      expect(channel).toBe(CALL_CHANNEL);
      handler = fn;
    }),
    removeHandler: vi.fn(),
  };
  const handlers = {
    'app.info': vi.fn(),
    'settings.get': vi.fn(() => ({ theme: 'light' as const })),
    'settings.set': vi.fn(),
  } as unknown as Handlers;
  const ours = fakeContents(1);
  const events = new EventHub();
  const dispose = registerIpcTransport({
    ipcMain,
    dispatcher: new ContractDispatcher(handlers, { warn: () => undefined, error: () => undefined }),
    events,
    windows: () => [ours as unknown as WebContents],
    isAppUrl: (url) => isAppUrl(url),
  });
  const invoke = (event: unknown, name: string, args?: unknown) =>
    handler!(event as IpcMainInvokeEvent, name, args);
  return { ipcMain, handlers, ours, events, dispose, invoke };
}

describe('IPC transport', () => {
  it('answers a call from the main frame of our own window', async () => {
    const { ours, invoke } = setUp();
    const outcome = await invoke({ sender: ours, senderFrame: ours.mainFrame }, 'settings.get');
    expect(outcome).toEqual({ ok: true, value: { theme: 'light' } });
  });

  it('refuses calls from another webContents, a sub-frame, a foreign page or a gone frame', async () => {
    const { ours, handlers, invoke } = setUp();
    const stranger = fakeContents(99);
    const navigatedAway = fakeContents(1, 'https://evil.example/');
    const cases = [
      { sender: stranger, senderFrame: stranger.mainFrame },
      { sender: ours, senderFrame: { url: 'portaldesk://app/index.html' } },
      { sender: navigatedAway, senderFrame: navigatedAway.mainFrame },
      { sender: ours, senderFrame: null },
    ];
    for (const event of cases) {
      const outcome = await invoke(event, 'settings.get');
      expect(outcome).toMatchObject({ ok: false, error: { code: 'forbidden_sender' } });
    }
    expect(handlers['settings.get']).not.toHaveBeenCalled();
  });

  it('forwards pushed events to our windows and stops when disposed', () => {
    const { ours, events, dispose, ipcMain } = setUp();
    const dark = { ...DEFAULT_SETTINGS, theme: 'dark' as const };
    events.emit('settings.changed', dark);
    expect(ours.send).toHaveBeenCalledWith(EVENT_CHANNEL, 'settings.changed', dark);
    dispose();
    events.emit('settings.changed', { ...dark, theme: 'light' });
    expect(ours.send).toHaveBeenCalledTimes(1);
    expect(ipcMain.removeHandler).toHaveBeenCalledWith(CALL_CHANNEL);
  });
});

describe('judgeIpcSender', () => {
  const app = (url: string) => isAppUrl(url);
  it('explains why a sender is refused', () => {
    expect(judgeIpcSender({ webContentsId: 3, frame: null }, [1], app).description).toContain(
      'not a PortalDesk window',
    );
    expect(
      judgeIpcSender(
        { webContentsId: 1, frame: { isMainFrame: false, url: 'portaldesk://app/x' } },
        [1],
        app,
      ),
    ).toEqual({ trusted: false, description: expect.stringContaining('sub-frame') });
    expect(
      judgeIpcSender(
        { webContentsId: 1, frame: { isMainFrame: true, url: 'portaldesk://app/index.html' } },
        [1],
        app,
      ).trusted,
    ).toBe(true);
  });
});
