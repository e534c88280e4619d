import type { IpcMain, IpcMainInvokeEvent, WebContents } from 'electron';
import { CALL_CHANNEL, EVENT_CHANNEL } from '../../shared/ipc/contract';
import type { ContractDispatcher } from './dispatcher';
import type { EventHub } from './eventHub';
import { judgeIpcSender, type IpcSenderFacts } from './ipcSender';

export interface IpcTransportOptions {
  ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>;
  dispatcher: ContractDispatcher;
  events: EventHub;
  /** The webContents of our own windows, at the time of the call. */
  windows: () => readonly WebContents[];
  isAppUrl: (url: string) => boolean;
}

function senderFacts(event: IpcMainInvokeEvent): IpcSenderFacts {
  const frame = event.senderFrame;
  return {
    webContentsId: event.sender.id,
    frame: frame ? { isMainFrame: frame === event.sender.mainFrame, url: frame.url } : null,
  };
}

/** Carries the contract over Electron IPC: one invoke channel for calls, one channel for events. */
export function registerIpcTransport(options: IpcTransportOptions): () => void {
  const { ipcMain, dispatcher, events, windows, isAppUrl } = options;

  ipcMain.handle(CALL_CHANNEL, (event, name: unknown, args: unknown) => {
    const ids = windows().map((contents) => contents.id);
    const verdict = judgeIpcSender(senderFacts(event), ids, isAppUrl);
    return dispatcher.dispatch(name, args, { transport: 'ipc', ...verdict });
  });

  const unsubscribe = events.subscribe((name, payload) => {
    for (const contents of windows()) {
      if (!contents.isDestroyed()) contents.send(EVENT_CHANNEL, name, payload);
    }
  });

  return () => {
    ipcMain.removeHandler(CALL_CHANNEL);
    unsubscribe();
  };
}
