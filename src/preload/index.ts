/**
 * The preload: named functions over the contract and nothing else. It imports only types from
 * the contract (the sandboxed preload stays tiny), and `satisfies Bridge` makes the compiler
 * check that every request is exposed under its name, with its types, and nothing more.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import type {
  Bridge,
  BridgeCall,
  CallChannel,
  EventChannel,
  EventName,
  EventPayload,
  RequestName,
} from '../shared/contract';

const CALL: CallChannel = 'portaldesk:call';
const EVENT: EventChannel = 'portaldesk:event';

function call<N extends RequestName>(name: N): BridgeCall<N> {
  return ((args?: unknown) => ipcRenderer.invoke(CALL, name, args)) as BridgeCall<N>;
}

function on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void) {
  const forward = (_event: IpcRendererEvent, name: string, payload: unknown): void => {
    if (name === event) listener(payload as EventPayload<E>);
  };
  ipcRenderer.on(EVENT, forward);
  return () => {
    ipcRenderer.removeListener(EVENT, forward);
  };
}

const bridge = {
  app: { info: call('app.info') },
  settings: { get: call('settings.get'), set: call('settings.set') },
  on,
} satisfies Bridge;

contextBridge.exposeInMainWorld('portaldesk', bridge);
