import { buildNamedCalls } from '../../../shared/ipc/api';
import type {
  Bridge,
  CallOutcome,
  EventName,
  EventPayload,
  RequestName,
} from '../../../shared/ipc/contract';
import {
  CALL_PATH_PREFIX,
  EVENTS_PATH,
  EVENTS_PROTOCOL,
  SECRET_PROTOCOL_PREFIX,
  type PushedEventMessage,
} from '../../../shared/ipc/webProtocol';
import type { ConnectionState, EngineLink } from './engineLink';

const MAX_RECONNECT_DELAY_MS = 10_000;

/** The contract over HTTP (calls) and a WebSocket (pushed events), for web mode. */
export function connectWebBridge(secret: string): EngineLink {
  const eventListeners = new Map<string, Set<(payload: unknown) => void>>();
  const connectionListeners = new Set<(state: ConnectionState) => void>();
  let state: ConnectionState = 'connecting';
  let reconnectDelay = 500;

  const setState = (next: ConnectionState): void => {
    if (next === state) return;
    state = next;
    for (const listener of connectionListeners) listener(state);
  };

  const openSocket = (): void => {
    const socket = new WebSocket(`ws://${window.location.host}${EVENTS_PATH}`, [
      EVENTS_PROTOCOL,
      `${SECRET_PROTOCOL_PREFIX}${secret}`,
    ]);
    socket.onopen = () => {
      reconnectDelay = 500;
      setState('connected');
    };
    socket.onmessage = (message: MessageEvent<string>) => {
      const { event, payload } = JSON.parse(message.data) as PushedEventMessage;
      for (const listener of eventListeners.get(event) ?? []) listener(payload);
    };
    socket.onclose = () => {
      setState('disconnected');
      setTimeout(openSocket, reconnectDelay);
      reconnectDelay = Math.min(reconnectDelay * 2, MAX_RECONNECT_DELAY_MS);
    };
  };
  openSocket();

  const invoke = async (name: RequestName, args: unknown): Promise<CallOutcome<unknown>> => {
    let response: Response;
    try {
      response = await fetch(`${CALL_PATH_PREFIX}${name}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${secret}`, 'Content-Type': 'application/json' },
        body: args === undefined ? '' : JSON.stringify(args),
      });
    } catch {
      setState('disconnected');
      return {
        ok: false,
        error: {
          code: 'failed',
          message:
            'Lost contact with the PortalDesk engine; the request may not have reached it. Is `npm run web` still running?',
        },
      };
    }
    return (await response.json()) as CallOutcome<unknown>;
  };

  const on = <E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void) => {
    const set = eventListeners.get(event) ?? new Set();
    const wrapped = listener as (payload: unknown) => void;
    set.add(wrapped);
    eventListeners.set(event, set);
    return () => {
      set.delete(wrapped);
    };
  };

  const bridge = {
    ...buildNamedCalls((name) => (args) => invoke(name, args)),
    on,
  } as unknown as Bridge;

  return {
    bridge,
    transport: 'web',
    connection: () => state,
    onConnectionChange: (listener) => {
      connectionListeners.add(listener);
      return () => connectionListeners.delete(listener);
    },
  };
}
