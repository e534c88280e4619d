import type { Bridge } from '../../../shared/ipc/contract';

export type ConnectionState = 'connecting' | 'connected' | 'disconnected';

/** How this renderer reaches the engine: the bridge, and whether the link is up right now. */
export interface EngineLink {
  bridge: Bridge;
  transport: 'ipc' | 'web';
  connection(): ConnectionState;
  onConnectionChange(listener: (state: ConnectionState) => void): () => void;
}
